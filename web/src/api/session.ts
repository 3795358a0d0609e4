/** Session boundaries: what the dashboard does when a session starts or ends. */
import { mutate } from 'swr';
import { SIGNED_IN_COOKIE } from '#contracts/cookies';
import { config } from '../config';
import { api } from '.';
import { googleSignOut } from './google';

/**
 * Forget every cached response. Called when a session starts, so a profile load that failed before
 * sign-in (cached as an error) cannot bounce the new session straight back to login.
 */
export async function clearApiCache(): Promise<void> {
  await mutate(() => true, undefined, { revalidate: false });
}

/**
 * The end of every session (logout, profile deletion): sign out of Google when the server says the
 * session came from there, forget cached data, then go to the public site (SPEC.md section 7).
 */
export async function leaveToMarketingSite(google: boolean): Promise<void> {
  if (google) await googleSignOut();
  await clearApiCache();
  window.location.assign(config.marketingUrl);
}

/** GET /client/logout; its msg.google decides on a Google sign-out before the redirect. */
export async function logout(): Promise<void> {
  let google = false;
  try {
    google = (await api.call('auth.logout'))?.google === true;
  } catch {
    // Leave anyway: the marketing site needs no session, and a stale cookie fails the next guard check.
  }
  await leaveToMarketingSite(google);
}

/**
 * Whether this browser may hold a session: the API sets a readable hint beside the HttpOnly session
 * cookie. Without it there is no session to ask about, and asking would only log a 401.
 */
export const maybeSignedIn = (): boolean =>
  document.cookie.split(';').some((pair) => pair.trim() === `${SIGNED_IN_COOKIE}=1`);
