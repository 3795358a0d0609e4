/**
 * Who is calling, as far as throttles are concerned: the caller's IP address from
 * `CloudFront-Viewer-Address` (`ip:port`, set by CloudFront; the edge secret makes sure requests came
 * through it), else the connection's.
 *
 * Two sizes (docs/decisions.md "Intake floods", issue 19):
 * - `sourceOf`, the visitor: an IPv4 address, or an IPv6 address by its /56. A home or office line gets a
 *   /56 or a /48 (RIPE-690), a phone a /64; counting by the /64 let one subscriber's /56 act as 256
 *   visitors (a probe filed 500 reports from 50 /64s of one /56 in 21 s).
 * - `networkOf`, the network around it: an IPv4 /24, an IPv6 /48, so that one site's allocation cannot
 *   act as 256 or 65,536 visitors; its limits are higher than a visitor's.
 *
 * Used by the sign-in throttles and the widget intake's flood limits alike.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

type Address = { v: 4; octets: number[] } | { v: 6; groups: number[] };

function parseIp(raw: string): Address | null {
  const ip = raw.replace(/^\[|\]$/g, '').toLowerCase();
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) {
    const octets = ip.split('.').map(Number);
    return octets.every((p) => p <= 255) ? { v: 4, octets } : null;
  }
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip)?.[1];
  if (mapped) return parseIp(mapped);
  if (!/^[0-9a-f:]{2,39}$/.test(ip)) return null;
  const [head = '', tail, extra] = ip.split('::');
  if (extra !== undefined) return null;
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const gap = 8 - left.length - right.length;
  if (tail === undefined ? gap !== 0 : gap < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : gap).fill('0'), ...right];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return { v: 6, groups: groups.map((g) => Number.parseInt(g, 16)) };
}

/** An IPv6 prefix as a key: the groups it covers (the last one masked), `::/bits`. */
function v6Prefix(groups: number[], bits: number): string {
  const whole = Math.ceil(bits / 16);
  const kept = groups.slice(0, whole).map((g, i) => {
    const left = bits - i * 16;
    return left >= 16 ? g : g & ((0xffff << (16 - left)) & 0xffff);
  });
  return `${kept.map((g) => g.toString(16)).join(':')}::/${bits}`;
}

function callerAddress(event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>): Address | null {
  const header = event.headers?.['cloudfront-viewer-address']?.trim() ?? '';
  const fromHeader = header.slice(0, Math.max(0, header.lastIndexOf(':')));
  return parseIp(fromHeader) ?? parseIp(event.requestContext?.http?.sourceIp ?? '');
}

/**
 * The caller as the per-visitor throttles count it: an IPv4 address, an IPv6 /56; `unknown` (one shared,
 * stricter bucket) when there is none.
 */
export function sourceOf(event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>): string {
  const a = callerAddress(event);
  if (!a) return 'unknown';
  return a.v === 4 ? a.octets.join('.') : v6Prefix(a.groups, 56);
}

/** The caller's network as the per-network throttles count it: an IPv4 /24, an IPv6 /48; or `unknown`. */
export function networkOf(event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>): string {
  const a = callerAddress(event);
  if (!a) return 'unknown';
  return a.v === 4 ? `${a.octets.slice(0, 3).join('.')}.0/24` : v6Prefix(a.groups, 48);
}
