import { describe, expect, it } from 'vitest';
import { reportSchema } from '#contracts/intake-schemas';
import { redactReport } from '../../../functions/issues/redact-report';

const jwt =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJ1c2VyLTQyIiwiZXhwIjoxNzY0NDEyMzQ1fQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';

/** A report as a modified (or old) widget sends it: nothing redacted. */
const raw = reportSchema.parse({
  msg: 'Checkout fails. Call me on +49 170 1234567 or write to jane@example.com',
  title: 'Card 4242 4242 4242 4242 declined',
  username: 'jane@example.com',
  href: `https://shop.example.com/checkout?step=2&access_token=${jwt}&email=jane%40example.com`,
  customFields: [
    { name: 'Account', value: 'jane@example.com' },
    { name: 'Payment', value: 'IBAN DE89 3704 0044 0532 0130 00' },
  ],
  logs: [
    { t: 1, level: 'error', kind: 'network', msg: `GET https://api.example.com/v1/me?token=${jwt} 401` },
    {
      t: 2,
      level: 'error',
      kind: 'console',
      msg: 'Payment failed for card 4000-0566-5566-5556, mail jane@example.com',
    },
    { t: 3, level: 'warn', kind: 'console', msg: 'Retry 3 of order 100234567 at 2026-11-29 07:23:09' },
  ],
  steps: [
    { t: 1, kind: 'click', label: 'button "Send code to +44 20 7946 0958"' },
    { t: 2, kind: 'navigate', label: `https://shop.example.com/reset/${jwt}` },
  ],
});

describe('redactReport, the intake pass over what a widget gathered', () => {
  const out = redactReport(raw);

  it('masks the secrets in log lines, failed requests, steps, custom fields and the page query', () => {
    const stored = JSON.stringify({
      href: out.href,
      logs: out.logs,
      steps: out.steps,
      fields: out.customFields,
    });
    for (const secret of [jwt, '4000-0566-5566-5556', '7946 0958', 'DE89 3704', 'jane%40example.com'])
      expect(stored).not.toContain(secret);
    expect(out.logs[0]!.msg).toBe('GET https://api.example.com/v1/me?token=[redacted:param] 401');
    expect(out.logs[1]!.msg).toBe('Payment failed for card [redacted:card], mail [redacted:email]');
    expect(out.href).toBe(
      'https://shop.example.com/checkout?step=2&access_token=[redacted:param]&email=[redacted:email]',
    );
    expect(out.steps.map((s) => s.label)).toEqual([
      'button "Send code to [redacted:phone]"',
      'https://shop.example.com/reset/[redacted:jwt]',
    ]);
    // A custom field keeps its email address (the customer sent it on purpose), not the IBAN.
    expect(out.customFields).toEqual([
      { name: 'Account', value: 'jane@example.com' },
      { name: 'Payment', value: 'IBAN [redacted:iban]' },
    ]);
  });

  it("keeps what the visitor wrote and what only looks like a number, and still fits the schema's limits", () => {
    expect(out.msg).toBe(raw.msg);
    expect(out.title).toBe(raw.title);
    expect(out.username).toBe('jane@example.com');
    expect(out.logs[2]!.msg).toBe('Retry 3 of order 100234567 at 2026-11-29 07:23:09');
    expect(reportSchema.safeParse(out).success).toBe(true);
    // Placeholders longer than the secrets they replace are cut at the limit.
    const long = redactReport(
      reportSchema.parse({
        msg: 'x',
        logs: [{ t: 1, level: 'error', kind: 'console', msg: 'pin=1 '.repeat(160) }],
      }),
    );
    expect(long.logs[0]!.msg.length).toBeLessThanOrEqual(1000);
    expect(long.logs[0]!.msg).not.toMatch(/pin=1/);
  });

  it('redacts a report of hostile log lines in linear time (no pattern backtracks without bound)', () => {
    const hostile = [
      '1',
      '1 ',
      '+1 ',
      'a',
      'a.',
      'a@',
      'eyJ',
      '0 1',
      '(0)',
      'token=',
      '4242 4242 4242 4242 1 ',
      'https://a:',
    ];
    const body = reportSchema.parse({
      msg: 'x',
      logs: Array.from({ length: 50 }, (_, i) => {
        const unit = hostile[i % hostile.length]!;
        return { t: i, level: 'error', kind: 'console', msg: unit.repeat(Math.floor(1000 / unit.length)) };
      }),
    });
    const started = performance.now();
    redactReport(body);
    // About 30 ms here; a pattern that backtracked exponentially would take minutes.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
