import { describe, expect, it } from 'vitest';
import { resetConfig } from '#runtime/config';
import { hashPassword, randomCode, randomToken, verifyPassword } from '#runtime/crypto';

describe('passwords', () => {
  it('verifies the right password only, with a fresh salt per hash', async () => {
    process.env.SCRYPT_LOG_N = '10';
    resetConfig();
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$10\$8\$3\$/);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('x', undefined)).toBe(false);
    expect(await verifyPassword('x', 'md5$whatever')).toBe(false);
  });
});

describe('codes and tokens', () => {
  it('makes unambiguous codes of the asked length and 256-bit tokens', () => {
    const codes = new Set(Array.from({ length: 200 }, () => randomCode(8)));
    expect(codes.size).toBe(200);
    for (const c of codes) expect(c).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(randomToken()).toMatch(/^[\w-]{43}$/);
  });
});
