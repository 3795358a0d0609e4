/**
 * Shapes of the stateful resources, shared by the CDK stacks and the local stack so that both create the
 * same table and bucket rules. Names here are logical; in AWS, CloudFormation names them. Queues and
 * functions are declared by the domains' manifests (functions/manifests.ts).
 */
import { bucketPrefixes, type QueueName } from '#contracts/manifest';

export type { QueueName };

/** The single table (DESIGN.md section 5, docs/data-model.md). */
export const table = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Expiry in epoch seconds for sessions, codes and single-use tokens. */
  ttlAttribute: 'ttl',
  globalIndexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const;

/** The consumer of a queue (declared in its domain's manifest) is functions/consumers/<queue>.ts. */
export const consumerEntry = (queue: QueueName) => `functions/consumers/${queue}.ts`;
/** The dead-letter consumer of a queue that declares one (`deadLetter`) is functions/consumers/<queue>-dlq.ts. */
export const deadLetterEntry = (queue: QueueName) => `functions/consumers/${queue}-dlq.ts`;
/** A scheduled function (declared in its domain's manifest) is functions/schedules/<name>.ts. */
export const scheduleEntry = (name: string) => `functions/schedules/${name}.ts`;
/** Resource functions live in functions/handlers/<resource>.ts and export `handler`. */
export const handlerEntry = (resource: string) => `functions/handlers/${resource}.ts`;

/** The uploads bucket: browsers upload with presigned POSTs, so it answers CORS from anywhere. */
export const uploads = {
  cors: {
    allowedMethods: ['POST', 'GET', 'HEAD'] as const,
    allowedOrigins: ['*'],
    allowedHeaders: ['*'],
    maxAgeSeconds: 3000,
  },
  /** Uploads never confirmed by an issue are removed after a day. */
  pendingPrefix: bucketPrefixes.pending,
  pendingExpiryDays: 1,
  /** CSV exports (functions/issues/export-csv.ts) are fetched right away through a short-lived link. */
  exportsPrefix: bucketPrefixes.exports,
  exportsExpiryDays: 1,
  abortIncompleteMultipartDays: 1,
} as const;

/**
 * Where a function that declares `widget` finds the built loader (functions/projects/loader.ts reads it
 * from WIDGET_DIR): its Lambda bundle carries dist/widget/loader.js in `widget/`.
 */
export const widgetDirInLambda = '/var/task/widget';
