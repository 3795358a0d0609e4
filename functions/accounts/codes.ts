/**
 * Single-use codes sent by email (docs/data-model.md "Codes").
 * - Confirmation: 8 characters, 48 hours, one per user (USER#<id>/CODE#CONFIRM): a resend overwrites the
 *   item, which invalidates the previous code.
 * - Reset: a 256-bit token, 1 hour, RESET#<sha256>/RESET pointing at the user; the newest one is also
 *   recorded on the user's partition so a new request invalidates older links.
 * Codes are stored as SHA-256 and consumed with a conditional delete, so a code works exactly once.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { limits } from '#contracts/limits';
import { db } from '#runtime/aws/dynamo';
import { randomCode, randomToken, sha256 } from '#runtime/crypto';
import { isConditionFailure, tableName, transactWrite } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { type RateLimit, rateLimitWrite } from '#runtime/rate-limit';
import { epochSeconds, HOUR, nowMs } from '#runtime/time';
import { userKey } from './user';

export const CONFIRMATION_LIFETIME_MS = 48 * HOUR;
export const RESET_LIFETIME_MS = HOUR;

const confirmKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'CODE#CONFIRM' });
const resetKey = (hash: string) => ({ pk: `RESET#${hash}`, sk: 'RESET' });
const latestResetKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'CODE#RESET' });

/** Writes `items` with the rate-limit counts first, in one transaction; RATE_LIMITED if a count is spent. */
export async function writeCounted(
  counts: RateLimit[],
  items: Record<string, unknown>[] = [],
): Promise<void> {
  await transactWrite([...counts.map(rateLimitWrite), ...items] as never, (failed) =>
    failed.some((i) => i < counts.length) ? 'RATE_LIMITED' : undefined,
  );
}

/** A new confirmation code and the write that stores it (the previous code stops working). */
export function confirmationCodeWrite(userId: string) {
  const code = randomCode(limits.confirmationCodeLength);
  const expiresAt = nowMs() + CONFIRMATION_LIFETIME_MS;
  const item = { ...confirmKey(userId), codeHash: sha256(code), expiresAt, ttl: epochSeconds(expiresAt) };
  return { code, write: { Put: { TableName: tableName(), Item: item } } };
}

/** Issues a new confirmation code, counted against `counts`. */
export async function issueConfirmationCode(userId: string, counts: RateLimit[]): Promise<string> {
  const { code, write } = confirmationCodeWrite(userId);
  await writeCounted(counts, [write]);
  return code;
}

/** Confirms the account if `code` is its current, unexpired code; the code is used up either way. */
export async function consumeConfirmationCode(userId: string, code: string): Promise<void> {
  await transactWrite(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: confirmKey(userId),
          ConditionExpression: 'codeHash = :h AND expiresAt > :now',
          ExpressionAttributeValues: { ':h': sha256(code.toUpperCase()), ':now': nowMs() },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: userKey(userId),
          UpdateExpression: 'SET confirmed = :t',
          // An account confirms once; a second link for a confirmed account is an invalid link.
          ConditionExpression: 'attribute_exists(pk) AND confirmed = :f',
          ExpressionAttributeValues: { ':t': true, ':f': false },
        },
      },
    ],
    'INVALID_CODE',
  );
}

/**
 * Issues a reset code for `userId`, counted against `counts`. For an address without an account the
 * caller passes NO_USER_ID: the same writes happen, and the code, never mailed, opens nothing.
 */
export async function issueResetCode(userId: string, counts: RateLimit[]): Promise<string> {
  const code = randomToken();
  const hash = sha256(code);
  const expiresAt = nowMs() + RESET_LIFETIME_MS;
  const ttl = epochSeconds(expiresAt);
  await writeCounted(counts, [
    { Put: { TableName: tableName(), Item: { ...resetKey(hash), userId, expiresAt, ttl } } },
    { Put: { TableName: tableName(), Item: { ...latestResetKey(userId), codeHash: hash, expiresAt, ttl } } },
  ]);
  return code;
}

/**
 * Sets a new password with a reset code: consumes the code (RESTORE_NOT_POSSIBLE if expired, used, unknown
 * or superseded by a newer link) and writes the password. Returns the user id.
 */
export async function resetPasswordWithCode(code: string, passwordHash: string): Promise<string> {
  const hash = sha256(code);
  let userId: string | undefined;
  try {
    const out = await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: resetKey(hash),
        ConditionExpression: 'attribute_exists(pk) AND expiresAt > :now',
        ExpressionAttributeValues: { ':now': nowMs() },
        ReturnValues: 'ALL_OLD',
      }),
    );
    userId = out.Attributes?.userId;
  } catch (err) {
    if (isConditionFailure(err)) throw new AppError('RESTORE_NOT_POSSIBLE');
    throw err;
  }
  if (!userId) throw new AppError('RESTORE_NOT_POSSIBLE');
  await transactWrite(
    [
      {
        // Only the newest link of a user works: an older one was superseded by a later request.
        Delete: {
          TableName: tableName(),
          Key: latestResetKey(userId),
          ConditionExpression: 'codeHash = :h',
          ExpressionAttributeValues: { ':h': hash },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: userKey(userId),
          // The lockout fields of the earlier design go with the old password.
          UpdateExpression: 'SET passwordHash = :p REMOVE failedLogins, lockedUntil',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':p': passwordHash },
        },
      },
    ],
    'RESTORE_NOT_POSSIBLE',
  );
  return userId;
}
