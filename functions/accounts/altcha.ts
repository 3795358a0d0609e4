/**
 * The proof of work (altcha v2, PBKDF2/SHA-256) of registration and of a busy project's intake (issue 19).
 * Challenges are HMAC-signed, expire after 10 minutes, and a solved payload is accepted once: its challenge
 * id is recorded with a conditional put (ALTCHA#<id>/ALTCHA, expiring with the challenge), so a replay fails
 * even on another Lambda instance. A challenge serves one purpose: registration's carry no `data` and are
 * signed with the altcha secret; the intake's name their project and are signed with a key of its own
 * (`key`, issues/proof.ts), since the anonymous intake function holds no secrets. Each verifier accepts
 * only its own.
 */

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createChallenge, randomInt } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { deriveHmacKeySecret, verify } from 'altcha-lib/frameworks/shared';
import { db } from '#runtime/aws/dynamo';
import { getConfig } from '#runtime/config';
import { sha256 } from '#runtime/crypto';
import { isConditionFailure, tableName } from '#runtime/db';
import { getSecrets } from '#runtime/secrets';
import { epochSeconds, MINUTE, nowMs } from '#runtime/time';

const CHALLENGE_LIFETIME_MS = 10 * MINUTE;

async function secrets(key?: string) {
  const signature = key ?? (await getSecrets()).ALTCHA_HMAC_KEY;
  return { signature, keySignature: await deriveHmacKeySecret(signature) };
}

export interface ProofPurpose {
  /** What the challenge is for; signed with it, and required back by `verifyProofOfWork`. */
  data?: Record<string, string>;
  /** The signing key; default the altcha secret. */
  key?: string;
}

export interface ChallengeOptions extends ProofPurpose {
  /** How many times the configured work the challenge may take (the secret counter's range grows). */
  scale?: number;
}

export async function newChallenge({ scale = 1, data, key }: ChallengeOptions = {}) {
  const c = getConfig();
  const s = await secrets(key);
  return createChallenge({
    algorithm: 'PBKDF2/SHA-256',
    cost: c.ALTCHA_COST,
    counter: randomInt(c.ALTCHA_COUNTER_MIN, c.ALTCHA_COUNTER_MAX * scale),
    ...(data ? { data } : {}),
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

/** The `data` a payload's challenge claims (not yet verified), or undefined. */
function claimedData(payload: string): unknown {
  try {
    return JSON.parse(Buffer.from(payload, 'base64').toString('utf8'))?.challenge?.parameters?.data;
  } catch {
    return undefined;
  }
}

const sameData = (got: unknown, want: Record<string, string> | undefined): boolean =>
  want === undefined
    ? got === undefined
    : typeof got === 'object' &&
      got !== null &&
      Object.keys(got).length === Object.keys(want).length &&
      Object.entries(want).every(([k, v]) => (got as Record<string, unknown>)[k] === v);

/**
 * True when `payload` (the widget's base64 JSON) solves a challenge signed with `key` for `data` (neither:
 * registration) and was not used before. A challenge for another purpose is refused before it is marked used.
 */
export async function verifyProofOfWork(payload: string, { data, key }: ProofPurpose = {}): Promise<boolean> {
  if (!sameData(claimedData(payload), data)) return false;
  const s = await secrets(key);
  // verify() turns whatever the store throws into "not verified"; a fault of the table is a fault (500),
  // not a failed proof, so it is kept and thrown again. Nothing was recorded: the payload stays usable.
  let fault: unknown;
  const store = {
    get: async () => false,
    set: async () => {},
    setIfAbsent: (id: string) =>
      markUsed(id).catch((err: unknown) => {
        fault = err;
        throw err;
      }),
  };
  const result = await verify(payload, deriveKey, s.signature, s.keySignature, store as never);
  if (fault) throw fault;
  return result.error === null;
}
