import { describe, expect, it } from 'vitest';
import { hostMatches, normaliseHost } from '#contracts/domains';
import { widgetSettingsSchema } from '#contracts/schemas';
import {
  appearanceKeys,
  appearanceOf,
  belowAllowance,
  betterScheme,
  contrastRatio,
  domainRule,
  installSnippet,
  projectPath,
  verifyUrl,
} from '../../../web/src/projects/model';

describe('project allowance (SPEC.md section 6: New project only below it)', () => {
  it('compares the count with the allowance; null is unlimited', () => {
    expect(belowAllowance(1, 0)).toBe(true);
    expect(belowAllowance(1, 1)).toBe(false);
    expect(belowAllowance(3, 2)).toBe(true);
    expect(belowAllowance(3, 3)).toBe(false);
    expect(belowAllowance(null, 500)).toBe(true);
    expect(belowAllowance(undefined, 0)).toBe(false);
  });
});

describe('install snippet', () => {
  it('is an async script tag loading the project code from the dashboard origin', () => {
    expect(installSnippet('https://app.snag.example', 'a1b2')).toBe(
      '<script async src="https://app.snag.example/api/website/a1b2/code"></script>',
    );
    expect(projectPath('a/b')).toBe('/client/website/a%2Fb');
  });
});

describe('domainRule (hostMatches in words)', () => {
  it('names the bare domain and a subdomain for ordinary domains', () => {
    expect(domainRule('example.com', false)).toEqual({
      kind: 'subdomains',
      host: 'example.com',
      example: 'www.example.com',
    });
    expect(domainRule('www.example.com', false)).toMatchObject({ host: 'example.com' });
  });

  it('agrees with hostMatches on what it names', () => {
    for (const input of ['example.com', 'https://www.Example.com/x', 'shop.example.co.uk']) {
      const domain = normaliseHost(input)!;
      const rule = domainRule(domain, false);
      if (rule.kind !== 'subdomains') throw new Error(rule.kind);
      expect(hostMatches(rule.host, domain, false)).toBe(true);
      expect(hostMatches(rule.example, domain, false)).toBe(true);
      expect(hostMatches(`x.${rule.host}`, domain, false)).toBe(true);
    }
  });

  it('reads "this host only" for IP addresses and localhost, and "anywhere" with the wildcard', () => {
    expect(domainRule('127.0.0.1', false)).toEqual({ kind: 'exact', host: '127.0.0.1' });
    expect(domainRule('localhost', false)).toEqual({ kind: 'exact', host: 'localhost' });
    expect(domainRule('example.com', true)).toEqual({ kind: 'any' });
  });

  it('builds the address to verify on, with ?snag=1 in test mode', () => {
    expect(verifyUrl('example.com', false)).toBe('https://example.com/');
    expect(verifyUrl('example.com', true)).toBe('https://example.com/?snag=1');
  });
});

describe('appearance settings', () => {
  it('are the widget settings the widget screen edits, picked from the stored data', () => {
    const data = widgetSettingsSchema.parse({ customFields: [{ name: 'A', selector: '.a' }] });
    const appearance = appearanceOf(data);
    expect(Object.keys(appearance).sort()).toEqual([...appearanceKeys].sort());
    expect(appearance).not.toHaveProperty('customFields');
    expect(appearance).not.toHaveProperty('widgetDomainWildcard');
    expect(appearance.widgetColor).toBe('#4F4EAE');
    // Issue 33: session replay is edited here, off (and its text masking off) until the client turns it on.
    expect(appearance).toMatchObject({ widgetReplay: false, widgetReplayMaskText: false });
  });

  it('measures WCAG contrast for the scheme hint', () => {
    expect(contrastRatio('#FFFFFF', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#4F4EAE', '#FFFFFF')).toBeGreaterThan(4.5);
    expect(contrastRatio('#FFD43B', '#FFFFFF')).toBeLessThan(3);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
  });

  it('suggests the other scheme below 4.5:1, the header and launcher text being normal-size text', () => {
    expect(betterScheme('#4F4EAE', 'white')).toBeUndefined();
    // The default colour with dark text is 2.6:1.
    expect(betterScheme('#4F4EAE', 'black')).toBe('white');
    // 3.6:1 with white text: enough for large text only, so dark text is suggested.
    expect(betterScheme('#E8590C', 'white')).toBe('black');
    expect(betterScheme('#FFD43B', 'white')).toBe('black');
    // 4.54:1 with white text: no hint, although dark text would be about as good.
    expect(betterScheme('#767676', 'white')).toBeUndefined();
    expect(betterScheme('#4F4EA', 'black')).toBeUndefined();
  });
});
