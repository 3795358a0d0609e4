/**
 * The async path through the local stack: fauxqs queues, the pollers that play Lambda's event source, the
 * real consumers. Short visibility timeouts and receive counts make the DLQ reachable in seconds.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverers } from '../../functions/integrations/delivery-run';
import { emailDeliverer } from '../../functions/integrations/email';
import { localCredentials } from '../../lib/local/credentials';
import { succeededRecords, toSqsRecord } from '../../lib/local/poller';
import { eventually } from '../support/local-stack';
import { setUpTestStack } from '../support/stack-fixture';

const stack = setUpTestStack({
  cheapCosts: false,
  queues: {
    fanout: { visibilityTimeoutSeconds: 1, maxReceiveCount: 2 },
    delivery: { visibilityTimeoutSeconds: 1, maxReceiveCount: 2, retryDelaysSeconds: [1] },
  },
});
let sqs: SQSClient;
let db: DynamoDBDocumentClient;

beforeAll(async () => {
  const config = { region: stack.region, credentials: localCredentials };
  sqs = new SQSClient({ ...config, endpoint: stack.endpoints.sqs });
  db = DynamoDBDocumentClient.from(new DynamoDBClient({ ...config, endpoint: stack.endpoints.dynamodb }));
});

afterAll(async () => {
  deliverers.email = emailDeliverer;
  sqs?.destroy();
  db?.destroy();
});

/** Waits for one message on a DLQ and returns its body. */
async function deadLetter(url: string, wanted: (body: string) => boolean) {
  return eventually(
    async () => {
      const res = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 1, MaxNumberOfMessages: 10 }),
      );
      return res.Messages?.map((m) => m.Body ?? '').find(wanted);
    },
    30_000,
    `a message on ${url}`,
  );
}

describe('queues and pollers', () => {
  it('fans an issue out to a delivery per active integration; a failing delivery reaches its DLQ, whose consumer settles it', async () => {
    const projectId = randomUUID();
    const pk = `PROJECT#${projectId}`;
    // The project with email on (META's activeIntegrations, data-model 4.8), its integration and issue 1.
    for (const Item of [
      { pk, sk: 'META', ownerId: 'u', ownerPlan: 'FREE_PLAN', activeIntegrations: new Set(['email']) },
      { pk, sk: 'INTEGRATION#email', name: 'email', active: 1, data: { email: 'team@example.com' } },
      { pk, sk: 'ISSUE#0000000001', number: 1, title: 'T', createdAt: new Date().toISOString() },
      { pk, sk: 'ISSUE#0000000001#DETAIL', number: 1, msg: 'm', st: { email: 0 } },
    ])
      await db.send(new PutCommand({ TableName: stack.tableName, Item }));
    // A deliverer that always fails (the stack runs the consumers in this process).
    deliverers.email = async () => {
      throw new Error('vendor down');
    };
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: stack.queues.fanout.url,
        MessageBody: JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1 }),
      }),
    );
    // The delivery fails the queue's 2 receives, short of the manifest's last receive where the consumer
    // would write status 3 itself: only the DLQ's consumer (played by a poller of the DLQ) can settle it.
    const settled = await eventually(
      async () => {
        const out = await db.send(
          new GetCommand({
            TableName: stack.tableName,
            Key: { pk, sk: 'SYNC#email#0000000001' },
            ConsistentRead: true,
          }),
        );
        return out.Item?.s === 3 ? out.Item : undefined;
      },
      30_000,
      'the failed marker',
    );
    expect(settled).toMatchObject({ s: 3, number: 1, title: 'T' });
    expect(String(settled.reason)).toMatch(/^Gave up after/);
    const detail = await db.send(
      new GetCommand({ TableName: stack.tableName, Key: { pk, sk: 'ISSUE#0000000001#DETAIL' } }),
    );
    expect(detail.Item?.st).toEqual({ email: 3 });
    // And nothing is left in the DLQ.
    const left = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: stack.queues.delivery.dlqUrl, WaitTimeSeconds: 1 }),
    );
    expect(left.Messages ?? []).toEqual([]);
  });

  it('sends a malformed fan-out message to the fan-out DLQ', async () => {
    const marker = `not json ${randomUUID()}`;
    await sqs.send(new SendMessageCommand({ QueueUrl: stack.queues.fanout.url, MessageBody: marker }));
    expect(await deadLetter(stack.queues.fanout.dlqUrl, (b) => b === marker)).toBe(marker);
  });
});

describe('the SQS event the consumers receive', () => {
  const queue = { arn: 'arn:aws:sqs:eu-central-1:000000000000:snag-fanout' };

  it('has the shape Lambda gives SQS records', () => {
    const record = toSqsRecord(
      {
        MessageId: 'm-1',
        ReceiptHandle: 'r-1',
        Body: 'hello',
        MD5OfBody: 'md5',
        Attributes: {
          ApproximateReceiveCount: '2',
          SentTimestamp: '1',
          SenderId: 'S',
          ApproximateFirstReceiveTimestamp: '3',
        },
        MessageAttributes: {
          kind: { DataType: 'String', StringValue: 'x' },
          blob: { DataType: 'Binary', BinaryValue: new Uint8Array([1, 2]) },
        },
      },
      queue,
      'eu-central-1',
    );
    expect(record).toEqual({
      messageId: 'm-1',
      receiptHandle: 'r-1',
      body: 'hello',
      attributes: {
        ApproximateReceiveCount: '2',
        SentTimestamp: '1',
        SenderId: 'S',
        ApproximateFirstReceiveTimestamp: '3',
      },
      messageAttributes: {
        kind: { dataType: 'String', stringValue: 'x', stringListValues: [], binaryListValues: [] },
        blob: { dataType: 'Binary', binaryValue: 'AQI=', stringListValues: [], binaryListValues: [] },
      },
      md5OfBody: 'md5',
      eventSource: 'aws:sqs',
      eventSourceARN: queue.arn,
      awsRegion: 'eu-central-1',
    });
  });

  it('deletes only what succeeded, and nothing after a throw or a bogus identifier', () => {
    const records = ['a', 'b', 'c'].map((id) => ({ messageId: id }) as SQSRecord);
    const ids = (r: SQSRecord[]) => r.map((x) => x.messageId);
    expect(
      ids(succeededRecords(records, { response: { batchItemFailures: [{ itemIdentifier: 'b' }] } })),
    ).toEqual(['a', 'c']);
    expect(ids(succeededRecords(records, { response: undefined }))).toEqual(['a', 'b', 'c']);
    expect(succeededRecords(records, { error: new Error('boom') })).toEqual([]);
    expect(
      succeededRecords(records, { response: { batchItemFailures: [{ itemIdentifier: 'zz' }] } }),
    ).toEqual([]);
  });
});
