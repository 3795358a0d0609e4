/**
 * Scheduled every minute (functions/accounts/manifest.ts `schedules.notifications`; an EventBridge rule in
 * AWS, a timer of the local stack and `npm run ops -- flush-notifications` locally): the notification
 * outbox's flush, one mail per person per run (functions/issues/notify-flush.ts), then the reporter's
 * outbox (issue 24, functions/issues/reporter-flush.ts): the same minute, the same mail and table grants.
 */
import { createLogger } from '#runtime/log';
import { flushNotifications } from '../issues/notify-flush';
import { flushReporterMails } from '../issues/reporter-flush';

export async function handler(_event?: unknown, context?: { awsRequestId?: string }) {
  const log = createLogger({
    requestId: context?.awsRequestId ?? 'schedule',
    resource: 'schedule:notifications',
  });
  const result = await flushNotifications(log);
  if (result.entries || result.mails) log.info('notifications flushed', { ...result });
  const reporter = await flushReporterMails(log, 10_000);
  if (reporter.mails || reporter.failed) log.info('reporter mails flushed', { ...reporter });
  return { ...result, reporter };
}
