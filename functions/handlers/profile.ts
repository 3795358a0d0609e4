/** The signed-in client's own account: GET/PATCH/DELETE client/profile and PATCH client/password. */
import type { z } from 'zod';
import { TEAM_COOKIE } from '#contracts/cookies';
import type { passwordChangeSchema, profileSchema } from '#contracts/schemas';
import { getItems } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { type AuthedInput, resourceHandler } from '#runtime/http';
import { clearedSessionCookies, readCookie } from '#runtime/session';
import { deleteExtensionTokensOf } from '../accounts/extension-tokens';
import { profileApi } from '../accounts/manifest';
import * as accounts from '../accounts/profile';
import type { User } from '../accounts/user';
import { profileOf } from '../billing/team';
import { startFormerMember } from '../issues/data-requests';
import { invitationsLost, teamGuardCondition, tokensLost } from '../projects/access';
import { deleteAllProjectsOf } from '../projects/service';
import { auditPut, memberActor, memberTarget } from '../teams/audit';
import type { TeamsItem } from '../teams/member';
import { removeMember } from '../teams/membership';
import { deleteTeam, markTeamDeleting, teamKey, teamsOf, unmarkTeamDeleting } from '../teams/team';
import { deleteTeamTokens } from '../teams/token';

/** Step 3 of account deletion: every membership other than an owned team is left (already gone is fine). */
async function leaveAll(user: User, teams: TeamsItem): Promise<void> {
  const userId = user.id;
  const account = user as unknown as Record<string, unknown>;
  for (const [tid, entry] of Object.entries(teams.teams)) {
    if (entry.r === 'OWNER') continue;
    const member = { userId, role: entry.r, joinedAt: 0, ...(entry.p ? { projects: entry.p } : {}) };
    try {
      const tokens = await tokensLost(tid, member);
      // The team's log says who left with their account (name and address as they were).
      const logged = auditPut(tid, {
        kind: 'member.left',
        actor: memberActor(userId, account),
        target: memberTarget(account, userId),
        detail: { role: entry.r, tokensRevoked: tokens.length, accountDeleted: true },
      });
      await removeMember(tid, member, teams, teamGuardCondition(tid, 'team.leave'), tokens, [logged]);
      // Their comments and changes in that team stay, signed "former member" (decision DR-8).
      await startFormerMember(tid, userId);
    } catch (err) {
      // Already gone from that team (removed meanwhile, or an earlier attempt): nothing to leave.
      if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
    }
    await invitationsLost(tid, member);
  }
}

export const operations = {
  /** The account with the plan of the team in use (issue 22): session, one BatchGetItem. */
  async get({ session, event }: AuthedInput) {
    const { user, team } = await profileOf(session.userId, { cookie: readCookie(event, TEAM_COOKIE) });
    return { msg: accounts.profileView(user, team) };
  },
  async update({ session, body, event }: AuthedInput<z.infer<typeof profileSchema>>) {
    await accounts.updateProfile(session, body);
    const { user, team } = await profileOf(session.userId, { cookie: readCookie(event, TEAM_COOKIE) });
    return { msg: accounts.profileView(user, team) };
  },
  async changePassword({ session, body }: AuthedInput<z.infer<typeof passwordChangeSchema>>) {
    await accounts.changePassword(session, body);
    return { msg: null };
  },
  async remove({ session }: AuthedInput) {
    // What the user owns goes first, then the account itself, its profile last (docs/data-model.md 4.11,
    // 4.12 "Profile deletion"): refused while they own a team with others in it; their solo teams go with
    // their projects; their other memberships are left. A failure part-way leaves an account that can
    // sign in and repeat it.
    const user = await accounts.requireUser(session);
    const teams = await teamsOf(user.id);
    const entries = Object.entries(teams.teams);
    const owned = entries.filter(([, e]) => e.r === 'OWNER').map(([tid]) => tid);
    const ownedTeams = await getItems(owned.map(teamKey));
    if (ownedTeams.some((t) => t && Number(t.memberCount) + Number(t.guestCount) > 1)) {
      throw new AppError('OWNS_SHARED_TEAM');
    }
    try {
      for (const tid of owned) await markTeamDeleting(tid, user.id);
      // Only owned teams' projects go: a personal team (tid = uid) transferred to someone else keeps its
      // projects, which are still listed under the user's id (decision T2).
      for (const tid of owned) {
        await deleteAllProjectsOf(tid, user.id);
        // A deleted team's token must not answer: its items live outside the team's partition.
        await deleteTeamTokens(tid);
        await deleteTeam(tid);
      }
      await leaveAll(user, teams);
      // The browser extension's connections live outside the account's partition (found through it, so
      // before it goes); each also dies with the USER item, which every use of one reads.
      await deleteExtensionTokensOf(user.id);
    } catch (err) {
      // Nothing stays half-done: a team still there takes invitations again (its `deleting` mark would
      // refuse them as SEAT_LIMIT), and every step above can simply run again on the next try.
      await Promise.all(owned.map(unmarkTeamDeleting));
      throw err;
    }
    return { msg: await accounts.deleteAccount(session, user), cookies: clearedSessionCookies() };
  },
};

export const handler = resourceHandler(profileApi, operations);
