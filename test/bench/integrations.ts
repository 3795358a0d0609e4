/**
 * Integrations fan-out (issue 11): BENCH_FANOUT_ISSUES issues (1,000 by default) fanned out to 3
 * integrations through the real queues of the local stack and the real deliverers: email through the SES
 * stand-in, webhooks to the vendor fakes' receiver (which checks every signature) and GitLab to its fake.
 * Measures the time from the first fan-out message to every status 2, deliveries per second, the DynamoDB
 * requests and write units per delivery (fan-out's share included), and duplicates: anything a target
 * received more than once.
 */
import { pathToFileURL } from 'node:url';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IntegrationName } from '#contracts/integrations';
import { db } from '#runtime/aws/dynamo';
import { sqs } from '#runtime/aws/sqs';
import { bulkSeedIssues } from '../support/issues';
import { startTestStack } from '../support/local-stack';
import { newSite } from '../support/sites';
import { cheapCostsEnv } from '../support/users';
import { startMeter } from './aws-meter';

const MAILBOX = 'bench@example.com';

/** How many mails the SES stand-in accepted for the bench's address. */
async function mailsFor(url: string): Promise<number> {
  const res = await fetch(`${url}/api/dev/emails?to=${encodeURIComponent(MAILBOX)}`);
  return ((await res.json()) as { msg: unknown[] }).msg.length;
}

export async function integrationsBench(issues = Number(process.env.BENCH_FANOUT_ISSUES ?? 1000)) {
  Object.assign(process.env, cheapCostsEnv);
  const stack = await startTestStack({ vendorFakes: true });
  const fakes = stack.vendorFakes;
  if (!fakes) throw new Error('the local stack did not start the vendor fakes');
  try {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    const integrations: [IntegrationName, Record<string, unknown>][] = [
      ['email', { email: MAILBOX, cc: [], contactFields: [] }],
      ['webhooks', { url: `${fakes.webhooks.url}/hook`, token: 'bench-token-0123456789' }],
      ['gitlab', { host: '', key: 'glpat-bench', id: '101' }],
    ];
    // Written as the save call would (the dashboard's forms are not what is measured).
    for (const [name, data] of integrations) {
      await db().send(
        new PutCommand({
          TableName: stack.tableName,
          Item: { pk: `PROJECT#${site.id}`, sk: `INTEGRATION#${name}`, name, active: 1, authorized: 1, data },
        }),
      );
    }
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { pk: `PROJECT#${site.id}`, sk: 'META' },
        UpdateExpression: 'ADD activeIntegrations :n',
        ExpressionAttributeValues: { ':n': new Set(integrations.map(([n]) => n)) },
      }),
    );
    await bulkSeedIssues(site.id, issues);

    const meter = await startMeter();
    meter.take();
    const start = performance.now();
    for (let i = 1; i <= issues; i += 10) {
      const entries = [];
      for (let n = i; n < Math.min(issues + 1, i + 10); n++)
        entries.push({
          Id: String(n),
          MessageBody: JSON.stringify({ type: 'issue.created', projectId: site.id, issueNumber: n }),
        });
      await sqs().send(new SendMessageBatchCommand({ QueueUrl: stack.queues.fanout.url, Entries: entries }));
    }
    const deliveries = issues * integrations.length;
    // Done when both fakes saw them all; then the statuses are checked (email's included).
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      if (fakes.webhooks.deliveries.length >= issues && fakes.gitlab.issues.length >= issues) {
        let passed = 0;
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await db().send(
            new QueryCommand({
              TableName: stack.tableName,
              KeyConditionExpression: 'pk = :pk AND begins_with(sk, :i)',
              FilterExpression: 'attribute_exists(st)',
              ExpressionAttributeValues: { ':pk': `PROJECT#${site.id}`, ':i': 'ISSUE#' },
              ExclusiveStartKey: startKey,
            }),
          );
          for (const item of page.Items ?? []) {
            const st = item.st as Record<string, number>;
            passed += integrations.filter(([n]) => Number(st[n]) === 2).length;
          }
          startKey = page.LastEvaluatedKey;
        } while (startKey);
        if (passed >= deliveries) break;
      }
      if (Date.now() > deadline) throw new Error('integrations bench: not all delivered within 15 minutes');
      await new Promise((r) => setTimeout(r, 500));
    }
    const ms = performance.now() - start;
    const tally = meter.take();
    meter.stop();
    const dynamo = Object.entries(tally).filter(([k]) => k.startsWith('dynamodb:'));
    const writes = dynamo.filter(([k]) => /Put|Update|Delete|Write/.test(k));
    // The bench's own status polling (Query) is not the pipeline's; leave it out.
    const pipelineReads = dynamo.filter(([k]) => /Get/.test(k));
    const sum = (rows: typeof dynamo, f: (t: (typeof dynamo)[number][1]) => number) =>
      rows.reduce((n, [, t]) => n + f(t), 0);
    return {
      issues,
      deliveries,
      ms: Math.round(ms),
      perSecond: Math.round((deliveries / ms) * 1000),
      writeRequestsPerDelivery: sum(writes, (t) => t.count) / deliveries,
      writeUnitsPerDelivery: sum(writes, (t) => t.writeUnits) / deliveries,
      readRequestsPerDelivery: sum(pipelineReads, (t) => t.count) / deliveries,
      duplicates:
        fakes.webhooks.deliveries.length -
        issues +
        (fakes.gitlab.issues.length - issues) +
        ((await mailsFor(stack.url)) - issues),
    };
  } finally {
    await stack.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await integrationsBench());
}
