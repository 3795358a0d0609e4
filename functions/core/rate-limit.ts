/**
 * Fixed-window rate limit in the table: one item per action and key, counted with a conditional ADD, so
 * concurrent requests cannot slip past the limit. The item expires with its window (TTL).
 *
 * `rateLimit` counts on its own; `rateLimitWrite` is the same count as one action of a transaction, so a
 * flow that writes anyway (issuing a code) pays no extra request for it (DESIGN.md section 7 budget).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './aws/dynamo';
import { isConditionFailure, tableName } from './db';
import { AppError } from './errors';
import { epochSeconds, nowMs } from './time';

export interface RateLimit {
  action: string;
  key: string;
  max: number;
  windowMs: number;
}

/** The item that counts `limit`'s current window (tests fill it to reach a limit without the traffic). */
export function rateWindow({ action, key, windowMs }: Omit<RateLimit, 'max'>, now = nowMs()) {
  const windowStart = now - (now % windowMs);
  return { key: { pk: `RATE#${action}#${key}`, sk: `W#${windowStart}` }, windowStart };
}

function updateInput(limit: RateLimit) {
  const { max, windowMs } = limit;
  const { key, windowStart } = rateWindow(limit);
  return {
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'ADD #c :one SET #ttl = :ttl',
    ConditionExpression: 'attribute_not_exists(#c) OR #c < :max',
    ExpressionAttributeNames: { '#c': 'count', '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':one': 1, ':max': max, ':ttl': epochSeconds(windowStart + windowMs) + 60 },
  };
}

/** Counts one use; RATE_LIMITED once `max` uses fall in the current window. */
export async function rateLimit(limit: RateLimit): Promise<void> {
  try {
    await db().send(new UpdateCommand(updateInput(limit)));
  } catch (err) {
    if (isConditionFailure(err)) throw new AppError('RATE_LIMITED');
    throw err;
  }
}

/** The same count as a transaction action; the caller maps a failed condition on it to RATE_LIMITED. */
export function rateLimitWrite(limit: RateLimit) {
  return { Update: updateInput(limit) };
}
