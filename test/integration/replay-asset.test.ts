/**
 * The replay player's image and font proxy through the local stack (docs/replay.md "Sandbox"): a picture or
 * a font a customer's site serves comes back as its bytes under the type they prove, kept an hour by the
 * reader's browser; HTML, a mislabelled file, an oversized one, a host's error, a refused address and an
 * address that is no http(s) one are the catalogue's 4xx/502, never a 500; another client's project is
 * NOT_FOUND; each reader is counted. The local stack allows loopback targets (SNAG_OUTBOUND_ALLOW_LOCAL),
 * so the customer's site is test/support/customer-site.ts on 127.0.0.1.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { rateWindow } from '#runtime/rate-limit';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { replayAssetLimits, replayAssetRateLimit } from '../../functions/issues/replay-asset';
import { replayLinkToken } from '../../functions/issues/replay-link';
import type { ApiClient } from '../support/api-client';
import { type CustomerSite, startCustomerSite } from '../support/customer-site';
import { png } from '../support/png';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';

const stack = setUpTestStack();

let site: CustomerSite;
let owner: Site;
const logo = png(12, 8, [200, 40, 40], true);
// The first bytes of real font files (their magic numbers) and some body.
const woff2 = Buffer.concat([Buffer.from('wOF2\x00\x01\x00\x00', 'latin1'), Buffer.alloc(200, 3)]);
const ttf = Buffer.concat([Buffer.from([0x00, 0x01, 0x00, 0x00, 0x00, 0x0a]), Buffer.alloc(200, 5)]);
const svg = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>';

beforeAll(async () => {
  site = await startCustomerSite();
  site.file('/logo.png', logo, { 'content-type': 'image/png', 'set-cookie': 'tracker=1' });
  site.file('/font.woff2', woff2, { 'content-type': 'font/woff2' });
  site.file('/font.ttf', ttf, { 'content-type': 'application/octet-stream' });
  site.file('/icon.svg', svg, { 'content-type': 'image/svg+xml; charset=utf-8' });
  site.file('/old-logo.png', '', { location: '/logo.png' }, 301);
  site.file('/to-metadata.png', '', { location: 'http://169.254.169.254/latest/meta-data/' }, 302);
  for (let i = 0; i < 5; i++) site.file(`/loop${i}.png`, '', { location: `/loop${i + 1}.png` }, 302);
  site.page('/page.html', '<!doctype html><p>not a picture</p>');
  site.file('/fake.png', '<html><script>alert(1)</script></html>', { 'content-type': 'image/png' });
  site.file('/real-png-as-html', logo, { 'content-type': 'text/html' });
  site.file('/huge.png', Buffer.concat([logo, Buffer.alloc(replayAssetLimits.maxBytes)]), {
    'content-type': 'image/png',
  });
  site.file('/gone.png', 'gone', { 'content-type': 'text/plain' }, 404);
  site.file('/broken.png', logo, { 'content-type': 'image/png' }, 500);
  owner = await newSite(stack.url, 'BUSINESS_PLAN');
});

afterAll(async () => {
  await site?.close();
});

/** The proxy's answer for `url` in project `projectId` (the owner's), signed in as `client`. */
async function asset(url: string | undefined, client: ApiClient | null = owner.client, projectId = owner.id) {
  const query = url === undefined ? '' : `?url=${encodeURIComponent(url)}`;
  const res = await fetch(new URL(`/api/client/replay-asset/${projectId}${query}`, stack.url), {
    headers: client ? { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {},
  });
  const body = Buffer.from(await res.arrayBuffer());
  const code = res.status >= 400 ? (JSON.parse(body.toString('utf8')) as { code?: string }).code : undefined;
  return { status: res.status, headers: res.headers, body, seen: `${res.status} ${code ?? ''}`.trim() };
}

const local = (path: string) => `http://127.0.0.1:${site.port}${path}`;

describe('the replay asset proxy', () => {
  it("serves a signed link's public player while the link opens its recording, with no session", async () => {
    const name = '3b241101-e2bb-4255-8caf-4136c566a962.gz';
    const viaLink = async (token: string) =>
      fetch(new URL(`/api/replay/${token}/asset?url=${encodeURIComponent(local('/logo.png'))}`, stack.url));
    const token = await replayLinkToken({ projectId: owner.id, name }, Date.now() + 3_600_000);
    const ok = await viaLink(token);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await ok.arrayBuffer()).equals(logo)).toBe(true);
    // A forged or expired link opens nothing, its proxy included, and says no more than NOT_FOUND.
    const expired = await replayLinkToken({ projectId: owner.id, name }, Date.now() - 1000);
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [expired, forged, 'not-a-token']) {
      const res = await viaLink(bad);
      expect(res.status, bad).toBe(404);
      expect(((await res.json()) as { code?: string }).code).toBe('NOT_FOUND');
    }
  });

  it("answers a customer's picture as its bytes, kept privately for an hour, with nothing of the reader sent", async () => {
    const res = await asset(local('/logo.png'));
    expect(res.seen).toBe('200');
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.body.equals(logo)).toBe(true);
    const sent = site.requests('/logo.png').at(-1) ?? {};
    expect(sent.cookie).toBeUndefined();
    expect(sent.authorization).toBeUndefined();
    expect(sent['x-forwarded-for']).toBeUndefined();
  });

  it('answers web fonts by their bytes (a font served as plain binary too) and an svg as an inert attachment', async () => {
    const font = await asset(local('/font.woff2'));
    expect([font.seen, font.headers.get('content-type')]).toEqual(['200', 'font/woff2']);
    expect(font.body.equals(woff2)).toBe(true);
    const binary = await asset(local('/font.ttf'));
    expect([binary.seen, binary.headers.get('content-type')]).toEqual(['200', 'font/ttf']);
    expect(binary.body.equals(ttf)).toBe(true);
    const picture = await asset(local('/icon.svg'));
    expect([picture.seen, picture.headers.get('content-type')]).toEqual(['200', 'image/svg+xml']);
    expect(picture.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(picture.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(picture.body.toString('utf8')).toBe(svg);
  });

  it('follows a few redirects, each through the guard', async () => {
    const moved = await asset(local('/old-logo.png'));
    expect(moved.seen).toBe('200');
    expect(moved.body.equals(logo)).toBe(true);
    expect((await asset(local('/to-metadata.png'))).seen).toBe('400 ASSET_REFUSED');
    expect((await asset(local('/loop0.png'))).seen).toBe('502 ASSET_UNAVAILABLE');
  });

  it("refuses what is no picture or font, too large, or the host's error, as ASSET_UNAVAILABLE (502)", async () => {
    for (const path of [
      '/page.html',
      '/fake.png',
      '/real-png-as-html',
      '/huge.png',
      '/gone.png',
      '/broken.png',
    ]) {
      expect(`${path} ${(await asset(local(path))).seen}`).toBe(`${path} 502 ASSET_UNAVAILABLE`);
    }
  });

  it('refuses addresses the guard does not call, and anything that is no absolute http(s) address', async () => {
    for (const url of ['https://10.0.0.1/logo.png', 'http://169.254.169.254/x.png', 'https://[::1]/a.png']) {
      expect(`${url} ${(await asset(url)).seen}`).toBe(`${url} 400 ASSET_REFUSED`);
    }
    for (const url of [
      undefined,
      '',
      '/logo.png',
      'ftp://shop.example/a.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
    ]) {
      expect(`${url} ${(await asset(url)).seen}`).toBe(`${url} 400 INVALID_PARAMETERS`);
    }
  });

  it("answers another client's project NOT_FOUND and no session UNAUTHORIZED, calling nothing", async () => {
    const before = site.requests('/logo.png').length;
    const other = await newSite(stack.url, 'BUSINESS_PLAN');
    expect((await asset(local('/logo.png'), other.client)).seen).toBe('404 NOT_FOUND');
    expect((await asset(local('/logo.png'), null)).seen).toBe('401 UNAUTHORIZED');
    expect(site.requests('/logo.png').length).toBe(before);
  });

  it('counts each reader: past the window they are refused, another reader goes on', async () => {
    const reader = await newSite(stack.url, 'BUSINESS_PLAN');
    const key = (await findUserIdByEmail(reader.email.toLowerCase())) ?? '';
    expect(key).not.toBe('');
    await db().send(
      new PutCommand({
        TableName: stack.tableName,
        Item: { ...rateWindow({ ...replayAssetRateLimit, key }).key, count: replayAssetRateLimit.max - 1 },
      }),
    );
    const url = local('/logo.png');
    expect((await asset(url, reader.client, reader.id)).seen).toBe('200');
    expect((await asset(url, reader.client, reader.id)).seen).toBe('429 RATE_LIMITED');
    expect((await asset(url)).seen).toBe('200');
  });

  it('answers a name that does not resolve as unavailable, and a fragment or localhost as the same file', async () => {
    expect((await asset('https://shop.invalid/a.png')).seen).toBe('502 ASSET_UNAVAILABLE');
    for (const url of [`${local('/logo.png')}#x`, `http://localhost:${site.port}/logo.png`]) {
      const res = await asset(url);
      expect([res.seen, res.body.equals(logo)]).toEqual(['200', true]);
    }
  });
});
