/** The signed-in client's own account: GET/PATCH/DELETE client/profile and PATCH client/password. */
import type { z } from 'zod';
import type { passwordChangeSchema, profileSchema } from '#contracts/schemas';
import { type AuthedInput, resourceHandler } from '#runtime/http';
import { clearedSessionCookies } from '#runtime/session';
import { profileApi } from '../accounts/manifest';
import * as accounts from '../accounts/profile';
import { deleteAllProjectsOf } from '../projects/service';
import { deletePersonalTeam } from '../teams/team';

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
    // What the user owns goes first, then the account itself, its profile last (docs/data-model.md 4.11).
    const user = await accounts.requireUser(session);
    await deleteAllProjectsOf(user.id);
    await deletePersonalTeam(user.id);
    return { msg: await accounts.deleteAccount(session, user), cookies: clearedSessionCookies() };
  },
};

export const handler = resourceHandler(profileApi, operations);
