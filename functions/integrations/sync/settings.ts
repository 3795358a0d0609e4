/**
 * The settings calls of an integration's inbound hook (issue 24; `…/integration/{vendor}/hook/{siteId}`),
 * for a member allowed the project's integrations (projects/access.ts; another client's project is
 * NOT_FOUND): show the inbound URL (never the secret), reveal it (making the hook on first use),
 * regenerate the secret (the old one stops at once; a registration made with it is forgotten), and
 * register the hook through the vendor's API where the token allows it (GitLab; Jira's admin step is the
 * screen's). Plan-gated like the integration itself.
 */
import { hookOf } from '#contracts/integration-catalogue';
import type { HookAnswer, TrackerVendor } from '#contracts/sync';
import { getConfig } from '#runtime/config';
import { AppError } from '#runtime/errors';
import type { Logger } from '#runtime/log';
import { OutboundRefused } from '#runtime/outbound';
import { readProjectAs } from '../../projects/access';
import { planOfProject, toProject } from '../../projects/project';
import {
  allowedByPlan,
  defaultIntegration,
  type IntegrationRecord,
  integrationKey,
  toIntegration,
} from '../integration';
import { authorisationErrorCode } from '../vendor-auth';
import { isVendorError } from '../vendors/http';
import { adapterOf } from './adapters';
import { trackerContext } from './context';
import {
  ensureHook,
  type HookRecord,
  hookOfKey,
  hookOfPointer,
  markRegistered,
  regenerateSecret,
} from './hook';
import { deleteAtVendor } from './registration';

/** The inbound URL the tracker calls (DESIGN section 8: exactly this path). */
export const hookUrl = (hook: Pick<HookRecord, 'vendor' | 'hookId'>) =>
  `${getConfig().APP_ORIGIN}/api/hooks/${hook.vendor}/${hook.hookId}`;

const answer = (vendor: TrackerVendor, hook: HookRecord | null, withSecret: boolean): HookAnswer => ({
  vendor,
  url: hook ? hookUrl(hook) : null,
  ...(hook && withSecret ? { secret: hook.secret } : {}),
  registered: hook?.registered ?? null,
});

/** The access check (integrations), the plan gate, the hook pointer and the integration in one batch. */
async function owned<V extends TrackerVendor>(userId: string, projectId: string, vendor: V) {
  const {
    project,
    items: [pointer, item],
  } = await readProjectAs(userId, projectId, 'integrations', [
    hookOfKey(projectId, vendor),
    integrationKey(projectId, vendor),
  ]);
  if (!allowedByPlan(vendor, planOfProject(toProject(project))))
    throw new AppError('INTEGRATION_NOT_AVAILABLE');
  const integration = (item ? toIntegration(item) : defaultIntegration(vendor)) as IntegrationRecord<V>;
  return { pointer, integration };
}

export async function showHook(
  userId: string,
  projectId: string,
  vendor: TrackerVendor,
): Promise<HookAnswer> {
  const { pointer } = await owned(userId, projectId, vendor);
  return answer(vendor, await hookOfPointer(pointer), false);
}

export async function revealHook(
  userId: string,
  projectId: string,
  vendor: TrackerVendor,
): Promise<HookAnswer> {
  await owned(userId, projectId, vendor);
  return answer(vendor, await ensureHook(projectId, vendor), true);
}

/**
 * A new secret for a hook whose secret Snag chose (the catalogue's `hook.secret`: ClickUp's is the
 * vendor's and Trello signs with the client's app secret, so there is nothing of Snag's to renew). A hook
 * registered through the vendor's API is registered again with the new secret and the old registration
 * deleted there (GitHub, which refuses a second hook at the same URL, the other way round), so the sync
 * goes on without a second press; where the vendor offers no registration (Jira: the admin's step) or
 * the new registration fails, the registration is forgotten and the panel offers Register again.
 */
export async function regenerateHook(
  userId: string,
  projectId: string,
  vendor: TrackerVendor,
  log: Logger,
): Promise<HookAnswer> {
  const { integration } = await owned(userId, projectId, vendor);
  if (hookOf(vendor).secret !== 'snag') throw new AppError('HOOK_SECRET_NOT_SNAGS');
  const old = await ensureHook(projectId, vendor);
  const fresh = await regenerateSecret(old);
  const adapter = adapterOf(vendor);
  if (!old.registered || !adapter.register || !adapter.unregister || !adapter.ready(integration))
    return answer(vendor, fresh, true);
  const attempt = async () => {
    try {
      return await registerAt(integration, fresh);
    } catch (err) {
      log.warn('registering again with the new secret failed', {
        vendor,
        reason: isVendorError(err) ? err.reason : String(err),
      });
      return null;
    }
  };
  const now = await attempt();
  const deleted = await deleteAtVendor(integration, vendor, old.registered.id, log);
  // GitHub refuses a second hook at the same URL for the same events ("Hook already exists"): with the
  // old one deleted, the new one can be made.
  const again = !now && deleted ? await attempt() : null;
  return answer(vendor, now ?? again ?? fresh, true);
}

/** Registers the hook through the vendor's API with its current secret and records it. */
async function registerAt<V extends TrackerVendor>(
  integration: IntegrationRecord<V>,
  hook: HookRecord,
): Promise<HookRecord> {
  const adapter = adapterOf(integration.name as V);
  if (!adapter.register) throw new AppError('HOOK_NOT_REGISTRABLE');
  const made = await adapter.register(trackerContext(integration), {
    url: hookUrl(hook),
    secret: hook.secret,
  });
  const { id, secret } = typeof made === 'string' ? { id: made, secret: undefined } : made;
  return markRegistered(hook, id, secret);
}

/**
 * Registers the hook through the vendor's API. Registering again (the panel after a failed renewal, a
 * vendor-chosen secret renewed by a new registration) deletes the earlier registration at the vendor.
 */
export async function registerHook(
  userId: string,
  projectId: string,
  vendor: TrackerVendor,
  log: Logger,
): Promise<HookAnswer> {
  const { integration } = await owned(userId, projectId, vendor);
  const adapter = adapterOf(vendor);
  if (!adapter.register) throw new AppError('HOOK_NOT_REGISTRABLE');
  // The token and the chosen project are what the registration needs (the projects call set them).
  if (!adapter.ready(integration)) throw new AppError('INVALID_PARAMETERS');
  const hook = await ensureHook(projectId, vendor);
  try {
    const now = await registerAt(integration, hook);
    if (hook.registered && hook.registered.id !== now.registered?.id)
      await deleteAtVendor(integration, vendor, hook.registered.id, log);
    return answer(vendor, now, false);
  } catch (err) {
    if (err instanceof OutboundRefused) throw new AppError('AUTHORIZATION_FAILED', undefined, { cause: err });
    if (!isVendorError(err)) throw err;
    log.warn('hook registration failed', { vendor, reason: err.reason, ...err.details });
    throw new AppError(authorisationErrorCode(err), undefined, { cause: err });
  }
}
