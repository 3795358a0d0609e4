/**
 * The browser extension's tokens (contracts/extension.ts, docs/extension-connection.md): a member's
 * connections, each acting as that member (their own roles in every team) with the fixed extensionScopes.
 *
 * - `EXT#<id>/EXT`: one connection, holding the SHA-256 of the token (never the token), its member, the
 *   browser's name, created, expires and last used; found by the id the token carries, like team tokens.
 * - `USER#<uid>/EXTS`: the member's connections as a map id → expiry, with a version. Minting reads it
 *   consistently, forgets the expired ones and writes it back under its version in the token's own
 *   transaction, so the EXTENSION_TOKENS_MAX cap is exact under concurrent approvals and an expired
 *   connection frees its place without a sweep. Listing reads it and batch-gets the items (consistent, so
 *   a revoked connection is gone from the list at once), and it lives in the member's partition, so
 *   account deletion, which removes that partition, finds every connection through it first.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  EXTENSION_TOKEN_DAYS,
  EXTENSION_TOKEN_PREFIX,
  EXTENSION_TOKENS_MAX,
  type ExtensionConnection,
  extensionTokenPattern,
} from '#contracts/extension';
import { db } from '#runtime/aws/dynamo';
import { randomToken, safeEqual, sha256 } from '#runtime/crypto';
import {
  batchDelete,
  getItems,
  isConditionFailure,
  retryRaces,
  type TransactItems,
  tableName,
  transactWrite,
} from '#runtime/db';
import { AppError } from '#runtime/errors';
import { DAY, epochSeconds, MINUTE, nowMs } from '#runtime/time';
import { displayName, type User, userKey } from './user';

/** The id part of `snag_ext_<id><secret>` (contracts/extension.ts extensionTokenPattern). */
export const EXTENSION_ID_LENGTH = 12;

export const extensionTokenKey = (id: string) => ({ pk: `EXT#${id}`, sk: 'EXT' });
const slotsKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'EXTS' });

export interface ExtensionToken {
  id: string;
  userId: string;
  browser: string;
  createdAt: number;
  expiresAt: number;
  lastUsedAt: number | null;
}

export function toExtensionToken(item: Record<string, unknown>): ExtensionToken {
  return {
    id: String(item.id),
    userId: String(item.userId),
    browser: String(item.browser),
    createdAt: Number(item.createdAt),
    expiresAt: Number(item.expiresAt),
    lastUsedAt: typeof item.lastUsedAt === 'number' ? item.lastUsedAt : null,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

export const connectionOf = (t: ExtensionToken): ExtensionConnection => ({
  id: t.id,
  browser: t.browser,
  created: iso(t.createdAt),
  lastUsed: t.lastUsedAt === null ? null : iso(t.lastUsedAt),
  expires: iso(t.expiresAt),
});

interface Slots {
  ids: Record<string, number>;
  v: number;
}

async function readSlots(userId: string): Promise<Slots> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: slotsKey(userId), ConsistentRead: true }),
  );
  const ids = (out.Item?.ids ?? {}) as Record<string, number>;
  return { ids, v: typeof out.Item?.v === 'number' ? out.Item.v : 0 };
}

/**
 * Mints a connection for `userId` (the code's member): refused with EXTENSION_LIMIT when they already have
 * EXTENSION_TOKENS_MAX live ones, NOT_FOUND when the account is gone. Answers the token (never stored) and
 * who it acts as, for the extension's "Connected as …". A lost race on the slots' version reads again.
 * `audit`: the entries that record the connection, in its own transaction.
 */
export async function mintExtensionToken(
  userId: string,
  browser: string,
  audit: (token: ExtensionToken, user: User) => TransactItems = () => [],
): Promise<{ token: string; stored: ExtensionToken; user: { name: string; email: string } }> {
  const [userItem] = await getItems([userKey(userId)]);
  if (!userItem) throw new AppError('NOT_FOUND');
  const user = userItem as unknown as User;
  const stored = await retryRaces(
    (err) => err instanceof AppError && err.code === 'BUSY',
    async () => {
      const now = nowMs();
      const slots = await readSlots(userId);
      const live = Object.entries(slots.ids).filter(([, exp]) => exp > now);
      if (live.length >= EXTENSION_TOKENS_MAX) throw new AppError('EXTENSION_LIMIT');
      const id = randomToken().slice(0, EXTENSION_ID_LENGTH);
      const token: ExtensionToken = {
        id,
        userId,
        browser,
        createdAt: now,
        expiresAt: now + EXTENSION_TOKEN_DAYS * DAY,
        lastUsedAt: null,
      };
      const ids = { ...Object.fromEntries(live), [id]: token.expiresAt };
      const secret = randomToken();
      const value = `${EXTENSION_TOKEN_PREFIX}${id}${secret}`;
      await transactWrite(
        [
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...extensionTokenKey(id),
                id,
                userId,
                browser,
                createdAt: token.createdAt,
                expiresAt: token.expiresAt,
                hash: sha256(value),
                // Kept a week past expiry, so the list can still show it as expired before it goes.
                ttl: epochSeconds(token.expiresAt + 7 * DAY),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...slotsKey(userId), ids, v: slots.v + 1 },
              ConditionExpression: slots.v === 0 ? 'attribute_not_exists(pk)' : 'v = :v',
              ...(slots.v === 0 ? {} : { ExpressionAttributeValues: { ':v': slots.v } }),
            },
          },
          // The account still exists: a deletion under way must not leave a connection behind it.
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: userKey(userId),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          // The audit entries of the connection (the caller's: teams/audit.ts), written with it or not at all.
          ...audit(token, user),
        ],
        (failed) => (failed.includes(2) ? 'NOT_FOUND' : failed.includes(1) ? 'BUSY' : undefined),
      );
      return { token: value, stored: token };
    },
    5,
  );
  return {
    ...stored,
    user: { name: displayName(user), email: user.email },
  };
}

/** The member's connections, newest first: the slots item, then one consistent BatchGetItem. */
export async function listExtensionTokens(userId: string): Promise<ExtensionToken[]> {
  const { ids } = await readSlots(userId);
  const keys = Object.keys(ids).map(extensionTokenKey);
  if (!keys.length) return [];
  const items = await getItems(keys);
  return items
    .filter((i): i is Record<string, unknown> => !!i && i.userId === userId)
    .map(toExtensionToken)
    .sort((a, b) => b.createdAt - a.createdAt);
}

/**
 * Revokes the member's connection `id`: its item and its slot in one transaction. Another member's id, or
 * one that is gone, is NOT_FOUND (nothing tells a stranger that an id exists). `audit`: the entries that
 * record it, in the same transaction.
 */
export async function revokeExtensionToken(
  userId: string,
  id: string,
  audit: TransactItems = [],
): Promise<void> {
  await transactWrite(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: extensionTokenKey(id),
          ConditionExpression: 'userId = :uid',
          ExpressionAttributeValues: { ':uid': userId },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: slotsKey(userId),
          UpdateExpression: 'REMOVE ids.#id ADD v :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#id': id },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      ...audit,
    ],
    (failed) => (failed.length ? 'NOT_FOUND' : undefined),
  );
}

/** Deletes every connection of an account being deleted (before its partition, which holds the slots). */
export async function deleteExtensionTokensOf(userId: string): Promise<void> {
  const { ids } = await readSlots(userId);
  await batchDelete(Object.keys(ids).map(extensionTokenKey));
}

/**
 * The live connection a bearer value names, with its member's display name now, or null (malformed,
 * unknown, wrong secret, revoked, expired, or the member deleted): two consistent GetItems, so a revoked
 * connection is refused on the next call.
 */
export async function resolveExtensionToken(
  bearer: string,
): Promise<{ token: ExtensionToken; name: string } | null> {
  const id = extensionTokenPattern.exec(bearer)?.[1];
  if (!id) return null;
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: extensionTokenKey(id), ConsistentRead: true }),
  );
  const item = out.Item;
  if (!item || typeof item.hash !== 'string' || !safeEqual(item.hash, sha256(bearer))) return null;
  const token = toExtensionToken(item);
  // TTL deletion lags by days: the expiry is checked on every read.
  if (!(token.expiresAt > nowMs())) return null;
  const user = await db().send(
    new GetCommand({ TableName: tableName(), Key: userKey(token.userId), ConsistentRead: true }),
  );
  if (!user.Item) return null;
  return { token, name: displayName(user.Item as unknown as User) };
}

/** As team tokens: `lastUsedAt` is written at most once a minute (a conditional update; losing is fine). */
export async function touchExtensionToken(token: ExtensionToken, now = nowMs()): Promise<void> {
  if (token.lastUsedAt !== null && now - token.lastUsedAt < MINUTE) return;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: extensionTokenKey(token.id),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :stale)',
        ExpressionAttributeValues: { ':now': now, ':stale': now - MINUTE },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
