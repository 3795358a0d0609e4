/** Session boundaries: what the dashboard does when a session starts or ends. */
import { mutate } from 'swr';
import { config } from '../config';
import { api } from '.';

/**
 * Forget every cached response. Called when a session starts, so a profile load that failed before
 * sign-in (cached as an error) cannot bounce the new session straight back to login.
 */
export async function clearApiCache(): Promise<void> {
  await mutate(() => true, undefined, { revalidate: false });
}

/** GET /client/logout, then the public site (SPEC.md section 7). */
export async function logout(): Promise<void> {
  try {
    await api.get('/client/logout');
  } catch {
    // Leave anyway: the marketing site needs no session, and a stale cookie fails the next guard check.
  }
  await clearApiCache();
  window.location.assign(config.marketingUrl);
}
