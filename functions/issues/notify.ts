/**
 * The notification outbox (issue 23; docs/data-model.md 4.13): a change that someone may want a mail about
 * writes one outbox item in the same transaction as the change itself, so a mail is never sent for a change
 * that failed, nor lost for one that succeeded. The flush (owned with the mails, see its module) reads the
 * outbox, applies each member's settings and sends one mail per person.
 */
import type { NotifyEvent } from '#contracts/triage';
import { tableName } from '#runtime/db';
import { DAY, epochSeconds, nowMs } from '#runtime/time';
import { timelineId } from './timeline';

export const OUTBOX_PARTITION = 'NOTIFY';
/** An entry nobody flushed in a week is stale news: TTL removes it. */
const outboxLifetimeMs = 7 * DAY;

/** A transaction Put of one outbox entry. */
export function notifyPut(event: NotifyEvent) {
  const ms = nowMs();
  return {
    Put: {
      TableName: tableName(),
      Item: {
        pk: OUTBOX_PARTITION,
        sk: timelineId(ms),
        event,
        ttl: epochSeconds(ms + outboxLifetimeMs),
      },
    },
  };
}
