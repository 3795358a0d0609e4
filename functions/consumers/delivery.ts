/**
 * Delivery consumer (docs/data-model.md 4.8): sends one issue to one integration through its deliverer
 * (functions/integrations/deliver.ts), one record per invocation, and owns every status write:
 *   - the issue is gone → nothing to do; the integration switched off (or lost to the plan) → status 0
 *     and a "new" marker, so a later Sync can send it;
 *   - already passed (2) → nothing to do (a redelivered message);
 *   - success → the vendor id recorded and status 2;
 *   - `PermanentFailure` or a refused target → status 3 with the reason, and a "failed" marker, at once;
 *   - another error → retried with backoff: the message comes back after the manifest's growing
 *     `retryDelaysSeconds` (functions/runtime/retry.ts); on the last receive (ApproximateReceiveCount ≥ the
 *     queue's maxReceiveCount) status 3 and the failed marker, and the message goes on to the DLQ.
 * Every delivery ends in 2 or 3 (docs/decisions.md "Deliveries always finish"):
 *   - the deliverer runs within a time budget (the invocation's time left, less a reserve for the writes);
 *     when it runs out the consumer stops waiting, so a last receive still writes status 3 itself;
 *   - the attempt is marked on the issue before the vendor call; a retry that finds the mark of an attempt
 *     that is over does what `afterUnknownOutcome` says (send again, or fail and ask the client to check);
 *   - when the vendor accepted but the status write fails, the outcome goes back on the queue as a
 *     `delivered` message, which only records it, so the vendor is not called again;
 *   - what dies on its last receive reaches the DLQ, whose consumer (delivery-dlq.ts) marks it failed.
 */
import type { Context, SQSRecord } from 'aws-lambda';
import { deliveredUrl, webhookEventsOf } from '#contracts/integrations';
import { type DeliveryMessage, deliveryMessageSchema, type IntegrationName } from '#contracts/messages';
import { type TrackerVendor, trackerVendors } from '#contracts/sync';
import { batchHandler } from '#runtime/batch';
import { getItems } from '#runtime/db';
import type { Logger } from '#runtime/log';
import { countBusiness } from '#runtime/metrics';
import { OutboundRefused, outboundFetch } from '#runtime/outbound';
import { publish } from '#runtime/publish';
import { receiveCount, retryDelaySeconds, retryDelays } from '#runtime/retry';
import {
  afterUnknownOutcome,
  type Delivered,
  type Deliverer,
  type DeliveryContext,
  type DeliveryIssue,
  gaveUpReason,
  PermanentFailure,
  unknownOutcomeReason,
} from '../integrations/deliver';
import { vendorDeliverersBuiltIn } from '../integrations/deliverers';
import {
  attemptOver,
  beginAttempt,
  endAttempt,
  markDelivered,
  markForSync,
  recordedVendorId,
  recordVendorId,
  unsettledAttempt,
} from '../integrations/delivery-state';
import { emailDeliverer } from '../integrations/email';
import {
  allowedByPlan,
  defaultIntegration,
  type IntegrationRecord,
  integrationKey,
  toIntegration,
} from '../integrations/integration';
import { fileLink, issueLink } from '../integrations/links';
import { deliveryQueue } from '../integrations/queues';
import { writeBack } from '../integrations/sync/writeback';
import { isVendorError } from '../integrations/vendors/http';
import { type EventComment, eventPayload, type IssueEvent, sendEvent } from '../integrations/webhook-events';
import { webhooksDeliverer } from '../integrations/webhooks';
import { presignStored } from '../issues/downloads';
import { issueDetailKey, issueHeaderKey } from '../issues/issue';
import { timelineKey } from '../issues/timeline';
import { planOfProject, projectKey, toProject } from '../projects/project';

/**
 * The deliverer of each integration. The vendor issue registers GitLab, Jira, Slack and Asana here;
 * tests may replace an entry.
 */
export const deliverers: { [N in IntegrationName]?: Deliverer<N> } = {
  email: emailDeliverer,
  webhooks: webhooksDeliverer,
  ...vendorDeliverersBuiltIn,
};

/** Receives before the DLQ, as the manifest declares it (the local stack creates the queue from it too). */
const lastReceive = () => deliveryQueue.maxReceiveCount;

/**
 * The time budget of one record: the invocation's time left, less a reserve (a quarter of it, at most 10 s)
 * for the status write or the hand-over after the deliverer stops. Without a Lambda context (unit tests),
 * the consumer's declared timeout.
 */
export function budgetMs(context: Pick<Context, 'getRemainingTimeInMillis'> | undefined): number {
  const left = context?.getRemainingTimeInMillis() ?? deliveryQueue.consumer.timeoutSeconds * 1000;
  return Math.max(0, left - Math.min(10_000, left / 4));
}

/** Thrown when the budget runs out: the deliverer may still be talking to the vendor (an unknown outcome). */
export class BudgetExceeded extends Error {
  constructor(ms: number) {
    super(`the delivery did not finish within its ${Math.round(ms / 1000)} s budget`);
    this.name = 'BudgetExceeded';
  }
}

/** Runs `work` with a signal that aborts after `ms`; rejects with BudgetExceeded then, whether or not it stops. */
async function withinBudget<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new BudgetExceeded(ms);
      abort.abort(err);
      reject(err);
    }, ms);
  });
  try {
    return await Promise.race([work(abort.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
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

const screenshotLabel = (i: number, type: string) => `screenshot-${i + 1}.${type}`;

/**
 * One webhook event (functions/integrations/webhook-events.ts): read the project, the issue, the webhook
 * integration and (comment.created) the comment in one BatchGetItem; send when still subscribed; a transient
 * failure is thrown (the queue retries it with backoff) until the last receive, then dropped with a warning;
 * a permanent one is dropped at once. Never reaches the DLQ, never touches the issue's statuses.
 */
async function deliverEvent(msg: DeliveryMessage, event: IssueEvent, log: Logger, record: SQSRecord) {
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
  const subscribed =
    integration.active === 1 &&
    project.activeIntegrations?.has('webhooks') &&
    allowedByPlan('webhooks', planOfProject(project)) &&
    webhookEventsOf(integration.data).includes(event.type);
  if (!subscribed) {
    log.info('webhook no longer subscribed; event dropped', where);
    return;
  }
  const payload = eventPayload(
    {
      project: { id: project.id, name: project.name, url: project.url },
      issue: { number: n, title: String(header.title ?? ''), url: issueLink(projectId, n) },
    },
    event,
    stored?.kind === 'comment' ? (stored as unknown as EventComment) : null,
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
    const attempt = receiveCount(record);
    // Every failed attempt counts as the issue deliveries' do, so the dashboard's graph shows a failing receiver.
    countBusiness('deliveryFailed', 'webhooks');
    if (!permanent && attempt < lastReceive()) throw err;
    log.warn('webhook event dropped', {
      ...where,
      deliveryId: payload.deliveryId,
      attempt,
      reason: (err as Error).message ?? String(err),
    });
  }
}

/**
 * One issue event back to a tracker (issue 24, functions/integrations/sync/writeback.ts): a transient
 * failure is thrown (the queue retries it with backoff) until the last receive, then dropped with a
 * warning, as a webhook event is; a permanent one (the token refused, the issue gone there) at once.
 */
async function writeBackEvent(
  msg: DeliveryMessage,
  vendor: TrackerVendor,
  event: IssueEvent,
  log: Logger,
  record: SQSRecord,
) {
  const where = { projectId: msg.projectId, issueNumber: msg.issueNumber, vendor, event: event.type };
  try {
    await writeBack(msg.projectId, msg.issueNumber, vendor, event, log);
  } catch (err) {
    const permanent =
      (isVendorError(err) && err.permanent) || (err instanceof OutboundRefused && err.permanent);
    const attempt = receiveCount(record);
    countBusiness('deliveryFailed', vendor);
    if (!permanent && attempt < lastReceive()) throw err;
    log.warn('tracker write-back dropped', {
      ...where,
      attempt,
      reason: (err as Error).message ?? String(err),
    });
  }
}

export const handler = batchHandler(
  'delivery',
  deliveryMessageSchema,
  async (msg, log, record, context) => {
    // An issue event (issue 23) is sent on its own: no status, no sync marker (decision Tr-M7); to a
    // tracker it is the two-way sync's write-back (issue 24).
    if (msg.event) {
      const tracker = trackerVendors.find((v) => v === msg.integration);
      if (tracker) return writeBackEvent(msg, tracker, msg.event, log, record);
      return deliverEvent(msg, msg.event, log, record);
    }
    const { projectId, issueNumber: n, integration: name } = msg;
    const [meta, header, detail, item] = await getItems([
      projectKey(projectId),
      issueHeaderKey(projectId, n),
      issueDetailKey(projectId, n),
      integrationKey(projectId, name),
    ]);
    if (!meta || !header || !detail) {
      log.info('issue gone; nothing to deliver', { projectId, issueNumber: n, integration: name });
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
      log.info('delivered (recorded from the handed-on outcome)', {
        projectId,
        issueNumber: n,
        integration: name,
      });
      return;
    }
    const project = toProject(meta);
    const ticket = {
      number: n,
      title: String(header.title ?? ''),
      createdAt: String(header.createdAt ?? ''),
    };
    const integration: IntegrationRecord = item ? toIntegration(item) : defaultIntegration(name);
    // A redelivered message of a passed issue does nothing, whatever changed since.
    const st = (detail.st ?? {}) as Record<string, number>;
    if (Number(st[name]) === 2) {
      log.info('already delivered', { projectId, issueNumber: n, integration: name });
      return;
    }
    if (integration.active !== 1 || !allowedByPlan(name, planOfProject(project))) {
      await markForSync(projectId, name, ticket, 0);
      log.info('integration inactive; back to new', { projectId, issueNumber: n, integration: name });
      return;
    }
    const deliver = deliverers[name] as Deliverer | undefined;
    const attempt = receiveCount(record);
    const vendorId = recordedVendorId(detail, name);
    const unsettled = vendorId ? undefined : unsettledAttempt(detail, name);
    if (unsettled) {
      // Another copy of this delivery may still be talking to the vendor: come back later.
      const lease = deliveryQueue.consumer.timeoutSeconds * 1000;
      if (!attemptOver(unsettled, { messageId: record.messageId, receive: attempt }, lease))
        throw new Error('another attempt of this delivery is in flight');
      if (afterUnknownOutcome[name] === 'ask') {
        countBusiness('deliveryFailed', name);
        await markForSync(projectId, name, ticket, 3, unknownOutcomeReason(name, n));
        log.warn('earlier attempt has an unknown outcome; failed without sending again', {
          projectId,
          issueNumber: n,
          integration: name,
          unsettled,
        });
        return;
      }
      log.warn('earlier attempt has an unknown outcome; sending again', {
        projectId,
        issueNumber: n,
        integration: name,
        unsettled,
      });
    }
    const budget = budgetMs(context);
    let sent: Delivered | undefined;
    let begun = false;
    try {
      if (!deliver) throw new Error(`no deliverer for ${name}`);
      const issue: DeliveryIssue = {
        ...ticket,
        msg: String(detail.msg ?? ''),
        data: (detail.data ?? {}) as DeliveryIssue['data'],
        files: (detail.files ?? []) as DeliveryIssue['files'],
        screenshots: (detail.screenshots ?? []) as DeliveryIssue['screenshots'],
        logs: (detail.logs ?? []) as DeliveryIssue['logs'],
      };
      const [screenshots, files] = await Promise.all([
        Promise.all(
          issue.screenshots.map(async (s, i) => ({
            name: s.name,
            label: screenshotLabel(i, s.type),
            type: s.type,
            size: s.size,
            url: await fileLink({ p: projectId, k: 'screenshot', n: s.name }),
          })),
        ),
        Promise.all(
          issue.files.map(async (f) => ({
            name: f.name,
            label: f.original_name,
            type: f.type,
            size: f.size,
            url: await fileLink({ p: projectId, k: 'file', n: f.name }),
          })),
        ),
      ]);
      // The mark goes on before the vendor hears of the delivery; if it cannot be written, nothing is sent.
      await beginAttempt(projectId, name, n, { message: record.messageId, receive: attempt });
      begun = true;
      const http = outboundFetch();
      sent = await withinBudget(budget, (signal) => {
        const ctx: DeliveryContext = {
          issue,
          project,
          integration,
          issueUrl: issueLink(projectId, n),
          screenshots,
          files,
          readObject: async (objectName) => {
            const kind = issue.files.some((f) => f.name === objectName) ? 'file' : 'screenshot';
            const res = await fetch(await presignStored(projectId, kind, objectName, true), { signal });
            if (!res.ok) throw new Error(`could not read ${objectName}: ${res.status}`);
            return new Uint8Array(await res.arrayBuffer());
          },
          log,
          http: (url, init = {}) =>
            http(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, signal]) : signal }),
          ...(vendorId ? { vendorId } : {}),
          recordVendorId: (id, url) => recordVendorId(projectId, name, n, id, url),
          deliveryId: `${projectId}:${n}:${name}`,
          attempt,
          correlationId: msg.correlationId,
          signal,
        };
        return deliver(ctx);
      });
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
        log.warn('delivery failed permanently', {
          projectId,
          issueNumber: n,
          integration: name,
          reason: permanent,
        });
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
  },
  { queue: 'delivery', ...deliveryQueue },
);
