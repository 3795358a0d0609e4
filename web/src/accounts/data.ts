/**
 * The accounts feature's data: signing in and registering, the profile's name, password and deletion, and
 * the email notification settings, the browser extension's connections. The only module of accounts/ that calls the API; `staleReads` says
 * which cached reads each of its writes leaves stale (web/src/api/swr.ts applies it).
 */
import { mutate } from 'swr';
import type { ExtensionConnection } from '#contracts/extension';
import type { NotificationSettings } from '#contracts/triage';
import { api } from '../api';
import { type BodyOf, endpointPath } from '../api/endpoints';
import { reload, type StaleReads, toLogin, useEndpoint, writer } from '../api/swr';
import { paths } from '../paths';

const profilePath = endpointPath('profile.get');
const notificationsPath = endpointPath('notifications.get');
const extensionsPath = endpointPath('extension.list');

export type { ExtensionConnection };

/**
 * The saved name's answer is the profile (the top bar shows the name), the saved settings' answer is the
 * settings: both replace the cached ones without another round trip.
 */
const staleReads: StaleReads = {
  'profile.update': (_, updated) => ({ put: [[profilePath, updated]] }),
  'notifications.set': (_, saved) => ({ put: [[notificationsPath, saved]] }),
  // The browser extension's connections: a revoked one leaves the list at once (the server's list is read
  // consistently, so reload it); a new code means a connection may follow, so a cached list is read again.
  'extension.revoke': () => ({ reload: [extensionsPath] }),
  'extension.connect': () => ({ later: [extensionsPath] }),
};
const write = writer(staleReads);

export function signIn(body: BodyOf<'auth.login'>) {
  return write('auth.login', { body });
}

export function signInWithGoogle(token: string) {
  return write('auth.google', { body: { token } });
}

export function register(body: BodyOf<'auth.register'>) {
  return write('auth.register', { body });
}

/** The emailed link's code confirms the address (SPEC.md section 2). */
export function confirmEmail(body: BodyOf<'auth.confirm'>) {
  return write('auth.confirm', { body });
}

/** The confirmation mail, sent again to the address being registered. */
export function resendConfirmation(username: string) {
  return write('auth.resendCode', { body: { _username: username } });
}

/** The reset mail, sent to the address if it has an account. */
export function requestReset(body: BodyOf<'auth.requestReset'>) {
  return write('auth.requestReset', { body });
}

/** The reset mail's code sets a new password. */
export function resetPassword(body: BodyOf<'auth.resetPassword'>) {
  return write('auth.resetPassword', { body });
}

/** A proof-of-work challenge for the registration form. */
export function loadChallenge() {
  return api.call('auth.altcha');
}

/**
 * The signed-in profile. Its load doubles as the session check: any failure (401, or the API being
 * unreachable) goes to login, as SPEC.md section 2 asks for failed loads. `load` false: no request (no
 * session hint, where it could only answer 401). ProfileLayout loads it first, so screens read the cache.
 */
export function useProfile(load = true) {
  return useEndpoint('profile.get', load ? {} : null, { redirect: toLogin });
}

export function saveName(body: BodyOf<'profile.update'>) {
  return write('profile.update', { body });
}

export function changePassword(body: BodyOf<'profile.changePassword'>) {
  return write('profile.changePassword', { body });
}

export function deleteProfile() {
  return write('profile.remove');
}

export function useNotificationSettings() {
  return useEndpoint('notifications.get', {});
}

/**
 * Saves the whole set. The choice shows at once; the server's answer replaces it, or after a refusal the
 * saved settings are fetched again.
 */
export async function saveNotificationSettings(next: NotificationSettings): Promise<void> {
  await mutate(notificationsPath, { settings: next }, { revalidate: false });
  try {
    await write('notifications.set', { body: next });
  } catch (error) {
    await reload(notificationsPath);
    throw error;
  }
}

// The browser extension's connection (contracts/extension.ts): the connect page's approval (the one-time
// code the page hands the extension through its address), and Profile → Browser extension.

/** The member approves: the one-time code for the extension's challenge. */
export async function approveExtension(challenge: string, browser: string | undefined): Promise<string> {
  const { code } = await write('extension.connect', { body: { challenge, browser: browser ?? 'Browser' } });
  return code;
}

export function useExtensionConnections() {
  return useEndpoint('extension.list', {});
}

export async function revokeExtension(id: string): Promise<void> {
  await write('extension.revoke', { params: { id } });
}

/**
 * Who is approving, for the connect page: the signed-in profile, or (no session) the sign-in page that
 * comes back to `here` with its query intact. `load` false: no session hint, go to sign-in without asking.
 */
export function useConnectingMember(here: string, load: boolean) {
  return useEndpoint('profile.get', load ? {} : null, {
    redirect: (error) => (error.unauthorized ? paths.loginThen(here) : null),
  });
}
