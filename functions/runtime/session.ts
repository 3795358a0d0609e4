/**
 * Sessions (DESIGN.md section 6): a random 256-bit token in an HttpOnly, SameSite=Lax cookie, stored as
 * its SHA-256 with a TTL, 30 days sliding. Items: pk SESSION#<hash>, indexed under the user in gsi1 so
 * that a password change or reset can end every session of that user (docs/data-model.md).
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { SIGNED_IN_COOKIE } from '#contracts/cookies';
import { db } from './aws/dynamo';
import { getConfig, tableName } from './config';
import { randomToken, sha256 } from './crypto';
import { batchDelete, queryKeys } from './db';
import { DAY, epochSeconds, nowMs } from './time';

export interface Session {
  userId: string;
  /** How the session was created; logout tells the dashboard whether to sign out of Google too. */
  via: 'password' | 'google';
  /** SHA-256 of the token: identifies this session without keeping the token around. */
  id: string;
  /** Set when the sliding expiry moved: the response must carry the renewed cookies. */
  renewedCookies?: string[];
}

export const SESSION_COOKIE = 'snag_session';

export const SESSION_LIFETIME_MS = 30 * DAY;
/** Extend a session at most once a day: a write per request would double the cost of every call. */
const RENEW_AFTER_MS = DAY;

const key = (hash: string) => ({ pk: `SESSION#${hash}`, sk: 'SESSION' });
const table = tableName;

export function readCookie(event: Pick<APIGatewayProxyEventV2, 'cookies' | 'headers'>, name: string) {
  const pairs = event.cookies ?? event.headers?.cookie?.split(';') ?? [];
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The session cookie and its readable hint (contracts/cookies.ts), with the same lifetime. The hint says only
 * that a session was started in this browser, so the dashboard sends a visitor without one to login
 * instead of asking for a profile and logging a 401; it is no secret and grants nothing.
 */
export function sessionCookies(token: string, maxAgeMs = SESSION_LIFETIME_MS): string[] {
  const secure = getConfig().APP_ORIGIN.startsWith('https://') ? '; Secure' : '';
  const attributes = `Path=/; SameSite=Lax; Max-Age=${Math.floor(maxAgeMs / 1000)}${secure}`;
  return [
    `${SESSION_COOKIE}=${token}; HttpOnly; ${attributes}`,
    `${SIGNED_IN_COOKIE}=${token ? '1' : ''}; ${attributes}`,
  ];
}

export const clearedSessionCookies = () => sessionCookies('', 0);

export interface NewSession {
  /** The item to put; callers may write it inside a transaction with other changes. */
  item: Record<string, unknown>;
  /** Set-Cookie values: the token and its hint. */
  cookies: string[];
  id: string;
}

/** A new session, not yet stored: 256 random bits, of which only the hash is kept. */
export function newSession(userId: string, via: Session['via']): NewSession {
  const token = randomToken();
  const hash = sha256(token);
  const expiresAt = nowMs() + SESSION_LIFETIME_MS;
  return {
    item: {
      ...key(hash),
      gsi1pk: `USER#${userId}`,
      gsi1sk: `SESSION#${hash}`,
      userId,
      via,
      expiresAt,
      renewedAt: nowMs(),
      ttl: epochSeconds(expiresAt),
    },
    cookies: sessionCookies(token),
    id: hash,
  };
}

/** Our tokens are 43 base64url characters; anything else cannot name a session. */
const wellFormed = (token: string | undefined): token is string => !!token && /^[\w-]{43}$/.test(token);

/** The key of the session the request's cookie names, without reading it (to end it blindly). */
export function cookieSessionKey(event: Pick<APIGatewayProxyEventV2, 'cookies' | 'headers'>) {
  const token = readCookie(event, SESSION_COOKIE);
  return wellFormed(token) ? key(sha256(token)) : undefined;
}

/** The session named by the request's cookie, or null (no cookie, unknown, expired or forged token). */
export async function resolveSession(
  event: Pick<APIGatewayProxyEventV2, 'cookies' | 'headers'>,
): Promise<Session | null> {
  const token = readCookie(event, SESSION_COOKIE);
  if (!wellFormed(token)) return null;
  const hash = sha256(token);
  // Consistent: a session ended a moment ago (logout, password change) must not still open the door.
  const out = await db().send(new GetCommand({ TableName: table(), Key: key(hash), ConsistentRead: true }));
  const item = out.Item;
  const now = nowMs();
  // TTL deletion is lazy (it can take days), so expiry is checked on every read.
  if (!item || typeof item.expiresAt !== 'number' || item.expiresAt <= now) return null;
  const session: Session = { userId: item.userId, via: item.via, id: hash };
  if (now - (item.renewedAt ?? 0) > RENEW_AFTER_MS) {
    const expiresAt = now + SESSION_LIFETIME_MS;
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(hash),
        UpdateExpression: 'SET expiresAt = :e, renewedAt = :n, #ttl = :t',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':e': expiresAt, ':n': now, ':t': epochSeconds(expiresAt) },
      }),
    );
    session.renewedCookies = sessionCookies(token);
  }
  return session;
}

export async function deleteSession(id: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: key(id) }));
}

/** Ends every session of a user, except `keepId` (the one changing the password stays signed in). */
export async function deleteUserSessions(userId: string, keepId?: string): Promise<void> {
  const keys = await queryKeys({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :u AND begins_with(gsi1sk, :s)',
    ExpressionAttributeValues: { ':u': `USER#${userId}`, ':s': 'SESSION#' },
  });
  await batchDelete(keys.filter((k) => k.pk !== `SESSION#${keepId}`));
}
