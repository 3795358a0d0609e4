import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverers, handler as delivery } from '../../../functions/consumers/delivery';
import { handler as fanout } from '../../../functions/consumers/fanout';
import { sqsEvent } from '../../support/events';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const projectId = '0f8fad5b-d9cb-469f-a165-70867728950e';
/** META with integrations switched on, on a plan that allows them (or not). */
const meta = (names: string[], plan = 'BASIC_PLAN', ownerPlanExpire: string | null = null) => ({
  Item: {
    pk: `PROJECT#${projectId}`,
    sk: 'META',
    id: projectId,
    ownerPlan: plan,
    ownerPlanExpire,
    activeIntegrations: new Set(names),
  },
});

afterEach(() => {
  ddb.reset();
  sqs.reset();
  for (const k of Object.keys(deliverers)) delete deliverers[k as keyof typeof deliverers];
});

describe('fan-out consumer', () => {
  it('enqueues one delivery per active integration, and only the synced ones when asked', async () => {
    ddb.on(GetCommand).resolves(meta(['email', 'slack']));
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const res = await fanout(
      sqsEvent([
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 7, correlationId: 'req-7' }),
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 8, only: ['slack'] }),
      ]),
    );
    expect(res.batchItemFailures).toEqual([]);
    const sent = sqs
      .commandCalls(SendMessageBatchCommand)
      .map((c) => c.args[0].input.Entries?.map((e) => JSON.parse(e.MessageBody ?? '')));
    expect(sent).toEqual([
      [
        { projectId, issueNumber: 7, integration: 'email', correlationId: 'req-7' },
        { projectId, issueNumber: 7, integration: 'slack', correlationId: 'req-7' },
      ],
      // A message without a correlation id (sent before there were any) is followed by its message id.
      [{ projectId, issueNumber: 8, integration: 'slack', correlationId: 'm1' }],
    ]);
    expect(ddb.commandCalls(GetCommand)[0]?.args[0].input.Key).toEqual({
      pk: `PROJECT#${projectId}`,
      sk: 'META',
    });
    // Status 1 and the markers deleted, in one transaction per issue, before the messages go out.
    const tx = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(tx.map((i) => Object.keys(i)[0])).toEqual(['Update', 'Delete', 'Delete']);
    expect(tx[0]?.Update?.ConditionExpression).toContain('attribute_exists(pk)');
  });

  it('sends only email when the owner’s plan has no integrations', async () => {
    ddb.on(GetCommand).resolves(meta(['email', 'webhooks', 'slack'], 'FREE_PLAN'));
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const res = await fanout(
      sqsEvent([JSON.stringify({ type: 'issue.created', projectId, issueNumber: 2 })]),
    );
    expect(res.batchItemFailures).toEqual([]);
    const sent = sqs.commandCalls(SendMessageBatchCommand)[0]?.args[0].input.Entries ?? [];
    expect(sent.map((e) => JSON.parse(e.MessageBody ?? '').integration)).toEqual(['email']);
  });

  it('runs only email once the owner’s plan has lapsed (the effective plan is Free)', async () => {
    ddb.on(GetCommand).resolves(meta(['email', 'slack'], 'BASIC_PLAN', '2020-01-01T00:00:00.000Z'));
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const res = await fanout(
      sqsEvent([JSON.stringify({ type: 'issue.created', projectId, issueNumber: 7 })]),
    );
    expect(res.batchItemFailures).toEqual([]);
    const sent = sqs
      .commandCalls(SendMessageBatchCommand)
      .map((c) => c.args[0].input.Entries?.map((e) => JSON.parse(e.MessageBody ?? '').integration));
    expect(sent).toEqual([['email']]);
  });

  it('refuses a correlation id that is not an id', async () => {
    ddb.on(GetCommand).resolves(meta([]));
    const res = await fanout(
      sqsEvent([
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1, correlationId: 'a b\n{}' }),
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1, correlationId: 'x'.repeat(129) }),
      ]),
    );
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }, { itemIdentifier: 'm1' }]);
  });

  it('reports only the bad records as failed (partial batch response)', async () => {
    ddb.on(GetCommand).resolves(meta([]));
    const res = await fanout(
      sqsEvent([
        'not json',
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1 }),
        '{"type":"x"}',
      ]),
    );
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }, { itemIdentifier: 'm2' }]);
  });

  it('fails a record whose deliveries could not all be enqueued, so it is retried', async () => {
    ddb.on(GetCommand).resolves(meta(['email']));
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [{ Id: 'email', Code: 'x', SenderFault: false }] });
    const res = await fanout(
      sqsEvent([JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1 })]),
    );
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
  });
});

describe('delivery consumer', () => {
  const items = (n: number, active: Record<string, number>) => ({
    Responses: {
      [process.env.TABLE_NAME ?? 'snag']: [
        meta(Object.keys(active)).Item,
        {
          pk: `PROJECT#${projectId}`,
          sk: `ISSUE#${String(n).padStart(10, '0')}`,
          title: 'T',
          createdAt: 'x',
        },
        {
          pk: `PROJECT#${projectId}`,
          sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL`,
          msg: 'm',
          st: { email: 1, jira: 1 },
        },
        ...Object.entries(active).map(([name, on]) => ({
          pk: `PROJECT#${projectId}`,
          sk: `INTEGRATION#${name}`,
          name,
          active: on,
          data: {},
        })),
      ],
    },
  });

  it('calls the integration’s deliverer, records status 2, and fails records it has no deliverer for', async () => {
    const seen: string[] = [];
    deliverers.email = async (ctx) => {
      seen.push(`${ctx.integration.name}:${ctx.issue.number}`);
      return { vendorId: 'v-1' };
    };
    ddb.on(BatchGetCommand).resolves(items(3, { email: 1, jira: 1 }));
    ddb.on(UpdateCommand).resolves({});
    const res = await delivery(
      sqsEvent([
        JSON.stringify({ projectId, issueNumber: 3, integration: 'email' }),
        JSON.stringify({ projectId, issueNumber: 3, integration: 'jira' }),
      ]),
    );
    expect(seen).toEqual(['email:3']);
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
    const update = ddb.commandCalls(UpdateCommand)[0]?.args[0].input;
    expect(update?.UpdateExpression).toContain('st.#x = :two');
    expect(update?.ExpressionAttributeValues).toMatchObject({ ':two': 2, ':v': 'v-1' });
    expect(update?.ConditionExpression).toBe('attribute_exists(pk)');
  });
});
