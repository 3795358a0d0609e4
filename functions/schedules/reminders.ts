/**
 * Scheduled daily (functions/billing/manifest.ts `schedules.reminders`; an EventBridge rule in AWS, a
 * timer of the local stack and `npm run ops -- send-reminders` locally): the expiry reminders.
 */

import { createLogger } from '#runtime/log';
import { sendReminders } from '../billing/service';

export async function handler(_event?: unknown, context?: { awsRequestId?: string }) {
  const log = createLogger({
    requestId: context?.awsRequestId ?? 'schedule',
    resource: 'schedule:reminders',
  });
  const result = await sendReminders(log);
  log.info('reminders sent', { count: result.sent.length });
  return result;
}
