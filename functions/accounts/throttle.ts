/**
 * How often one caller may try the public account calls (docs/decisions.md "Sign-in throttle"). A source
 * is the caller's address (runtime/source.ts). Counts are fixed windows in the table (runtime/rate-limit.ts).
 *
 * Sign-in counts failures only, per address-and-source and per source: a stranger who keeps failing locks
 * out their own source and nobody else's, the right password keeps working from every other source, and
 * an address without an account counts exactly like one with an account.
 */
import type { RateLimit } from '#runtime/rate-limit';
import { HOUR, MINUTE } from '#runtime/time';

type Throttle = Omit<RateLimit, 'key'>;

/** Wrong passwords for one address from one source before that source gets ACCESS_DISABLED for it. */
export const loginFailuresPerAccountAndSource: Throttle = {
  action: 'login-fail',
  max: 5,
  windowMs: 15 * MINUTE,
};
/**
 * Wrong passwords from one recognised browser (accounts/device.ts) before it gets ACCESS_DISABLED: it is
 * counted instead of the two counts around it, so a stranger's failures never block it.
 */
export const loginFailuresPerDevice: Throttle = { action: 'login-fail-dev', max: 5, windowMs: 15 * MINUTE };
/** Wrong passwords from one source, whatever the addresses, before it gets RATE_LIMITED. */
export const loginFailuresPerSource: Throttle = { action: 'login-fail-src', max: 20, windowMs: 15 * MINUTE };
/** Registrations, reset requests and confirmation resends per source, counted whatever the outcome. */
export const registrationsPerSource: Throttle = { action: 'register-src', max: 10, windowMs: HOUR };
export const resetsPerSource: Throttle = { action: 'reset-src', max: 10, windowMs: HOUR };
export const resendsPerSource: Throttle = { action: 'resend-src', max: 10, windowMs: HOUR };

export const limitFor = (throttle: Throttle, key: string): RateLimit => ({ ...throttle, key });

/**
 * The browser extension's connection (contracts/extension.ts): approvals per member (each mints a code; a
 * person connects a browser or two, a loop of approvals is a script) and code exchanges per source,
 * counted whatever the outcome, so a code cannot be guessed at (it has 256 bits; this bounds the traffic).
 */
export const extensionConnectsPerMember: Throttle = { action: 'ext-connect', max: 20, windowMs: 15 * MINUTE };
export const extensionExchangesPerSource: Throttle = {
  action: 'ext-token-src',
  max: 30,
  windowMs: 15 * MINUTE,
};
