/**
 * The trackers' inbound hooks and their settings (issue 24; functions/integrations/sync/): `receive` takes
 * the raw body and headers as they came (verified before anything parses them) and answers 202 once the
 * delivery is queued, taken before, or not one Snag acts on; the settings calls show, reveal, regenerate
 * and register a project's hook.
 */
import type { TrackerVendor } from '#contracts/sync';
import { AppError } from '#runtime/errors';
import { type AuthedInput, type RequestInput, resourceHandler } from '#runtime/http';
import { hooksApi } from '../integrations/manifest';
import { readHook } from '../integrations/sync/hook';
import { receiveHook } from '../integrations/sync/inbound';
import { regenerateHook, registerHook, revealHook, showHook } from '../integrations/sync/settings';

type HookInput = RequestInput<undefined, unknown, { vendor: TrackerVendor; hookId: string }>;
type SiteInput = AuthedInput<undefined, unknown, { vendor: TrackerVendor; siteId: string }>;

export const operations = {
  async receive({ event, params, log, correlationId }: HookInput) {
    const raw = event.body
      ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8').toString('utf8')
      : '';
    const outcome = await receiveHook(params.vendor, params.hookId, raw, event.headers ?? {}, {
      log,
      correlationId,
    });
    return { statusCode: 202, msg: { outcome } };
  },
  /** A sender's check of the address before it registers (Trello): 200 for a hook that exists, else 404. */
  async check({ params }: HookInput) {
    const hook = await readHook(params.hookId);
    if (!hook || hook.vendor !== params.vendor) throw new AppError('NOT_FOUND');
    return { statusCode: 200, msg: {} };
  },
  async show({ session, params }: SiteInput) {
    return { msg: await showHook(session.userId, params.siteId, params.vendor) };
  },
  async reveal({ session, params }: SiteInput) {
    return { msg: await revealHook(session.userId, params.siteId, params.vendor) };
  },
  async regenerate({ session, params, log }: SiteInput) {
    return { msg: await regenerateHook(session.userId, params.siteId, params.vendor, log) };
  },
  async register({ session, params, log }: SiteInput) {
    return { msg: await registerHook(session.userId, params.siteId, params.vendor, log) };
  },
};

export const handler = resourceHandler(hooksApi, operations);
