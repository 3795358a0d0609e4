/** A client's project for tests of what visitors send: signed in, on a plan, optionally with integrations. */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IntegrationView } from '#contracts/integrations';
import type { IntegrationName } from '#contracts/messages';
import type { PlanName } from '#contracts/plans';
import { db } from '#runtime/aws/dynamo';
import type { ApiClient } from './api-client';
import { signedIn } from './users';

export interface Site {
  client: ApiClient;
  email: string;
  id: string;
}

/** A signed-in client with one project for shop.example, on `plan` (set through the local-only route). */
export async function newSite(baseUrl: string, plan: PlanName = 'FREE_PLAN'): Promise<Site> {
  const { client, email } = await signedIn(baseUrl);
  const created = await client.post<{ id: string }>('/api/client/website', {
    name: 'Shop',
    url: 'shop.example',
  });
  const id = (created.body as { msg: { id: string } }).msg.id;
  if (plan !== 'FREE_PLAN') {
    const res = await client.post('/api/dev/plan', { username: email, plan, days: 30 });
    if (res.status !== 200) throw new Error(`plan not set: ${JSON.stringify(res.body)}`);
  }
  return { client, email, id };
}

/** The server's view of integration `name` of the site's project (what the dashboard loads), not a screen's. */
export async function storedIntegration<N extends IntegrationName>(
  site: Site,
  name: N,
): Promise<Extract<IntegrationView, { name: N }>> {
  const res = await site.client.get<{ integrations: IntegrationView[] }>(`/api/client/website/${site.id}`);
  if (res.body.status !== 'success') throw new Error(`project not read: ${res.body.code}`);
  const found = res.body.msg.integrations.find(
    (i): i is Extract<IntegrationView, { name: N }> => i.name === name,
  );
  if (!found) throw new Error(`no ${name} in the project answer`);
  return found;
}

/**
 * Turns an integration on as its save will (data-model 4.8): the item with active 1, and its name in the
 * project's `activeIntegrations`. The integration screens arrive with the integrations issue.
 */
export async function activateIntegration(tableName: string, projectId: string, name: IntegrationName) {
  await db().send(
    new PutCommand({
      TableName: tableName,
      Item: { pk: `PROJECT#${projectId}`, sk: `INTEGRATION#${name}`, name, active: 1, authorized: 1 },
    }),
  );
  await db().send(
    new UpdateCommand({
      TableName: tableName,
      Key: { pk: `PROJECT#${projectId}`, sk: 'META' },
      UpdateExpression: 'ADD activeIntegrations :n',
      ExpressionAttributeValues: { ':n': new Set([name]) },
    }),
  );
}
