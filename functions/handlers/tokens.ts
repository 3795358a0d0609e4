/**
 * A team's API tokens (issue 25, docs/api.md "Tokens"): create (the token is answered once), list, revoke.
 * OWNER and ADMIN only, through the one policy's `team.tokens`; every write carries the policy's guard.
 */
import { teamActionOf } from '#contracts/access';
import { TOKEN_PREFIX, type TokenCreated, type TokenEntry } from '#contracts/tokens';
import type { Key } from '#runtime/db';
import { type InputOf, type OpName, resourceHandler } from '#runtime/http';
import { displayName, type User, userKey } from '../accounts/user';
import { authorizeTeam, membershipOf, teamGuard } from '../projects/access';
import { auditPut, memberActor } from '../teams/audit';
import { tokensApi } from '../teams/manifest';
import { factsOf } from '../teams/team';
import { createToken, listTokens, revokeToken, tokenEntry, tokenKey, toToken } from '../teams/token';

type In<Op extends OpName<typeof tokensApi>> = InputOf<typeof tokensApi, Op>;

/**
 * The caller's memberships (a pre-team account's made first), read with `keys` in one BatchGetItem, checked
 * for the route's team action; answers the policy's guard for the write and the items of `keys`.
 */
async function authorized({ session, params, access }: In<OpName<typeof tokensApi>>, keys: Key[] = []) {
  const action = teamActionOf(access);
  const { teams, items } = await factsOf(session.userId, keys);
  authorizeTeam(membershipOf(teams, params.teamId), action);
  return { guard: teamGuard(session.userId, params.teamId, action), items };
}

export const operations = {
  /** Session, TEAMS, the team's gsi1 Query: 3 requests. */
  async list(input: In<'list'>): Promise<{ msg: { tokens: TokenEntry[] } }> {
    await authorized(input);
    const tokens = await listTokens(input.params.teamId);
    return { msg: { tokens: tokens.map(tokenEntry) } };
  },
  /**
   * Session, TEAMS with the creator's USER (one BatchGetItem: the name the token's changes are by), one
   * transaction (token, TEAM's count under TOKENS_MAX, the guard): 3 requests.
   */
  async create(input: In<'create'>): Promise<{ msg: TokenCreated; statusCode: number }> {
    const { userId } = input.session;
    const {
      guard,
      items: [user],
    } = await authorized(input, [userKey(userId)]);
    const creator = { id: userId, name: user ? displayName(user as unknown as User) : '' };
    const { teamId } = input.params;
    const { token, stored } = await createToken(teamId, creator, input.body, guard, (t) => [
      auditPut(teamId, {
        kind: 'token.created',
        actor: memberActor(userId, user),
        target: t.name,
        // The name and the id part people see in lists (snag_pat_<id>…), never the token.
        detail: {
          prefix: `${TOKEN_PREFIX}${t.id}`,
          scopes: t.scopes.join(' '),
          expires: t.expiresAt === null ? null : new Date(t.expiresAt).toISOString(),
        },
      }),
    ]);
    input.log.info('token created', { tokenId: stored.id, teamId: stored.teamId });
    return { msg: { entry: tokenEntry(stored), token }, statusCode: 201 };
  },
  /** Session, TEAMS with the token and the caller's USER (one BatchGetItem), one transaction: 3 requests. Effective at once: the next call with it is a 401. */
  async revoke(input: In<'revoke'>): Promise<{ msg: null }> {
    const { teamId, id } = input.params;
    const {
      guard,
      items: [found, user],
    } = await authorized(input, [tokenKey(id), userKey(input.session.userId)]);
    // A token that is gone (or another team's) changes nothing and is not logged: the call is idempotent.
    const token = found && found.teamId === teamId ? toToken(found) : null;
    const entry = token
      ? [
          auditPut(teamId, {
            kind: 'token.revoked',
            actor: memberActor(input.session.userId, user),
            target: token.name,
            detail: { prefix: `${TOKEN_PREFIX}${token.id}` },
          }),
        ]
      : [];
    await revokeToken(teamId, id, [...guard, ...entry]);
    input.log.info('token revoked', { tokenId: input.params.id, teamId: input.params.teamId });
    return { msg: null };
  },
};

export const handler = resourceHandler(tokensApi, operations);
