/**
 * The notification outbox (issue 23; docs/data-model.md 4.13 "Notifications"): a change that someone may
 * want a mail about writes one outbox entry in the same transaction as the change itself, so a mail is
 * never sent for a change that failed, nor lost for one that succeeded. The flush (notify-flush.ts) turns
 * entries into mails, one per person per run. All of it lives in one partition:
 *   NOTIFY / E#<id>                      an entry (id: timeline.ts's time-ordered id), `event`
 *   NOTIFY / M#<uid>#<entry id>          what one entry tells one recipient, waiting for this minute's mail
 *   NOTIFY / D#<uid>#<YYYY-MM-DD>#<id>   the same for a member's daily digest (the entry's UTC day)
 *   NOTIFY / L#<mail|digest>#<uid>       the lease of the run sending that person's mail
 * The recipient items' keys derive from the entry's, so a run that repeats another's work overwrites it
 * rather than doubling it.
 */
import type { NotifyEvent } from '#contracts/triage';
import { tableName } from '#runtime/db';
import { DAY, epochSeconds, nowMs } from '#runtime/time';
import { timelineId, timelineIdTime } from './timeline';

export const OUTBOX_PARTITION = 'NOTIFY';
/** An entry nobody flushed in a week is stale news: TTL removes it. */
export const outboxLifetimeMs = 7 * DAY;

export const ENTRY = 'E#';
export const entryKey = (id: string) => ({ pk: OUTBOX_PARTITION, sk: `${ENTRY}${id}` });
export const entryIdOf = (sk: string) => sk.slice(ENTRY.length);

export const MAIL = 'M#';
export const mailItemKey = (userId: string, entryId: string) => ({
  pk: OUTBOX_PARTITION,
  sk: `${MAIL}${userId}#${entryId}`,
});
export const DIGEST = 'D#';
/** The UTC day of an entry (ids begin with their time): the digest's day (decision Tr-N4). */
export const entryDay = (entryId: string) => new Date(timelineIdTime(entryId)).toISOString().slice(0, 10);
export const digestItemKey = (userId: string, entryId: string) => ({
  pk: OUTBOX_PARTITION,
  sk: `${DIGEST}${userId}#${entryDay(entryId)}#${entryId}`,
});
export const leaseKey = (kind: 'mail' | 'digest', userId: string) => ({
  pk: OUTBOX_PARTITION,
  sk: `L#${kind}#${userId}`,
});
/** The user id of an `M#` or `D#` sort key. */
export const recipientOf = (sk: string) => sk.split('#')[1] ?? '';

/** A transaction Put of one outbox entry. */
export function notifyPut(event: NotifyEvent) {
  const ms = nowMs();
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...entryKey(timelineId(ms)),
        event,
        ttl: epochSeconds(ms + outboxLifetimeMs),
      },
    },
  };
}
