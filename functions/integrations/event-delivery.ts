/**
 * The delivery of an issue event (issue 23's `issue.updated`, `comment.created`): to the webhook receiver
 * (webhook-events.ts), or back to a tracker (issue 24, sync/writeback.ts). Fire-and-retry (decision Tr-M7):
 * a transient failure is thrown (the queue retries it with backoff) until the last receive, then dropped
 * with a warning; a permanent one is dropped at once. Never reaches the DLQ, never touches the issue's
 * statuses. Every failed attempt counts as the issue deliveries' do, so the dashboard's graph shows a
 * failing receiver.
 */
import type { DeliveryMessage } from '#contracts/messages';
import type { TrackerVendor } from '#contracts/sync';
import { getItems } from '#runtime/db';
import type { Logger } from '#runtime/log';
import { countBusiness } from '#runtime/metrics';
import { OutboundRefused, outboundFetch } from '#runtime/outbound';
import { issueHeaderKey, issueHeadOf } from '../issues/issue';
import { timelineKey } from '../issues/timeline';
import { projectKey, toProject } from '../projects/project';
import { PermanentFailure } from './deliver';
import { lastReceive } from './delivery-budget';
import { webhookSubscribed } from './delivery-targets';
import { type IntegrationRecord, integrationKey, toIntegration } from './integration';
import { issueLink } from './links';
import { writeBack } from './sync/writeback';
import { isVendorError } from './vendors/http';
import { type EventComment, eventPayload, type IssueEvent, sendEvent } from './webhook-events';

/** Throws `err` while the queue may retry it; otherwise logs the drop. */
function retryOrDrop(
  err: unknown,
  permanent: boolean,
  receive: number,
  log: Logger,
  what: string,
  where: Record<string, unknown>,
) {
  if (!permanent && receive < lastReceive()) throw err;
  log.warn(what, { ...where, attempt: receive, reason: (err as Error).message ?? String(err) });
}

/**
 * To the webhook receiver: reads the project, the issue, the webhook integration and (comment.created) the
 * comment in one BatchGetItem, and sends while still subscribed (delivery-targets.ts `webhookSubscribed`).
 */
export async function deliverEvent(msg: DeliveryMessage, event: IssueEvent, log: Logger, receive: number) {
  const { projectId, issueNumber: n } = msg;
  const where = { projectId, issueNumber: n, event: event.type };
  const keys = [projectKey(projectId), issueHeaderKey(projectId, n), integrationKey(projectId, 'webhooks')];
  if (event.type === 'comment.created' && event.commentId)
    keys.push(timelineKey(projectId, n, event.commentId));
  const [meta, header, item, stored] = await getItems(keys);
  if (!meta || !header || !item) {
    log.info('issue or webhook gone; event dropped', where);
    return;
  }
  const project = toProject(meta);
  const integration = toIntegration(item) as IntegrationRecord<'webhooks'>;
  if (!webhookSubscribed(project, integration, event.type)) {
    log.info('webhook no longer subscribed; event dropped', where);
    return;
  }
  const payload = eventPayload(
    {
      project: { id: project.id, name: project.name, url: project.url },
      issue: { number: n, title: issueHeadOf(n, header).title, url: issueLink(projectId, n) },
    },
    event,
    stored?.kind === 'comment' ? (stored as unknown as EventComment) : null,
    (primary) => issueLink(projectId, primary),
  );
  if (!payload) {
    log.info('comment deleted before its event went out; dropped', where);
    return;
  }
  try {
    await sendEvent(outboundFetch(), integration.data, payload);
    log.info('webhook event delivered', { ...where, deliveryId: payload.deliveryId });
  } catch (err) {
    const permanent = err instanceof PermanentFailure || (err instanceof OutboundRefused && err.permanent);
    countBusiness('deliveryFailed', 'webhooks');
    retryOrDrop(err, permanent, receive, log, 'webhook event dropped', {
      ...where,
      deliveryId: payload.deliveryId,
    });
  }
}

/** Back to a tracker (sync/writeback.ts): permanent when the token is refused or the issue is gone there. */
export async function writeBackEvent(
  msg: DeliveryMessage,
  vendor: TrackerVendor,
  event: IssueEvent,
  log: Logger,
  receive: number,
) {
  const where = { projectId: msg.projectId, issueNumber: msg.issueNumber, vendor, event: event.type };
  try {
    await writeBack(msg.projectId, msg.issueNumber, vendor, event, log);
  } catch (err) {
    const permanent =
      (isVendorError(err) && err.permanent) || (err instanceof OutboundRefused && err.permanent);
    countBusiness('deliveryFailed', vendor);
    retryOrDrop(err, permanent, receive, log, 'tracker write-back dropped', where);
  }
}
