/**
 * Strict privacy mode's one rule (contracts/strict-privacy.ts, docs/privacy.md "Strict privacy mode"):
 * addresses lose query strings and fragments wherever a report carries them, log lines keep their first
 * line, the visitor's email goes; the visitor's own text and everything else stay as sent.
 */
import { describe, expect, it } from 'vitest';
import { widgetSettingsSchema } from '#contracts/schemas';
import { bareAddresses, strictReport } from '#contracts/strict-privacy';

const report = {
  msg: 'The pay button fails\non https://shop.example/pay?order=1',
  title: '',
  username: 'visitor@example.com',
  href: 'https://shop.example/checkout?session=abc123&q=shoes#step-2',
  logs: [
    {
      t: 1,
      level: 'error' as const,
      kind: 'console' as const,
      msg: 'Checkout failed for https://api.example/v1/cart?user=42#frag\n{"email":"a@b.example","card":"x"}\n  at pay (https://shop.example/app.js?v=9:1:2)',
    },
    {
      t: 2,
      level: 'error' as const,
      kind: 'network' as const,
      msg: 'GET /api/orders?customer=77&page=2 500',
    },
    { t: 3, level: 'warn' as const, kind: 'console' as const, msg: '\n\nsecond try' },
  ],
  steps: [
    { t: 1, kind: 'load' as const, label: 'https://shop.example/search?q=private+term#results' },
    { t: 2, kind: 'navigate' as const, label: '/account?tab=billing' },
    { t: 3, kind: 'click' as const, label: 'button "Pay 1/2?"' },
  ],
  customFields: [{ name: 'Plan', value: 'https://crm.example/a?id=1' }],
};

describe('strict privacy', () => {
  it('strips the page address, log lines and steps, keeps first lines, drops the email', () => {
    const out = strictReport(report);
    expect(out.href).toBe('https://shop.example/checkout');
    expect(out.username).toBe('');
    expect(out.logs.map((l) => l.msg)).toEqual([
      'Checkout failed for https://api.example/v1/cart',
      'GET /api/orders 500',
      'second try',
    ]);
    expect(out.steps.map((s) => s.label)).toEqual([
      'https://shop.example/search',
      '/account',
      // Not an address: a question mark in a button's name stays.
      'button "Pay 1/2?"',
    ]);
    // Nothing of a query, a fragment or a later line survives anywhere in what strict mode touches.
    const touched = JSON.stringify([out.href, out.username, out.logs, out.steps]);
    for (const gone of [
      'session=',
      'step-2',
      'user=42',
      'customer=77',
      'private',
      'billing',
      'a@b.example',
      'app.js',
    ])
      expect(touched, gone).not.toContain(gone);
  });

  it('leaves what the visitor wrote, custom fields and the other fields as sent', () => {
    const out = strictReport(report);
    expect(out.msg).toBe(report.msg);
    expect(out.customFields).toEqual(report.customFields);
    expect(out.logs.map((l) => [l.t, l.level, l.kind])).toEqual(
      report.logs.map((l) => [l.t, l.level, l.kind]),
    );
    expect(out.steps.map((s) => [s.t, s.kind])).toEqual(report.steps.map((s) => [s.t, s.kind]));
  });

  it('finds addresses of any scheme and bare paths, and only at the start of a word', () => {
    expect(bareAddresses('ws://live.example/feed?token=1 closed')).toBe('ws://live.example/feed closed');
    expect(bareAddresses('fetch("/api/x?id=3") failed')).toBe('fetch("/api/x") failed');
    expect(bareAddresses('src=https://cdn.example/a.js#x, then (/b?c=1)')).toBe(
      'src=https://cdn.example/a.js, then (/b)',
    );
    expect(bareAddresses('is 3/4? yes')).toBe('is 3/4? yes');
  });

  it('is off for projects that never chose it', () => {
    expect(widgetSettingsSchema.parse({}).strictPrivacy).toBe(false);
    expect(widgetSettingsSchema.parse({ strictPrivacy: true }).strictPrivacy).toBe(true);
    expect(widgetSettingsSchema.safeParse({ strictPrivacy: 'yes' }).success).toBe(false);
  });
});
