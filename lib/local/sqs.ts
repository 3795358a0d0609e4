/**
 * SQS stand-in: fauxqs (its SQS side only), in memory, with each declared queue (functions/manifests.ts)
 * and its DLQ.
 * Visibility timeouts, receive counts and the redrive to the DLQ are fauxqs's, and behave as in AWS.
 */
import { startFauxqs } from 'fauxqs';
import { queueDecls } from '../../functions/manifests';
import { type QueueName, queueNames } from '../../functions/shared/manifest';

export interface QueueSettings {
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
  batchSize: number;
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

/** Queue names carry a prefix so that a stray queue URL in a log says which app it belongs to. */
export const queueName = (name: QueueName) => `snag-${name}`;

export async function startSqs(region: string, overrides: QueueOverrides = {}): Promise<LocalSqs> {
  const server = await startFauxqs({ port: 0, logger: false, defaultRegion: region });
  const made = {} as Record<QueueName, LocalQueue>;
  for (const name of queueNames) {
    const { visibilityTimeoutSeconds, maxReceiveCount, batchSize } = queueDecls[name];
    const settings: QueueSettings = {
      visibilityTimeoutSeconds,
      maxReceiveCount,
      batchSize,
      ...overrides[name],
    };
    const dlq = server.createQueue(`${queueName(name)}-dlq`, {
      region,
      // AWS keeps dead letters for up to 14 days; so does the local DLQ, for reading them.
      attributes: { MessageRetentionPeriod: String(14 * 24 * 3600) },
    });
    const queue = server.createQueue(queueName(name), {
      region,
      attributes: {
        VisibilityTimeout: String(settings.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlq.queueArn,
          maxReceiveCount: settings.maxReceiveCount,
        }),
      },
    });
    made[name] = {
      name,
      url: queue.queueUrl,
      arn: queue.queueArn,
      dlqUrl: dlq.queueUrl,
      dlqArn: dlq.queueArn,
      settings,
    };
  }
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    queues: made,
    stop: () => server.stop(),
  };
}
