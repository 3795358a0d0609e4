/** Public account calls: sign-in, registration, confirmation, reset, Google, logout, proof of work. */
import type { z } from 'zod';
import { newChallenge } from '../accounts/altcha';
import * as accounts from '../accounts/sign-in';
import { type RequestInput, resourceHandler } from '../core/http';
import { clearedSessionCookie } from '../core/session';
import type {
  confirmationSchema,
  googleSignInSchema,
  loginSchema,
  registrationSchema,
  resetVerificationSchema,
  usernameOnlySchema,
} from '../shared/schemas';

type In<S extends z.ZodType> = RequestInput<z.infer<S>>;

export const operations = {
  async login({ body, session }: In<typeof loginSchema>) {
    const { cookie } = await accounts.login(body);
    // Rotation: a session the browser still carried ends when a new one begins.
    if (session) await accounts.logout(session);
    return { msg: { redirect: '/profile' }, cookies: [cookie] };
  },
  async register({ body, lang, log }: In<typeof registrationSchema>) {
    await accounts.register(body, lang, log);
    return { msg: { username: body._username } };
  },
  async google({ body }: In<typeof googleSignInSchema>) {
    const { cookie } = await accounts.googleSignIn(body);
    return { msg: { redirect: '/profile' }, cookies: [cookie] };
  },
  async confirm({ body }: In<typeof confirmationSchema>) {
    await accounts.confirm(body);
    return { msg: { username: body._username } };
  },
  async resendCode({ body, lang, log }: In<typeof usernameOnlySchema>) {
    await accounts.resendConfirmation(body, lang, log);
    return { msg: null };
  },
  async requestReset({ body, lang }: In<typeof usernameOnlySchema>) {
    await accounts.requestReset(body, lang);
    return { msg: null };
  },
  async resetPassword({ body }: In<typeof resetVerificationSchema>) {
    await accounts.resetPassword(body);
    return { msg: null };
  },
  async logout({ session }: RequestInput) {
    return { msg: await accounts.logout(session), cookies: [clearedSessionCookie()] };
  },
  async altcha() {
    return { msg: await newChallenge() };
  },
};

export const handler = resourceHandler('auth', operations);
