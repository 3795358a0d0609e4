/**
 * Tracker → Snag (issue 24, docs/webhooks.md "What maps to what"): one queued `TrackerEvent` applied to
 * the Snag issue the tracker issue was delivered as (its link item), through the triage core that a
 * member's PATCH and comment use, by an actor of kind tracker ("Jane on GitLab", with the vendor and the
 * tracker issue's link):
 *   - a state change: the tracker issue is re-read (deliveries arrive out of order) and closed → resolved,
 *     open → new (`syncTrackerState`, which changes only an issue that disagrees). A re-read state equal to
 *     the one Snag itself last wrote there is our own write coming back: dropped;
 *   - a comment: an internal comment (public when the integration says so); its id is taken once, in the
 *     comment's own transaction, and ids Snag posted there itself are dropped (no echo, no duplicate).
 */

import { titleOf } from '#contracts/integration-catalogue';
import type { TrackerEvent } from '#contracts/sync';
import { syncOptionsOf } from '#contracts/sync';
import { cleanText } from '#contracts/text';
import { type Actor, trackerCommentText } from '#contracts/triage';
import type { Logger } from '#runtime/log';
import { postTrackerComment } from '../../issues/comments';
import { syncTrackerState } from '../../issues/triage';
import { adapterOf } from './adapters';
import { syncingIntegration, trackerContext } from './context';
import { readHook, readSynced, rememberSynced, snagIssueOf, syncedOncePut } from './hook';

/** The actor of a synced change: the tracker's person, where they are, and the tracker issue's link. */
export function trackerActor(ev: TrackerEvent, read?: string): Actor {
  // The link came in a webhook (or the tracker's answer): only an http(s) address is kept.
  const url = [read, ev.url].find((u) => !!u && /^https?:\/\//i.test(u));
  return {
    kind: 'tracker',
    id: ev.author.id.slice(0, 100),
    // The tracker's name for its person, under the one text rule as every stored name (text.ts).
    name: `${cleanText(ev.author.name)} on ${titleOf(ev.vendor)}`.slice(0, 200),
    vendor: ev.vendor,
    ...(url ? { url: url.slice(0, 2000) } : {}),
  };
}

/**
 * A comment Snag posted itself (writeback.ts heads each "<author> wrote in Snag:"): its hook can arrive
 * before the posted id is remembered, so the heading also marks it.
 */
const postedBySnag = (body: string) => /^\**[^\n]*\bwrote in Snag:\**\s*(\n|$)/.test(body);

export type Applied = 'changed' | 'unchanged' | 'dropped';

export async function applyTrackerEvent(ev: TrackerEvent, log: Logger): Promise<Applied> {
  const where = { projectId: ev.projectId, vendor: ev.vendor, issue: ev.issue, kind: ev.kind };
  const hook = await readHook(ev.hookId);
  // A hook regenerated or removed after the delivery was queued still names its project; a mismatch never.
  if (!hook || hook.projectId !== ev.projectId || hook.vendor !== ev.vendor) return 'dropped';
  const integration = await syncingIntegration(ev.projectId, ev.vendor);
  if (!integration) {
    log.info('tracker integration not syncing; hook dropped', where);
    return 'dropped';
  }
  const n = await snagIssueOf(ev.projectId, ev.vendor, ev.issue);
  if (n === null) {
    log.info('tracker issue not delivered from Snag; hook dropped', where);
    return 'dropped';
  }
  const adapter = adapterOf(ev.vendor);
  const ctx = trackerContext(integration);
  if (ev.kind === 'state') {
    const now = await adapter.state(ctx, ev.issue);
    const wrote = await readSynced(ev.projectId, ev.vendor, 'state', ev.issue);
    if (wrote && wrote.closed === now.closed) {
      log.info('tracker state is the one Snag wrote; dropped', where);
      return 'unchanged';
    }
    const changed = await syncTrackerState(ev.projectId, n, trackerActor(ev, now.url), now.closed);
    // The state both sides now agree on: a later echo of it is dropped above.
    await rememberSynced(ev.projectId, ev.vendor, 'state', ev.issue, { closed: now.closed });
    return changed ? 'changed' : 'unchanged';
  }
  const comment = ev.comment;
  const body = trackerCommentText(comment?.body ?? '');
  if (!comment || !body) return 'dropped';
  if (postedBySnag(body) || (await readSynced(ev.projectId, ev.vendor, 'comment', comment.id))) {
    log.info('tracker comment already synced (ours or taken); dropped', where);
    return 'unchanged';
  }
  const taken = await postTrackerComment(
    ev.projectId,
    n,
    trackerActor(ev),
    {
      body,
      visibility: syncOptionsOf(integration.data).publicTrackerComments ? 'public' : 'internal',
    },
    syncedOncePut(ev.projectId, ev.vendor, 'comment', comment.id),
    { log, ...(ev.correlationId ? { correlationId: ev.correlationId } : {}) },
  );
  return taken ? 'changed' : 'unchanged';
}
