/**
 * SQS stand-in: fauxqs (its SQS side only), in memory, with each declared queue (functions/manifests.ts)
 * and its DLQ.
 * Visibility timeouts, receive counts and the redrive to the DLQ are fauxqs's, and behave as in AWS.
 *
 * fauxqs's own `startFauxqs` listens on every interface whatever it is told, so the app is built and
 * listened on 127.0.0.1 here, and the queues are made through the SQS API like any client would.
 */
import type { AddressInfo } from 'node:net';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { buildApp } from 'fauxqs';
import { type QueueName, queueNames } from '#contracts/manifest';
import { longestRetrySeconds } from '#runtime/retry';
import { queueDecls } from '../../functions/manifests';
import { localCredentials } from './credentials';

export interface QueueSettings {
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
  batchSize: number;
  /** The consumer's backoff (QueueDecl.retryDelaysSeconds); tests shorten it, `[]` turns it off. */
  retryDelaysSeconds: readonly number[];
  /** Invocations at once (the event source's maximum concurrency); the poller runs that many loops. */
  maxConcurrency: number;
  /** The consumer's timeout: the poller ends an invocation that runs longer, as Lambda does. */
  consumerTimeoutSeconds: number;
  /** When a started piece of work counts as stale (functions/runtime/retry.ts); computed unless set. */
  staleAfterSeconds?: number;
  /** The dead-letter consumer's settings, when the queue declares one; `null` leaves the DLQ unread. */
  deadLetter: {
    visibilityTimeoutSeconds: number;
    batchSize: number;
    maxConcurrency: number;
    consumerTimeoutSeconds: number;
  } | null;
}
export type QueueOverrides = Partial<Record<QueueName, Partial<QueueSettings>>>;

export interface LocalQueue {
  name: QueueName;
  url: string;
  arn: string;
  dlqUrl: string;
  dlqArn: string;
  settings: QueueSettings;
}

export interface LocalSqs {
  endpoint: string;
  queues: Record<QueueName, LocalQueue>;
  stop(): Promise<void>;
}

/** When a started piece of work counts as stale with these settings (functions/runtime/retry.ts). */
export const staleAfter = (s: QueueSettings) =>
  s.staleAfterSeconds ??
  2 *
    longestRetrySeconds({
      visibilityTimeoutSeconds: s.visibilityTimeoutSeconds,
      maxReceiveCount: s.maxReceiveCount,
      retryDelaysSeconds: s.retryDelaysSeconds,
      consumer: { timeoutSeconds: s.consumerTimeoutSeconds },
    });

/** Queue names carry a prefix so that a stray queue URL in a log says which app it belongs to. */
export const queueName = (name: QueueName) => `snag-${name}`;

export async function startSqs(region: string, overrides: QueueOverrides = {}): Promise<LocalSqs> {
  const app = buildApp({ logger: false, defaultRegion: region });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const endpoint = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const sqs = new SQSClient({ endpoint, region, credentials: localCredentials });
  const create = async (QueueName: string, Attributes: Record<string, string>) => {
    const { QueueUrl: url = '' } = await sqs.send(new CreateQueueCommand({ QueueName, Attributes }));
    const { Attributes: attrs } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
    );
    return { url, arn: attrs?.QueueArn ?? '' };
  };
  const made = {} as Record<QueueName, LocalQueue>;
  try {
    for (const name of queueNames) {
      const decl = queueDecls[name];
      const settings: QueueSettings = {
        visibilityTimeoutSeconds: decl.visibilityTimeoutSeconds,
        maxReceiveCount: decl.maxReceiveCount,
        batchSize: decl.batchSize,
        maxConcurrency: decl.maxConcurrency,
        retryDelaysSeconds: decl.retryDelaysSeconds ?? [],
        consumerTimeoutSeconds: decl.consumer.timeoutSeconds,
        deadLetter: decl.deadLetter
          ? {
              visibilityTimeoutSeconds: decl.deadLetter.visibilityTimeoutSeconds,
              batchSize: decl.deadLetter.batchSize,
              maxConcurrency: decl.deadLetter.maxConcurrency,
              consumerTimeoutSeconds: decl.deadLetter.consumer.timeoutSeconds,
            }
          : null,
        ...overrides[name],
      };
      // AWS keeps dead letters for up to 14 days; so does the local DLQ, for reading them.
      const dlq = await create(`${queueName(name)}-dlq`, {
        MessageRetentionPeriod: String(14 * 24 * 3600),
        ...(settings.deadLetter
          ? { VisibilityTimeout: String(settings.deadLetter.visibilityTimeoutSeconds) }
          : {}),
      });
      const queue = await create(queueName(name), {
        VisibilityTimeout: String(settings.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlq.arn,
          maxReceiveCount: settings.maxReceiveCount,
        }),
      });
      made[name] = { name, url: queue.url, arn: queue.arn, dlqUrl: dlq.url, dlqArn: dlq.arn, settings };
    }
  } finally {
    sqs.destroy();
  }
  return { endpoint, queues: made, stop: () => app.close() };
}
