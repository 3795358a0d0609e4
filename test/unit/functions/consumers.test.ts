import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverers, handler as delivery } from '../../../functions/consumers/delivery';
import { handler as fanout } from '../../../functions/consumers/fanout';
import { sqsEvent } from '../../support/events';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const projectId = '0f8fad5b-d9cb-469f-a165-70867728950e';

afterEach(() => {
  ddb.reset();
  sqs.reset();
  for (const k of Object.keys(deliverers)) delete deliverers[k as keyof typeof deliverers];
});

/** The project's META as the fan-out reads it: its owner's plan decides which integrations run. */
const paidProject = (plan = 'BASIC_PLAN', ownerPlanExpire: string | null = null) =>
  ddb
    .on(GetCommand)
    .resolves({ Item: { pk: `PROJECT#${projectId}`, sk: 'META', ownerPlan: plan, ownerPlanExpire } });

describe('fan-out consumer', () => {
  it('enqueues one delivery per active integration, and only the synced ones when asked', async () => {
    paidProject();
    ddb.on(QueryCommand).resolves({ Items: [{ name: 'email' }, { name: 'slack' }] });
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
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input.ExpressionAttributeValues).toMatchObject({
      ':pk': `PROJECT#${projectId}`,
    });
  });

  it('runs only email once the owner’s plan has lapsed (the effective plan is Free)', async () => {
    paidProject('BASIC_PLAN', '2020-01-01T00:00:00.000Z');
    ddb.on(QueryCommand).resolves({ Items: [{ name: 'email' }, { name: 'slack' }] });
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
    ddb.on(QueryCommand).resolves({ Items: [] });
    const res = await fanout(
      sqsEvent([
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1, correlationId: 'a b\n{}' }),
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1, correlationId: 'x'.repeat(129) }),
      ]),
    );
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }, { itemIdentifier: 'm1' }]);
  });

  it('reports only the bad records as failed (partial batch response)', async () => {
    paidProject();
    ddb.on(QueryCommand).resolves({ Items: [] });
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
    paidProject();
    ddb.on(QueryCommand).resolves({ Items: [{ name: 'email' }] });
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [{ Id: 'email', Code: 'x', SenderFault: false }] });
    const res = await fanout(
      sqsEvent([JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1 })]),
    );
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
  });
});

describe('delivery consumer', () => {
  it('calls the integration’s deliverer and fails records it has no deliverer for', async () => {
    const seen: string[] = [];
    deliverers.email = async (m) => {
      seen.push(`${m.integration}:${m.issueNumber}`);
    };
    const res = await delivery(
      sqsEvent([
        JSON.stringify({ projectId, issueNumber: 3, integration: 'email' }),
        JSON.stringify({ projectId, issueNumber: 3, integration: 'jira' }),
      ]),
    );
    expect(seen).toEqual(['email:3']);
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
  });
});
