/** Accounts (SPEC.md section 7): sign-in, registration, resets, and the profile. */
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

// Deleting a profile deletes its projects' files.
export const profileApi = apiFunction({
  resource: 'profile',
  needs: {
    table: 'readwrite',
    objects: { list: [bucketPrefixes.stored], delete: [bucketPrefixes.stored] },
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

export const accounts = {
  domain: 'accounts',
  api: [authApi, profileApi],
} satisfies DomainManifest;
