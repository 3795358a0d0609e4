/**
 * Who is calling, as far as throttles are concerned: the caller's IP address from
 * `CloudFront-Viewer-Address` (`ip:port`, set by CloudFront; the edge secret makes sure requests came
 * through it), else the connection's. An IPv6 address counts by its /64, the block one subscriber usually
 * holds: counting single addresses would let one host rotate through 2^64 of them.
 *
 * Used by the sign-in throttles and the widget intake's per-visitor flood limits alike.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

function normaliseIp(raw: string): string | null {
  const ip = raw.replace(/^\[|\]$/g, '').toLowerCase();
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) return ip.split('.').every((p) => Number(p) <= 255) ? ip : null;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip)?.[1];
  if (mapped) return normaliseIp(mapped);
  if (!/^[0-9a-f:]{2,39}$/.test(ip)) return null;
  const [head = '', tail, extra] = ip.split('::');
  if (extra !== undefined) return null;
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const gap = 8 - left.length - right.length;
  if (tail === undefined ? gap !== 0 : gap < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : gap).fill('0'), ...right];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The caller's address as throttles count it; `unknown` (one shared, stricter bucket) when there is none. */
export function sourceOf(event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>): string {
  const header = event.headers?.['cloudfront-viewer-address']?.trim() ?? '';
  const fromHeader = header.slice(0, Math.max(0, header.lastIndexOf(':')));
  return normaliseIp(fromHeader) ?? normaliseIp(event.requestContext?.http?.sourceIp ?? '') ?? 'unknown';
}
