/**
 * Scheduled every minute (functions/accounts/manifest.ts `schedules.notifications`; an EventBridge rule in
 * AWS, a timer of the local stack and `npm run ops -- flush-notifications` locally): the notification
 * outbox's flush, one mail per person per run (functions/issues/notify-flush.ts).
 */
import { createLogger } from '#runtime/log';
import { flushNotifications } from '../issues/notify-flush';

export async function handler(_event?: unknown, context?: { awsRequestId?: string }) {
  const log = createLogger({
    requestId: context?.awsRequestId ?? 'schedule',
    resource: 'schedule:notifications',
  });
  const result = await flushNotifications(log);
  if (result.entries || result.mails) log.info('notifications flushed', { ...result });
  return result;
}
