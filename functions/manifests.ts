/**
 * Every domain's manifest (functions/contracts/manifest.ts), and what is derived from them: the route table,
 * the resource functions and the queues. CDK, the local stack and the tests read these, never a list of
 * their own.
 */

import type { ApiFunction, Needs, QueueDecl, QueueName, ScheduleDecl } from '#contracts/manifest';
import { accounts } from './accounts/manifest';
import { billing } from './billing/manifest';
import { integrations } from './integrations/manifest';
import { issues } from './issues/manifest';
import { platform } from './platform/manifest';
import { projects } from './projects/manifest';

export const manifests = [platform, accounts, projects, issues, integrations, billing] as const;

type ApiOf<M> = M extends { api: infer A } ? keyof A : never;
/** A resource function: functions/handlers/<name>.ts, serving its manifest's routes. */
export type ResourceName = ApiOf<(typeof manifests)[number]> & string;

type ApiOfEach<M> = M extends { api: infer A } ? A : never;
type DeclarationOf<R extends ResourceName> =
  ApiOfEach<(typeof manifests)[number]> extends infer A
    ? A extends { [K in R]: infer F }
      ? F
      : never
    : never;

/**
 * A resource's handler `operations` and its routes as its manifest declared them (types only): the typed
 * dashboard client (web/src/api/endpoints.ts) reads each call's request and answer types from here.
 */
export type OperationsOf<R extends ResourceName> =
  DeclarationOf<R> extends ApiFunction<infer Ops> ? Ops : never;
export type DeclaredRoutesOf<R extends ResourceName> =
  DeclarationOf<R> extends ApiFunction<unknown, infer Routes> ? Routes : never;

export const apiFunctions = Object.fromEntries(
  manifests.flatMap((m) => Object.entries('api' in m ? m.api : {})),
) as Record<ResourceName, ApiFunction>;

export const resources = Object.keys(apiFunctions) as ResourceName[];

export const queueDecls = Object.fromEntries(
  manifests.flatMap((m) => Object.entries('queues' in m ? m.queues : {})),
) as Record<QueueName, QueueDecl>;

/** Scheduled functions by name (functions/schedules/<name>.ts). */
export const scheduleDecls: Record<string, ScheduleDecl> = Object.fromEntries(
  manifests.flatMap((m) => Object.entries('schedules' in m ? m.schedules : {})),
);

/**
 * What each function of the deployment needs: `api:<resource>`, `consumer:<queue>`, `dlq:<queue>` (a queue's
 * dead-letter consumer), `schedule:<name>`.
 */
export function functionNeeds(): Map<string, Needs> {
  const out = new Map<string, Needs>();
  for (const [name, fn] of Object.entries(apiFunctions)) out.set(`api:${name}`, fn.needs);
  for (const [name, q] of Object.entries(queueDecls)) {
    out.set(`consumer:${name}`, q.consumer.needs);
    if (q.deadLetter) out.set(`dlq:${name}`, q.deadLetter.consumer.needs);
  }
  for (const [name, s] of Object.entries(scheduleDecls)) out.set(`schedule:${name}`, s.needs);
  return out;
}
