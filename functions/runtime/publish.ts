/**
 * The one way onto a queue of the async path (DESIGN.md section 9). Every message is checked against its
 * queue's schema (contracts/messages.ts) before anything is sent, so a malformed message is a bug found at
 * the sender, never a poison message found by the consumer. Sent with SendMessageBatch, ten entries per
 * request (SQS's limit); an entry SQS did not accept fails the call, since the callers' recovery (the
 * fan-out runs again, Sync's tickets stay in progress, the intake's issue stays in the sync lists) needs
 * to know that not everything was queued.
 */
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { QueueName } from '#contracts/manifest';
import { type QueueMessage, queueMessageSchemas } from '#contracts/messages';
import { sqs } from './aws/sqs';
import { queueUrl } from './config';

/** SendMessageBatch takes at most ten entries. */
export const PUBLISH_BATCH = 10;

export interface Outgoing<Q extends QueueName> {
  message: QueueMessage<Q>;
  /** The entry's id within its batch (named in the error when it fails); its position when absent. */
  id?: string;
  /** The tenant of SQS fair queues: one project's backlog does not hold up the others' messages. */
  groupId?: string;
  /** Delay before the message becomes visible (SQS allows up to 900 s). */
  delaySeconds?: number;
}

/** Validates every message, then sends them in batches of ten; throws if any entry was not enqueued. */
export async function publish<Q extends QueueName>(
  queue: Q,
  outgoing: readonly Outgoing<Q>[],
): Promise<void> {
  const schema = queueMessageSchemas[queue];
  const entries = outgoing.map((o, i) => {
    const checked = schema.safeParse(o.message);
    if (!checked.success) throw new Error(`refused a malformed ${queue} message: ${checked.error.message}`);
    return {
      Id: o.id ?? String(i),
      MessageBody: JSON.stringify(o.message),
      ...(o.groupId !== undefined ? { MessageGroupId: o.groupId } : {}),
      ...(o.delaySeconds !== undefined ? { DelaySeconds: o.delaySeconds } : {}),
    };
  });
  for (let i = 0; i < entries.length; i += PUBLISH_BATCH) {
    const res = await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl(queue),
        Entries: entries.slice(i, i + PUBLISH_BATCH),
      }),
    );
    if (res.Failed?.length) throw new Error(`could not enqueue ${res.Failed.map((f) => f.Id).join(', ')}`);
  }
}
