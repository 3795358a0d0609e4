/**
 * A team's API tokens (issue 25, docs/api.md "Tokens"): create (the token is answered once), list, revoke.
 * OWNER and ADMIN only, through the one policy's `team.tokens`; every write carries the policy's guard.
 */
import { teamActionOf } from '#contracts/access';
import type { TokenCreated, TokenEntry } from '#contracts/tokens';
import { type InputOf, type OpName, resourceHandler } from '#runtime/http';
import { authorizeTeam, membershipOf, teamGuard } from '../projects/access';
import { tokensApi } from '../teams/manifest';
import { teamsOf } from '../teams/team';
import { createToken, listTokens, revokeToken, tokenEntry } from '../teams/token';

type In<Op extends OpName<typeof tokensApi>> = InputOf<typeof tokensApi, Op>;

/** The caller's memberships (a pre-team account's made first) checked for the route's team action. */
async function authorized({ session, params, access }: In<OpName<typeof tokensApi>>) {
  const action = teamActionOf(access);
  authorizeTeam(membershipOf(await teamsOf(session.userId), params.teamId), action);
  return teamGuard(session.userId, params.teamId, action);
}

export const operations = {
  /** Session, TEAMS, the team's gsi1 Query: 3 requests. */
  async list(input: In<'list'>): Promise<{ msg: { tokens: TokenEntry[] } }> {
    await authorized(input);
    const tokens = await listTokens(input.params.teamId);
    return { msg: { tokens: tokens.map(tokenEntry) } };
  },
  /** Session, TEAMS, one transaction (token, TEAM's count under TOKENS_MAX, the guard): 3 requests. */
  async create(input: In<'create'>): Promise<{ msg: TokenCreated; statusCode: number }> {
    const guard = await authorized(input);
    const { token, stored } = await createToken(input.params.teamId, input.session.userId, input.body, guard);
    input.log.info('token created', { tokenId: stored.id, teamId: stored.teamId });
    return { msg: { entry: tokenEntry(stored), token }, statusCode: 201 };
  },
  /** Session, TEAMS, one transaction: 3 requests. Effective at once: the next call with it is a 401. */
  async revoke(input: In<'revoke'>): Promise<{ msg: null }> {
    const guard = await authorized(input);
    await revokeToken(input.params.teamId, input.params.id, guard);
    input.log.info('token revoked', { tokenId: input.params.id, teamId: input.params.teamId });
    return { msg: null };
  },
};

export const handler = resourceHandler(tokensApi, operations);
