/**
 * Single-use codes sent by email (docs/data-model.md "Codes").
 * - Confirmation: 8 characters, 48 hours, one per user (USER#<id>/CODE#CONFIRM): a resend overwrites the
 *   item, which invalidates the previous code.
 * - Reset: a 256-bit token, 1 hour, RESET#<sha256>/RESET pointing at the user; the newest one is also
 *   recorded on the user's partition so a new request invalidates older links.
 * Codes are stored as SHA-256 and consumed with a conditional delete, so a code works exactly once.
 */
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../core/aws/dynamo';
import { randomCode, randomToken, sha256 } from '../core/crypto';
import { isConditionFailure, tableName } from '../core/db';
import { AppError } from '../core/errors';
import { epochSeconds, HOUR, nowMs } from '../core/time';
import { limits } from '../shared/limits';
import { userKey } from './users';

export const CONFIRMATION_LIFETIME_MS = 48 * HOUR;
export const RESET_LIFETIME_MS = HOUR;

const confirmKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'CODE#CONFIRM' });
const resetKey = (hash: string) => ({ pk: `RESET#${hash}`, sk: 'RESET' });
const latestResetKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'CODE#RESET' });

export async function issueConfirmationCode(userId: string): Promise<string> {
  const code = randomCode(limits.confirmationCodeLength);
  const expiresAt = nowMs() + CONFIRMATION_LIFETIME_MS;
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...confirmKey(userId), codeHash: sha256(code), expiresAt, ttl: epochSeconds(expiresAt) },
    }),
  );
  return code;
}

/** Confirms the account if `code` is its current, unexpired code; the code is used up either way. */
export async function consumeConfirmationCode(userId: string, code: string): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
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
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':t': true },
            },
          },
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new AppError('INVALID_CODE');
    throw err;
  }
}

export async function issueResetCode(userId: string): Promise<string> {
  const code = randomToken();
  const hash = sha256(code);
  const expiresAt = nowMs() + RESET_LIFETIME_MS;
  const ttl = epochSeconds(expiresAt);
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: { ...resetKey(hash), userId, expiresAt, ttl } } },
        {
          Put: {
            TableName: tableName(),
            Item: { ...latestResetKey(userId), codeHash: hash, expiresAt, ttl },
          },
        },
      ],
    }),
  );
  return code;
}

/** The user a reset code belongs to, consuming the code; RESTORE_NOT_POSSIBLE if expired, used or unknown. */
export async function consumeResetCode(code: string): Promise<string> {
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
  // Only the newest link of a user works: an older one was superseded by a later request.
  const latest = await db().send(new GetCommand({ TableName: tableName(), Key: latestResetKey(userId) }));
  if (latest.Item?.codeHash !== hash) throw new AppError('RESTORE_NOT_POSSIBLE');
  await db().send(new DeleteCommand({ TableName: tableName(), Key: latestResetKey(userId) }));
  return userId;
}
