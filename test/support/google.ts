/**
 * A stand-in for Google's sign-in keys: a local JWKS endpoint and ID tokens signed with its key (or with
 * another key, for forgery tests).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export const GOOGLE_TEST_CLIENT_ID = 'snag-test.apps.googleusercontent.com';

export async function startGoogleKeys() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/certs`;
  const forger = await generateKeyPair('RS256');

  async function token(
    claims: Record<string, unknown>,
    opts: { aud?: string; iss?: string; expiresIn?: string; forged?: boolean } = {},
  ) {
    return new SignJWT({ email_verified: true, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setIssuer(opts.iss ?? 'https://accounts.google.com')
      .setAudience(opts.aud ?? GOOGLE_TEST_CLIENT_ID)
      .setIssuedAt()
      .setExpirationTime(opts.expiresIn ?? '1h')
      .sign(opts.forged ? forger.privateKey : privateKey);
  }

  return { url, token, stop: () => new Promise<void>((r) => server.close(() => r())) };
}
