/**
 * The invitation page's data: the link's public view, accepting it, who is signed in, and signing out.
 * The only module of invitations/ that calls the API. None of its writes leaves a cached read stale: the
 * page switches to the joined team (which reloads the team's reads) or clears the cache on signing out.
 */
import { api } from '../api';
import { useEndpoint, writer } from '../api/swr';

const write = writer({});

/** The link's public view: loaded once per token by the page, outside the SWR cache (signing in clears it). */
export function viewInvitation(token: string) {
  return api.call('teams.view', { body: { token } });
}

export function acceptInvitation(token: string) {
  return write('teams.accept', { body: { token } });
}

export function signOut() {
  return write('auth.logout');
}

/** The signed-in account, when the session hint says there may be one; a failure means signed out. */
export function useSignedInProfile(hinted: boolean) {
  return useEndpoint('profile.get', hinted ? {} : null, { redirect: () => null });
}
