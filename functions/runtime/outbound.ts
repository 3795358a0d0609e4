/**
 * The guarded HTTP client for user-supplied hosts (webhook URLs, self-hosted GitLab and Jira; DESIGN.md
 * section 6, issue 11 "Security"). Every call:
 *   1. requires https (http only for the local allowance below);
 *   2. resolves the name once and refuses the call when ANY address is loopback, private, link-local,
 *      CGNAT, metadata, unspecified, multicast, reserved or documentation space (IPv4, IPv6, and IPv4
 *      embedded in IPv6: mapped ::ffff:a.b.c.d, translated ::ffff:0:a.b.c.d, compatible ::a.b.c.d, NAT64
 *      64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32); an IPv6 address must be global
 *      unicast (2000::/3) outside those blocks;
 *   3. connects to the address it checked (the socket's `lookup` is pinned to it: no second lookup, so a
 *      DNS rebinding between check and connect cannot happen), with SNI and Host of the original name;
 *   4. never follows a redirect (a 3xx is an `OutboundRefused`), and caps the time (10 s) and the
 *      response size (1 MB).
 *
 * Only the local stack sets SNAG_OUTBOUND_ALLOW_LOCAL=1 (lib/local/stack.ts); it allows targets whose host
 * is literally `localhost` or `127.0.0.1` (http or https), for local receivers and the vendor fakes. No
 * deployed function has it (test/cdk checks every function's environment).
 *
 * Tests inject `resolve` and `connect`, so a decision is checked without a packet being sent.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';

/** The environment switch of the local allowance; set by lib/local/stack.ts only. */
export const ALLOW_LOCAL_VARIABLE = 'SNAG_OUTBOUND_ALLOW_LOCAL';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

/** The fetch-compatible client deliverers get (`ctx.http`): a web `Response`, fully buffered. */
export type OutboundFetch = (url: string | URL, init?: OutboundRequest) => Promise<Response>;

export interface Connection {
  url: URL;
  /** The checked address the socket must use. */
  address: string;
  family: 4 | 6;
  timeoutMs: number;
  maxBytes: number;
}

export interface OutboundOptions {
  /** Allow http(s)://localhost and 127.0.0.1. Default: the environment switch (local stack only). */
  allowLocal?: boolean;
  /** DNS resolution (all addresses). Tests inject one. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Sends the request to the pinned address. Tests inject one. */
  connect?: (conn: Connection, init: OutboundRequest) => Promise<Response>;
  timeoutMs?: number;
  maxBytes?: number;
}

/** A call the guard refused. `permanent`: the target itself is not allowed (retrying cannot help). */
export class OutboundRefused extends Error {
  constructor(
    readonly reason: string,
    readonly permanent: boolean,
  ) {
    super(`outbound call refused: ${reason}`);
    this.name = 'OutboundRefused';
  }
}

// --- address rules ---------------------------------------------------------------------------------

const v4ToInt = (ip: string) => ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);

/** IPv4 ranges that are not the public internet, with why. */
const v4Blocked: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'CGNAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local or metadata'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved or broadcast'],
];

function v4Refusal(ip: string): string | null {
  const n = v4ToInt(ip);
  for (const [base, bits, why] of v4Blocked) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === (v4ToInt(base) & mask) >>> 0) return why;
  }
  return null;
}

/** The 8 groups of an IPv6 address (with an embedded dotted IPv4 tail expanded), or null. */
export function ipv6Groups(raw: string): number[] | null {
  let ip = raw.toLowerCase().replace(/^\[|\]$/g, '');
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip);
  if (dotted) {
    const o = (dotted[2] as string).split('.').map(Number);
    if (o.some((x) => x > 255)) return null;
    ip = `${dotted[1]}${((o[0] as number) * 256 + (o[1] as number)).toString(16)}:${((o[2] as number) * 256 + (o[3] as number)).toString(16)}`;
  }
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 && missing !== 0) return null;
  if (halves.length === 2 && missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

const embeddedV4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * An IPv6 address is judged by allow-list: only global unicast (2000::/3) outside the special blocks may be
 * called. Blocks that carry an IPv4 address are judged by that address first, so the reason names it.
 */
function v6Refusal(ip: string): string | null {
  const g = ipv6Groups(ip);
  if (!g) return 'not an address';
  const [a = 0, b = 0, c = 0] = g;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const v4 = embeddedV4(g[6] ?? 0, g[7] ?? 0);
  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g[7] === 1) return 'loopback';
  // IPv4-mapped ::ffff:a.b.c.d: the socket reaches the IPv4 address itself, so it is judged as that address.
  if (zeros(0, 5) && g[5] === 0xffff) {
    const why = v4Refusal(v4);
    return why ? `${why} (IPv4 in IPv6)` : null;
  }
  // IPv4-translated ::ffff:0:a.b.c.d (RFC 6145/6052) and the deprecated IPv4-compatible ::a.b.c.d: never
  // used for a public service, and a translator would hand them to the IPv4 address inside.
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) {
    const why = v4Refusal(v4);
    return why ? `${why} (IPv4-translated)` : 'IPv4-translated';
  }
  if (zeros(0, 6)) {
    const why = v4Refusal(v4);
    return why ? `${why} (IPv4 in IPv6)` : 'IPv4-compatible';
  }
  // NAT64: the well-known prefix 64:ff9b::/96 reaches the embedded IPv4 address; the local-use prefix
  // 64:ff9b:1::/48 (RFC 8215) is an operator's own translator, where the IPv4 part may sit anywhere.
  if (a === 0x64 && b === 0xff9b) {
    if (c === 1) return 'NAT64 local-use (RFC 8215)';
    if (!zeros(2, 6)) return 'reserved (NAT64 prefix)';
    const why = v4Refusal(v4);
    return why ? `${why} (NAT64)` : null;
  }
  if ((a & 0xfe00) === 0xfc00) return 'unique local (private, incl. fd00:ec2::254 metadata)';
  if ((a & 0xffc0) === 0xfe80) return 'link-local';
  if ((a & 0xffc0) === 0xfec0) return 'site-local';
  if ((a & 0xff00) === 0xff00) return 'multicast';
  if (a === 0x100 && zeros(1, 4)) return 'discard';
  if ((a & 0xe000) !== 0x2000) return 'reserved (not global unicast 2000::/3)';
  // Teredo 2001::/32 hides an (obfuscated) IPv4 address; the rest of 2001::/23 is IETF protocol space.
  if (a === 0x2001 && b === 0) return 'Teredo';
  if (a === 0x2001 && b < 0x200) return 'IETF protocol assignments';
  if (a === 0x2001 && b === 0xdb8) return 'documentation';
  if (a === 0x3fff && (b & 0xf000) === 0) return 'documentation';
  // 6to4 2002:a.b.c.d::/48 is relayed to the IPv4 address it embeds (relays are deprecated: RFC 7526).
  if (a === 0x2002) {
    const why = v4Refusal(embeddedV4(b, c));
    return why ? `${why} (6to4)` : '6to4';
  }
  return null;
}

/** Why an address must not be called, or null when it is a public unicast address. */
export function addressRefusal(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, '');
  const kind = isIP(bare.split('%')[0] ?? '');
  if (kind === 4) return v4Refusal(bare);
  if (kind === 6) return v6Refusal(bare);
  return 'not an address';
}

// --- the client ------------------------------------------------------------------------------------

const localHosts = new Set(['localhost', '127.0.0.1']);

/** Whether this process may reach loopback targets: the local stack only. */
export const localTargetsAllowed = () => process.env[ALLOW_LOCAL_VARIABLE] === '1';

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const all = await dnsLookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/**
 * The guard's decision for a URL: the address to connect to, or an `OutboundRefused`. Every address the
 * name resolves to must be allowed (an attacker's name may list a public and a private one).
 */
export async function checkTarget(
  target: string | URL,
  opts: Pick<OutboundOptions, 'allowLocal' | 'resolve'> = {},
): Promise<{ url: URL; address: string; family: 4 | 6 }> {
  let url: URL;
  try {
    url = new URL(String(target));
  } catch {
    throw new OutboundRefused('not a URL', true);
  }
  const allowLocal = opts.allowLocal ?? localTargetsAllowed();
  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const local = allowLocal && localHosts.has(hostname);
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) {
    throw new OutboundRefused(`scheme ${url.protocol} (https only)`, true);
  }
  if (url.username || url.password) throw new OutboundRefused('credentials in the URL', true);
  let addresses: ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal) addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await (opts.resolve ?? systemResolve)(hostname);
    } catch (err) {
      throw new OutboundRefused(`the name ${hostname} does not resolve (${(err as Error).message})`, false);
    }
  }
  if (addresses.length === 0) throw new OutboundRefused(`the name ${hostname} has no address`, false);
  for (const a of addresses) {
    const why = addressRefusal(a.address);
    // The local allowance: the loopback address of a literally local host, nothing else.
    const loopbackOk = local && (why === 'loopback' || why === 'loopback (IPv4 in IPv6)');
    if (why && !loopbackOk) throw new OutboundRefused(`${hostname} is ${a.address}: ${why}`, true);
  }
  const chosen = addresses[0] as ResolvedAddress;
  return { url, address: chosen.address, family: chosen.family };
}

/** Sends through node:http(s) with the socket's lookup pinned to the checked address. */
export function pinnedConnect(conn: Connection, init: OutboundRequest): Promise<Response> {
  const { url, address, family } = conn;
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        // No second lookup: whatever name the socket asks for, it gets the address that was checked.
        lookup: ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
          if (options?.all) cb(null, [{ address, family }]);
          else cb(null, address, family);
        }) as never,
        servername: isIP(url.hostname) ? undefined : url.hostname,
        agent: false,
        timeout: conn.timeoutMs,
        signal: init.signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > conn.maxBytes) {
            req.destroy(new OutboundRefused(`response over ${conn.maxBytes} bytes`, false));
            return;
          }
          chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (Array.isArray(v)) for (const x of v) headers.append(k, x);
            else if (v !== undefined) headers.set(k, String(v));
          }
          const status = res.statusCode ?? 502;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          // A web Response cannot carry statuses under 200; treat them as a bad gateway.
          resolve(new Response(body, { status: status < 200 ? 502 : status, headers }));
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${conn.timeoutMs} ms`)));
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

/**
 * The guarded, fetch-compatible client. A 3xx answer is refused (never followed); other statuses are
 * returned for the caller to judge.
 */
export function outboundFetch(opts: OutboundOptions = {}): OutboundFetch {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  return async (target, init = {}) => {
    const checked = await checkTarget(target, opts);
    const timer = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timer]) : timer;
    const res = await (opts.connect ?? pinnedConnect)(
      { ...checked, timeoutMs, maxBytes },
      { ...init, signal },
    );
    if (res.status >= 300 && res.status < 400) {
      throw new OutboundRefused(
        `redirect ${res.status} to ${res.headers.get('location') ?? '(none)'} not followed`,
        false,
      );
    }
    return res;
  };
}
