/**
 * The timeline entity (issue 23; docs/data-model.md 4.13): comments and activity share one sort-key
 * range of the project's partition, so one Query pages them interleaved, oldest first.
 *   PROJECT#<pid> / ISSUE#<n10>#T#<id>     kind 'comment' | 'activity'
 * `id` is 20 characters of lowercase base 36: the time in ms (9 characters, good until the year 5188) then
 * 11 random ones, so ids sort by time and two writes in the same millisecond do not collide. Comments and
 * activity items are written in the same transaction as the change they record, so the timeline never
 * misses a change nor shows one that did not happen.
 */
import { randomBytes } from 'node:crypto';
import type { ActivityKind, Actor, CommentVisibility } from '#contracts/triage';
import { tableName } from '#runtime/db';
import { nowMs } from '#runtime/time';
import { projectPartition } from '../projects/project';
import { n10 } from './issue';

const random36 = (length: number) => [...randomBytes(length)].map((b) => (b % 36).toString(36)).join('');

/** A new time-ordered id (the time first, so the sort key orders the timeline). */
export const timelineId = (ms = nowMs()) => ms.toString(36).padStart(9, '0') + random36(11);
/** When an id was made (ms). */
export const timelineIdTime = (id: string) => Number.parseInt(id.slice(0, 9), 36);

const prefix = (n: number) => `ISSUE#${n10(n)}#T#`;
export const timelineKey = (projectId: string, n: number, id: string) => ({
  pk: projectPartition(projectId),
  sk: `${prefix(n)}${id}`,
});
/** The key condition's values for one issue's timeline: `pk = :pk AND begins_with(sk, :t)`. */
export const timelineRange = (projectId: string, n: number) => ({
  ':pk': projectPartition(projectId),
  ':t': prefix(n),
});

export interface StoredComment {
  kind: 'comment';
  id: string;
  number: number;
  author: Actor;
  body: string;
  visibility: CommentVisibility;
  createdAt: string;
  editedAt?: string;
  mentions: string[];
}

export interface StoredActivity {
  kind: 'activity';
  id: string;
  number: number;
  type: ActivityKind;
  actor: Actor;
  at: string;
  from?: unknown;
  to?: unknown;
  integration?: string;
  reason?: string;
  /**
   * 'internal' on entries a GUEST never sees (the deletion of an internal comment, the deliveries): the
   * same attribute as a comment's, so one FilterExpression hides both (functions/issues/comments.ts).
   */
  visibility?: 'internal';
}

/** A transaction Put of one timeline entry (new id, so it can never overwrite another). */
export function timelinePut(projectId: string, entry: StoredComment | StoredActivity) {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...timelineKey(projectId, entry.number, entry.id), ...entry },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** An activity entry for issue `number`, now. */
export function activity(
  number: number,
  type: ActivityKind,
  actor: Actor,
  change: Pick<StoredActivity, 'from' | 'to' | 'integration' | 'reason' | 'visibility'> = {},
  at?: string,
): StoredActivity {
  const ms = at ? Date.parse(at) : nowMs();
  return {
    kind: 'activity',
    id: timelineId(ms),
    number,
    type,
    actor,
    at: new Date(ms).toISOString(),
    ...change,
  };
}
