/**
 * Delivery consumer (docs/data-model.md 4.8): sends one issue to one integration through its deliverer
 * (functions/integrations/deliver.ts), and owns every status write:
 *   - the issue is gone → nothing to do; the integration switched off (or lost to the plan) → status 0
 *     and a "new" marker, so a later Sync can send it;
 *   - already passed (2) → nothing to do (a redelivered message);
 *   - success → the vendor id recorded and status 2;
 *   - `PermanentFailure` or a refused target → status 3 with the reason, and a "failed" marker, at once;
 *   - another error → retried with backoff: the message comes back after the manifest's growing
 *     `retryDelaysSeconds` (functions/core/retry.ts); on the last receive (ApproximateReceiveCount ≥ the
 *     queue's maxReceiveCount) status 3 and the failed marker, and the message goes on to the DLQ.
 */
import { batchHandler } from '../core/batch';
import { getItems } from '../core/db';
import { deliveryMessageSchema, type IntegrationName } from '../core/messages';
import { countBusiness } from '../core/metrics';
import { OutboundRefused, outboundFetch } from '../core/outbound';
import { receiveCount } from '../core/retry';
import {
  type Deliverer,
  type DeliveryContext,
  type DeliveryIssue,
  PermanentFailure,
} from '../integrations/deliver';
import { emailDeliverer } from '../integrations/email';
import {
  allowedByPlan,
  defaultIntegration,
  type IntegrationRecord,
  integrationKey,
  markDelivered,
  markForSync,
  recordedVendorId,
  recordVendorId,
  toIntegration,
} from '../integrations/integrations';
import { fileLink, issueLink } from '../integrations/links';
import { vendorDeliverersBuiltIn } from '../integrations/vendors/deliverers';
import { webhooksDeliverer } from '../integrations/webhooks';
import { issueDetailKey, issueHeaderKey } from '../issues/issues';
import { presignStored } from '../issues/review';
import { queueDecls } from '../manifests';
import { ownerPlanOf, planOf, projectKey, toProject } from '../projects/projects';

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
const lastReceive = () => queueDecls.delivery.maxReceiveCount;

const screenshotLabel = (i: number, type: string) => `screenshot-${i + 1}.${type}`;

export const handler = batchHandler(
  'delivery',
  deliveryMessageSchema,
  async (msg, log, record) => {
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
    if (integration.active !== 1 || !allowedByPlan(name, planOf(ownerPlanOf(project)))) {
      await markForSync(projectId, name, ticket, 0);
      log.info('integration inactive; back to new', { projectId, issueNumber: n, integration: name });
      return;
    }
    const deliver = deliverers[name] as Deliverer | undefined;
    const attempt = receiveCount(record);
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
      const vendorId = recordedVendorId(detail, name);
      const ctx: DeliveryContext = {
        issue,
        project,
        integration,
        issueUrl: issueLink(projectId, n),
        screenshots,
        files,
        readObject: async (objectName) => {
          const kind = issue.files.some((f) => f.name === objectName) ? 'file' : 'screenshot';
          const res = await fetch(await presignStored(projectId, kind, objectName, true));
          if (!res.ok) throw new Error(`could not read ${objectName}: ${res.status}`);
          return new Uint8Array(await res.arrayBuffer());
        },
        log,
        http: outboundFetch(),
        ...(vendorId ? { vendorId } : {}),
        recordVendorId: (id) => recordVendorId(projectId, name, n, id),
        deliveryId: `${projectId}:${n}:${name}`,
        attempt,
        correlationId: msg.correlationId,
      };
      const result = await deliver(ctx);
      await markDelivered(projectId, name, n, result.vendorId ?? vendorId);
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
        const reason = `Gave up after ${attempt} attempts: ${(err as Error).message ?? String(err)}`.slice(
          0,
          500,
        );
        await markForSync(projectId, name, ticket, 3, reason);
      }
      // Each failed attempt counts; the batch handler logs it and the queue retries it (or, last, the DLQ).
      throw err;
    }
    countBusiness('deliveryPassed', name);
    log.info('delivered', { ...msg });
  },
  { queue: 'delivery', ...queueDecls.delivery },
);
