/**
 * The reporter hears of the issue events (issue 24): the fan-out consumer hands each `issue.updated` and
 * `comment.created` here (functions/integrations/fan-out.ts), so every status change and public comment is
 * covered whoever made it: the dashboard, a bulk change, and the tracker sync and REST API that write
 * through the same triage and comment core. What is owed goes to the reporter's outbox (reporter.ts
 * `oweMail`); the flush decides what a mail says when it is sent. Never for an internal comment, nor for
 * the reporter's own reply. Idempotent: a message delivered twice owes the same mail.
 */
import type { IssueEventMessage } from '#contracts/messages';
import { isIssueStatus, isOpenStatus } from '#contracts/triage';
import { getItems } from '#runtime/db';
import { duplicatesOf } from './merge-state';
import { oweMail, reporterKey, toReporter } from './reporter';
import { timelineKey } from './timeline';

/** What the event owes the reporter, before any read: news of the status, a comment, or nothing. */
export function owedBy(msg: IssueEventMessage): 'status' | 'comment' | null {
  // Merged or unmerged (issue 37): the status the reporter follows changed hands; the flush compares the
  // one they follow now with what they last heard and says nothing when it is the same.
  if (msg.type === 'issue.merged' || msg.type === 'issue.unmerged') return 'status';
  // A duplicate moved with its primary (follow.ts, `primary` set): the primary's own event already owed its
  // reporter the news (noteDuplicates below), and they follow the primary's status anyway.
  if (msg.type === 'issue.updated' && msg.primary) return null;
  if (msg.type === 'comment.created')
    return msg.actor.kind === 'reporter' || !msg.commentId ? null : 'comment';
  const status = msg.changes?.status;
  if (!status || !isIssueStatus(status.from) || !isIssueStatus(status.to)) return null;
  // Resolved or reopened as the reporter reads it: between an open status and resolved or closed (closing
  // a resolved one, or moving an open one along, tells them nothing new). The flush decides which it is
  // from the status then and what the reporter last heard, so changes made before it net out.
  return isOpenStatus(status.from) !== isOpenStatus(status.to) ? 'status' : null;
}

/**
 * Owes the reporter of the event's issue a mail when the event concerns them. One BatchGetItem at most; a
 * change of the status also reaches the reporters of the issue's duplicates (issue 37: they follow it), one
 * Query and one BatchGetItem per 100 of them more.
 */
export async function noteForReporter(msg: IssueEventMessage): Promise<void> {
  const what = owedBy(msg);
  if (!what) return;
  const { projectId, issueNumber: n } = msg;
  if (what === 'status' && msg.type === 'issue.updated') await noteDuplicates(projectId, n);
  const keys = [reporterKey(projectId, n)];
  if (what === 'comment' && msg.commentId) keys.push(timelineKey(projectId, n, msg.commentId));
  const [reporterItem, comment] = await getItems(keys);
  const reporter = toReporter(reporterItem);
  if (!reporter || reporter.unsubscribed) return;
  // Gone, or internal: nothing the reporter may read.
  if (what === 'comment' && (comment?.kind !== 'comment' || comment.visibility === 'internal')) return;
  await oweMail(projectId, n, reporter, what);
}

/** The status of primary `n` changed: each duplicate's reporter who still listens is owed the news. */
async function noteDuplicates(projectId: string, n: number): Promise<void> {
  const numbers = await duplicatesOf(projectId, n);
  if (numbers.length === 0) return;
  const items = await getItems(numbers.map((m) => reporterKey(projectId, m)));
  await Promise.all(
    numbers.map(async (m, i) => {
      const reporter = toReporter(items[i]);
      if (reporter && !reporter.unsubscribed) await oweMail(projectId, m, reporter, 'status');
    }),
  );
}
