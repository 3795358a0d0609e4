/** GET /api/health: success only when every part the API depends on answers. */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { dynamo } from '#runtime/aws/dynamo';
import { s3, s3Sdk } from '#runtime/aws/s3';
import { sqs } from '#runtime/aws/sqs';
import { bucketName, getConfig, queueUrl, tableName } from '#runtime/config';
import { AppError } from '#runtime/errors';
import { type RequestInput, resourceHandler } from '#runtime/http';
import { healthApi } from '../platform/manifest';

type Probe = () => Promise<unknown>;

function probes(): Record<string, Probe> {
  const c = getConfig();
  const list: Record<string, Probe> = {
    dynamodb: () => dynamo().send(new DescribeTableCommand({ TableName: tableName() })),
    s3: async () => {
      const [{ HeadBucketCommand }, client] = await Promise.all([s3Sdk(), s3()]);
      return client.send(new HeadBucketCommand({ Bucket: bucketName() }));
    },
    fanoutQueue: () => sqs().send(new GetQueueAttributesCommand({ QueueUrl: queueUrl('fanout') })),
    deliveryQueue: () => sqs().send(new GetQueueAttributesCommand({ QueueUrl: queueUrl('delivery') })),
  };
  // SES is a managed endpoint in AWS; locally its stand-in is one more process that must be up.
  if (c.SES_ENDPOINT) {
    const url = new URL('/health-check', c.SES_ENDPOINT);
    list.ses = async () => {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (!res.ok) throw new Error(`SES stand-in answered ${res.status}`);
    };
  }
  return list;
}

export const operations = {
  async health({ log }: RequestInput) {
    const results = await Promise.allSettled(Object.values(probes()).map((p) => p()));
    const names = Object.keys(probes());
    const down = names.filter((_, i) => results[i]?.status === 'rejected');
    if (down.length > 0) {
      log.warn('health check failed', {
        down,
        reasons: results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : [])),
      });
      throw new AppError('NOT_READY', Object.fromEntries(down.map((n) => [n, 'down'])));
    }
    return { msg: Object.fromEntries(names.map((n) => [n, 'ok'])) };
  },
};

export const handler = resourceHandler(healthApi, operations);
