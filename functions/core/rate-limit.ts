/**
 * Fixed-window rate limit in the table: one item per action and key, counted with a conditional ADD, so
 * concurrent requests cannot slip past the limit. The item expires with its window (TTL).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './aws/dynamo';
import { getConfig } from './config';
import { AppError } from './errors';
import { epochSeconds, nowMs } from './time';

export async function rateLimit(action: string, key: string, max: number, windowMs: number): Promise<void> {
  const now = nowMs();
  const windowStart = now - (now % windowMs);
  try {
    await db().send(
      new UpdateCommand({
        TableName: getConfig().TABLE_NAME,
        Key: { pk: `RATE#${action}#${key}`, sk: `W#${windowStart}` },
        UpdateExpression: 'ADD #c :one SET #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#c) OR #c < :max',
        ExpressionAttributeNames: { '#c': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':max': max,
          ':ttl': epochSeconds(windowStart + windowMs) + 60,
        },
      }),
    );
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw new AppError('RATE_LIMITED');
    throw err;
  }
}
