/**
 * The browser extension's connection, as the dashboard sees it (contracts/extension.ts): the member's
 * approval on the connect page (the one-time code the page hands the extension through its address), and
 * Profile → Browser extension's list and revocation. The only module of these screens that calls the API.
 */
import type { ExtensionConnection } from '#contracts/extension';
import { endpointPath } from '../api/endpoints';
import { type StaleReads, useEndpoint, writer } from '../api/swr';
import { paths } from '../paths';

export type { ExtensionConnection };

const listPath = endpointPath('extension.list');

/** A revoked connection leaves the list at once (the server's list is read consistently, so reload it). */
const staleReads: StaleReads = {
  'extension.revoke': () => ({ reload: [listPath] }),
  // A new code means a connection may follow: the list, if it is cached, is read again when shown.
  'extension.connect': () => ({ later: [listPath] }),
};
const write = writer(staleReads);

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
