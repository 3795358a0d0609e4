/**
 * What a domain declares (issue 10, docs/decisions.md "Manifests"): its API functions with their routes,
 * its queues with their consumers, and what each function needs from AWS. CDK (lib/stacks), the local
 * stack (lib/local), every function's environment and the command check of the test suites all loop
 * over the manifests (functions/manifests.ts), so adding a route, a consumer or a grant is one edit in
 * one domain's manifest. Manifests import contracts (schemas, types) only, never handler code: CDK and the
 * handlers load them, and nothing below the roof imports the roof (DESIGN.md section 9).
 */
import type * as z from 'zod';
import type { RouteDecl } from './routes';

/** Queues of the async path; each is declared by exactly one domain manifest (a unit test checks). */
export const queueNames = ['fanout', 'delivery', 'tracker', 'similar', 'privacy'] as const;
export type QueueName = (typeof queueNames)[number];

/**
 * Key prefixes of the uploads bucket: unconfirmed uploads, the objects of stored issues, and the CSV exports
 * (issue 23; short-lived downloads, removed by a lifecycle rule a day later).
 */
export const bucketPrefixes = { pending: 'pending/', stored: 'p/', exports: 'x/' } as const;
export type BucketPrefix = (typeof bucketPrefixes)[keyof typeof bucketPrefixes];

/**
 * What one function may do in AWS. CDK grants exactly this (lib/stacks/grants.ts), the environment carries
 * exactly the names it needs, and the suites fail when a handler sends a command it does not cover.
 */
export interface Needs {
  /** Item reads (GetItem, BatchGetItem, Query) or also writes, on the table and its indexes. Never Scan. */
  table?: 'read' | 'readwrite';
  /** Object actions by key prefix of the uploads bucket. `read` covers HeadObject and presigned GETs. */
  objects?: {
    read?: BucketPrefix[];
    /** PutObject, CopyObject's target, and presigned POSTs. */
    write?: BucketPrefix[];
    delete?: BucketPrefix[];
    /** ListObjectsV2 under the prefix (deleting a prefix lists it first). */
    list?: BucketPrefix[];
  };
  /** Queues it sends messages to. */
  sendTo?: QueueName[];
  /**
   * The consumer of this queue delays the retry of a failed message (ChangeMessageVisibility on the
   * message it received, which the event source mapping already grants; QueueDecl.retryDelaysSeconds).
   * It gets the queue's URL.
   */
  delaysRetriesOf?: QueueName;
  /** Sends mail through SES. */
  mail?: boolean;
  /** Reads the secrets parameter (SSM) at run time. */
  secrets?: boolean;
  /** The health probe: DescribeTable, HeadBucket and GetQueueAttributes, and nothing else. */
  probe?: boolean;
  /** Its bundle carries the built widget loader (dist/widget/loader.js). */
  widget?: boolean;
  /** Lambda timeout; 10 s for API functions unless declared. */
  timeoutSeconds?: number;
  memoryMb?: number;
}

/**
 * An API function: the resource it is (`functions/handlers/<resource>.ts`), what it needs, and its routes.
 * The handler passes this declaration to the pipeline (`resourceHandler(declaration, operations)`,
 * functions/runtime/http.ts), whose type checks that `operations` has an operation for each route's `op`
 * that accepts what the route's params, query and body schemas produce. The manifest names no handler.
 */
export interface ApiDecl<
  R extends string = string,
  Routes extends readonly RouteDecl[] = readonly RouteDecl[],
> {
  resource: R;
  needs: Needs;
  routes: Routes;
}

/** The `{name}`s of a path, as a union. */
type PathParamName<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParamName<Rest>
  : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type ParamKeys<Route> = Route extends { params: z.ZodObject<infer Shape> } ? keyof Shape : never;
/**
 * Nothing for a route whose `params` keys are exactly its path's `{name}`s (none for a path without any);
 * otherwise a `params` no schema can be, so tsc names the route and says what is wrong.
 */
type ParamsMatchPath<Route> = Route extends { path: infer P extends string }
  ? Same<ParamKeys<Route>, PathParamName<P>> extends true
    ? unknown
    : { params: `params must be a z.object with exactly the {names} of ${P}` }
  : unknown;

/** Nothing for a public route or a session route that declares `access`; otherwise an `access` nothing can be. */
type AccessOnSession<Route> = Route extends { session: true }
  ? Route extends { access: object }
    ? unknown
    : { access: 'a session route must declare access (docs/data-model.md 4.12)' }
  : unknown;

/**
 * Declares an API function, keeping the routes as written (each `op`, path and schema with its own type),
 * which the pipeline's type check and the dashboard's typed client (web/src/api/endpoints.ts) read. Each
 * route's `params` must name exactly its path's `{name}`s (checked here and by a unit test over the table).
 */
export function apiFunction<const R extends string, const Routes extends readonly RouteDecl[]>(decl: {
  resource: R;
  needs: Needs;
  routes: Routes & { [I in keyof Routes]: ParamsMatchPath<Routes[I]> & AccessOnSession<Routes[I]> };
}): ApiDecl<R, Routes> {
  return decl;
}

/** A queue with its dead-letter queue and its consumer, `functions/consumers/<queue>.ts`. */
export interface QueueDecl {
  /** At least 6x the consumer's timeout (AWS's advice for SQS event sources). */
  visibilityTimeoutSeconds: number;
  /** Receives before a message goes to the dead-letter queue. */
  maxReceiveCount: number;
  /**
   * Backoff: after the Nth failed receive, the message comes back after the Nth delay (the last one for
   * any later receive) rather than after the visibility timeout. Needs `delaysRetriesOf` on the consumer.
   * Without it, failed messages come back after the visibility timeout.
   */
  retryDelaysSeconds?: readonly number[];
  batchSize: number;
  /** Concurrent consumer invocations at most (the event source's maximum concurrency, 2 or more). */
  maxConcurrency: number;
  consumer: { needs: Needs; timeoutSeconds: number };
  /**
   * A consumer of the dead-letter queue, `functions/consumers/<queue>-dlq.ts` (function `dlq:<queue>`): it
   * settles what reached the DLQ (the delivery's marks the issue failed), so nothing waits there for an
   * operator. Without it, dead letters wait for an operator (docs/operations.md).
   */
  deadLetter?: {
    /** The DLQ's own visibility timeout: a failed dead letter comes back after it (6x the timeout). */
    visibilityTimeoutSeconds: number;
    batchSize: number;
    maxConcurrency: number;
    consumer: { needs: Needs; timeoutSeconds: number };
  };
}

/**
 * A function run on a schedule (an EventBridge rule in AWS; locally a timer of the local stack and the ops
 * command), `functions/schedules/<name>.ts` exporting `handler`.
 */
export interface ScheduleDecl {
  /** An EventBridge schedule expression, `cron(…)` or `rate(…)`. */
  expression: string;
  /** How often the local stack runs it while `npm start` is up. */
  localEveryMs: number;
  needs: Needs;
  timeoutSeconds: number;
}

export interface DomainManifest {
  domain: string;
  /** API functions, each naming its resource. */
  api?: readonly ApiDecl[];
  queues?: Partial<Record<QueueName, QueueDecl>>;
  /** Scheduled functions by name. */
  schedules?: Record<string, ScheduleDecl>;
}

/** The environment name of a queue's URL: FANOUT_QUEUE_URL, DELIVERY_QUEUE_URL. */
export const queueUrlVariable = (queue: QueueName) => `${queue.toUpperCase()}_QUEUE_URL` as const;

/**
 * The environment variables a function with these needs gets, beyond those every function gets. One list,
 * used by CDK and checked by functions/runtime/config.ts's accessors.
 */
export function variablesFor(needs: Needs): string[] {
  const names: string[] = [];
  if (needs.table || needs.probe) names.push('TABLE_NAME');
  if (needs.objects || needs.probe) names.push('UPLOADS_BUCKET');
  const queues = needs.probe
    ? [...queueNames]
    : [...new Set([...(needs.sendTo ?? []), ...(needs.delaysRetriesOf ? [needs.delaysRetriesOf] : [])])];
  for (const q of queues) names.push(queueUrlVariable(q));
  if (needs.mail) names.push('MAIL_FROM');
  if (needs.secrets) names.push('SECRETS_PARAMETER');
  if (needs.widget) names.push('WIDGET_DIR');
  return names;
}
