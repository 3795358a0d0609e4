/**
 * The SSRF guard (functions/runtime/outbound.ts), with the local allowance off. Decisions are checked through
 * an injected resolver and connector: no test sends a packet to a private or metadata address.
 */
import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  type Connection,
  checkTarget,
  OutboundRefused,
  outboundFetch,
  type ResolvedAddress,
} from '#runtime/outbound';

const resolver =
  (table: Record<string, string[]>) =>
  async (host: string): Promise<ResolvedAddress[]> =>
    (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

/** A connector that records what it was asked and answers `status` (never touches the network). */
function recorder(status = 200, headers: Record<string, string> = {}) {
  const seen: Connection[] = [];
  const connect = async (conn: Connection) => {
    seen.push(conn);
    return new Response(status === 204 || (status >= 300 && status < 400) ? null : 'ok', { status, headers });
  };
  return { seen, connect };
}

const refused = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundRefused);
  return err as OutboundRefused;
};

describe('outbound guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['169.254.169.254', 'link-local or metadata'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback (IPv4 in IPv6)'],
    ['::ffff:7f00:1', 'loopback (IPv4 in IPv6)'],
    ['::ffff:169.254.169.254', 'link-local or metadata (IPv4 in IPv6)'],
    ['fd00:ec2::254', 'unique local (private, incl. fd00:ec2::254 metadata)'],
    ['100.64.0.1', 'CGNAT'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['fe80::1', 'link-local'],
    ['64:ff9b::a00:1', 'private (NAT64)'],
    // IPv4 hidden in IPv6 (issue 19): translated (RFC 6052/6145), NAT64 local use, 6to4, Teredo, and the rest
    // of what is not global unicast.
    ['::ffff:0:7f00:1', 'loopback (IPv4-translated)'],
    ['::ffff:0:127.0.0.1', 'loopback (IPv4-translated)'],
    ['::ffff:0:a9fe:a9fe', 'link-local or metadata (IPv4-translated)'],
    ['::ffff:0:5db8:d822', 'IPv4-translated'],
    ['::7f00:1', 'loopback (IPv4 in IPv6)'],
    ['::5db8:d822', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'loopback (NAT64)'],
    ['64:ff9b::169.254.169.254', 'link-local or metadata (NAT64)'],
    ['64:ff9b:1::a00:1', 'NAT64 local-use (RFC 8215)'],
    ['64:ff9b:1:7f00:1::', 'NAT64 local-use (RFC 8215)'],
    ['64:ff9b:0:0:1::7f00:1', 'reserved (NAT64 prefix)'],
    ['2002:7f00:1::1', 'loopback (6to4)'],
    ['2002:a9fe:a9fe::', 'link-local or metadata (6to4)'],
    ['2002:c0a8:101::1', 'private (6to4)'],
    ['2002:5db8:d822::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:2::1', 'IETF protocol assignments'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard'],
    ['::2', 'unspecified (IPv4 in IPv6)'],
    ['::1:0:0:1', 'reserved (not global unicast 2000::/3)'],
    ['5f00::1', 'reserved (not global unicast 2000::/3)'],
    ['4000::1', 'reserved (not global unicast 2000::/3)'],
  ])('refuses %s (%s)', (ip, why) => {
    expect(addressRefusal(ip)).toBe(why);
  });

  it.each([
    '93.184.216.34',
    '2606:2800:220:1:248:1893:25c8:1946',
    '::ffff:93.184.216.34',
    '8.8.8.8',
    '64:ff9b::5db8:d822',
    '2a00:1450:4001:80e::200e',
  ])('allows the public address %s', (ip) => {
    expect(addressRefusal(ip)).toBeNull();
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:0:7f00:1]/',
    'https://[64:ff9b:1::a00:1]/hook',
    'https://[2002:a9fe:a9fe::1]/latest/meta-data/',
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook',
    'https://[fd00:ec2::254]/hook',
  ])('refuses %s without connecting', async (url) => {
    const { seen, connect } = recorder();
    const err = await refused(outboundFetch({ allowLocal: false, resolve: resolver({}), connect })(url));
    expect(err.permanent).toBe(true);
    expect(seen).toEqual([]);
  });

  it('refuses a name that resolves to a private or metadata address, even beside a public one', async () => {
    const resolve = resolver({
      'evil.example': ['93.184.216.34', '127.0.0.1'],
      'meta.example': ['169.254.169.254'],
      'six.example': ['::1'],
      'mapped.example': ['::ffff:10.0.0.1'],
    });
    for (const host of ['evil.example', 'meta.example', 'six.example', 'mapped.example']) {
      const { seen, connect } = recorder();
      await refused(outboundFetch({ allowLocal: false, resolve, connect })(`https://${host}/hook`));
      expect(seen).toEqual([]);
    }
  });

  it('connects to the address it checked, once resolved (no second lookup)', async () => {
    let lookups = 0;
    const resolve = async () => {
      lookups++;
      // A rebinding name: public first, private afterwards. Only the first answer is ever used.
      return [{ address: lookups === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 as const }];
    };
    const { seen, connect } = recorder(200);
    const res = await outboundFetch({ allowLocal: false, resolve, connect })('https://hooks.example/x');
    expect(res.status).toBe(200);
    expect(lookups).toBe(1);
    expect(seen[0]).toMatchObject({ address: '93.184.216.34', family: 4, timeoutMs: 10_000 });
    expect(seen[0]?.url.hostname).toBe('hooks.example');
  });

  it('refuses a redirect (to a metadata or loopback address, or anywhere): 3xx is a failure, never followed', async () => {
    const resolve = resolver({ 'hooks.example': ['93.184.216.34'] });
    for (const location of [
      'http://169.254.169.254/latest/meta-data/',
      'http://127.0.0.1/',
      'https://ok.example/',
    ]) {
      const { seen, connect } = recorder(302, { location });
      const err = await refused(
        outboundFetch({ allowLocal: false, resolve, connect })('https://hooks.example/x'),
      );
      expect(err.reason).toContain('redirect 302');
      expect(seen).toHaveLength(1);
    }
  });

  it('refuses http and local targets without the local allowance, and allows only localhost/127.0.0.1 with it', async () => {
    const resolve = resolver({ localhost: ['127.0.0.1'], 'internal.example': ['10.0.0.1'] });
    await refused(checkTarget('http://example.com/', { allowLocal: false, resolve }));
    await refused(checkTarget('http://localhost:8080/', { allowLocal: false, resolve }));
    await refused(checkTarget('http://127.0.0.1:8080/', { allowLocal: false, resolve }));
    expect((await checkTarget('http://localhost:8080/', { allowLocal: true, resolve })).address).toBe(
      '127.0.0.1',
    );
    expect((await checkTarget('http://127.0.0.1:8080/', { allowLocal: true, resolve })).address).toBe(
      '127.0.0.1',
    );
    // The allowance is for loopback by those names only: private addresses and metadata stay refused.
    await refused(checkTarget('http://10.0.0.1/', { allowLocal: true, resolve }));
    await refused(checkTarget('http://169.254.169.254/', { allowLocal: true, resolve }));
    await refused(checkTarget('https://internal.example/', { allowLocal: true, resolve }));
  });

  it('is off unless the environment switch is set (deployed stages never set it)', async () => {
    delete process.env.SNAG_OUTBOUND_ALLOW_LOCAL;
    await refused(checkTarget('http://127.0.0.1:1/'));
  });
});
