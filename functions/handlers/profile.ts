/** The signed-in client's own account: GET/PATCH/DELETE client/profile and PATCH client/password. */
import type { z } from 'zod';
import type { passwordChangeSchema, profileSchema } from '#contracts/schemas';
import { getItems } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { type AuthedInput, resourceHandler } from '#runtime/http';
import { clearedSessionCookies } from '#runtime/session';
import { profileApi } from '../accounts/manifest';
import * as accounts from '../accounts/profile';
import { teamGuardCondition } from '../projects/access';
import { deleteAllProjectsOf } from '../projects/service';
import { removeMember } from '../teams/membership';
import { deleteTeam, markTeamDeleting, teamKey, teamsOf } from '../teams/team';

export const operations = {
  async get({ session }: AuthedInput) {
    return { msg: accounts.profileView(await accounts.requireUser(session)) };
  },
  async update({ session, body }: AuthedInput<z.infer<typeof profileSchema>>) {
    return { msg: await accounts.updateProfile(session, body) };
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
    for (const tid of owned) await markTeamDeleting(tid, user.id);
    // Only owned teams' projects go: a personal team (tid = uid) transferred to someone else keeps its
    // projects, which are still listed under the user's id (decision T2).
    for (const tid of owned) {
      await deleteAllProjectsOf(tid);
      await deleteTeam(tid);
    }
    for (const [tid, entry] of entries) {
      if (entry.r === 'OWNER') continue;
      const member = {
        userId: user.id,
        role: entry.r,
        joinedAt: 0,
        ...(entry.p ? { projects: entry.p } : {}),
      };
      try {
        await removeMember(tid, member, teams, teamGuardCondition(tid, 'team.leave'));
      } catch (err) {
        // Already gone from that team (removed meanwhile, or an earlier attempt): nothing to leave.
        if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
      }
    }
    return { msg: await accounts.deleteAccount(session, user), cookies: clearedSessionCookies() };
  },
};

export const handler = resourceHandler(profileApi, operations);
