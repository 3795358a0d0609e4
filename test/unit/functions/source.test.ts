import { describe, expect, it } from 'vitest';
import { sourceOf } from '../../../functions/core/source';

const event = (header: string | undefined, sourceIp: string | undefined) =>
  ({
    headers: header === undefined ? {} : { 'cloudfront-viewer-address': header },
    requestContext: { http: { sourceIp } },
  }) as never;

// One rule for the sign-in throttles and the widget intake's per-visitor flood limits.
describe('the caller as throttles count it', () => {
  it('is the CloudFront-Viewer-Address without its port, IPv6 counted by its /64', () => {
    expect(sourceOf(event('203.0.113.7:443', '10.0.0.1'))).toBe('203.0.113.7');
    expect(sourceOf(event('2001:db8::1:443', '10.0.0.1'))).toBe('2001:db8:0:0::/64');
    expect(sourceOf(event('2001:0db8:0001:0002:ffff:1:2:3:51000', undefined))).toBe('2001:db8:1:2::/64');
    expect(sourceOf(event('[2001:db8::1]:443', undefined))).toBe('2001:db8:0:0::/64');
    expect(sourceOf(event('::ffff:198.51.100.4:80', undefined))).toBe('198.51.100.4');
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
