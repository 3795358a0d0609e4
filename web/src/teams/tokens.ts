/** A team's API tokens (issue 25): the list, creating one (its secret answered once) and revoking. */
import { mutate } from 'swr';
import type { TokenScope } from '#contracts/tokens';
import { api } from '../api';
import { type Answer, type BodyOf, endpointPath } from '../api/endpoints';
import { useEndpoint } from '../api/swr';

export type TokenEntry = Answer<'tokens.list'>['tokens'][number];
export type NewToken = Answer<'tokens.create'>;

const tokensPath = (teamId: string) => endpointPath('tokens.list', { params: { teamId } });

export function useTokens(teamId: string | null) {
  return useEndpoint('tokens.list', teamId ? { params: { teamId } } : null);
}

/** Creates a token; the list reloads. The answer holds the token itself: the only time it is shown. */
export async function createToken(teamId: string, body: BodyOf<'tokens.create'>): Promise<NewToken> {
  const created = await api.call('tokens.create', { params: { teamId }, body });
  await mutate(tokensPath(teamId));
  return created;
}

/** The list again: a member's removal or demotion revokes their tokens on the server. */
export async function reloadTokens(teamId: string): Promise<void> {
  await mutate(tokensPath(teamId));
}

export async function revokeToken(teamId: string, id: string): Promise<void> {
  await api.call('tokens.revoke', { params: { teamId, id } });
  await mutate(tokensPath(teamId));
}

/** The choices of a new token's lifetime in days; `never` keeps it until it is revoked. */
export const expiryChoices = ['30', '90', '365', 'never'] as const;
export type ExpiryChoice = (typeof expiryChoices)[number];
export const expiresInDays = (choice: ExpiryChoice) => (choice === 'never' ? undefined : Number(choice));

/** The scopes a new token starts with: reading, the safe default. */
export const defaultScopes: TokenScope[] = ['projects:read', 'issues:read'];
