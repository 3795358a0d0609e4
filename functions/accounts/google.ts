/**
 * Google sign-in: the dashboard sends the ID token from Google Identity Services; we verify its
 * signature against Google's JWKS, the audience (our client id), the issuer and the expiry, and accept
 * only verified email addresses.
 */
import type { createRemoteJWKSet } from 'jose';
import { getConfig } from '#runtime/config';
import { AppError } from '#runtime/errors';

export interface GoogleIdentity {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
}

let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
let jwksUrl: string | undefined;

/** jose is loaded on the first Google sign-in: the other sign-in calls of this function never need it. */
const jose = () => import('jose');

async function keySet(url: string) {
  // One key set per process: jose caches the keys and refetches on an unknown key id.
  if (!jwks || jwksUrl !== url) {
    const { createRemoteJWKSet } = await jose();
    jwks = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    jwksUrl = url;
  }
  return jwks;
}

export async function verifyGoogleToken(token: string): Promise<GoogleIdentity> {
  const c = getConfig();
  if (!c.GOOGLE_CLIENT_ID) throw new AppError('INTEGRATION_NOT_AVAILABLE');
  let payload: Record<string, unknown>;
  try {
    const { jwtVerify } = await jose();
    ({ payload } = await jwtVerify(token, await keySet(c.GOOGLE_JWKS_URL), {
      audience: c.GOOGLE_CLIENT_ID,
      issuer: c.GOOGLE_ISSUERS.split(',').map((s) => s.trim()),
      algorithms: ['RS256'],
      clockTolerance: 30,
    }));
  } catch {
    throw new AppError('ACCESS_DENIED');
  }
  const { sub, email, email_verified: verified } = payload;
  if (typeof sub !== 'string' || typeof email !== 'string' || verified !== true)
    throw new AppError('ACCESS_DENIED');
  const given = typeof payload.given_name === 'string' ? payload.given_name : '';
  const family = typeof payload.family_name === 'string' ? payload.family_name : '';
  return {
    sub,
    email: email.toLowerCase(),
    firstName: (given || email.split('@')[0] || '').slice(0, 50),
    lastName: family.slice(0, 50),
  };
}
