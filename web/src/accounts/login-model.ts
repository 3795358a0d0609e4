/**
 * The sign-in pages' pure rules (SPEC.md section 2): which notice a login address shows, the login
 * addresses that show one, the confirmation link's call, and which error codes login names. Free of React,
 * unit-tested in test/unit/web/paths.test.ts; apart from the address table, which the shell loads at once.
 */
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { withNext } from '../paths';

const enc = encodeURIComponent;

export type LoginNotice = 'registered' | 'invalidCode' | 'reset';

/** Login query parameters that show a notice (SPEC.md section 2); they are removed once read. */
export const loginNoticeParams = ['username', 'code', 'reset'] as const;

export function loginNotice(search: string): LoginNotice | null {
  const params = new URLSearchParams(search);
  if (params.get('code') === '1') return 'invalidCode';
  if (params.get('reset') === '1') return 'reset';
  if (params.get('username')) return 'registered';
  return null;
}

/** The query without the notice parameters, for replacing the address after the notice is shown. */
export function stripLoginNoticeParams(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of loginNoticeParams) params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** Login addresses that show a notice (SPEC.md section 2). */
export const loginWith = {
  /** `next`: the page to return to once signed in (kept only when safe, paths.ts `withNext`). */
  registered: (username: string, next?: string | null) => `/login?username=${enc(username)}${withNext(next)}`,
  invalidCode: '/login?code=1',
  reset: '/login?reset=1',
} as const;

/**
 * /confirm_email (SPEC.md section 2): the confirmation call its query asks for, or null when the link is
 * malformed (username shorter than 3 characters or a code that is not exactly 8), which goes straight to
 * login with code=1.
 */
export function confirmEmailRequest(search: string): { _username: string; confirmationCode: string } | null {
  const params = new URLSearchParams(search);
  const username = (params.get('username') ?? '').trim();
  const code = (params.get('code') ?? '').trim();
  if (username.length < limits.confirmUsernameMin || code.length !== limits.confirmationCodeLength)
    return null;
  return { _username: username, confirmationCode: code };
}

const loginCodes: ReadonlySet<ErrorCode> = new Set([
  'ACCESS_DENIED',
  'ACCESS_DISABLED',
  'CONFIRMATION_REQUIRED',
  // Ours, not SPEC's (the per-source throttle, issue 9): 'Service is not available' would be untrue.
  'RATE_LIMITED',
]);

/**
 * SPEC.md section 8, login: three codes have their own message; SYSTEM_ERROR "and any other" share one.
 * RATE_LIMITED keeps its own too: the throttle must say what it is.
 */
export function loginErrorCode(code: ErrorCode): ErrorCode {
  return loginCodes.has(code) ? code : 'SYSTEM_ERROR';
}
