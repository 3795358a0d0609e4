/**
 * Settles a dead letter of the delivery queue (docs/decisions.md "Deliveries always finish"): a delivery
 * message lands in the DLQ after maxReceiveCount receives. Usually the last receive already wrote status 3;
 * when it could not (the consumer was killed, timed out, or lost the database on that receive), the issue
 * would stay "in progress" (1) for ever. So:
 *   - a handed-on success (`delivered`) is recorded: status 2;
 *   - otherwise, only if the status is still the 1 this message's delivery started (not one a later Sync set
 *     while the message waited for its move to the DLQ): status 3 and the failed sync marker, with a reason that
 *     asks the client to check the vendor when the last attempt's outcome is unknown
 *     (`afterUnknownOutcome`), so a Sync never opens a second ticket unasked.
 * A status that is 0, 2 or 3 is left as it is. An issue event has no status to settle: its delivery drops it
 * on its last receive.
 */
import type { DeliveryMessage } from '#contracts/messages';
import { getItems } from '#runtime/db';
import type { Logger } from '#runtime/log';
import { countBusiness } from '#runtime/metrics';
import { deliveryStatusOf, issueDetailKey, issueHeaderKey, issueHeadOf } from '../issues/issue';
import { afterUnknownOutcome, gaveUpReason, unknownOutcomeReason } from './deliver';
import {
  attemptOver,
  markDelivered,
  markForSync,
  recordedVendorId,
  unsettledAttempt,
} from './delivery-state';
import { deliveryQueue } from './queues';

/**
 * Slack between the fan-out's clock (which sets `since_<name>` just before it sends) and SQS's SentTimestamp.
 * A Sync can start a delivery again only after its last receive failed, minutes (seconds in tests) later.
 */
const CLOCK_SLACK_MS = 1000;

/** The dead letter as SQS holds it: its id, and when it was first sent (epoch ms; NaN when unknown). */
export interface DeadLetter {
  messageId: string;
  sentAt: number;
}

export async function settleDeadLetter(msg: DeliveryMessage, log: Logger, letter: DeadLetter): Promise<void> {
  const { projectId, issueNumber: n, integration: name } = msg;
  const where = { projectId, issueNumber: n, integration: name };
  if (msg.event) {
    log.warn('dead letter of a webhook event; dropped', { ...where, event: msg.event.type });
    return;
  }
  const [header, detail] = await getItems([issueHeaderKey(projectId, n), issueDetailKey(projectId, n)]);
  if (!header || !detail) {
    log.info('dead letter of an issue that is gone', where);
    return;
  }
  const vendorId = recordedVendorId(detail, name);
  if (msg.delivered) {
    await markDelivered(projectId, name, n, msg.delivered.vendorId ?? vendorId);
    log.info('dead letter: recorded a handed-on success', where);
    return;
  }
  const st = deliveryStatusOf(detail, name);
  if (st !== 1) {
    log.info('dead letter already settled', { ...where, status: st });
    return;
  }
  const mark = vendorId ? undefined : unsettledAttempt(detail, name);
  // A young mark of another copy of this delivery: that copy may still pass; settle after it (the record
  // comes back after the DLQ's visibility timeout, longer than one delivery may run).
  const lease = deliveryQueue.consumer.timeoutSeconds * 1000;
  if (mark && !attemptOver(mark, { messageId: letter.messageId, receive: Number.POSITIVE_INFINITY }, lease))
    throw new Error('another copy of this delivery is in flight');
  const unknown = mark !== undefined && afterUnknownOutcome[name] === 'ask';
  const reason = unknown
    ? unknownOutcomeReason(name, n)
    : gaveUpReason(
        deliveryQueue.maxReceiveCount,
        'the delivery did not finish (it stopped without an answer)',
      );
  const ticket = issueHeadOf(n, header);
  // The message keeps its SentTimestamp in the DLQ: a status 1 set after it belongs to a newer delivery.
  await markForSync(projectId, name, ticket, 3, reason, {
    onlyInProgressSince: (Number.isFinite(letter.sentAt) ? letter.sentAt : Date.now()) + CLOCK_SLACK_MS,
  });
  countBusiness('deliveryFailed', name);
  log.warn('dead letter: delivery marked failed', { ...where, reason });
}
