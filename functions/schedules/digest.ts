/**
 * Scheduled daily at 07:00 UTC (functions/accounts/manifest.ts `schedules.digest`; an EventBridge rule in
 * AWS, a timer of the local stack and `npm run ops -- send-digests` locally): one mail per member with the
 * new issues of the days before today (UTC) they asked a daily digest for (functions/issues/notify-flush.ts).
 */
import { createLogger } from '#runtime/log';
import { sendDigests } from '../issues/notify-flush';

export async function handler(_event?: unknown, context?: { awsRequestId?: string }) {
  const log = createLogger({ requestId: context?.awsRequestId ?? 'schedule', resource: 'schedule:digest' });
  const result = await sendDigests(log);
  log.info('digests sent', { ...result });
  return result;
}
