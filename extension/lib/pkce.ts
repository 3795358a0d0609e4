/**
 * The PKCE half the extension keeps (functions/contracts/extension.ts is the protocol): a random verifier
 * and state, and the S256 challenge the connect page forwards. WebCrypto only: no library.
 */

/** `bytes` random bytes as base64url without padding. */
export function randomBase64url(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export function base64url(data: Uint8Array): string {
  let text = '';
  for (const b of data) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url(SHA-256(verifier)): 43 characters. */
export async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** 32 random bytes: a 43-character verifier, the shortest RFC 7636 allows, at full strength. */
export const newVerifier = () => randomBase64url(32);
/** 24 random bytes: a 32-character state. */
export const newState = () => randomBase64url(24);
