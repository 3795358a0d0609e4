/**
 * Recognised browsers (docs/decisions.md "Recognised browser"): a browser that signed in to an account with
 * its password carries a device cookie, so the login block that SPEC asks for after failed logins never
 * locks the owner's own browser out. A stranger who knows the address (on a shared network, a carrier's
 * NAT) can only block browsers the account has never signed in from.
 *
 * The cookie is 256 random bits, like a session: only its SHA-256 is stored, with the account's user id
 * (not the address: a new account on the same address is not recognised) and a TTL. It is HttpOnly,
 * SameSite=Strict and sent only to the login route, so no script and no other call ever sees it. A
 * recognised browser's wrong passwords still count, against the device itself, so a stolen cookie opens no
 * unthrottled guessing either.
 */
import { getConfig } from '#runtime/config';
import { randomToken, sha256 } from '#runtime/crypto';
import type { Key } from '#runtime/db';
import { readCookie } from '#runtime/session';
import { DAY, epochSeconds, nowMs } from '#runtime/time';

export const DEVICE_COOKIE = 'snag_device';
/** A browser stays recognised this long after its last password sign-in (each one issues a new cookie). */
export const DEVICE_LIFETIME_MS = 180 * DAY;
/** The only route the cookie is sent to. */
const DEVICE_COOKIE_PATH = '/api/client/login';

const deviceKey = (hash: string): Key => ({ pk: `DEVICE#${hash}`, sk: 'DEVICE' });

/** The device the request's cookie names, not yet read: its item's key and its id (the token's hash). */
export interface DeviceRef {
  id: string;
  key: Key;
}

/** Our tokens are 43 base64url characters; anything else names no device. */
export function cookieDevice(event: Parameters<typeof readCookie>[0]): DeviceRef | undefined {
  const token = readCookie(event, DEVICE_COOKIE);
  if (!token || !/^[\w-]{43}$/.test(token)) return undefined;
  const id = sha256(token);
  return { id, key: deviceKey(id) };
}

/** Whether a device item (read with its `DeviceRef.key`) is a live device of `userId`. */
export const recognises = (item: Record<string, unknown> | undefined, userId: string): boolean =>
  !!item && item.userId === userId && typeof item.expiresAt === 'number' && item.expiresAt > nowMs();

/** A new device of `userId`: the item to put (in the sign-in's own transaction) and its Set-Cookie value. */
export function newDevice(userId: string): { item: Record<string, unknown>; cookie: string } {
  const token = randomToken();
  const expiresAt = nowMs() + DEVICE_LIFETIME_MS;
  const secure = getConfig().APP_ORIGIN.startsWith('https://') ? '; Secure' : '';
  return {
    item: { ...deviceKey(sha256(token)), userId, expiresAt, ttl: epochSeconds(expiresAt) },
    cookie: `${DEVICE_COOKIE}=${token}; HttpOnly; Path=${DEVICE_COOKIE_PATH}; SameSite=Strict; Max-Age=${Math.floor(DEVICE_LIFETIME_MS / 1000)}${secure}`,
  };
}
