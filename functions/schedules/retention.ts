/**
 * Scheduled daily at 03:30 UTC (functions/issues/manifest.ts `schedules.retention`; an EventBridge rule in
 * AWS, a timer of the local stack and `npm run ops -- retention [--now <date>]` locally): resolved issues
 * past their project's retention period are deleted (functions/issues/retention.ts, docs/retention.md).
 * The entry point composes the integrations' part: the tracker links an issue's deliveries wrote.
 * Locally it also plays the bucket's lifecycle rule for pending uploads (AWS expires them itself).
 */
import { bucketPrefixes } from '#contracts/manifest';
import { isLocal } from '#runtime/config';
import { createLogger } from '#runtime/log';
import { deleteOlderThan } from '#runtime/s3-objects';
import { DAY, nowMs } from '#runtime/time';
import { trackerLinkKeysOf } from '../integrations/delivery-state';
import { runRetention } from '../issues/retention';

/** Work stops a minute before the function's 300 s timeout; the next run goes on. */
const workMs = 240_000;

export async function handler(event?: { now?: number }, context?: { awsRequestId?: string }) {
  const log = createLogger({
    requestId: context?.awsRequestId ?? 'schedule',
    resource: 'schedule:retention',
  });
  // `now` only from the ops command and tests, only locally: a deployed run keeps the real clock.
  const now = isLocal() && typeof event?.now === 'number' ? event.now : nowMs();
  const result = await runRetention({
    now,
    deadline: Date.now() + workMs,
    extraKeys: trackerLinkKeysOf,
  });
  const pendingSwept = isLocal() ? await deleteOlderThan(bucketPrefixes.pending, now - DAY) : 0;
  log.info('retention ran', {
    deleted: result.deleted,
    projects: result.projects.length,
    more: result.more,
    pendingSwept,
  });
  return { ...result, pendingSwept };
}
