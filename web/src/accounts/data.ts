/**
 * The accounts feature's data: signing in and registering, the profile's name, password and deletion, and
 * the email notification settings. The only module of accounts/ that calls the API; `staleReads` says
 * which cached reads each of its writes leaves stale (web/src/api/swr.ts applies it).
 */
import { mutate } from 'swr';
import type { NotificationSettings } from '#contracts/triage';
import { api } from '../api';
import { type BodyOf, endpointPath } from '../api/endpoints';
import { reload, type StaleReads, useEndpoint, writer } from '../api/swr';

const profilePath = endpointPath('profile.get');
const notificationsPath = endpointPath('notifications.get');

/**
 * The saved name's answer is the profile (the top bar shows the name), the saved settings' answer is the
 * settings: both replace the cached ones without another round trip.
 */
const staleReads: StaleReads = {
  'profile.update': (_, updated) => ({ put: [[profilePath, updated]] }),
  'notifications.set': (_, saved) => ({ put: [[notificationsPath, saved]] }),
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

/** A proof-of-work challenge for the registration form. */
export function loadChallenge() {
  return api.call('auth.altcha');
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
