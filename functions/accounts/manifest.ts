/** Accounts (SPEC.md section 7): sign-in, registration, resets, and the profile. */
import { extensionConnectBody, extensionConnectionParams, extensionTokenBody } from '#contracts/extension';
import { apiFunction, bucketPrefixes, type DomainManifest } from '#contracts/manifest';
import {
  confirmationSchema,
  googleSignInSchema,
  loginSchema,
  passwordChangeSchema,
  profileSchema,
  registrationSchema,
  resetVerificationSchema,
  usernameOnlySchema,
} from '#contracts/schemas';
import { notificationSettingsSchema, unsubscribeQuerySchema } from '#contracts/triage';

// Mail for confirmations and resets; the proof-of-work key is a secret.
export const authApi = apiFunction({
  resource: 'auth',
  needs: { table: 'readwrite', mail: true, secrets: true },
  routes: [
    {
      method: 'POST',
      path: '/api/client/login',
      op: 'login',
      session: false,
      body: loginSchema,
    },
    {
      method: 'POST',
      path: '/api/registration/client',
      op: 'register',
      session: false,
      body: registrationSchema,
      context: 'registration',
    },
    {
      method: 'POST',
      path: '/api/registration/client/google',
      op: 'google',
      session: false,
      body: googleSignInSchema,
    },
    {
      method: 'POST',
      path: '/api/registration/client/confirm',
      op: 'confirm',
      session: false,
      body: confirmationSchema,
    },
    {
      method: 'POST',
      path: '/api/restore/code',
      op: 'resendCode',
      session: false,
      body: usernameOnlySchema,
      context: 'resendConfirmation',
    },
    {
      method: 'POST',
      path: '/api/restore/password',
      op: 'requestReset',
      session: false,
      body: usernameOnlySchema,
    },
    {
      method: 'POST',
      path: '/api/restore/verification',
      op: 'resetPassword',
      session: false,
      body: resetVerificationSchema,
    },
    { method: 'GET', path: '/api/client/logout', op: 'logout', session: false },
    { method: 'GET', path: '/api/altcha', op: 'altcha', session: false },
  ],
});

// Deleting a profile deletes its projects' files, and in each team it leaves starts the job that signs its
// comments "former member" (the privacy queue).
export const profileApi = apiFunction({
  resource: 'profile',
  needs: {
    table: 'readwrite',
    objects: { list: [bucketPrefixes.stored], delete: [bucketPrefixes.stored] },
    sendTo: ['privacy'],
  },
  routes: [
    { method: 'GET', path: '/api/client/profile', op: 'get', session: true, access: { scope: 'account' } },
    {
      method: 'PATCH',
      path: '/api/client/profile',
      op: 'update',
      session: true,
      access: { scope: 'account' },
      body: profileSchema,
      context: 'profileUpdate',
    },
    {
      method: 'DELETE',
      path: '/api/client/profile',
      op: 'remove',
      session: true,
      access: { scope: 'account' },
      context: 'profileDelete',
    },
    {
      method: 'PATCH',
      path: '/api/client/password',
      op: 'changePassword',
      session: true,
      access: { scope: 'account' },
      body: passwordChangeSchema,
      context: 'passwordChange',
    },
  ],
});

// A member's notification mails (issue 23, docs/data-model.md 4.13 "Notifications"): the settings on the
// USER item, and the mails' unsubscribe link (public: a signed token, keyed from the secrets).
export const notificationsApi = apiFunction({
  resource: 'notifications',
  needs: { table: 'readwrite', secrets: true },
  routes: [
    {
      method: 'GET',
      path: '/api/client/notifications',
      op: 'get',
      session: true,
      access: { scope: 'account' },
    },
    {
      method: 'PUT',
      path: '/api/client/notifications',
      op: 'set',
      session: true,
      access: { scope: 'account' },
      body: notificationSettingsSchema,
    },
    // Opened from a mail: no session, no Origin; the token says whose setting and which one.
    {
      method: 'GET',
      path: '/api/notifications/unsubscribe',
      op: 'unsubscribe',
      session: false,
      caller: 'public',
      query: unsubscribeQuerySchema,
    },
  ],
});

// The browser extension's connection (contracts/extension.ts, docs/extension-connection.md): the member's
// approval on the connect page (session), the extension's code exchange (public: no session, no cookie,
// called from the extension's own origin), and the member's connections under Profile.
export const extensionApi = apiFunction({
  resource: 'extension',
  needs: { table: 'readwrite' },
  routes: [
    {
      method: 'POST',
      path: '/api/client/extension/connect',
      op: 'connect',
      session: true,
      access: { scope: 'account' },
      body: extensionConnectBody,
    },
    {
      method: 'POST',
      path: '/api/extension/token',
      op: 'token',
      session: false,
      caller: 'public',
      body: extensionTokenBody,
    },
    { method: 'OPTIONS', path: '/api/extension/token', op: 'preflight', session: false, caller: 'public' },
    {
      method: 'GET',
      path: '/api/client/profile/extensions',
      op: 'list',
      session: true,
      access: { scope: 'account' },
    },
    {
      method: 'DELETE',
      path: '/api/client/profile/extensions/{id}',
      op: 'revoke',
      session: true,
      access: { scope: 'account' },
      params: extensionConnectionParams,
    },
  ],
});

export const accounts = {
  domain: 'accounts',
  api: [authApi, profileApi, notificationsApi, extensionApi],
  schedules: {
    // The notification outbox's flush (functions/schedules/notifications.ts): one mail per person per run.
    notifications: {
      expression: 'rate(1 minute)',
      localEveryMs: 60 * 1000,
      needs: { table: 'readwrite', mail: true, secrets: true },
      timeoutSeconds: 60,
    },
    // The daily digest of new issues (functions/schedules/digest.ts), at 07:00 UTC for everyone (Tr-N4).
    digest: {
      expression: 'cron(0 7 * * ? *)',
      localEveryMs: 60 * 60 * 1000,
      needs: { table: 'readwrite', mail: true, secrets: true },
      timeoutSeconds: 300,
    },
  },
} satisfies DomainManifest;
