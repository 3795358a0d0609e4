/**
 * What a post-only destination's delivery test reads of the local stack: an issue's stored detail, a wait
 * for its status at one integration, the integration as the project screen shows it, and a second
 * delivery message for the same issue (a redelivery), shared by the Teams and Discord tests.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { IntegrationName } from '#contracts/integration-names';
import { db } from '#runtime/aws/dynamo';
import { sqs } from '#runtime/aws/sqs';
import { eventually } from './local-stack';
import type { Site } from './sites';

interface Stack {
  url: string;
  tableName: string;
  queues: { delivery: { url: string } };
}

/** `site` is read when called: the tests make it in `beforeAll`. */
export function deliveryProbe(stack: Stack, site: () => Site, integration: IntegrationName) {
  const detailKey = (n: number) => ({
    pk: `PROJECT#${site().id}`,
    sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL`,
  });
  async function detail(n: number): Promise<Record<string, unknown>> {
    const out = await db().send(
      new GetCommand({ TableName: stack.tableName, Key: detailKey(n), ConsistentRead: true }),
    );
    return out.Item ?? {};
  }
  const status = (n: number, want: number) =>
    eventually(
      async () => {
        const d = await detail(n);
        return Number((d.st as Record<string, number>)?.[integration]) === want ? d : undefined;
      },
      45_000,
      `${integration} status ${want}`,
    );
  async function view() {
    const res = await site().client.get(`/api/client/website/${site().id}`);
    const project = (res.body as { msg: { integrations: { name: string }[] } }).msg;
    // biome-ignore lint/suspicious/noExplicitAny: the integration's answer is checked by the assertions.
    return project.integrations.find((i) => i.name === integration) as any;
  }
  const redeliver = (n: number) =>
    sqs().send(
      new SendMessageCommand({
        QueueUrl: stack.queues.delivery.url,
        MessageBody: JSON.stringify({
          projectId: site().id,
          issueNumber: n,
          integration,
          correlationId: 'again',
        }),
      }),
    );
  return { detailKey, detail, status, view, redeliver };
}
