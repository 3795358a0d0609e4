/**
 * API tokens (issue 25, docs/data-model.md 4.15): one item per token, `TOKEN#<id>/TOKEN`, holding the
 * SHA-256 of the token (never the token), its team, name, scopes, expiry and creator, listed per team through
 * `gsi1` (`TOKENS#<tid>`). The item doubles as the token's TEAMS item: its `teams` map gives the token's
 * team the role ADMIN, so the one access policy (projects/access.ts) reads and guards a token exactly as
 * it reads and guards a member, and revoking (deleting the item) ends its access at once, writes included.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '#contracts/teams';
import {
  TOKEN_ID_LENGTH,
  TOKEN_PREFIX,
  TOKENS_MAX,
  type TokenCreate,
  type TokenEntry,
  type TokenScope,
  tokenPattern,
} from '#contracts/tokens';
import type { Actor } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { randomToken, safeEqual, sha256 } from '#runtime/crypto';
import {
  batchDelete,
  failedConditions,
  isConditionFailure,
  type TransactItems,
  tableName,
  transactWrite,
} from '#runtime/db';
import { DAY, epochSeconds, MINUTE, nowMs } from '#runtime/time';
import { teamsKey, toTeamsItem } from './member';
import { teamKey } from './team';

export const tokenKey = (id: string) => ({ pk: `TOKEN#${id}`, sk: 'TOKEN' });

/**
 * The principal id a token acts as in domain calls that take a user id: `pat:<id>`. No user id has a
 * colon (they are UUIDs), so the two never meet; `principalKey` maps it to the item the policy reads.
 */
const PRINCIPAL = 'pat:';
export const tokenPrincipal = (id: string) => `${PRINCIPAL}${id}`;
export const tokenIdOfPrincipal = (principal: string): string | null =>
  principal.startsWith(PRINCIPAL) ? principal.slice(PRINCIPAL.length) : null;

/** The caller's memberships item: a user's `USER#uid/TEAMS`, a token's own item. */
export const principalKey = (principal: string) => {
  const id = tokenIdOfPrincipal(principal);
  return id === null ? teamsKey(principal) : tokenKey(id);
};

export interface ApiToken {
  id: string;
  teamId: string;
  name: string;
  scopes: TokenScope[];
  createdAt: number;
  createdBy: string;
  /**
   * The creator's display name as it was when the token was made (issue 25): the actor's `name` of the
   * token's changes. Null on tokens made before it was kept (decision API-13).
   */
  creatorName: string | null;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

export function toToken(item: Record<string, unknown>): ApiToken {
  return {
    id: String(item.id),
    teamId: String(item.teamId),
    name: String(item.name),
    scopes: (item.scopes ?? []) as TokenScope[],
    createdAt: Number(item.createdAt),
    createdBy: String(item.createdBy ?? ''),
    creatorName: typeof item.creatorName === 'string' && item.creatorName ? item.creatorName : null,
    expiresAt: typeof item.expiresAt === 'number' ? item.expiresAt : null,
    lastUsedAt: typeof item.lastUsedAt === 'number' ? item.lastUsedAt : null,
  };
}

/**
 * Who a token's changes and comments are by: its creator, as named when the token was made, with the
 * token's name (the timeline reads "Ada Lovelace via API token CI"). A token made before the creator's
 * name was kept reads "API token CI" as before (decision API-13): its creator may have left or been
 * renamed since, and looking them up would cost every call a read.
 */
export const tokenActor = (token: Pick<ApiToken, 'id' | 'name' | 'creatorName'>): Actor =>
  token.creatorName
    ? { kind: 'token', id: token.id, name: token.creatorName, token: token.name }
    : { kind: 'token', id: token.id, name: `API token ${token.name}` };

/** Expired tokens are refused on every read: TTL deletion can lag by days. */
export const isLive = (token: Pick<ApiToken, 'expiresAt'>, now = nowMs()) =>
  token.expiresAt === null || token.expiresAt > now;

const iso = (ms: number) => new Date(ms).toISOString();

export function tokenEntry(token: ApiToken): TokenEntry {
  return {
    id: token.id,
    createdBy: token.createdBy,
    creatorName: token.creatorName,
    name: token.name,
    scopes: token.scopes,
    prefix: `${TOKEN_PREFIX}${token.id}`,
    created: iso(token.createdAt),
    lastUsed: token.lastUsedAt === null ? null : iso(token.lastUsedAt),
    expires: token.expiresAt === null ? null : iso(token.expiresAt),
  };
}

/**
 * Creates a token: its item (with the creator's user id and display name), and `TEAM#tid.tokenCount`
 * raised under TOKENS_MAX, with the policy's `guard` (the creator still OWNER or ADMIN) in the same
 * transaction, with `audit`'s entry of it. Answers the token, which is never stored.
 */
export async function createToken(
  teamId: string,
  creator: { id: string; name: string },
  input: TokenCreate,
  guard: TransactItems,
  audit: (stored: ApiToken) => TransactItems = () => [],
): Promise<{ token: string; stored: ApiToken }> {
  const secret = randomToken();
  // Drawn apart from the secret, so the id that lists and logs show reveals nothing of it.
  const id = randomToken().slice(0, TOKEN_ID_LENGTH);
  const token = `${TOKEN_PREFIX}${id}${secret}`;
  const createdAt = nowMs();
  const expiresAt = input.expiresInDays ? createdAt + input.expiresInDays * DAY : null;
  const stored: ApiToken = {
    id,
    teamId,
    name: input.name,
    scopes: input.scopes,
    createdAt,
    createdBy: creator.id,
    // The actor's name is bounded (actorSchema): a longer display name is cut, an empty one is not kept.
    creatorName: creator.name.trim().slice(0, 200) || null,
    expiresAt,
    lastUsedAt: null,
  };
  await transactWrite(
    [
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...tokenKey(id),
            // No null attributes: `touchToken`'s condition compares `lastUsedAt` as a number.
            ...Object.fromEntries(Object.entries(stored).filter(([, v]) => v !== null)),
            hash: sha256(token),
            teams: { [teamId]: { r: 'ADMIN' } },
            gsi1pk: `TOKENS#${teamId}`,
            gsi1sk: `TOKEN#${String(createdAt).padStart(15, '0')}#${id}`,
            // Kept a week past expiry, so the list can still show it as expired before it goes.
            ...(expiresAt ? { ttl: epochSeconds(expiresAt + 7 * DAY) } : {}),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: teamKey(teamId),
          UpdateExpression: 'ADD tokenCount :one',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(tokenCount) OR tokenCount < :max)',
          ExpressionAttributeValues: { ':one': 1, ':max': TOKENS_MAX },
        },
      },
      ...guard,
      // The audit entry of the new token (teams/audit.ts), made from what is stored: never the secret.
      ...audit(stored),
    ],
    (failed) => (failed.includes(1) ? 'TOKEN_LIMIT' : failed.length ? 'NOT_FOUND' : undefined),
  );
  return { token, stored };
}

/** The team's tokens, oldest first (one `gsi1` Query: at most TOKENS_MAX items, eventually consistent). */
export async function listTokens(teamId: string): Promise<ApiToken[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `TOKENS#${teamId}` },
    }),
  );
  return (out.Items ?? []).map(toToken);
}

/** The team's tokens made by `userId` (what their removal or demotion revokes). */
export async function tokensBy(teamId: string, userId: string): Promise<ApiToken[]> {
  return (await listTokens(teamId)).filter((t) => t.createdBy === userId);
}

/**
 * The deletes that revoke `ids` of `teamId` inside a membership change's transaction (the caller folds
 * `ADD tokenCount -n` into its own TEAM update: an item appears once per transaction). Each holds only
 * while the token is still there, so the count stays exact: a token revoked meanwhile makes the caller
 * read again.
 */
export function tokenRevocations(teamId: string, ids: string[]): TransactItems {
  return ids.map((id) => ({
    Delete: {
      TableName: tableName(),
      Key: tokenKey(id),
      ConditionExpression: 'teamId = :tid',
      ExpressionAttributeValues: { ':tid': teamId },
    },
  }));
}

/** Deletes every token of a team that is being deleted (its TEAM, and so its count, goes after). */
export async function deleteTeamTokens(teamId: string): Promise<void> {
  await batchDelete((await listTokens(teamId)).map((t) => tokenKey(t.id)));
}

/**
 * Revokes a token of `teamId`: deletes its item and lowers the count, with the policy's `guard`. Idempotent,
 * like revoking an invitation: an id that is gone, or another team's, changes nothing and says nothing.
 */
export async function revokeToken(teamId: string, id: string, guard: TransactItems): Promise<void> {
  const items: TransactItems = [
    {
      Delete: {
        TableName: tableName(),
        Key: tokenKey(id),
        ConditionExpression: 'teamId = :tid',
        ExpressionAttributeValues: { ':tid': teamId },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: teamKey(teamId),
        UpdateExpression: 'ADD tokenCount :minus',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
    ...guard,
  ];
  const tokenGone = (failed: number[]) => failed.length === 1 && failed[0] === 0;
  try {
    // The token's own condition alone: left undefined here, so the raw failure reaches the catch below.
    await transactWrite(items, (failed) => (tokenGone(failed) ? undefined : 'NOT_FOUND'));
  } catch (err) {
    if (isConditionFailure(err) && tokenGone(failedConditions(err))) return;
    throw err;
  }
}

/**
 * The live token a bearer value names, or null (malformed, unknown, revoked, expired, or a wrong secret
 * for a known id): one consistent GetItem, so a revoked token is refused at once. With it, the creator's
 * role in the token's team now (their `USER#uid/TEAMS`, one more consistent GetItem; null when they left),
 * for the caller's check that the creator is still entitled to the token.
 */
export async function resolveToken(
  bearer: string,
): Promise<{ token: ApiToken; creatorRole: Role | null } | null> {
  const match = tokenPattern.exec(bearer);
  const id = match?.[1];
  if (!id) return null;
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: tokenKey(id), ConsistentRead: true }),
  );
  const item = out.Item;
  if (!item || typeof item.hash !== 'string' || !safeEqual(item.hash, sha256(bearer))) return null;
  const token = toToken(item);
  if (!isLive(token)) return null;
  const creator = await db().send(
    new GetCommand({ TableName: tableName(), Key: teamsKey(token.createdBy), ConsistentRead: true }),
  );
  const entry = creator.Item ? toTeamsItem(creator.Item).teams[token.teamId] : undefined;
  return { token, creatorRole: entry?.r ?? null };
}

/** How stale `lastUsedAt` may be: a write per call would double a read-heavy client's cost for a date. */
export const LAST_USED_PRECISION_MS = MINUTE;

/**
 * Records a use when the stored one is older than a minute (a conditional UpdateItem, so concurrent calls
 * write it once); a failed condition is the common case and not an error.
 */
export async function touchToken(token: ApiToken, now = nowMs()): Promise<void> {
  if (token.lastUsedAt !== null && now - token.lastUsedAt < LAST_USED_PRECISION_MS) return;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: tokenKey(token.id),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :stale)',
        ExpressionAttributeValues: { ':now': now, ':stale': now - LAST_USED_PRECISION_MS },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
