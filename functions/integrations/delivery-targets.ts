/**
 * Where an issue or an event goes (docs/data-model.md 4.8): the one rule of which integrations receive
 * what, read once per message.
 *   - a new (or re-synced) issue: every integration that is active (META's `activeIntegrations`) and that
 *     the owner's effective plan allows (email always; the others need the plan's `integrations` flag);
 *   - an event (issue 23's `issue.updated`, `comment.created`): the webhook integration while it subscribes
 *     to it (`webhookSubscribed`), and the trackers that sync it back (issue 24; not the one it came from).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { webhookEventsOf } from '#contracts/integrations';
import { type IntegrationName, type IssueEventMessage, integrationNames } from '#contracts/messages';
import { type TrackerVendor, trackerVendors } from '#contracts/sync';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/config';
import { getItems } from '#runtime/db';
import { type Project, planOfProject, projectKey, toProject } from '../projects/project';
import { allowedByPlan, type IntegrationRecord, integrationKey, toIntegration } from './integration';
import { mayWriteBack } from './sync/writeback';

/** The integrations the project delivers to now: active and allowed by the owner's effective plan (A21). */
export function deliveringTo(project: Project): IntegrationName[] {
  const plan = planOfProject(project);
  const active = project.activeIntegrations ?? new Set<string>();
  return integrationNames.filter((n) => active.has(n) && allowedByPlan(n, plan));
}

/**
 * Whether the webhook integration takes `event`: delivering (active on META and allowed by the plan),
 * switched on itself, and subscribed to the event (its `events`, decision Tr-M6). The fan-out asks it before
 * sending, the delivery again before the receiver hears of it (the settings may have changed in between).
 */
export function webhookSubscribed(
  project: Project,
  integration: IntegrationRecord | undefined,
  event: IssueEventMessage['type'],
): boolean {
  if (integration?.active !== 1 || !deliveringTo(project).includes('webhooks')) return false;
  return webhookEventsOf(integration.data as { events?: IssueEventMessage['type'][] }).includes(event);
}

/** The integrations a new issue of the project goes to (one GetItem of META). */
export async function issueTargets(projectId: string): Promise<IntegrationName[]> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: projectKey(projectId) }));
  return out.Item ? deliveringTo(toProject(out.Item)) : [];
}

/**
 * The integrations an event goes to: the webhook receiver when subscribed, and the trackers that may write
 * it back and are delivering (no echo to the tracker it came from). One BatchGetItem of META and the webhook
 * integration; the delivery checks each tracker's own options when it sends (sync/writeback.ts).
 */
export async function eventTargets(msg: IssueEventMessage): Promise<IntegrationName[]> {
  const [meta, webhooks] = await getItems([
    projectKey(msg.projectId),
    integrationKey(msg.projectId, 'webhooks'),
  ]);
  if (!meta) return [];
  const project = toProject(meta);
  const delivering = deliveringTo(project);
  const trackers: TrackerVendor[] = trackerVendors.filter(
    (v) => mayWriteBack(v, msg) && delivering.includes(v),
  );
  return [
    ...(webhookSubscribed(project, webhooks && toIntegration(webhooks), msg.type)
      ? (['webhooks'] as const)
      : []),
    ...trackers,
  ];
}
