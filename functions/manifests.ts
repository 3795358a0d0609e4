/**
 * The roof (DESIGN.md section 9): every domain's manifest (functions/contracts/manifest.ts), and what is
 * derived from them: the resource functions, the queues and the schedules. The route table is gathered
 * next to this file (functions/routes.ts). CDK, the local stack and the tests read these, never a list of
 * their own; nothing in functions/ below the roof imports them.
 */

import type { ApiDecl, Needs, QueueDecl, QueueName, ScheduleDecl } from '#contracts/manifest';
import { accounts } from './accounts/manifest';
import { billing } from './billing/manifest';
import { integrations } from './integrations/manifest';
import { issues } from './issues/manifest';
import { devTools } from './platform/dev-manifest';
import { platform } from './platform/manifest';
import { projects } from './projects/manifest';
import { teams } from './teams/manifest';

export const manifests = [
  platform,
  devTools,
  accounts,
  teams,
  projects,
  issues,
  integrations,
  billing,
] as const;

type ApiOf<M> = M extends { api: readonly (infer D)[] } ? D : never;
/** Every API function's declaration, each with its routes as written (types only). */
export type ApiDeclaration = ApiOf<(typeof manifests)[number]>;
/** A resource function: functions/handlers/<name>.ts, serving its declaration's routes. */
export type ResourceName = ApiDeclaration['resource'];

export const apiFunctions = Object.fromEntries(
  manifests.flatMap((m) => ('api' in m ? m.api : []).map((decl: ApiDecl) => [decl.resource, decl])),
) as Record<ResourceName, ApiDecl<ResourceName>>;

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
