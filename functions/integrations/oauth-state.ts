/**
 * The OAuth `state` of the Slack and Asana authorisations (issue 11, docs/decisions.md "OAuth state"):
 *
 *   <siteId>.<nonce>.<expires>.<signature>
 *
 * - siteId: the project's uuid, first so the dashboard can read it back (`/profile/asana_redirect` forwards
 *   to `/profile/integrations/<part before the first dot>/asana`);
 * - nonce: 128 random bits (base64url); expires: epoch seconds, 10 minutes after issue;
 * - signature: HMAC-SHA256 (base64url) keyed with OAUTH_STATE_KEY over
 *   `v1.<vendor>.<siteId>.<nonce>.<expires>.<sha256(session id)>`: the state is bound to the vendor, the
 *   project and the signed-in session that asked for it, none of which it reveals.
 *
 * A state is used once: the exchange records its nonce with a conditional put (TTL after expiry), so a
 * replayed state is refused even within its lifetime.
 */

import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { OAuthVendor } from '#contracts/integration-catalogue';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/config';
import { safeEqual, sha256 } from '#runtime/crypto';
import { isConditionFailure } from '#runtime/db';
import { getSecrets } from '#runtime/secrets';
import { epochSeconds, MINUTE, nowMs } from '#runtime/time';

export type { OAuthVendor };

export const STATE_LIFETIME_MS = 10 * MINUTE;

/**
 * The signing key: OAUTH_STATE_KEY, or, while a stage has not set one, a key derived from ALTCHA_HMAC_KEY
 * (HKDF with its own label, so neither signature can stand in for the other).
 */
export async function stateKey(): Promise<Buffer> {
  const secrets = await getSecrets();
  if (secrets.OAUTH_STATE_KEY) return Buffer.from(secrets.OAUTH_STATE_KEY, 'utf8');
  return Buffer.from(hkdfSync('sha256', secrets.ALTCHA_HMAC_KEY, 'snag', 'oauth-state-v1', 32));
}

function sign(
  key: Buffer,
  vendor: OAuthVendor,
  siteId: string,
  nonce: string,
  expires: number,
  sessionId: string,
) {
  return createHmac('sha256', key)
    .update(`v1.${vendor}.${siteId}.${nonce}.${expires}.${sha256(sessionId)}`)
    .digest('base64url');
}

/** A new state for this session and project. */
export async function issueState(vendor: OAuthVendor, siteId: string, sessionId: string, now = nowMs()) {
  const nonce = randomBytes(16).toString('base64url');
  const expires = epochSeconds(now + STATE_LIFETIME_MS);
  return `${siteId}.${nonce}.${expires}.${sign(await stateKey(), vendor, siteId, nonce, expires, sessionId)}`;
}

/** The project id a state names (what the dashboard reads too): the part before the first dot. */
export const siteIdOfState = (state: string) => state.split('.', 1)[0] ?? '';

export type StateCheck =
  | { ok: true; nonce: string; expires: number }
  | { ok: false; why: 'malformed' | 'forged' | 'expired' | 'other-site' };

/**
 * Checks a state's form, signature (which covers the vendor and the session), project and expiry. It
 * does not use it up: `consumeState` does, once the rest of the request is valid.
 */
export async function checkState(
  vendor: OAuthVendor,
  state: string,
  siteId: string,
  sessionId: string,
  now = nowMs(),
): Promise<StateCheck> {
  const parts = state.split('.');
  if (parts.length !== 4) return { ok: false, why: 'malformed' };
  const [site, nonce, exp, sig] = parts as [string, string, string, string];
  if (!/^[A-Za-z0-9_-]{22}$/.test(nonce) || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) {
    return { ok: false, why: 'malformed' };
  }
  const expires = Number(exp);
  if (!safeEqual(sig, sign(await stateKey(), vendor, site, nonce, expires, sessionId))) {
    return { ok: false, why: 'forged' };
  }
  if (site !== siteId) return { ok: false, why: 'other-site' };
  if (expires * 1000 <= now) return { ok: false, why: 'expired' };
  return { ok: true, nonce, expires };
}

/** Uses a checked state up; false when it was used before (a replay). */
export async function consumeState(nonce: string, expires: number): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { pk: `OAUTHSTATE#${sha256(nonce)}`, sk: 'OAUTHSTATE', ttl: expires + 60 },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
