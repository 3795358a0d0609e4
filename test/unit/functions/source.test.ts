import { describe, expect, it } from 'vitest';
import { sourceOf } from '../../../functions/core/source';
import { visitorOf } from '../../../functions/issues/intake';

const event = (header: string | undefined, sourceIp: string | undefined) =>
  ({
    headers: header === undefined ? {} : { 'cloudfront-viewer-address': header },
    requestContext: { http: { sourceIp } },
  }) as never;

describe('the caller as the account throttles count it', () => {
  // The intake's rule, until functions/issues/intake.ts imports core/source.ts (issue 8 owns that file now).
  it.each([
    ['203.0.113.7:443', '10.0.0.1'],
    ['2001:db8::1:443', '10.0.0.1'],
    ['2001:0db8:0001:0002:ffff:1:2:3:51000', undefined],
    ['[2001:db8::1]:443', undefined],
    ['::ffff:198.51.100.4:80', undefined],
    [undefined, '198.51.100.9'],
    ['999.1.1.1:80', '198.51.100.9'],
    ['2001:db8:::1:80', '198.51.100.9'],
    [`${'1:'.repeat(20)}1`, '198.51.100.9'],
    ['nonsense', '::1'],
  ])('counts %s (connection %s) as the widget intake does', (header, ip) => {
    expect(sourceOf(event(header, ip))).toBe(visitorOf(header, ip));
  });

  it('puts callers without any address in one shared bucket', () => {
    expect(sourceOf(event('garbage', 'also garbage'))).toBe('unknown');
  });
});
