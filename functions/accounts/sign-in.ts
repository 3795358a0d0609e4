/**
 * Account flows of SPEC.md sections 4, 5 and 7: registration, confirmation, login with lockout, reset,
 * Google sign-in, logout (the signed-in client's own profile is accounts/profile.ts). Knows nothing of
 * HTTP: inputs are parsed values, failures AppErrors.
 */
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Lang } from '#contracts/errors';
import { db } from '#runtime/aws/dynamo';
import { hashPassword, verifyPassword } from '#runtime/crypto';
import { getItems, type Key, tableName, transactWrite } from '#runtime/db';
import { fail } from '#runtime/errors';
import type { Logger } from '#runtime/log';
import { sendMail } from '#runtime/mail';
import { countWrite, type RateLimit, rateLimit, rateWindow, windowCount } from '#runtime/rate-limit';
import { deleteSession, deleteUserSessions, newSession, type Session } from '#runtime/session';
import { HOUR } from '#runtime/time';
import { verifyProofOfWork } from './altcha';
import {
  confirmationCodeWrite,
  consumeConfirmationCode,
  issueConfirmationCode,
  issueResetCode,
  resetPasswordWithCode,
  writeCounted,
} from './codes';
import { type DeviceRef, newDevice, recognises } from './device';
import { confirmationMail, noAccountMail, resetMail } from './emails';
import { verifyGoogleToken } from './google';
import {
  limitFor,
  loginFailuresPerAccountAndSource,
  loginFailuresPerDevice,
  loginFailuresPerSource,
  registrationsPerSource,
  resendsPerSource,
  resetsPerSource,
} from './throttle';
import {
  createUser,
  emailKey,
  findUserByEmail,
  findUserByGoogle,
  findUserIdByEmail,
  getUser,
  NO_USER_ID,
  newUser,
  type User,
} from './user';

/**
 * What a new account's transaction writes besides the user (the entry point's composition: the personal
 * team of a higher domain, docs/data-model.md 4.12), so the account never exists without it.
 */
export type AccountWrites = (user: User) => Record<string, unknown>[];

/** Confirmation resends per address per hour. */
export const RESEND_PER_HOUR = 3;
/** Confirmation attempts per address per hour. */
export const CONFIRM_TRIES_PER_HOUR = 10;
/** Reset mails per address per hour. */
export const RESET_PER_HOUR = 3;

/** `source` is the caller's address (runtime/source.ts), which the account throttles count by. */
export async function register(
  input: { _username: string; _password: string; firstName: string; lastName: string; altcha: string },
  source: string,
  lang: Lang,
  log: Logger,
  alsoWrite: AccountWrites = () => [],
  /**
   * Whether the address is already proven (a pending team invitation to it, issue 22): the account is
   * created confirmed, without a code or its mail. The caller decides, after the proof of work.
   */
  addressProven: () => Promise<boolean> = async () => false,
): Promise<void> {
  // Counted before anything else, so refused and failed sign-ups use up the allowance too.
  await rateLimit(limitFor(registrationsPerSource, source));
  if (!(await verifyProofOfWork(input.altcha))) fail('INVALID_PARAMETERS', { altcha: 'INVALID_PARAMETERS' });
  const user = newUser({
    email: input._username,
    firstName: input.firstName,
    lastName: input.lastName,
    passwordHash: await hashPassword(input._password),
  });
  if (await addressProven()) {
    await createUser({ ...user, confirmed: true }, alsoWrite(user));
    return;
  }
  // The first code is written with the account: three requests in all (DESIGN.md section 7).
  const { code, write } = confirmationCodeWrite(user.id);
  await createUser(user, [write, ...alsoWrite(user)]);
  await mailConfirmation(user, code, lang, log);
}

async function mailConfirmation(user: User, code: string, lang: Lang, log: Logger) {
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
  source: string,
  lang: Lang,
  log: Logger,
): Promise<void> {
  const perSource = limitFor(resendsPerSource, source);
  const user = await findUserByEmail(input._username);
  if (!user || user.confirmed) {
    // A refusal counts against the source too, so the call cannot be used to test addresses at will.
    await writeCounted([perSource]);
    fail('RESTORE_NOT_POSSIBLE');
  }
  // Counted with the new code's write: only mails actually sent use up the address's allowance.
  const perAddress = { action: 'resend', key: user.email, max: RESEND_PER_HOUR, windowMs: HOUR };
  const code = await issueConfirmationCode(user.id, [perSource, perAddress]);
  await mailConfirmation(user, code, lang, log);
}

/**
 * Starts a session in one write: the new session, the end of the one the browser still carried
 * (rotation, DESIGN.md section 6) and whatever else the sign-in ends or begins (a failure count, a
 * recognised browser) go together, so a login costs 3 requests.
 */
async function startSession(
  user: User,
  via: Session['via'],
  previous: Key | undefined,
  also: { deletes?: Key[]; puts?: Record<string, unknown>[]; cookies?: string[] } = {},
): Promise<{ cookies: string[] }> {
  const session = newSession(user.id, via);
  const writes = [
    { Put: { TableName: tableName(), Item: session.item } },
    ...(also.puts ?? []).map((Item) => ({ Put: { TableName: tableName(), Item } })),
    ...[...(previous ? [previous] : []), ...(also.deletes ?? [])].map((Key) => ({
      Delete: { TableName: tableName(), Key },
    })),
  ];
  if (writes.length === 1) await db().send(new PutCommand({ TableName: tableName(), Item: session.item }));
  else await db().send(new TransactWriteCommand({ TransactItems: writes }));
  return { cookies: [...session.cookies, ...(also.cookies ?? [])] };
}

/** The end of a failure count's window, when the block it imposes lifts. */
const blockedUntil = (limit: RateLimit) => {
  const { windowStart } = rateWindow(limit);
  return { retryAt: new Date(windowStart + limit.windowMs).toISOString() };
};

/**
 * Password sign-in with the throttle of accounts/throttle.ts. Every path an outsider can tell apart
 * does the same work whether or not the address has an account: the same batch read (the address's
 * pointer and both failure counts; the browser's device and its count when it has a device cookie), one
 * user read, one scrypt hash, and for a wrong password the same counting write. Three requests in all
 * (DESIGN.md section 7). A browser recognised for the account (accounts/device.ts) is counted on its
 * own, so nobody else's failures block it; every successful sign-in gives the browser a new device.
 */
export async function login(
  input: { _username: string; _password: string },
  source: string,
  previous?: Key,
  device?: DeviceRef,
): Promise<{ cookies: string[] }> {
  const email = input._username.toLowerCase();
  const perAccount = limitFor(loginFailuresPerAccountAndSource, `${email}#${source}`);
  const perSource = limitFor(loginFailuresPerSource, source);
  const perDevice = device ? limitFor(loginFailuresPerDevice, device.id) : undefined;
  const perAccountKey = rateWindow(perAccount).key;
  const perDeviceKey = perDevice ? rateWindow(perDevice).key : undefined;
  const [pointer, accountItem, sourceItem, deviceItem, deviceFailuresItem] = await getItems([
    emailKey(email),
    perAccountKey,
    rateWindow(perSource).key,
    ...(device && perDeviceKey ? [device.key, perDeviceKey] : []),
  ]);
  const userId = typeof pointer?.userId === 'string' ? pointer.userId : NO_USER_ID;
  const recognised = userId !== NO_USER_ID && recognises(deviceItem, userId) && perDevice;
  const accountFailures = windowCount(accountItem);
  const deviceFailures = windowCount(deviceFailuresItem);
  if (recognised) {
    if (deviceFailures >= recognised.max) fail('ACCESS_DISABLED', undefined, blockedUntil(recognised));
  } else {
    if (windowCount(sourceItem) >= perSource.max) fail('RATE_LIMITED');
    // Only this source is refused for this address: the owner signs in from anywhere else (SPEC's block).
    if (accountFailures >= perAccount.max) fail('ACCESS_DISABLED', undefined, blockedUntil(perAccount));
  }
  const user = await getUser(userId);
  const ok = await verifyPassword(input._password, user?.passwordHash);
  if (!user || !ok) {
    // Counted without a condition: concurrent guesses all count, and all are refused once counted.
    const counts = recognised ? [countWrite(recognised)] : [countWrite(perAccount), countWrite(perSource)];
    await transactWrite(counts as never, 'ACCESS_DENIED');
    fail('ACCESS_DENIED');
  }
  if (!user.confirmed) fail('CONFIRMATION_REQUIRED');
  const fresh = newDevice(user.id);
  // A recognised browser's success ends only its own count: the address-and-source count is the
  // stranger's, and ending it would hand them five more guesses.
  const ended = [
    ...(!recognised && accountFailures > 0 ? [perAccountKey] : []),
    ...(deviceItem && device ? [device.key] : []),
    ...(recognised && deviceFailures > 0 && perDeviceKey ? [perDeviceKey] : []),
  ];
  return startSession(user, 'password', previous, {
    puts: [fresh.item],
    deletes: ended,
    cookies: [fresh.cookie],
  });
}

/**
 * Starts a reset. The answer and the work are the same for every address SPEC lets look alike: an
 * address without an account counts against the same limits, writes an unusable code (NO_USER_ID) and
 * gets a mail saying it has no account, so neither the answer, nor a 429, nor the time tells them apart.
 */
export async function requestReset(input: { _username: string }, source: string, lang: Lang): Promise<void> {
  const perSource = limitFor(resetsPerSource, source);
  const email = input._username;
  const user = await findUserByEmail(email);
  // SPEC's RESET_NOT_POSSIBLE: an unconfirmed account (confirm first) or one without a password (Google).
  if (user && (!user.confirmed || !user.passwordHash)) {
    await writeCounted([perSource]);
    fail('RESET_NOT_POSSIBLE');
  }
  const perAddress = { action: 'reset', key: email, max: RESET_PER_HOUR, windowMs: HOUR };
  const code = await issueResetCode(user?.id ?? NO_USER_ID, [perSource, perAddress]);
  await sendMail(user ? resetMail(lang, email, user.firstName, code) : noAccountMail(lang, email));
}

export async function resetPassword(input: { code: string; password: string }): Promise<void> {
  const userId = await resetPasswordWithCode(input.code, await hashPassword(input.password));
  await deleteUserSessions(userId);
}

export async function googleSignIn(
  input: { token: string },
  previous?: Key,
  alsoWrite: AccountWrites = () => [],
): Promise<{ cookies: string[] }> {
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
  await createUser(user, alsoWrite(user));
  return startSession(user, 'google', previous);
}

/** Ends the caller's session, if any (the entry point resolves it from the cookie); tells whether it came from Google. */
export async function logout(session: Session | null): Promise<{ google: boolean }> {
  if (session) await deleteSession(session.id);
  return { google: session?.via === 'google' };
}
