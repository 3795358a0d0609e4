/**
 * One delivery (docs/data-model.md 4.8): sends one issue to one integration through its deliverer
 * (deliver.ts), and owns every status write:
 *   - the issue is gone → nothing to do; the integration switched off (or lost to the plan) → status 0
 *     and a "new" marker, so a later Sync can send it;
 *   - already passed (2) → nothing to do (a redelivered message);
 *   - success → the vendor id recorded and status 2;
 *   - `PermanentFailure` or a refused target → status 3 with the reason, and a "failed" marker, at once;
 *   - another error → retried with backoff: the message comes back after the manifest's growing
 *     `retryDelaysSeconds` (functions/runtime/retry.ts); on the last receive (the queue's maxReceiveCount)
 *     status 3 and the failed marker, and the message goes on to the DLQ.
 * Every delivery ends in 2 or 3 (docs/decisions.md "Deliveries always finish"):
 *   - the deliverer runs within the record's time budget (delivery-budget.ts);
 *   - the attempt is marked on the issue before the vendor call; a retry that finds the mark of an attempt
 *     that is over does what `afterUnknownOutcome` says (send again, or fail and ask the client to check);
 *   - when the vendor accepted but the status write fails, the outcome goes back on the queue as a
 *     `delivered` message, which only records it, so the vendor is not called again;
 *   - what dies on its last receive reaches the DLQ, settled by dead-letters.ts.
 * An issue event goes its own way (event-delivery.ts).
 */
import { deliveredUrl } from '#contracts/integrations';
import type { DeliveryMessage, IntegrationName } from '#contracts/messages';
import { trackerVendors } from '#contracts/sync';
import { getItems } from '#runtime/db';
import type { Logger } from '#runtime/log';
import { countBusiness } from '#runtime/metrics';
import { OutboundRefused, outboundFetch } from '#runtime/outbound';
import { publish } from '#runtime/publish';
import { retryDelaySeconds, retryDelays } from '#runtime/retry';
import { issueDetailKey, issueHeaderKey, storedIssueOf } from '../issues/issue';
import { planOfProject, projectKey, toProject } from '../projects/project';
import {
  afterUnknownOutcome,
  type Delivered,
  type Deliverer,
  gaveUpReason,
  PermanentFailure,
  unknownOutcomeReason,
} from './deliver';
import { vendorDeliverersBuiltIn } from './deliverers';
import { BudgetExceeded, lastReceive, withinBudget } from './delivery-budget';
import { deliveryContext, deliveryLinks } from './delivery-context';
import {
  attemptOver,
  beginAttempt,
  endAttempt,
  markDelivered,
  markForSync,
  recordedVendorId,
  recordVendorId,
  unsettledAttempt,
} from './delivery-state';
import { emailDeliverer } from './email';
import { deliverEvent, writeBackEvent } from './event-delivery';
import {
  allowedByPlan,
  defaultIntegration,
  type IntegrationRecord,
  integrationKey,
  toIntegration,
} from './integration';
import { deliveryQueue } from './queues';
import { webhooksDeliverer } from './webhooks';

/**
 * The deliverer of each integration: email, webhooks and the catalogue's vendors (deliverers/index.ts);
 * tests may replace an entry.
 */
export const deliverers: { [N in IntegrationName]?: Deliverer<N> } = {
  email: emailDeliverer,
  webhooks: webhooksDeliverer,
  ...vendorDeliverersBuiltIn,
};

/** A delivery message as the batch handler hands it on: with its correlation id. */
type Correlated = DeliveryMessage & { correlationId: string };

/** Which receive of which message this is, and the time it may take (the consumer reads them off SQS). */
export interface DeliveryReceipt {
  messageId: string;
  /** The receive count (1 on the first attempt). */
  receive: number;
  /** delivery-budget.ts `budgetMs`. */
  budgetMs: number;
}

/**
 * The vendor accepted, but the status could not be written: the outcome goes back on the queue (after the
 * first retry delay, for the database to recover) as a message that only records it. Throws when even
 * that fails; the record is then retried, and the attempt mark tells the retry the outcome is unknown.
 */
async function handOver(msg: DeliveryMessage, sent: Delivered, log: Logger): Promise<void> {
  const url = deliveredUrl(sent.url);
  const body: DeliveryMessage = {
    ...msg,
    delivered: { ...(sent.vendorId ? { vendorId: sent.vendorId } : {}), ...(url ? { url } : {}) },
  };
  const delay = retryDelaySeconds(retryDelays('delivery', deliveryQueue.retryDelaysSeconds), 1) ?? 0;
  await publish('delivery', [{ message: body, groupId: msg.projectId, delaySeconds: Math.min(900, delay) }]);
  log.warn('delivered, status write failed; the outcome was handed on through the queue', {
    projectId: msg.projectId,
    issueNumber: msg.issueNumber,
    integration: msg.integration,
  });
}

/** One delivery message: an event (to the webhook receiver or back to a tracker), or an issue. */
export async function runDelivery(msg: Correlated, log: Logger, receipt: DeliveryReceipt): Promise<void> {
  // An issue event (issue 23) is sent on its own: no status, no sync marker (decision Tr-M7); to a
  // tracker it is the two-way sync's write-back (issue 24).
  if (msg.event) {
    const tracker = trackerVendors.find((v) => v === msg.integration);
    if (tracker) return writeBackEvent(msg, tracker, msg.event, log, receipt.receive);
    return deliverEvent(msg, msg.event, log, receipt.receive);
  }
  return deliverIssue(msg, log, receipt);
}

async function deliverIssue(msg: Correlated, log: Logger, receipt: DeliveryReceipt): Promise<void> {
  const { projectId, issueNumber: n, integration: name } = msg;
  const where = { projectId, issueNumber: n, integration: name };
  const [meta, header, detail, item] = await getItems([
    projectKey(projectId),
    issueHeaderKey(projectId, n),
    issueDetailKey(projectId, n),
    integrationKey(projectId, name),
  ]);
  if (!meta || !header || !detail) {
    log.info('issue gone; nothing to deliver', where);
    return;
  }
  // A handed-on success only records what the vendor already has (a failure retries just the write).
  if (msg.delivered) {
    // Counted as passed when the vendor accepted it, not again here.
    await markDelivered(
      projectId,
      name,
      n,
      msg.delivered.vendorId ?? recordedVendorId(detail, name),
      msg.delivered.url,
    );
    log.info('delivered (recorded from the handed-on outcome)', where);
    return;
  }
  const project = toProject(meta);
  const issue = storedIssueOf(n, header, detail);
  const ticket = { number: n, title: issue.title, createdAt: issue.createdAt };
  const integration: IntegrationRecord = item ? toIntegration(item) : defaultIntegration(name);
  // A redelivered message of a passed issue does nothing, whatever changed since.
  if (issue.st[name] === 2) {
    log.info('already delivered', where);
    return;
  }
  if (integration.active !== 1 || !allowedByPlan(name, planOfProject(project))) {
    await markForSync(projectId, name, ticket, 0);
    log.info('integration inactive; back to new', where);
    return;
  }
  const deliver = deliverers[name] as Deliverer | undefined;
  const attempt = receipt.receive;
  const vendorId = recordedVendorId(detail, name);
  const unsettled = vendorId ? undefined : unsettledAttempt(detail, name);
  if (unsettled) {
    // Another copy of this delivery may still be talking to the vendor: come back later.
    const lease = deliveryQueue.consumer.timeoutSeconds * 1000;
    if (!attemptOver(unsettled, { messageId: receipt.messageId, receive: attempt }, lease))
      throw new Error('another attempt of this delivery is in flight');
    if (afterUnknownOutcome[name] === 'ask') {
      countBusiness('deliveryFailed', name);
      await markForSync(projectId, name, ticket, 3, unknownOutcomeReason(name, n));
      log.warn('earlier attempt has an unknown outcome; failed without sending again', {
        ...where,
        unsettled,
      });
      return;
    }
    log.warn('earlier attempt has an unknown outcome; sending again', { ...where, unsettled });
  }
  let sent: Delivered | undefined;
  let begun = false;
  try {
    if (!deliver) throw new Error(`no deliverer for ${name}`);
    const links = await deliveryLinks(projectId, issue, deliver.linkLifetimeMs);
    // The mark goes on before the vendor hears of the delivery; if it cannot be written, nothing is sent.
    await beginAttempt(projectId, name, n, { message: receipt.messageId, receive: attempt });
    begun = true;
    const parts = {
      issue,
      project,
      integration,
      links,
      log,
      http: outboundFetch(),
      ...(vendorId ? { vendorId } : {}),
      recordVendorId: (id: string, url?: string) => recordVendorId(projectId, name, n, id, url),
      attempt,
      correlationId: msg.correlationId,
    };
    sent = await withinBudget(receipt.budgetMs, (signal) => deliver(deliveryContext(parts, signal)));
  } catch (err) {
    countBusiness('deliveryFailed', name);
    const permanent =
      err instanceof PermanentFailure
        ? err.reason
        : err instanceof OutboundRefused && err.permanent
          ? err.message
          : null;
    if (permanent) {
      await markForSync(projectId, name, ticket, 3, permanent);
      log.warn('delivery failed permanently', { ...where, reason: permanent });
      return;
    }
    if (attempt >= lastReceive()) {
      const reason =
        err instanceof BudgetExceeded && afterUnknownOutcome[name] === 'ask'
          ? unknownOutcomeReason(name, n)
          : gaveUpReason(attempt, (err as Error).message ?? String(err));
      await markForSync(projectId, name, ticket, 3, reason);
    } else if (begun && !(err instanceof BudgetExceeded)) {
      // The vendor answered (or could not be reached): nothing was sent, so the retry sends as usual. A cut
      // budget keeps the mark: the deliverer may have been mid-call.
      await endAttempt(projectId, name, n).catch((e) =>
        log.warn('could not clear the attempt mark', { err: e }),
      );
    }
    // Each failed attempt counts; the batch handler logs it and the queue retries it (or, last, the DLQ).
    throw err;
  }
  try {
    await markDelivered(projectId, name, n, sent.vendorId ?? vendorId, sent.url);
  } catch (err) {
    log.warn('could not record the delivery', { err });
    await handOver(msg, { vendorId: sent.vendorId ?? vendorId, url: sent.url }, log);
  }
  countBusiness('deliveryPassed', name);
  log.info('delivered', { ...msg });
}
