/**
 * The browser extension's one-time codes (contracts/extension.ts, docs/extension-connection.md): what the
 * connect page hands the extension after the member approves. One item per code, `EXTCODE#<sha256>/EXTCODE`,
 * holding the member, the PKCE challenge the extension sent and the browser's name; stored as a hash (the
 * table never holds a code that works), living EXTENSION_CODE_SECONDS, consumed by a conditional delete so
 * that a code works once, whether the verifier that comes with it is right or not.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { EXTENSION_CODE_SECONDS } from '#contracts/extension';
import { db } from '#runtime/aws/dynamo';
import { randomToken, safeEqual, sha256 } from '#runtime/crypto';
import { isConditionFailure, tableName } from '#runtime/db';
import type { RateLimit } from '#runtime/rate-limit';
import { epochSeconds, nowMs } from '#runtime/time';
import { writeCounted } from './codes';

const codeKey = (hash: string) => ({ pk: `EXTCODE#${hash}`, sk: 'EXTCODE' });

export interface ExtensionGrant {
  userId: string;
  challenge: string;
  browser: string;
}

/** A new code for `grant`, counted against `limit` in the same transaction (a refused one stores nothing). */
export async function issueExtensionCode(grant: ExtensionGrant, limit: RateLimit): Promise<string> {
  const code = randomToken();
  const expiresAt = nowMs() + EXTENSION_CODE_SECONDS * 1000;
  await writeCounted(
    [limit],
    [
      {
        Put: {
          TableName: tableName(),
          Item: { ...codeKey(sha256(code)), ...grant, expiresAt, ttl: epochSeconds(expiresAt) + 60 },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
  );
  return code;
}

/**
 * Takes the code out of the table and answers what it was issued for, or null (unknown, used, expired: TTL
 * deletion lags, so the expiry is part of the condition). The delete happens before the verifier is checked:
 * one wrong guess spends the code, so an intercepted code cannot be tried against verifiers.
 */
export async function consumeExtensionCode(code: string): Promise<ExtensionGrant | null> {
  try {
    const out = await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: codeKey(sha256(code)),
        ConditionExpression: 'attribute_exists(pk) AND expiresAt > :now',
        ExpressionAttributeValues: { ':now': nowMs() },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const item = out.Attributes;
    if (!item) return null;
    return { userId: String(item.userId), challenge: String(item.challenge), browser: String(item.browser) };
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

/** PKCE S256 (RFC 7636 4.6): base64url(SHA-256(verifier)) is the challenge the code was issued for. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(sha256(verifier), 'hex').toString('base64url');
  return safeEqual(computed, challenge);
}
