/** Solves the registration proof of work the way the altcha widget does, for API tests. */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

export async function solveAltcha(baseUrl: string): Promise<string> {
  const res = await fetch(new URL('/api/altcha', baseUrl));
  const { msg: challenge } = (await res.json()) as { msg: Parameters<typeof solveChallenge>[0]['challenge'] };
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the challenge');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
