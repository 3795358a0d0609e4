import { describe, expect, it } from 'vitest';
import { networkOf, sourceOf } from '#runtime/source';

const event = (header: string | undefined, sourceIp: string | undefined) =>
  ({
    headers: header === undefined ? {} : { 'cloudfront-viewer-address': header },
    requestContext: { http: { sourceIp } },
  }) as never;

// One rule for the sign-in throttles and the widget intake's per-visitor flood limits.
describe('the caller as throttles count it', () => {
  it('is the CloudFront-Viewer-Address without its port, IPv6 counted by its /56 (issue 19)', () => {
    expect(sourceOf(event('203.0.113.7:443', '10.0.0.1'))).toBe('203.0.113.7');
    expect(sourceOf(event('2001:db8::1:443', '10.0.0.1'))).toBe('2001:db8:0:0::/56');
    expect(sourceOf(event('2001:0db8:0001:02ff:ffff:1:2:3:51000', undefined))).toBe('2001:db8:1:200::/56');
    expect(sourceOf(event('[2001:db8::1]:443', undefined))).toBe('2001:db8:0:0::/56');
    expect(sourceOf(event('::ffff:198.51.100.4:80', undefined))).toBe('198.51.100.4');
  });

  it('is one visitor for every /64 of a /56, and another for the next /56', () => {
    const of = (ip: string) => sourceOf(event(`${ip}:443`, undefined));
    const first = of('2001:db8:7:100::1');
    for (let i = 0; i < 256; i += 17)
      expect(of(`2001:db8:7:1${i.toString(16).padStart(2, '0')}::9`)).toBe(first);
    expect(of('2001:db8:7:200::1')).not.toBe(first);
  });

  it('counts networks by IPv4 /24 and IPv6 /48', () => {
    expect(networkOf(event('203.0.113.7:443', undefined))).toBe('203.0.113.0/24');
    expect(networkOf(event('::ffff:203.0.113.250:1', undefined))).toBe('203.0.113.0/24');
    expect(networkOf(event('2001:db8:7:ff00::1:443', undefined))).toBe('2001:db8:7::/48');
    expect(networkOf(event('2001:db8:7:1::1:443', undefined))).toBe('2001:db8:7::/48');
    expect(networkOf(event('2001:db8:8::1:443', undefined))).toBe('2001:db8:8::/48');
    expect(networkOf(event('garbage', 'also garbage'))).toBe('unknown');
  });

  it('falls back to the connection for a missing or malformed header', () => {
    expect(sourceOf(event(undefined, '198.51.100.9'))).toBe('198.51.100.9');
    for (const bad of [
      '',
      'nonsense',
      '999.1.1.1:80',
      '1.2.3:80',
      '2001:db8:::1:80',
      'x:y:z',
      '1:2:3:4:5:6:7:8:9:80',
      `${'1:'.repeat(20)}1`,
    ]) {
      expect(sourceOf(event(bad, '198.51.100.9')), bad).toBe('198.51.100.9');
    }
  });

  it('puts callers without any address in one shared bucket', () => {
    expect(sourceOf(event('garbage', 'also garbage'))).toBe('unknown');
  });
});
