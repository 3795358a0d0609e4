/**
 * Account flows of SPEC.md sections 4, 5 and 7: registration, confirmation, login with lockout, reset,
 * Google sign-in, logout (the signed-in client's own profile is accounts/profile.ts). Knows nothing of
 * HTTP: inputs are parsed values, failures AppErrors.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../core/aws/dynamo';
import { hashPassword, verifyPassword } from '../core/crypto';
import { tableName } from '../core/db';
import { fail } from '../core/errors';
import type { Logger } from '../core/log';
import { sendMail } from '../core/mail';
import { rateLimit } from '../core/rate-limit';
import { createSession, deleteSession, deleteUserSessions, type Session } from '../core/session';
import { HOUR, MINUTE, nowMs } from '../core/time';
import type { Lang } from '../shared/errors';
import { verifyProofOfWork } from './altcha';
import { consumeConfirmationCode, consumeResetCode, issueConfirmationCode, issueResetCode } from './codes';
import { confirmationMail, resetMail } from './emails';
import { verifyGoogleToken } from './google';
import {
  createUser,
  findUserByEmail,
  findUserByGoogle,
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

async function sendConfirmation(user: User, lang: Lang, log: Logger) {
  const code = await issueConfirmationCode(user.id);
  try {
    await sendMail(confirmationMail(lang, user.email, user.firstName, code));
  } catch (err) {
    // The account exists either way; the confirmation screen offers a resend.
    log.error('confirmation mail not sent', { err, userId: user.id });
  }
}

export async function confirm(input: { _username: string; confirmationCode: string }): Promise<void> {
  // An 8-character code must not be guessable online: a few tries per address and hour.
  await rateLimit('confirm', input._username.toLowerCase(), CONFIRM_TRIES_PER_HOUR, HOUR);
  const user = await findUserByEmail(input._username);
  if (!user) fail('INVALID_CODE');
  if (user.confirmed) fail('INVALID_CODE');
  await consumeConfirmationCode(user.id, input.confirmationCode);
}

export async function resendConfirmation(
  input: { _username: string },
  lang: Lang,
  log: Logger,
): Promise<void> {
  await rateLimit('resend', input._username, RESEND_PER_HOUR, HOUR);
  const user = await findUserByEmail(input._username);
  if (!user || user.confirmed) fail('RESTORE_NOT_POSSIBLE');
  await sendConfirmation(user, lang, log);
}

export async function login(input: { _username: string; _password: string }): Promise<{ cookie: string }> {
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
  if (user.failedLogins > 0) await updateUser(user.id, { failedLogins: 0 });
  return createSession(user.id, 'password');
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
  await rateLimit('reset', input._username, RESET_PER_HOUR, HOUR);
  const user = await findUserByEmail(input._username);
  // Unknown addresses get the same answer as known ones: the form must not reveal who has an account.
  if (!user) return;
  // SPEC's RESET_NOT_POSSIBLE: an unconfirmed account (confirm first) or one without a password (Google).
  if (!user.confirmed || !user.passwordHash) fail('RESET_NOT_POSSIBLE');
  const code = await issueResetCode(user.id);
  await sendMail(resetMail(lang, user.email, user.firstName, code));
}

export async function resetPassword(input: { code: string; password: string }): Promise<void> {
  const userId = await consumeResetCode(input.code);
  await updateUser(userId, {
    passwordHash: await hashPassword(input.password),
    failedLogins: 0,
    lockedUntil: 0,
  });
  await deleteUserSessions(userId);
}

export async function googleSignIn(input: { token: string }): Promise<{ cookie: string }> {
  const identity = await verifyGoogleToken(input.token);
  const linked = await findUserByGoogle(identity.sub);
  if (linked) return createSession(linked.id, 'google');
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
  return createSession(user.id, 'google');
}

export async function logout(session: Session | null): Promise<{ google: boolean }> {
  if (session) await deleteSession(session.id);
  return { google: session?.via === 'google' };
}
