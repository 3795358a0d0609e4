/**
 * The public API's idempotent create (issue 34, docs/api.md "Filing issues", docs/data-model.md
 * "Idempotency records"): one item per token and `Idempotency-Key`, `IDEMPOTENCY#<tokenId>` /
 * `KEY#<sha256(key)>`, kept 24 hours (TTL). A call claims the key with a conditional Put of a `pending`
 * record; the issue's own transaction turns it `done` with the number, so a stored issue and its
 * record never disagree. A retry with the same body answers that number; another body is refused; a second
 * call while the first runs waits briefly, then is told to try again. A refused or failed create releases
 * its claim, so the same key may be sent again once the cause is fixed.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { IDEMPOTENCY_HOURS } from '#contracts/api-v1';
import { db } from '#runtime/aws/dynamo';
import { sha256 } from '#runtime/crypto';
import { isConditionFailure, type Key, type TransactItems, tableName } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { epochSeconds, HOUR, nowMs } from '#runtime/time';

export const idempotencyKey = (tokenId: string, key: string): Key => ({
  pk: `IDEMPOTENCY#${tokenId}`,
  sk: `KEY#${sha256(key)}`,
});

/**
 * A pending claim older than this was left by a call that died (a Lambda times out at 30 s at most):
 * another call with the key may take it over.
 */
const STALE_MS = 60_000;
/** How long a second call waits for the first before IDEMPOTENCY_IN_PROGRESS, and how often it looks. */
const WAIT_MS = 3_000;
const POLL_MS = 250;

export type Claim = { kind: 'claimed'; key: Key; claimedAt: number } | { kind: 'done'; number: number };

async function read(key: Key): Promise<Record<string, unknown> | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return out.Item;
}

/**
 * Claims `key` for a request whose body hashes to `bodyHash`: `claimed` when this call is to file the
 * issue, `done` with the first call's number when an earlier call with the same body filed it.
 */
export async function claim(tokenId: string, idemKey: string, bodyHash: string): Promise<Claim> {
  const key = idempotencyKey(tokenId, idemKey);
  const deadline = nowMs() + WAIT_MS;
  for (;;) {
    const now = nowMs();
    const existing = await tryPut(key, bodyHash, now);
    if (!existing) return { kind: 'claimed', key, claimedAt: now };
    if (existing.hash !== bodyHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    if (existing.state === 'done') return { kind: 'done', number: Number(existing.number) };
    if (nowMs() >= deadline) throw new AppError('IDEMPOTENCY_IN_PROGRESS');
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * The conditional Put of a pending record: written when there is none, when the one there has expired
 * (TTL deletion lags), or when a pending one is stale. Answers the record in the way, or null when written.
 */
async function tryPut(key: Key, hash: string, now: number): Promise<Record<string, unknown> | undefined> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...key,
          hash,
          state: 'pending',
          claimedAt: now,
          ttl: epochSeconds(now + IDEMPOTENCY_HOURS * HOUR),
        },
        ConditionExpression:
          'attribute_not_exists(pk) OR #ttl < :now OR (#state = :pending AND claimedAt < :stale)',
        ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
        ExpressionAttributeValues: {
          ':now': epochSeconds(now),
          ':pending': 'pending',
          ':stale': now - STALE_MS,
        },
      }),
    );
    return undefined;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // Gone between the Put and this read (a release): the loop tries the Put again.
    return (await read(key)) ?? { hash, state: 'pending' };
  }
}

/** The write that marks the claim done, in the issue's own transaction (`FilingRules.extra`). */
export function completion(key: Key, n: number): TransactItems {
  return [
    {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET #state = :done, #number = :n',
        ExpressionAttributeNames: { '#state': 'state', '#number': 'number' },
        ExpressionAttributeValues: { ':done': 'done', ':n': n },
      },
    },
  ];
}

/** Gives a claim back after a refusal or a failure (only this call's own, still pending, claim). */
export async function release(key: Key, claimedAt: number): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: key,
        ConditionExpression: '#state = :pending AND claimedAt = :at',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':pending': 'pending', ':at': claimedAt },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
