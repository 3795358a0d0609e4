/**
 * A tracker hook registered through the vendor's API (sync/settings.ts `registerHook`) lives at the vendor
 * until someone deletes it there. Snag deletes it when it is replaced (a new secret, a second
 * registration) and when the integration is removed (vendor-auth.ts `resetVendor`), with the integration's
 * token while it is still stored: a forgotten one would keep posting deliveries Snag refuses, and the
 * vendor may count those failures against the client (Azure puts a subscription on probation).
 */
import { type TrackerVendor, trackerVendors } from '#contracts/sync';
import { getItems } from '#runtime/db';
import type { Logger } from '#runtime/log';
import type { IntegrationRecord } from '../integration';
import { isVendorError } from '../vendors/http';
import { adapterOf } from './adapters';
import { trackerContext } from './context';
import { forgetRegistration, type HookRecord, hookOfKey, hookOfPointer } from './hook';

/**
 * Deletes the registration `registeredId` at the vendor; true when it is gone there (a 404 or 410, or
 * Linear's NOT_FOUND, counts: someone deleted it by hand). False, logged, when the vendor could not be asked (no token, no adapter
 * call, an outage): the vendor keeps a hook whose deliveries Snag refuses, as before this existed.
 */
export async function deleteAtVendor<V extends TrackerVendor>(
  integration: IntegrationRecord<V>,
  vendor: V,
  registeredId: string,
  log: Logger,
): Promise<boolean> {
  const adapter = adapterOf(vendor);
  if (!adapter.unregister || !adapter.ready(integration)) {
    log.warn('a registered hook was left at the vendor', { vendor, registeredId, why: 'cannot delete' });
    return false;
  }
  try {
    await adapter.unregister(trackerContext(integration), registeredId);
    return true;
  } catch (err) {
    const { status, code } = isVendorError(err) ? err.details : {};
    // Linear answers a GraphQL error for an id it no longer knows, mapped to NOT_FOUND (vendors/linear.ts).
    if (status === 404 || status === 410 || code === 'NOT_FOUND') return true;
    log.warn('a registered hook was left at the vendor', {
      vendor,
      registeredId,
      why: isVendorError(err) ? err.reason : String(err),
    });
    return false;
  }
}

/** Removing a tracker integration: its registered hook is deleted at the vendor and forgotten. */
export async function dropRegistration(
  projectId: string,
  vendor: string,
  integration: IntegrationRecord,
  log: Logger,
): Promise<void> {
  const tracker = trackerVendors.find((v) => v === vendor);
  if (!tracker) return;
  const [pointer] = await getItems([hookOfKey(projectId, tracker)]);
  const hook: HookRecord | null = await hookOfPointer(pointer);
  if (!hook?.registered) return;
  await deleteAtVendor(integration as IntegrationRecord<typeof tracker>, tracker, hook.registered.id, log);
  // Forgotten either way: the token that registered it is about to be cleared.
  await forgetRegistration(hook, hook.registered.id);
}
