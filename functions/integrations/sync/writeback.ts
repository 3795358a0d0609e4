/**
 * Snag → tracker (issue 24, docs/webhooks.md "What maps to what"): an issue event the fan-out handed to a
 * tracker integration, sent through the delivery queue (its retries and backoff), when the integration's
 * options say so (both on by default):
 *   - `issue.updated` whose status crosses between open and resolved/closed (`syncState`): the tracker
 *     issue is closed or reopened, unless it already is so; the state written is remembered, so its echo
 *     is dropped (apply.ts);
 *   - `comment.created` of a PUBLIC comment (`syncComments`): posted there as "<author> in Snag"; the
 *     tracker comment's id is remembered (its echo is dropped), and so is the Snag comment's (a retry after
 *     success posts nothing twice).
 * A change that came from this tracker (actor kind tracker, same vendor) is never sent back to it.
 */
import type { IssueEventMessage } from '#contracts/messages';
import { syncOptionsOf, type TrackerVendor } from '#contracts/sync';
import { type IssueStatus, isOpenStatus } from '#contracts/triage';
import { getItems } from '#runtime/db';
import type { Logger } from '#runtime/log';
import { issueDetailKey } from '../../issues/issue';
import { timelineKey } from '../../issues/timeline';
import { recordedVendorId } from '../delivery-state';
import { adapterOf } from './adapters';
import { syncingIntegration, trackerContext } from './context';
import { forgetSynced, readSynced, rememberSynced } from './hook';

export type TrackerIssueEvent = Omit<IssueEventMessage, 'projectId' | 'issueNumber' | 'correlationId'>;

/** Whether an event may concern `vendor` at all (the fan-out's filter: no echo, only what could sync). */
export function mayWriteBack(vendor: TrackerVendor, event: TrackerIssueEvent): boolean {
  if (event.actor.kind === 'tracker' && event.actor.vendor === vendor) return false;
  if (event.type === 'comment.created') return !!event.commentId;
  const status = event.changes?.status;
  return !!status && closedness(status.from) !== closedness(status.to);
}

const closedness = (s: unknown) => (typeof s === 'string' ? !isOpenStatus(s as IssueStatus) : null);

/** Sends one event to the tracker; throws what the vendor threw (the delivery consumer retries or drops). */
export async function writeBack(
  projectId: string,
  n: number,
  vendor: TrackerVendor,
  event: TrackerIssueEvent,
  log: Logger,
): Promise<'sent' | 'skipped'> {
  const where = { projectId, issueNumber: n, vendor, event: event.type };
  if (!mayWriteBack(vendor, event)) return 'skipped';
  const integration = await syncingIntegration(projectId, vendor);
  if (!integration) return 'skipped';
  const keys = [issueDetailKey(projectId, n)];
  if (event.type === 'comment.created' && event.commentId)
    keys.push(timelineKey(projectId, n, event.commentId));
  const [detail, comment] = await getItems(keys);
  const issue = detail ? recordedVendorId(detail, vendor) : undefined;
  if (!issue) {
    log.info('issue not delivered to the tracker; nothing to sync', where);
    return 'skipped';
  }
  const adapter = adapterOf(vendor);
  const ctx = trackerContext(integration);
  if (event.type === 'issue.updated') {
    if (!syncOptionsOf(integration.data).syncState) return 'skipped';
    const closed = closedness(event.changes?.status?.to) === true;
    const now = await adapter.state(ctx, issue);
    if (now.closed === closed) {
      await rememberSynced(projectId, vendor, 'state', issue, { closed });
      return 'sent';
    }
    // Remembered before the write: the tracker's hook may arrive before this call returns. A write that
    // fails (or that the tracker's workflow cannot make) puts back what was remembered, so a person's
    // later change of that state on the tracker is not taken for our echo.
    const prior = await readSynced(projectId, vendor, 'state', issue);
    await rememberSynced(projectId, vendor, 'state', issue, { closed });
    const restore = () =>
      prior
        ? rememberSynced(projectId, vendor, 'state', issue, { closed: prior.closed })
        : forgetSynced(projectId, vendor, 'state', issue);
    let written = false;
    try {
      written = await adapter.setState(ctx, issue, closed);
    } finally {
      if (!written) await restore();
    }
    log.info('tracker state synced', { ...where, closed });
    return 'sent';
  }
  if (!syncOptionsOf(integration.data).syncComments || !comment || comment.kind !== 'comment')
    return 'skipped';
  if (comment.visibility !== 'public') return 'skipped';
  const commentId = String(comment.id);
  if (await readSynced(projectId, vendor, 'out', commentId)) return 'skipped';
  const author = String((comment.author as { name?: unknown } | undefined)?.name ?? 'Snag');
  const posted = await adapter.comment(ctx, issue, { author, body: String(comment.body ?? '') });
  await rememberSynced(projectId, vendor, 'comment', posted);
  await rememberSynced(projectId, vendor, 'out', commentId, { posted });
  log.info('tracker comment synced', where);
  return 'sent';
}
