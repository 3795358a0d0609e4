import { describe, expect, it } from 'vitest';
import { displayDomain, hostMatches, normaliseHost } from '#contracts/domains';

describe('normaliseHost', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['https://www.Example.com/path?q=1#x', 'www.example.com'],
    ['http://shop.example.com:8080/', 'shop.example.com'],
    ['example.com.', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['localhost:3000', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
  ])('%s → %s', (input, host) => {
    expect(normaliseHost(input)).toBe(host);
  });

  it.each([
    '',
    'not a domain',
    'ftp://example.com',
    'javascript:alert(1)',
    'https://user:pw@example.com',
    'example',
    '-bad-.com',
    'a..b.com',
    '1.2.3',
  ])('refuses %j', (input) => {
    expect(normaliseHost(input)).toBeNull();
  });
});

describe('hostMatches', () => {
  it('matches the host, its www twin and its subdomains, nothing else', () => {
    expect(hostMatches('example.com', 'example.com', false)).toBe(true);
    expect(hostMatches('www.example.com', 'example.com', false)).toBe(true);
    expect(hostMatches('shop.eu.example.com', 'example.com', false)).toBe(true);
    expect(hostMatches('example.com', 'www.example.com', false)).toBe(true);
    expect(hostMatches('EXAMPLE.com.', 'example.com', false)).toBe(true);
    expect(hostMatches('notexample.com', 'example.com', false)).toBe(false);
    expect(hostMatches('example.com.evil.io', 'example.com', false)).toBe(false);
    expect(hostMatches('example.com', 'shop.example.com', false)).toBe(false);
  });

  it('matches every host with the wildcard on', () => {
    expect(hostMatches('anything.io', 'example.com', true)).toBe(true);
  });
});

describe('displayDomain', () => {
  it.each([
    ['www.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['shop.example.com', 'shop.example.com'],
    ['www.localhost', 'www.localhost'],
    ['localhost', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
  ])('%s is shown as %s, the form hostMatches matches', (host, shown) => {
    expect(displayDomain(host)).toBe(shown);
    expect(hostMatches(host, shown, false) && hostMatches(shown, host, false)).toBe(true);
  });
});
