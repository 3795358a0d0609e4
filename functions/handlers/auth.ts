/** Public account calls: sign-in, registration, confirmation, reset, Google, logout, proof of work. */
import type { z } from 'zod';
import type {
  confirmationSchema,
  googleSignInSchema,
  loginSchema,
  registrationSchema,
  resetVerificationSchema,
  usernameOnlySchema,
} from '#contracts/schemas';
import { type RequestInput, resourceHandler } from '#runtime/http';
import { clearedSessionCookies, cookieSessionKey, resolveSession } from '#runtime/session';
import { sourceOf } from '#runtime/source';
import { newChallenge } from '../accounts/altcha';
import { cookieDevice } from '../accounts/device';
import { authApi } from '../accounts/manifest';
import * as accounts from '../accounts/sign-in';
import { invitationProves } from '../teams/invitation';
import { personalTeamWrites } from '../teams/team';

type In<S extends z.ZodType> = RequestInput<z.infer<S>>;

export const operations = {
  async login({ body, event }: In<typeof loginSchema>) {
    // Rotation: a session the browser still carried ends when the new one begins.
    // The browser's device cookie, if any, tells a recognised browser from a fresh one (accounts/device.ts).
    const { cookies } = await accounts.login(
      body,
      sourceOf(event),
      cookieSessionKey(event),
      cookieDevice(event),
    );
    return { msg: { redirect: '/profile' }, cookies };
  },
  async register({ body, event, lang, log }: In<typeof registrationSchema>) {
    // The personal team is written in the account's own transaction (docs/data-model.md 4.12, A85).
    // A pending invitation to this very address proves it: no confirmation code (4.12, +1 request).
    const invitation = body.invitation;
    const proven = invitation ? () => invitationProves(invitation, body._username) : undefined;
    await accounts.register(
      body,
      sourceOf(event),
      lang,
      log,
      (user) => personalTeamWrites(user, lang),
      proven,
    );
    return { msg: { username: body._username } };
  },
  async google({ body, event, lang }: In<typeof googleSignInSchema>) {
    const { cookies } = await accounts.googleSignIn(body, cookieSessionKey(event), (user) =>
      personalTeamWrites(user, lang),
    );
    return { msg: { redirect: '/profile' }, cookies };
  },
  async confirm({ body }: In<typeof confirmationSchema>) {
    await accounts.confirm(body);
    return { msg: { username: body._username } };
  },
  async resendCode({ body, event, lang, log }: In<typeof usernameOnlySchema>) {
    await accounts.resendConfirmation(body, sourceOf(event), lang, log);
    return { msg: null };
  },
  async requestReset({ body, event, lang }: In<typeof usernameOnlySchema>) {
    await accounts.requestReset(body, sourceOf(event), lang);
    return { msg: null };
  },
  async resetPassword({ body }: In<typeof resetVerificationSchema>) {
    await accounts.resetPassword(body);
    return { msg: null };
  },
  async logout({ event }: RequestInput) {
    // A public route (logout must work with an expired session), so the session is read here, not by the pipeline.
    return { msg: await accounts.logout(await resolveSession(event)), cookies: clearedSessionCookies() };
  },
  async altcha() {
    return { msg: await newChallenge() };
  },
};

export const handler = resourceHandler(authApi, operations);
