/**
 * The proof of work a busy project asks for (docs/widget-api.md "Busy projects"): the answer
 * `PROOF_REQUIRED` carries an altcha v2 challenge (PBKDF2/SHA-256, functions/accounts/altcha.ts), and the
 * solution is the counter whose derived key starts with the challenge's prefix. crypto.subtle does the
 * hashing (off the main thread in browsers, so the panel stays responsive), eight counters at a time. It
 * exists in secure contexts only: on an http page there is no solver and the report fails as RATE_LIMITED.
 */
import { SnagError } from './errors';

interface Challenge {
  parameters: { nonce: string; salt: string; cost: number; keyLength?: number; keyPrefix: string };
}

const bytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
const hex = (buf: ArrayBuffer) =>
  Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

/** The `proof` to send for a challenge (`fields.proof` of the answer); RATE_LIMITED when none is found. */
export async function solveProof(challengeJson: string, maxCounter = 2 ** 22): Promise<string> {
  try {
    const challenge = JSON.parse(challengeJson) as Challenge;
    const { nonce, salt, cost, keyLength = 32, keyPrefix } = challenge.parameters;
    const n = bytes(nonce);
    const params = { name: 'PBKDF2', hash: 'SHA-256', salt: bytes(salt), iterations: cost };
    const derive = async (counter: number) => {
      const password = new Uint8Array(n.length + 4);
      password.set(n);
      new DataView(password.buffer).setUint32(n.length, counter);
      const key = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
      return hex(await crypto.subtle.deriveBits(params, key, keyLength * 8));
    };
    for (let start = 0; start <= maxCounter; start += 8) {
      const keys = await Promise.all(Array.from({ length: 8 }, (_, i) => derive(start + i)));
      const i = keys.findIndex((k) => k.startsWith(keyPrefix.toLowerCase()));
      if (i >= 0) {
        const solution = { counter: start + i, derivedKey: keys[i] };
        return btoa(JSON.stringify({ challenge, solution }));
      }
    }
  } catch {
    // No crypto.subtle (an http page) or a malformed challenge: the same answer as no solution.
  }
  throw new SnagError('RATE_LIMITED');
}
