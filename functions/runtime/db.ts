/** Small helpers over the document client that every entity module needs. */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { ErrorCode } from '#contracts/errors';
import { db } from './aws/dynamo';
import { tableName } from './config';
import { AppError } from './errors';

export type Key = { pk: string; sk: string };
export { tableName };

/** True when a write was refused by its condition (alone or inside a transaction). */
export function isConditionFailure(err: unknown): boolean {
  if (err instanceof ConditionalCheckFailedException) return true;
  if (err instanceof TransactionCanceledException) {
    return (err.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed');
  }
  return false;
}

/** Index of the transaction items whose condition failed. */
export function failedConditions(err: unknown): number[] {
  if (!(err instanceof TransactionCanceledException)) return [];
  return (err.CancellationReasons ?? []).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
}

/**
 * True when a write lost a race with a concurrent transaction on the same item (not a refused condition):
 * DynamoDB cancels it with TransactionConflict, and trying again is safe because nothing was written.
 */
export function isTransactionConflict(err: unknown): boolean {
  if ((err as { name?: string } | null)?.name === 'TransactionConflictException') return true;
  if (!(err instanceof TransactionCanceledException)) return false;
  const codes = (err.CancellationReasons ?? []).map((r) => r.Code);
  return codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed');
}

/**
 * What a write that lost every retry to concurrent changes of the same item throws: BUSY (409, with
 * `Retry-After`), since nothing was written and the same request succeeds once the burst is over. A fault
 * (500) it is not (decision Tr-C15).
 */
export const busy = (cause: unknown) => new AppError('BUSY', undefined, { cause });
export const isBusy = (err: unknown) => err instanceof AppError && err.code === 'BUSY';

/**
 * Runs `run` (its reads and its write) again while `lost` says it only lost a race, then BUSY: after
 * `limit` tries in all, or, when `limit` is `{ withinMs }`, once a race is lost that long (real time, not the
 * test clock: the bound is on how long the call runs) after the first try. `pause` (ms, by the attempt
 * just lost, counted from 1) spreads the next round; `run` gets the attempt it is (1 first).
 */
export async function retryRaces<T>(
  lost: (err: unknown) => boolean,
  run: (attempt: number) => Promise<T>,
  limit: number | { withinMs: number },
  pause?: (attempt: number) => number,
): Promise<T> {
  const deadline = typeof limit === 'number' ? 0 : Date.now() + limit.withinMs;
  const spent = (attempt: number) => (typeof limit === 'number' ? attempt >= limit : Date.now() > deadline);
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (err) {
      if (!lost(err)) throw err;
      if (spent(attempt)) throw busy(err);
      if (pause) await new Promise((r) => setTimeout(r, pause(attempt)));
    }
  }
}

/** Runs `write` again, with jittered backoff, while it only lost races with other transactions. */
export const retryConflicts = <T>(write: () => Promise<T>, attempts = 8): Promise<T> =>
  retryRaces(isTransactionConflict, write, attempts, (attempt) => Math.random() * 25 * 2 ** attempt);

/** BatchGetItem's ceiling of keys per request. */
const BATCH_GET_MAX = 100;

/**
 * Reads `keys` in consistent BatchGetItems, in the order of `keys` (undefined where an item is missing): one
 * request for up to 100 keys (what the request budgets count on), more in parallel beyond. Throttled keys
 * that DynamoDB leaves unprocessed are read again. A key may appear once per call (DynamoDB refuses a
 * request that names one twice).
 */
export async function getItems(
  keys: Key[],
  options: ReadOptions = {},
): Promise<(Record<string, unknown> | undefined)[]> {
  if (keys.length <= BATCH_GET_MAX) return getBatch(keys, options);
  const chunks: Key[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_MAX) chunks.push(keys.slice(i, i + BATCH_GET_MAX));
  return (await Promise.all(chunks.map((chunk) => getBatch(chunk, options)))).flat();
}

/**
 * How `getItems` reads: consistently unless `eventual` (half the capacity, for bulk reads that tolerate a
 * second's lag), and only `projection`'s attributes when given (it must name `pk` and `sk`, which match the
 * answers to the keys).
 */
export interface ReadOptions {
  eventual?: boolean;
  projection?: { expression: string; names?: Record<string, string> };
}

/** One BatchGetItem of at most 100 keys, its unprocessed keys read again. */
async function getBatch(
  keys: Key[],
  { eventual, projection }: ReadOptions,
): Promise<(Record<string, unknown> | undefined)[]> {
  const found = new Map<string, Record<string, unknown>>();
  let pending: Key[] = keys;
  const names = projection?.names ?? {};
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
    const out = await db().send(
      new BatchGetCommand({
        RequestItems: {
          [tableName()]: {
            Keys: pending,
            ConsistentRead: !eventual,
            ...(projection ? { ProjectionExpression: projection.expression } : {}),
            // DynamoDB refuses an empty map.
            ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
          },
        },
      }),
    );
    for (const item of out.Responses?.[tableName()] ?? []) found.set(`${item.pk}\n${item.sk}`, item);
    pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[];
    if (attempt > 8 && pending.length > 0) throw new Error('batch read did not complete');
  }
  return keys.map((k) => found.get(`${k.pk}\n${k.sk}`));
}

/** Deletes keys 25 at a time, retrying what DynamoDB leaves unprocessed. */
export async function batchDelete(keys: Key[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 25) {
    let requests: NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']>[string] =
      keys.slice(i, i + 25).map((k) => ({ DeleteRequest: { Key: { pk: k.pk, sk: k.sk } } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = out.UnprocessedItems?.[tableName()] ?? [];
      if (attempt > 8 && requests.length > 0) throw new Error('batch delete did not complete');
    }
  }
}

/** Every item a query yields, across pages (cascades, the owner's projects, scheduled jobs). */
export async function queryAll(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Every key a query yields, across pages (for cascades, never on a list path). */
export async function queryKeys(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<Key[]> {
  const items = await queryAll({ ...input, ProjectionExpression: 'pk, sk' });
  return items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
}

/**
 * Sets `fields` on an existing item, only while `condition` holds; when it does not (the item is gone, or
 * is someone else's), fails with `refusal`. Nothing to set is a no-op.
 */
export async function setFields(
  key: Key,
  fields: Record<string, unknown>,
  condition: { expression: string; values?: Record<string, unknown>; refusal: ErrorCode },
): Promise<void> {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ...condition.values };
  const sets = entries.map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:v${i}`] = v;
    return `#f${i} = :v${i}`;
  });
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: condition.expression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new AppError(condition.refusal);
    throw err;
  }
}

export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * Writes `items` in one transaction. When conditions refuse it, the caller's `refusal` names the error:
 * a code for any refusal, or a function of the refused items' indexes (undefined: not a refusal we map).
 */
export async function transactWrite(
  items: TransactItems,
  refusal: ErrorCode | ((failed: number[]) => ErrorCode | undefined),
): Promise<void> {
  try {
    await retryConflicts(() => db().send(new TransactWriteCommand({ TransactItems: items })));
  } catch (err) {
    if (isConditionFailure(err)) {
      const code = typeof refusal === 'function' ? refusal(failedConditions(err)) : refusal;
      if (code) throw new AppError(code);
    }
    throw err;
  }
}
