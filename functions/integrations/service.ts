/**
 * The integration calls of SPEC.md section 7 (issue 11): save one integration, the sync lists, sync, and
 * the signed file links of deliveries. Ownership is checked on every owner-scoped call (someone else's
 * project is NOT_FOUND), and the plan gate on the server: only email is open to plans without integrations.
 */
import {
  activeRequirement,
  type IntegrationName,
  type IntegrationSaveAnswer,
  type IntegrationSaveBody,
  isLoopbackHttp,
  type SyncAnswer,
  type SyncListAnswer,
  type SyncRequest,
  targetFields,
} from '#contracts/integrations';
import { AppError } from '#runtime/errors';
import { localTargetsAllowed } from '#runtime/outbound';
import { publish } from '#runtime/publish';
import { staleAfterSeconds } from '#runtime/retry';
import { nowMs } from '#runtime/time';
import { presignStored } from '../issues/downloads';
import { accessGuard, type ProjectAction, readProjectAs } from '../projects/access';
import { planOfProject, toProject } from '../projects/project';
import { teamOf } from '../teams/member';
import { listSyncTickets, syncTickets } from './delivery-state';
import {
  allowedByPlan,
  defaultIntegration,
  integrationAudit,
  integrationKey,
  integrationsAnswer,
  mergeInput,
  readOwnedIntegrations,
  saveIntegration,
  toIntegration,
} from './integration';
import { verifyFileLink } from './links';
import { integrations } from './manifest';

/** PATCH client/integration/{siteId}: saves the one integration of the body; answers all six, masked. */
export async function save(
  userId: string,
  projectId: string,
  body: IntegrationSaveBody,
  action: ProjectAction = 'integrations',
): Promise<IntegrationSaveAnswer> {
  const [input] = body;
  if (!input) throw new AppError('INVALID_PARAMETERS');
  const { project, caller, user, integrations } = await readOwnedIntegrations(projectId, userId, action);
  const plan = planOfProject(project);
  if (!allowedByPlan(input.name, plan)) throw new AppError('INTEGRATION_NOT_AVAILABLE');
  const next = mergeInput(integrations[input.name] ?? defaultIntegration(input.name), input);
  const data = next.data as Record<string, unknown>;
  // A loopback target passes the shared schema for the local stack's receivers and fakes; elsewhere it
  // is refused here, where the client still sees which field is wrong.
  for (const field of targetFields[next.name] as readonly string[]) {
    if (isLoopbackHttp(data[field]) && !localTargetsAllowed())
      throw new AppError('INVALID_PARAMETERS', { [`data.${field}`]: 'INVALID_PARAMETERS' });
  }
  if (next.active === 1) {
    const missing = activeRequirement(next.name, data);
    if (missing) throw new AppError(missing.code, { [`data.${missing.field}`]: missing.code });
  }
  const guard = accessGuard(caller, teamOf(project), action, projectId);
  await saveIntegration(projectId, guard, next, undefined, [
    integrationAudit(project, userId, user, next, 'saved'),
  ]);
  return { integrations: integrationsAnswer({ ...integrations, [input.name]: next }, plan) };
}

/** GET client/website/{id}/request?integration=<name>: the new (0) and failed (3) tickets (A21 ‖ A49). */
export async function syncList(
  userId: string,
  projectId: string,
  name: IntegrationName,
  action: ProjectAction = 'triage',
): Promise<SyncListAnswer> {
  // The list is read beside the access check; it is answered only once the caller may do `action`.
  const [, requests] = await Promise.all([
    readProjectAs(userId, projectId, action),
    listSyncTickets(projectId, name),
  ]);
  return { requests };
}

/**
 * PATCH client/integration/sync/{siteUuid}: the tickets still new or failed, or in progress for longer than
 * any delivery can take (`staleAfterSeconds` of the delivery queue, ≈ 3.5 h), go back in progress (one
 * transaction) and get one fan-out message each, limited to `type`. The integration must be active and
 * allowed, or the fan-out would leave them in progress.
 */
export async function sync(
  userId: string,
  projectId: string,
  body: SyncRequest,
  correlationId?: string,
  action: ProjectAction = 'triage',
): Promise<SyncAnswer> {
  const {
    project: meta,
    items: [item],
  } = await readProjectAs(userId, projectId, action, [integrationKey(projectId, body.type)]);
  const plan = planOfProject(toProject(meta));
  const active = item ? toIntegration(item).active === 1 : false;
  if (!allowedByPlan(body.type, plan) || !active) throw new AppError('INTEGRATION_NOT_AVAILABLE');
  const staleBefore = nowMs() - 1000 * staleAfterSeconds('delivery', integrations.queues.delivery);
  const synced = await syncTickets(projectId, body.type, body.tickets, staleBefore);
  // Those not enqueued stay in progress; publish throws, saying so rather than pretending they were sent.
  await publish(
    'fanout',
    synced.map((n) => ({
      id: String(n),
      message: {
        type: 'issue.created' as const,
        projectId,
        issueNumber: n,
        only: [body.type],
        ...(correlationId ? { correlationId } : {}),
      },
    })),
  );
  return { synced };
}

/** GET /api/files/{token}: a valid signed link answers a 5-minute presigned S3 URL. */
export async function fileLinkTarget(token: string): Promise<string> {
  const claim = await verifyFileLink(token);
  if (!claim) throw new AppError('NOT_FOUND');
  return presignStored(claim.p, claim.k, claim.n, false);
}
