/** `publish()` (functions/runtime/publish.ts): the one way onto a queue, checked against the queue's schema. */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueMessage } from '#contracts/messages';
import { queueUrl } from '#runtime/config';
import { publish } from '#runtime/publish';

const sqs = mockClient(SQSClient);
const projectId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const fanout = (issueNumber: number): QueueMessage<'fanout'> => ({
  type: 'issue.created',
  projectId,
  issueNumber,
});
const entries = () => sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);

afterEach(() => sqs.reset());

describe('publish', () => {
  it('sends 23 messages as batches of 10, 10 and 3 to the queue, in order', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const numbers = Array.from({ length: 23 }, (_, i) => i + 1);
    await publish(
      'fanout',
      numbers.map((n) => ({ id: String(n), message: fanout(n) })),
    );
    const sent = entries();
    expect(sent.map((b) => b.Entries?.length)).toEqual([10, 10, 3]);
    expect(sent.every((b) => b.QueueUrl === queueUrl('fanout'))).toBe(true);
    const bodies = sent.flatMap((b) => b.Entries ?? []);
    expect(bodies.map((e) => e.Id)).toEqual(numbers.map(String));
    expect(bodies.map((e) => JSON.parse(e.MessageBody ?? '{}').issueNumber)).toEqual(numbers);
    // Without the options, no group and no delay.
    expect(bodies.some((e) => 'MessageGroupId' in e || 'DelaySeconds' in e)).toBe(false);
  });

  it('passes the message group and the delay, and numbers entries without an id by position', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const message = { projectId, issueNumber: 4, integration: 'slack' as const };
    await publish('delivery', [{ message, groupId: projectId, delaySeconds: 30 }]);
    expect(entries()).toEqual([
      {
        QueueUrl: queueUrl('delivery'),
        Entries: [
          { Id: '0', MessageBody: JSON.stringify(message), MessageGroupId: projectId, DelaySeconds: 30 },
        ],
      },
    ]);
  });

  it('refuses a malformed message before anything is sent, even one late in the list', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const bad = { ...fanout(12), projectId: 'not-a-uuid' };
    const list = [...Array.from({ length: 11 }, (_, i) => ({ message: fanout(i + 1) })), { message: bad }];
    await expect(publish('fanout', list)).rejects.toThrow(/malformed fanout message/);
    expect(entries()).toHaveLength(0);
  });

  it('refuses a message of another queue', async () => {
    const wrong = fanout(1) as unknown as QueueMessage<'delivery'>;
    await expect(publish('delivery', [{ message: wrong }])).rejects.toThrow(/malformed delivery message/);
    expect(entries()).toHaveLength(0);
  });

  it('throws naming the entries SQS did not accept', async () => {
    sqs.on(SendMessageBatchCommand).resolves({
      Successful: [{ Id: '1', MessageId: 'm1', MD5OfMessageBody: 'x' }],
      Failed: [{ Id: '2', Code: 'InternalError', SenderFault: false }],
    });
    await expect(
      publish('fanout', [
        { id: '1', message: fanout(1) },
        { id: '2', message: fanout(2) },
      ]),
    ).rejects.toThrow('could not enqueue 2');
  });
});
