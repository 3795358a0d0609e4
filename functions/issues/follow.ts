/**
 * A duplicate follows its primary's resolution (docs/similar.md "Following the primary", decision Mrg-7):
 *   - the primary leaves the open list (resolved or closed): each open duplicate moves to `resolved` with it,
 *     remembering the status it had (`followedFrom` on its header);
 *   - the primary is reopened: the duplicates resolved with it go back to that status;
 *   - a duplicate resolved with its primary and then unmerged goes back to that status (unmerge restores it
 *     exactly); one merged into a primary that is resolved already is resolved with it.
 * A duplicate whose status a member (or the tracker sync) set after that is theirs: any other status change
 * removes `followedFrom` (triage.ts), so the primary's reopening leaves it alone, as it leaves alone one
 * resolved on its own.
 *
 * Runs in the fan-out consumer, off the request path (≤ 500 duplicates), on the primary's `issue.updated`
 * whose status crossed lists, `issue.merged` and `issue.unmerged`; the unmerge call also runs its one issue
 * at once so its answer is already right. Each move is the triage transaction of a change by the system
 * (triage.ts `followChange`), decided from the primary's status when it runs, not the event's: a late or
 * repeated delivery converges on the state now and changes nothing twice, and a duplicate changed
 * meanwhile fails the `u` condition, is read again and decided again. Each moved duplicate's `issue.updated`
 * carries `primary` (webhooks and the trackers' sync follow; its reporter does not hear it twice: the
 * primary's own event already owes every duplicate's reporter the news, reporter-events.ts).
 */
import type { IssueEventMessage } from '#contracts/messages';
import { type Actor, type IssueStatus, isIssueStatus, isOpenStatus } from '#contracts/triage';
import { getItems } from '#runtime/db';
import { log } from '#runtime/log';
import { publish } from '#runtime/publish';
import { issueHeaderKey } from './issue';
import { duplicateOfHeader, duplicatesOf } from './merge-state';
import { type Change, followChange, stateOf } from './triage';

type Item = Record<string, unknown>;

/** The mover: nobody's hand, the primary's change carried over. */
const systemActor: Actor = { kind: 'system', name: 'Snag' };

/** What a duplicate is owed by its primary's state: resolved with it, its own status back, or nothing. */
export type FollowMove = 'resolve' | 'return' | null;

/** The status a header remembers having had before it followed, or null when it does not follow. */
export function followedFromOf(h: Item): IssueStatus | null {
  return isIssueStatus(h.followedFrom) && isOpenStatus(h.followedFrom) ? h.followedFrom : null;
}

/**
 * The change duplicate header `h` is owed while it is a duplicate of `primary`, whose status is
 * `primaryStatus` (null: `h` was unmerged, or its primary is gone). Pure: the unit tests hold it.
 */
export function followDecision(h: Item, primary: number, primaryStatus: IssueStatus | null): Change | null {
  const status = stateOf(h).fields.status;
  const had = followedFromOf(h);
  const dupOf = duplicateOfHeader(h);
  if (primaryStatus === null) {
    // Unmerged: resolved with its primary, it goes back to what it had; otherwise it is left alone.
    if (dupOf !== null || !had || status !== 'resolved') return null;
    return { status: had, follow: { primary, alone: true } };
  }
  if (dupOf !== primary) return null;
  if (!isOpenStatus(primaryStatus)) {
    if (!isOpenStatus(status)) return null;
    return { status: 'resolved', follow: { primary, had: status } };
  }
  if (!had || status !== 'resolved') return null;
  return { status: had, follow: { primary } };
}

type Moved = { n: number; at: string; changes: Record<string, { from: unknown; to: unknown }> };

/** How many duplicates move at once (each its own transaction). */
const CONCURRENCY = 8;
/**
 * Duplicates per round, whose events are sent before the next round: should the consumer's time run out
 * (500 duplicates take a few seconds), the moves already announced stay announced and the message's next
 * delivery finds them done; at most one round's events are lost with the invocation.
 */
const ROUND = 40;

/** Applies `decide` to each of `numbers` (headers read 100 per BatchGetItem), 8 at a time, in rounds. */
async function moveAll(
  pid: string,
  primary: number,
  numbers: number[],
  decide: (h: Item) => Change | null,
): Promise<number> {
  let count = 0;
  for (let r = 0; r < numbers.length; r += ROUND) {
    const round = numbers.slice(r, r + ROUND);
    const headers = await getItems(round.map((m) => issueHeaderKey(pid, m)));
    const moved: Moved[] = [];
    let next = 0;
    let failed: { error: unknown } | undefined;
    const worker = async () => {
      while (next < round.length && !failed) {
        const i = next++;
        const h = headers[i];
        // Decided on the header as read first: nothing to write, no write at all.
        if (!h || !decide(h)) continue;
        try {
          const done = await followChange(pid, round[i] as number, h, decide);
          if (done) moved.push({ n: round[i] as number, ...done });
        } catch (error) {
          failed ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // What moved is announced even when another move failed: the message runs again and finds those done.
    if (moved.length > 0) await announce(pid, primary, moved);
    count += moved.length;
    if (failed) throw failed.error;
  }
  return count;
}

/** `issue.updated` of each moved duplicate, by the system, with `primary`: its webhooks and trackers follow. */
async function announce(pid: string, primary: number, moved: Moved[]) {
  try {
    for (let i = 0; i < moved.length; i += 10)
      await publish(
        'fanout',
        moved.slice(i, i + 10).map((m) => ({
          message: {
            type: 'issue.updated' as const,
            projectId: pid,
            issueNumber: m.n,
            actor: systemActor,
            at: m.at,
            changes: m.changes,
            primary,
          },
        })),
      );
  } catch (e) {
    // The moves are stored; only their webhooks and the trackers' sync are lost.
    log.error('issue.updated of followed duplicates not sent', { projectId: pid, primary, e });
  }
}

/** The primary `n`'s status as it is now, applied to each of its duplicates. Answers how many moved. */
export async function followPrimary(pid: string, n: number): Promise<number> {
  // The DUP Query first: an issue nothing was merged into (most events) costs one Query and no more.
  const numbers = await duplicatesOf(pid, n);
  if (numbers.length === 0) return 0;
  const [h] = await getItems([issueHeaderKey(pid, n)]);
  if (!h || duplicateOfHeader(h) !== null) return 0;
  const status = stateOf(h).fields.status;
  return moveAll(pid, n, numbers, (d) => followDecision(d, n, status));
}

/** Duplicate `n` just merged into `primary`: resolved with it when the primary is resolved already. */
export async function followOnMerge(pid: string, n: number, primary: number): Promise<number> {
  const [p] = await getItems([issueHeaderKey(pid, primary)]);
  if (!p) return 0;
  const status = stateOf(p).fields.status;
  return moveAll(pid, primary, [n], (d) => followDecision(d, primary, status));
}

/** Issue `n` just unmerged from `primary`: back to the status it had when it was resolved with it. */
export const followOnUnmerge = (pid: string, n: number, primary: number): Promise<number> =>
  moveAll(pid, primary, [n], (d) => followDecision(d, primary, null));

/**
 * The fan-out's part (integrations/fan-out.ts): a primary's status crossing lists, a merge, an unmerge. Not
 * the duplicates' own `issue.updated` (they carry `primary`): a duplicate is never a primary.
 */
export async function followEvent(msg: IssueEventMessage): Promise<void> {
  const { projectId: pid, issueNumber: n } = msg;
  if (msg.type === 'issue.merged' && msg.primary) await followOnMerge(pid, n, msg.primary);
  else if (msg.type === 'issue.unmerged' && msg.primary) await followOnUnmerge(pid, n, msg.primary);
  else if (msg.type === 'issue.updated' && !msg.primary) {
    const s = msg.changes?.status;
    if (s && isIssueStatus(s.from) && isIssueStatus(s.to) && isOpenStatus(s.from) !== isOpenStatus(s.to))
      await followPrimary(pid, n);
  }
}
