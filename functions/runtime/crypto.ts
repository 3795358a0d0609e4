/** Passwords, tokens and codes (DESIGN.md section 6). */
import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { getConfig } from './config';

const KEY_LENGTH = 32;
/**
 * OWASP's scrypt floor is N=2^17, r=8, p=1 or an equal-work trade such as N=2^15, r=8, p=3: the latter
 * needs a quarter of the memory (32 MiB), which suits small Lambdas. `npm run bench` measures a hash.
 */
const R = 8;
const P = 3;

function scryptAsync(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  return new Promise((resolve, reject) =>
    // maxmem must exceed 128·N·r, or Node refuses the larger costs.
    scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** `scrypt$<logN>$<r>$<p>$<salt b64>$<hash b64>`: the cost travels with the hash, so it can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const logN = getConfig().SCRYPT_LOG_N;
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, logN, R, P);
  return `scrypt$${logN}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  if (!stored) {
    // Same work for unknown users, so the response time does not tell which emails have accounts.
    await hashPassword(password);
    return false;
  }
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !logN || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), Number(logN), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** 256-bit random token, URL-safe. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** Tokens and codes are stored as their SHA-256, so a table leak yields nothing usable. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O, 1/I: read from an email

/** A random code of `length` characters from an unambiguous alphabet. */
export function randomCode(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return out;
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
