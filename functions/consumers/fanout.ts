/**
 * Fan-out consumer (docs/data-model.md 4.8): for a new (or re-synced) issue, one delivery message per
 * integration that is active (META's `activeIntegrations`) and that the owner's effective plan allows
 * (email always; the others need the plan's `integrations` flag). Before sending, one transaction sets
 * their `st.<name>` to 1 and deletes their sync markers; integrations left out keep status 0 and their
 * "new" marker, so a later Sync can send them. The correlation id travels on, and the project id is each
 * delivery's message group (fairness between projects).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { webhookEventsOf } from '#contracts/integrations';
import {
  fanoutMessageSchema,
  type IntegrationName,
  type IssueEventMessage,
  integrationNames,
} from '#contracts/messages';
import { type TrackerVendor, trackerVendors } from '#contracts/sync';
import { db } from '#runtime/aws/dynamo';
import { batchHandler } from '#runtime/batch';
import { tableName } from '#runtime/config';
import { getItems } from '#runtime/db';
import type { Logger } from '#runtime/log';
import { publish } from '#runtime/publish';
import { startDeliveries } from '../integrations/delivery-state';
import { allowedByPlan, integrationKey, toIntegration } from '../integrations/integration';
import { mayWriteBack } from '../integrations/sync/writeback';
import { noteForReporter } from '../issues/reporter-events';
import { planOfProject, projectKey, toProject } from '../projects/project';

/** The integrations a project delivers to now: active and allowed by the owner's effective plan (A21). */
export async function activeIntegrations(projectId: string): Promise<IntegrationName[]> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: projectKey(projectId) }));
  if (!out.Item) return [];
  const project = toProject(out.Item);
  const plan = planOfProject(project);
  const active = project.activeIntegrations ?? new Set<string>();
  return integrationNames.filter((n) => active.has(n) && allowedByPlan(n, plan));
}

/**
 * Whether the project's webhook integration is active, allowed by the plan and subscribes to `event`
 * (its `events`, decision Tr-M6): one BatchGetItem of META and the integration.
 */
export async function webhookSubscribes(
  projectId: string,
  event: IssueEventMessage['type'],
): Promise<boolean> {
  const [meta, item] = await getItems([projectKey(projectId), integrationKey(projectId, 'webhooks')]);
  if (!meta || !item) return false;
  const project = toProject(meta);
  const integration = toIntegration(item);
  if (!project.activeIntegrations?.has('webhooks') || integration.active !== 1) return false;
  if (!allowedByPlan('webhooks', planOfProject(project))) return false;
  return webhookEventsOf(integration.data as { events?: IssueEventMessage['type'][] }).includes(event);
}

/**
 * The tracker integrations (issue 24's two-way sync) an event may go back to: active and allowed by the
 * plan (META), and not the tracker the change came from (no echo). The delivery consumer checks the
 * integration's options and sends (functions/integrations/sync/writeback.ts).
 */
async function trackersFor(msg: IssueEventMessage): Promise<TrackerVendor[]> {
  const candidates = trackerVendors.filter((v) => mayWriteBack(v, msg));
  if (candidates.length === 0) return [];
  const active = new Set(await activeIntegrations(msg.projectId));
  return candidates.filter((v) => active.has(v));
}

/**
 * Issue 23's events (issue.updated, comment.created) owe the reporter a mail where they concern them
 * (issues/reporter-events.ts), go to the webhook integration when it subscribes to them, and to the tracker
 * integrations that sync them back (issue 24): one delivery message each, carrying
 * the event, which the delivery consumer sends and retries without touching the issue's statuses
 * (functions/integrations/webhook-events.ts, functions/integrations/sync/writeback.ts). The other
 * integrations get nothing of them.
 */
async function fanOutEvent(msg: IssueEventMessage & { correlationId: string }, log: Logger) {
  // The reporter's mails first (issue 24): a failure retries the message before any webhook went out.
  await noteForReporter(msg);
  const { type, actor, at, changes, commentId } = msg;
  const targets: IntegrationName[] = [
    ...((await webhookSubscribes(msg.projectId, msg.type)) ? (['webhooks'] as const) : []),
    ...(await trackersFor(msg)),
  ];
  if (targets.length === 0) return;
  await publish(
    'delivery',
    targets.map((integration) => ({
      id: integration,
      groupId: msg.projectId,
      message: {
        projectId: msg.projectId,
        issueNumber: msg.issueNumber,
        integration,
        correlationId: msg.correlationId,
        event: { type, actor, at, ...(changes ? { changes } : {}), ...(commentId ? { commentId } : {}) },
      },
    })),
  );
  log.info('event fanned out', {
    projectId: msg.projectId,
    issueNumber: msg.issueNumber,
    event: type,
    integrations: targets,
  });
}

export const handler = batchHandler('fanout', fanoutMessageSchema, async (msg, log) => {
  if (msg.type !== 'issue.created') return fanOutEvent(msg, log);
  const wanted = (await activeIntegrations(msg.projectId)).filter((n) => !msg.only || msg.only.includes(n));
  if (wanted.length === 0) return;
  const names = await startDeliveries(msg.projectId, msg.issueNumber, wanted);
  // SendMessageBatch takes at most 10 entries; there are six integration kinds.
  if (names.length === 0) return;
  // The project is the tenant of SQS fair queues: when one project's deliveries pile up (a flood of reports
  // to a slow webhook), SQS serves the other projects' messages first (docs/decisions.md). A failed entry
  // fails the message: the fan-out runs again, finds those at 1 and sends them again.
  await publish(
    'delivery',
    names.map((integration) => ({
      id: integration,
      groupId: msg.projectId,
      message: {
        projectId: msg.projectId,
        issueNumber: msg.issueNumber,
        integration,
        correlationId: msg.correlationId,
      },
    })),
  );
  log.info('fanned out', { projectId: msg.projectId, issueNumber: msg.issueNumber, integrations: names });
});
