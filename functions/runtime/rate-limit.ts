/**
 * Fixed-window rate limit in the table: one item per action and key, counted with a conditional ADD, so
 * concurrent requests cannot slip past the limit. The item expires with its window (TTL).
 *
 * `rateLimit` counts on its own; `rateLimitWrite` is the same count as one action of a transaction, so a
 * flow that writes anyway (issuing a code) pays no extra request for it (DESIGN.md section 7 budget).
 * `countWrite` counts without a limit (failed logins, which are checked before and counted after the
 * password check; stored reports, whose count only decides how a project's intake degrades), and
 * `windowCount` reads what an item of `getItems` says.
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
  /**
   * A quantity counted in the same item and window (the bytes of upload forms): each use adds `amount`, and
   * a use that would take the total past `max` is refused like one over the count.
   */
  budget?: { amount: number; max: number };
}

/** The item that counts `limit`'s current window (tests fill it to reach a limit without the traffic). */
export function rateWindow({ action, key, windowMs }: Omit<RateLimit, 'max'>, now = nowMs()) {
  const windowStart = now - (now % windowMs);
  return { key: { pk: `RATE#${action}#${key}`, sk: `W#${windowStart}` }, windowStart };
}

function countInput(limit: Omit<RateLimit, 'max'>) {
  const { key, windowStart } = rateWindow(limit);
  return {
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'ADD #c :one SET #ttl = :ttl',
    ExpressionAttributeNames: { '#c': 'count', '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':one': 1, ':ttl': epochSeconds(windowStart + limit.windowMs) + 60 },
  };
}

function updateInput(limit: RateLimit) {
  const input = countInput(limit);
  const { budget } = limit;
  if (!budget) {
    return {
      ...input,
      ConditionExpression: 'attribute_not_exists(#c) OR #c < :max',
      ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':max': limit.max },
    };
  }
  // More than the whole budget never fits; a first use would otherwise pass on a missing attribute.
  if (budget.amount > budget.max) throw new AppError('RATE_LIMITED');
  return {
    ...input,
    UpdateExpression: 'ADD #c :one, #q :amount SET #ttl = :ttl',
    ConditionExpression:
      '(attribute_not_exists(#c) OR #c < :max) AND (attribute_not_exists(#q) OR #q <= :room)',
    ExpressionAttributeNames: { ...input.ExpressionAttributeNames, '#q': 'amount' },
    ExpressionAttributeValues: {
      ...input.ExpressionAttributeValues,
      ':max': limit.max,
      ':amount': budget.amount,
      ':room': budget.max - budget.amount,
    },
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

/**
 * The same count as a transaction action; the caller maps a failed condition on it to RATE_LIMITED. Several
 * of them in one transaction count together or not at all, so a refused request counts in no window.
 */
export function rateLimitWrite(limit: RateLimit) {
  return { Update: updateInput(limit) };
}

/** One more use in the current window, whatever the count (a transaction action). */
export function countWrite(limit: Omit<RateLimit, 'max'>) {
  return { Update: countInput(limit) };
}

/** The uses a window item (read with its `rateWindow` key) holds; 0 when there is none. */
export const windowCount = (item: Record<string, unknown> | undefined): number =>
  typeof item?.count === 'number' ? item.count : 0;

/** Where a counted window stands, for the `RateLimit-*` headers of the public API (docs/api.md). */
export interface WindowStand {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends (at least 1). */
  resetSeconds: number;
}

/**
 * Counts one use like `rateLimit`, and answers where the window stands instead of only refusing, so the
 * caller can tell its client (`RateLimit-Remaining`, `Retry-After`). A refused use is not counted.
 */
export async function rateLimitStand(limit: RateLimit): Promise<WindowStand> {
  const now = nowMs();
  const { windowStart } = rateWindow(limit, now);
  const resetSeconds = Math.max(1, Math.ceil((windowStart + limit.windowMs - now) / 1000));
  try {
    const out = await db().send(new UpdateCommand({ ...updateInput(limit), ReturnValues: 'UPDATED_NEW' }));
    const count = Number(out.Attributes?.count ?? limit.max);
    return { allowed: true, limit: limit.max, remaining: Math.max(0, limit.max - count), resetSeconds };
  } catch (err) {
    if (isConditionFailure(err)) return { allowed: false, limit: limit.max, remaining: 0, resetSeconds };
    throw err;
  }
}
