/**
 * Account flows of SPEC.md sections 4, 5 and 7: registration, confirmation, login with lockout, reset,
 * Google sign-in, logout (the signed-in client's own profile is accounts/profile.ts). Knows nothing of
 * HTTP: inputs are parsed values, failures AppErrors.
 */
import { PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { db } from '../core/aws/dynamo';
import { hashPassword, verifyPassword } from '../core/crypto';
import type { Key } from '../core/db';
import { tableName } from '../core/db';
import { fail } from '../core/errors';
import type { Logger } from '../core/log';
import { sendMail } from '../core/mail';
import { type RateLimit, rateLimit } from '../core/rate-limit';
import { deleteSession, deleteUserSessions, newSession, resolveSession, type Session } from '../core/session';
import { HOUR, MINUTE, nowMs } from '../core/time';
import type { Lang } from '../shared/errors';
import { verifyProofOfWork } from './altcha';
import {
  consumeConfirmationCode,
  issueConfirmationCode,
  issueResetCode,
  resetPasswordWithCode,
} from './codes';
import { confirmationMail, resetMail } from './emails';
import { verifyGoogleToken } from './google';
import {
  createUser,
  findUserByEmail,
  findUserByGoogle,
  findUserIdByEmail,
  newUser,
  type User,
  updateUser,
  userKey,
} from './users';

/** SPEC leaves the threshold open: docs/decisions.md "Login lockout". */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_BLOCK_MS = 15 * MINUTE;
/** Confirmation resends per address per hour. */
export const RESEND_PER_HOUR = 3;
/** Confirmation attempts per address per hour. */
export const CONFIRM_TRIES_PER_HOUR = 10;
/** Reset mails per address per hour. */
export const RESET_PER_HOUR = 3;

export async function register(
  input: { _username: string; _password: string; firstName: string; lastName: string; altcha: string },
  lang: Lang,
  log: Logger,
): Promise<void> {
  if (!(await verifyProofOfWork(input.altcha))) fail('INVALID_PARAMETERS', { altcha: 'INVALID_PARAMETERS' });
  const user = newUser({
    email: input._username,
    firstName: input.firstName,
    lastName: input.lastName,
    passwordHash: await hashPassword(input._password),
  });
  await createUser(user);
  await sendConfirmation(user, lang, log);
}

async function sendConfirmation(user: User, lang: Lang, log: Logger, limit?: RateLimit) {
  const code = await issueConfirmationCode(user.id, limit);
  try {
    await sendMail(confirmationMail(lang, user.email, user.firstName, code));
  } catch (err) {
    // The account exists either way; the confirmation screen offers a resend.
    log.error('confirmation mail not sent', { err, userId: user.id });
  }
}

export async function confirm(input: { _username: string; confirmationCode: string }): Promise<void> {
  const email = input._username.toLowerCase();
  // An 8-character code must not be guessable online: a few tries per address and hour.
  await rateLimit({ action: 'confirm', key: email, max: CONFIRM_TRIES_PER_HOUR, windowMs: HOUR });
  const userId = await findUserIdByEmail(email);
  if (!userId) fail('INVALID_CODE');
  // The transaction refuses an already-confirmed account itself, so the profile need not be read.
  await consumeConfirmationCode(userId, input.confirmationCode);
}

export async function resendConfirmation(
  input: { _username: string },
  lang: Lang,
  log: Logger,
): Promise<void> {
  const user = await findUserByEmail(input._username);
  if (!user || user.confirmed) fail('RESTORE_NOT_POSSIBLE');
  // Counted with the new code's write: only mails actually sent use up the allowance.
  await sendConfirmation(user, lang, log, {
    action: 'resend',
    key: user.email,
    max: RESEND_PER_HOUR,
    windowMs: HOUR,
  });
}

/**
 * Starts a session in one write: the new session, the end of the one the browser still carried
 * (rotation, DESIGN.md section 6) and a failure-count reset go together, so a login costs 3 requests.
 */
async function startSession(
  user: User,
  via: Session['via'],
  previous: Key | undefined,
): Promise<{ cookie: string }> {
  const session = newSession(user.id, via);
  const writes = [
    { Put: { TableName: tableName(), Item: session.item } },
    ...(previous ? [{ Delete: { TableName: tableName(), Key: previous } }] : []),
    ...(user.failedLogins > 0
      ? [
          {
            Update: {
              TableName: tableName(),
              Key: userKey(user.id),
              UpdateExpression: 'SET failedLogins = :zero',
              ExpressionAttributeValues: { ':zero': 0 },
            },
          },
        ]
      : []),
  ];
  if (writes.length === 1) await db().send(new PutCommand({ TableName: tableName(), Item: session.item }));
  else await db().send(new TransactWriteCommand({ TransactItems: writes }));
  return session;
}

export async function login(
  input: { _username: string; _password: string },
  previous?: Key,
): Promise<{ cookie: string }> {
  const user = await findUserByEmail(input._username);
  const now = nowMs();
  if (user && user.lockedUntil > now) fail('ACCESS_DISABLED');
  const ok = await verifyPassword(input._password, user?.passwordHash);
  if (!user) fail('ACCESS_DENIED');
  if (!ok) {
    await recordFailure(user);
    fail('ACCESS_DENIED');
  }
  if (!user.confirmed) fail('CONFIRMATION_REQUIRED');
  return startSession(user, 'password', previous);
}

/** Counts a failure atomically (concurrent guesses all count) and blocks at the threshold. */
async function recordFailure(user: User) {
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: userKey(user.id),
      UpdateExpression: 'ADD failedLogins :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  if ((out.Attributes?.failedLogins ?? 0) >= LOGIN_MAX_FAILURES) {
    await updateUser(user.id, { failedLogins: 0, lockedUntil: nowMs() + LOGIN_BLOCK_MS });
  }
}

export async function requestReset(input: { _username: string }, lang: Lang): Promise<void> {
  const user = await findUserByEmail(input._username);
  // Unknown addresses get the same answer as known ones: the form must not reveal who has an account.
  if (!user) return;
  // SPEC's RESET_NOT_POSSIBLE: an unconfirmed account (confirm first) or one without a password (Google).
  if (!user.confirmed || !user.passwordHash) fail('RESET_NOT_POSSIBLE');
  // Counted with the code's write: only mails actually sent use up the allowance.
  const code = await issueResetCode(user.id, {
    action: 'reset',
    key: user.email,
    max: RESET_PER_HOUR,
    windowMs: HOUR,
  });
  await sendMail(resetMail(lang, user.email, user.firstName, code));
}

export async function resetPassword(input: { code: string; password: string }): Promise<void> {
  const userId = await resetPasswordWithCode(input.code, await hashPassword(input.password));
  await deleteUserSessions(userId);
}

export async function googleSignIn(input: { token: string }, previous?: Key): Promise<{ cookie: string }> {
  const identity = await verifyGoogleToken(input.token);
  const linked = await findUserByGoogle(identity.sub);
  if (linked) return startSession(linked, 'google', previous);
  // An address that already has a password account is not taken over by a Google sign-in: that would let
  // whoever controls the Google account into an account they never proved they own. USER_EXISTS.
  if (await findUserByEmail(identity.email)) fail('USER_EXISTS');
  const user = newUser({
    email: identity.email,
    firstName: identity.firstName,
    lastName: identity.lastName,
    googleSub: identity.sub,
    confirmed: true,
  });
  await createUser(user);
  return startSession(user, 'google', previous);
}

/** Ends the session the request's cookie names, if any; tells whether it came from Google. */
export async function logout(
  event: Pick<APIGatewayProxyEventV2, 'cookies' | 'headers'>,
): Promise<{ google: boolean }> {
  const session = await resolveSession(event);
  if (session) await deleteSession(session.id);
  return { google: session?.via === 'google' };
}
