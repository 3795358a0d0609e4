/**
 * Plays the Lambda event source mapping for one queue: long-polls it, hands each batch (of the declared
 * batch size) to the consumer as a real SQS event, and deletes only the records that succeeded. Failed
 * records are left alone, so they come back after the visibility timeout and fauxqs moves them to the DLQ
 * after maxReceiveCount receives, as in AWS with ReportBatchItemFailures on. An invocation that runs past
 * the consumer's declared timeout fails its whole batch, as Lambda's timeout does, and up to the declared
 * maximum concurrency of invocations run at once (the handler cannot be
 * killed in this process; its late result is ignored). With `deadLetter`, it plays the event source of the
 * queue's dead-letter consumer on the DLQ instead.
 */
import { randomUUID } from 'node:crypto';
import {
  DeleteMessageBatchCommand,
  type Message,
  type MessageAttributeValue,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import type { QueueName } from '../resources';
import { type ConsumerHandler, lambdaContext } from './functions';
import { asFunction } from './invocation';
import type { StackLog } from './log';
import type { LocalQueue } from './sqs';

export interface Poller {
  stop(): Promise<void>;
}

export interface PollerOptions {
  client: SQSClient;
  queue: LocalQueue;
  region: string;
  load: (queue: QueueName) => Promise<ConsumerHandler>;
  log: StackLog;
  /** Long-poll wait; stop() aborts a wait in progress, so this only bounds each request. */
  waitSeconds?: number;
  /** Poll the queue's DLQ for its dead-letter consumer (`load` then loads that consumer). */
  deadLetter?: boolean;
}

const toBase64 = (bytes: Uint8Array | undefined) =>
  bytes ? Buffer.from(bytes).toString('base64') : undefined;

/** Message attributes as Lambda delivers them: camel-cased, binary values base64. */
function lambdaAttributes(attrs: Record<string, MessageAttributeValue> | undefined): SQSMessageAttributes {
  const out: SQSMessageAttributes = {};
  for (const [name, a] of Object.entries(attrs ?? {})) {
    out[name] = {
      dataType: a.DataType ?? 'String',
      stringValue: a.StringValue,
      binaryValue: toBase64(a.BinaryValue),
      stringListValues: a.StringListValues ?? [],
      binaryListValues: (a.BinaryListValues ?? []).map((b) => toBase64(b) ?? ''),
    };
  }
  return out;
}

export function toSqsRecord(m: Message, queue: Pick<LocalQueue, 'arn'>, region: string): SQSRecord {
  const attributes = (m.Attributes ?? {}) as Record<string, string>;
  return {
    messageId: m.MessageId ?? '',
    receiptHandle: m.ReceiptHandle ?? '',
    body: m.Body ?? '',
    attributes: {
      ...attributes,
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? '000000000000',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: lambdaAttributes(m.MessageAttributes),
    md5OfBody: m.MD5OfBody ?? '',
    ...(m.MD5OfMessageAttributes ? { md5OfMessageAttributes: m.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: queue.arn,
    awsRegion: region,
  };
}

/**
 * The records to delete after an invocation. As in Lambda: a thrown error fails the whole batch, and so does
 * a response naming an identifier that is empty or not in the batch.
 */
export function succeededRecords(
  records: SQSRecord[],
  outcome: { response: SQSBatchResponse | undefined } | { error: unknown },
): SQSRecord[] {
  if ('error' in outcome) return [];
  const failures = outcome.response?.batchItemFailures ?? [];
  const ids = new Set(records.map((r) => r.messageId));
  if (failures.some((f) => !f.itemIdentifier || !ids.has(f.itemIdentifier))) return [];
  const failed = new Set(failures.map((f) => f.itemIdentifier));
  return records.filter((r) => !failed.has(r.messageId));
}

export function startPoller(opts: PollerOptions): Poller {
  const { client, queue, region, load, log } = opts;
  const abort = new AbortController();
  const consumer = queue.name;
  const dead = opts.deadLetter ? queue.settings.deadLetter : null;
  if (opts.deadLetter && !dead) throw new Error(`${queue.name} declares no dead-letter consumer`);
  const source = dead
    ? {
        url: queue.dlqUrl,
        arn: queue.dlqArn,
        batchSize: dead.batchSize,
        timeoutSeconds: dead.consumerTimeoutSeconds,
        concurrency: dead.maxConcurrency,
      }
    : {
        url: queue.url,
        arn: queue.arn,
        batchSize: queue.settings.batchSize,
        timeoutSeconds: queue.settings.consumerTimeoutSeconds,
        concurrency: queue.settings.maxConcurrency,
      };
  const label = dead ? `dlq:${consumer}` : `consumer:${consumer}`;

  const pollOnce = async () => {
    const res = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: source.url,
        MaxNumberOfMessages: source.batchSize,
        WaitTimeSeconds: opts.waitSeconds ?? 10,
        MessageSystemAttributeNames: ['All'],
        AttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: abort.signal },
    );
    const messages = res.Messages ?? [];
    if (messages.length === 0) return;
    const records = messages.map((m) => toSqsRecord(m, source, region));
    const event: SQSEvent = { Records: records };
    let outcome: { response: SQSBatchResponse | undefined } | { error: unknown };
    const timeoutMs = source.timeoutSeconds * 1000;
    let timer: NodeJS.Timeout | undefined;
    try {
      const handler = await load(consumer);
      const run = asFunction(label, () =>
        handler(event, lambdaContext(`snag-${label.replace(':', '-')}`, randomUUID(), timeoutMs)),
      );
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Task timed out after ${source.timeoutSeconds} seconds`)),
          timeoutMs,
        );
      });
      run.catch(() => undefined); // a late failure after the timeout is not unhandled
      const response = await Promise.race([run, timedOut]);
      outcome = { response };
    } catch (error) {
      log.warn(`${label} failed its whole batch: ${String(error)}`);
      outcome = { error };
    } finally {
      clearTimeout(timer);
    }
    const done = succeededRecords(records, outcome);
    if (done.length === 0) return;
    const del = await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: source.url,
        Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
      }),
    );
    if (del.Failed?.length) log.warn(`could not delete ${del.Failed.length} message(s) from ${label}`);
  };

  const loop = async () => {
    while (!abort.signal.aborted) {
      try {
        await pollOnce();
      } catch (err) {
        if (abort.signal.aborted) break;
        log.warn(`poller ${label}: ${String(err)}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
  // As many invocations at once as the event source's maximum concurrency allows.
  const loops = Array.from({ length: Math.max(1, source.concurrency) }, loop);

  return {
    stop: async () => {
      abort.abort();
      await Promise.all(loops);
    },
  };
}
