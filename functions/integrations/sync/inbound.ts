/**
 * An inbound tracker hook delivery, `POST /api/hooks/{vendor}/{hookId}` (issue 24, DESIGN section 8,
 * docs/webhooks.md "Inbound tracker hooks"), answered fast: the hook (unknown → 404), the vendor's proof on
 * the raw body with the hook's secret before anything parses it (forged → 401, stale → 401), JSON (→ 400),
 * the adapter's reduction (not the vendor's shape → 400; an event Snag does not act on → 202 ignored), the
 * hook's rate limit (→ 429), the delivery id taken once (a redelivery or replay → 202 duplicate), then one
 * message on the `tracker` queue (202). The work itself is the consumer's (apply.ts).
 */
import type { TrackerVendor } from '#contracts/sync';
import { AppError } from '#runtime/errors';
import type { Logger } from '#runtime/log';
import { publish } from '#runtime/publish';
import { rateLimit } from '#runtime/rate-limit';
import { MINUTE, nowMs } from '#runtime/time';
import { getIntegration } from '../integration';
import { MalformedDelivery } from './adapter';
import { adapterOf } from './adapters';
import { firstDelivery, forgetDelivery, readHook } from './hook';
import { hookUrl } from './settings';

/** Verified deliveries per hook and minute: far above a team's pace, and it stops a runaway tracker. */
export const hookRate = (hookId: string) => ({ action: 'hook', key: hookId, max: 120, windowMs: MINUTE });

export type HookOutcome = 'queued' | 'duplicate' | 'ignored';

export async function receiveHook(
  vendor: TrackerVendor,
  hookId: string,
  raw: string,
  headers: Record<string, string | undefined>,
  opts: { log: Logger; correlationId: string },
): Promise<HookOutcome> {
  const hook = await readHook(hookId);
  if (!hook || hook.vendor !== vendor) throw new AppError('NOT_FOUND');
  const adapter = adapterOf(vendor);
  const integration = await getIntegration(hook.projectId, vendor);
  const verdict = adapter.verify(raw, headers, hook.secret, nowMs(), { url: hookUrl(hook), integration });
  if (verdict === 'forged') throw new AppError('HOOK_SIGNATURE_INVALID');
  if (verdict === 'stale') throw new AppError('HOOK_STALE');
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new AppError('INVALID_JSON');
  }
  let parsed: ReturnType<typeof adapter.parse>;
  try {
    parsed = adapter.parse(body, headers, integration);
  } catch (err) {
    if (err instanceof MalformedDelivery) throw new AppError('INVALID_PARAMETERS');
    throw err;
  }
  // A switched-off integration keeps its hook (switching on again needs no new setup) but takes nothing.
  if (!parsed || integration.active !== 1) return 'ignored';
  await rateLimit(hookRate(hookId));
  if (!(await firstDelivery(hookId, parsed.deliveryId))) return 'duplicate';
  try {
    await publish('tracker', [
      {
        groupId: hook.projectId,
        message: { ...parsed, projectId: hook.projectId, vendor, hookId, correlationId: opts.correlationId },
      },
    ]);
  } catch (err) {
    // Not taken after all: the tracker's retry of this delivery must not be dropped as a duplicate.
    await forgetDelivery(hookId, parsed.deliveryId);
    opts.log.error('tracker hook not queued', { err, vendor, hookId });
    throw new AppError('NOT_READY');
  }
  opts.log.info('tracker hook queued', { vendor, projectId: hook.projectId, kind: parsed.kind });
  return 'queued';
}
