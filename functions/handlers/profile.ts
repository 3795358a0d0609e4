/** The signed-in client's own account: GET/PATCH/DELETE client/profile and PATCH client/password. */
import type { z } from 'zod';
import { TEAM_COOKIE } from '#contracts/cookies';
import type { passwordChangeSchema, profileSchema } from '#contracts/schemas';
import { type AuthedInput, resourceHandler } from '#runtime/http';
import { clearedSessionCookies, readCookie } from '#runtime/session';
import { profileApi } from '../accounts/manifest';
import * as accounts from '../accounts/profile';
import { profileOf } from '../billing/team';
import { deleteAllProjectsOf } from '../projects/service';
import { deletePersonalTeam } from '../teams/team';

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
    // What the user owns goes first, then the account itself, its profile last (docs/data-model.md 4.11).
    const user = await accounts.requireUser(session);
    await deleteAllProjectsOf(user.id);
    await deletePersonalTeam(user.id);
    return { msg: await accounts.deleteAccount(session, user), cookies: clearedSessionCookies() };
  },
};

export const handler = resourceHandler(profileApi, operations);
