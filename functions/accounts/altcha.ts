/**
 * The registration proof of work (altcha v2, PBKDF2/SHA-256). Challenges are HMAC-signed, expire after
 * 10 minutes, and a solved payload is accepted once: its challenge id is recorded with a conditional put
 * (ALTCHA#<id>/ALTCHA, expiring with the challenge), so a replay fails even on another Lambda instance.
 */

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createChallenge, randomInt } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { deriveHmacKeySecret, verify } from 'altcha-lib/frameworks/shared';
import { db } from '../core/aws/dynamo';
import { getConfig } from '../core/config';
import { sha256 } from '../core/crypto';
import { isConditionFailure, tableName } from '../core/db';
import { getSecrets } from '../core/secrets';
import { epochSeconds, MINUTE, nowMs } from '../core/time';

const CHALLENGE_LIFETIME_MS = 10 * MINUTE;

async function secrets() {
  const { ALTCHA_HMAC_KEY } = await getSecrets();
  return { signature: ALTCHA_HMAC_KEY, keySignature: await deriveHmacKeySecret(ALTCHA_HMAC_KEY) };
}

export async function newChallenge() {
  const c = getConfig();
  const s = await secrets();
  return createChallenge({
    algorithm: 'PBKDF2/SHA-256',
    cost: c.ALTCHA_COST,
    counter: randomInt(c.ALTCHA_COUNTER_MIN, c.ALTCHA_COUNTER_MAX),
    deriveKey,
    expiresAt: new Date(nowMs() + CHALLENGE_LIFETIME_MS),
    hmacSignatureSecret: s.signature,
    hmacKeySignatureSecret: s.keySignature,
  });
}

/** Records a used challenge; false if it was used before. */
async function markUsed(challengeId: string): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          pk: `ALTCHA#${sha256(challengeId)}`,
          sk: 'ALTCHA',
          ttl: epochSeconds(nowMs() + CHALLENGE_LIFETIME_MS) + 60,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** True when `payload` (the widget's base64 JSON) solves a challenge we issued and was not used before. */
export async function verifyProofOfWork(payload: string): Promise<boolean> {
  const s = await secrets();
  const store = {
    get: async () => false,
    set: async () => {},
    setIfAbsent: async (id: string) => markUsed(id),
  };
  const result = await verify(payload, deriveKey, s.signature, s.keySignature, store as never);
  return result.error === null;
}
