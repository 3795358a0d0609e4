/**
 * Fan-out consumer: for a new (or re-synced) issue, enqueue one delivery per active integration of its
 * project. The integrations entity arrives with the integrations issue; `activeIntegrations` reads the
 * project's integration items straight from the table (data-model.md: pk PROJECT#id, sk INTEGRATION#name).
 */
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../core/aws/dynamo';
import { sqs } from '../core/aws/sqs';
import { batchHandler } from '../core/batch';
import { queueUrl, tableName } from '../core/config';
import { type DeliveryMessage, fanoutMessageSchema, type IntegrationName } from '../core/messages';
import { getProject, ownerPlanOf, planOf, projectPartition } from '../projects/projects';
import { plans } from '../shared/plans';

export async function activeIntegrations(projectId: string): Promise<IntegrationName[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      FilterExpression: 'active = :on',
      ExpressionAttributeValues: { ':pk': projectPartition(projectId), ':sk': 'INTEGRATION#', ':on': 1 },
      ProjectionExpression: '#n',
      ExpressionAttributeNames: { '#n': 'name' },
    }),
  );
  return (out.Items ?? []).map((i) => i.name as IntegrationName);
}

/**
 * The integrations the owner's effective plan allows (SPEC.md section 6): email always, the others only
 * with the integrations flag, so a lapsed plan stops them at once without touching their settings.
 */
export async function allowedIntegrations(projectId: string): Promise<(name: IntegrationName) => boolean> {
  const project = await getProject(projectId);
  const open = !!project && plans[planOf(ownerPlanOf(project))].integrations;
  return (name) => name === 'email' || open;
}

export const handler = batchHandler('fanout', fanoutMessageSchema, async (msg, log) => {
  const [active, allowed] = await Promise.all([
    activeIntegrations(msg.projectId),
    allowedIntegrations(msg.projectId),
  ]);
  const names = active.filter((n) => allowed(n) && (!msg.only || msg.only.includes(n)));
  // SendMessageBatch takes at most 10 entries; there are six integration kinds.
  if (names.length === 0) return;
  const entries = names.map((integration) => {
    const body: DeliveryMessage = {
      projectId: msg.projectId,
      issueNumber: msg.issueNumber,
      integration,
      correlationId: msg.correlationId,
    };
    return { Id: integration, MessageBody: JSON.stringify(body) };
  });
  const res = await sqs().send(
    new SendMessageBatchCommand({ QueueUrl: queueUrl('delivery'), Entries: entries }),
  );
  if (res.Failed?.length) throw new Error(`could not enqueue ${res.Failed.map((f) => f.Id).join(', ')}`);
  log.info('fanned out', { projectId: msg.projectId, issueNumber: msg.issueNumber, integrations: names });
});
