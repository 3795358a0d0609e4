import { describe, expect, it } from 'vitest';
import { redactText, redactUrl } from '#contracts/redaction';
import { lookAlikes, secrets } from './redaction-corpus';

/** Digits and letters only: a number's groups may be cut apart, never left whole. */
const squash = (s: string) => s.replace(/[\s()./-]/g, '');

const redact = (text: string, url?: boolean) => (url ? redactUrl(text) : redactText(text, { emails: true }));

describe('the redaction corpus', () => {
  it('holds at least 200 secrets and 200 look-alikes, all different', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(200);
    expect(lookAlikes.length).toBeGreaterThanOrEqual(200);
    expect(new Set(secrets.map((s) => s.text)).size).toBe(secrets.length);
  });

  it('leaks none of its secrets', () => {
    const leaks = secrets
      .map((s) => ({ ...s, out: redact(s.text, s.url) }))
      .filter((s) => s.out.includes(s.secret) || squash(s.out).includes(squash(s.secret)));
    expect(leaks.map((l) => `${l.kind}: ${l.text} → ${l.out}`)).toEqual([]);
  });

  it('keeps at least 95 % of the look-alikes as they are (the share is printed)', () => {
    const changed = lookAlikes
      .map((text) => ({ text, out: redactText(text, { emails: true }) }))
      .filter((l) => l.out !== l.text);
    const kept = (lookAlikes.length - changed.length) / lookAlikes.length;
    console.log(
      `redaction corpus: ${secrets.length} secrets, 0 leaked; ${lookAlikes.length} look-alikes, ${(kept * 100).toFixed(1)} % kept` +
        changed.map((c) => `\n  changed: ${c.text} → ${c.out}`).join(''),
    );
    expect(kept).toBeGreaterThanOrEqual(0.95);
  });
});
