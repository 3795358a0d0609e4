/**
 * Issue review through the local stack (issue 8): the open and resolved lists with page N, search,
 * one issue with prev/next, close and restore keeping docs/data-model.md 4.5's invariants, downloads as
 * presigned redirects, and every route refusing another client (404) and an anonymous caller (401).
 * Issues with media come through the widget's real calls; volume is written through the issues entity.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { PlanName } from '#contracts/plans';
import { db } from '#runtime/aws/dynamo';
import { ApiClient } from '../support/api-client';
import { countFunctionRequests } from '../support/dynamo-calls';
import { seedIssues as seed } from '../support/issues';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const stack = setUpTestStack();

/** DynamoDB requests the review function sends (DESIGN.md section 7 budget). */
const dynamoRequestsOf = countFunctionRequests('api:issues');

const SITE = 'https://shop.example';

interface Site {
  client: ApiClient;
  email: string;
  id: string;
}

async function site(plan: PlanName = 'FREE_PLAN'): Promise<Site> {
  const { client, email } = await signedIn(stack.url);
  const created = await client.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  const id = (created.body as { msg: { id: string } }).msg.id;
  if (plan !== 'FREE_PLAN') {
    const res = await client.post('/api/dev/plan', { username: email, plan, days: 30 });
    expect(res.status).toBe(200);
  }
  return { client, email, id };
}

async function item(pk: string, sk: string): Promise<Record<string, unknown>> {
  const out = await db().send(
    new GetCommand({ TableName: stack.tableName, Key: { pk, sk }, ConsistentRead: true }),
  );
  return out.Item ?? {};
}

type ListMsg = {
  requests: {
    number: number;
    title: string;
    preview: string;
    total_files: number;
    total_screenshots: number;
  }[];
  total_requests: number;
  page: number;
  searchWindow?: number;
};

async function list(s: Site, query = ''): Promise<ListMsg> {
  const res = await s.client.get<ListMsg>(`/api/client/website/${s.id}/request${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { msg: ListMsg }).msg;
}
const numbers = async (s: Site, query = '') => (await list(s, query)).requests.map((r) => r.number);

/** Every number of a list, page by page, as the dashboard pages it. */
async function allPages(s: Site, resolved: boolean): Promise<number[]> {
  const out: number[] = [];
  for (let page = 1; ; page++) {
    const got = await numbers(s, `?page=${page}${resolved ? '&resolved=1' : ''}`);
    if (got.length === 0) return out;
    out.push(...got);
  }
}

const setState = (s: Site, n: number, restore: boolean) =>
  s.client.patch(`/api/client/website/${s.id}/request/${n}`, { restore });

/** docs/data-model.md 4.5: Σ STATS = counts, |BLOCK set| = STATS, header `deleted` ⇔ list. */
async function checkInvariants(projectId: string) {
  const pk = `PROJECT#${projectId}`;
  const meta = await item(pk, 'META');
  const stats = await item(pk, 'STATS');
  const sum = (prefix: string) =>
    Object.entries(stats)
      .filter(([k]) => k.startsWith(prefix))
      .reduce((a, [, v]) => a + Number(v), 0);
  expect(sum('open_')).toBe(Number(meta.openCount ?? 0));
  expect(sum('resolved_')).toBe(Number(meta.resolvedCount ?? 0));
  const all = await db().send(
    new QueryCommand({
      TableName: stack.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    }),
  );
  const items = all.Items ?? [];
  for (const block of items.filter((i) => String(i.sk).startsWith('BLOCK#'))) {
    const b = String(block.sk).slice(6);
    expect((block.openOffsets as Set<number> | undefined)?.size ?? 0).toBe(Number(stats[`open_${b}`] ?? 0));
    expect((block.resolvedOffsets as Set<number> | undefined)?.size ?? 0).toBe(
      Number(stats[`resolved_${b}`] ?? 0),
    );
  }
  for (const h of items.filter((i) => /^ISSUE#\d{10}$/.test(String(i.sk)))) {
    const n = Number(h.number);
    const b = String(Math.floor((n - 1) / 1024)).padStart(6, '0');
    const block = items.find((i) => i.sk === `BLOCK#${b}`) ?? {};
    const inOpen = ((block.openOffsets as Set<number> | undefined) ?? new Set()).has((n - 1) % 1024);
    const inResolved = ((block.resolvedOffsets as Set<number> | undefined) ?? new Set()).has((n - 1) % 1024);
    expect(inOpen).toBe(h.deleted === 0);
    expect(inResolved).toBe(h.deleted === 1);
    expect(h.gsi1pk).toBe(`${pk}#${h.deleted === 1 ? 'RESOLVED' : 'OPEN'}`);
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => to - i);

describe('the issue lists', () => {
  it('pages newest first, 10 a page, with an empty page past the end', async () => {
    const s = await site();
    await seed(s.id, 25);
    const first = await list(s);
    expect(first.total_requests).toBe(25);
    expect(first.page).toBe(1);
    expect(first.requests.map((r) => r.number)).toEqual(range(16, 25));
    expect(first.requests[0]).toMatchObject({
      title: 'Issue 25',
      preview: 'Description of issue 25',
      total_files: 0,
      total_screenshots: 0,
      date_created: { date: expect.stringMatching(/^2026-01-01T/) },
    });
    expect(await numbers(s, '?page=2')).toEqual(range(6, 15));
    expect(await numbers(s, '?page=3')).toEqual(range(1, 5));
    expect(await list(s, '?page=4')).toMatchObject({ requests: [], total_requests: 25, page: 4 });
    expect(await list(s, '?page=500')).toMatchObject({ requests: [], total_requests: 25 });
    expect(await numbers(s, '?resolved=1')).toEqual([]);
    const bad = await s.client.get(`/api/client/website/${s.id}/request?page=abc`);
    expect(bad.status).toBe(400);
  });

  it('keeps every page and counter right across closes and restores, also across a block boundary', async () => {
    const s = await site();
    // Numbers 1015..1044 span blocks 0 and 1 (1,024 numbers a block).
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { pk: `PROJECT#${s.id}`, sk: 'META' },
        UpdateExpression: 'SET seq = :s',
        ExpressionAttributeValues: { ':s': 1014 },
      }),
    );
    await seed(s.id, 30);
    const open = new Set(range(1015, 1044));
    const resolved = new Set<number>();
    const moves: [number, boolean][] = [
      [1044, false],
      [1030, false],
      [1024, false],
      [1025, false],
      [1015, false],
      [1020, false],
      [1030, true],
      [1024, true],
      [1033, false],
      [1041, false],
      [1020, true],
    ];
    for (const [n, restore] of moves) {
      const res = await setState(s, n, restore);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ status: 'success', msg: { number: n, deleted: restore ? 0 : 1 } });
      (restore ? resolved : open).delete(n);
      (restore ? open : resolved).add(n);
      await checkInvariants(s.id);
    }
    const desc = (set: Set<number>) => [...set].sort((a, b) => b - a);
    expect(await allPages(s, false)).toEqual(desc(open));
    expect(await allPages(s, true)).toEqual(desc(resolved));
    expect((await list(s, '?page=2')).total_requests).toBe(open.size);
    expect((await list(s, '?page=1&resolved=true')).total_requests).toBe(resolved.size);
    const projects = await s.client.get('/api/client/website');
    expect(
      (projects.body as { msg: { websites: { total: number; resolved: number }[] } }).msg.websites[0],
    ).toMatchObject({
      total: open.size,
      resolved: resolved.size,
    });
  });

  it('searches title and description case-insensitively within the list, at most 50 characters', async () => {
    const s = await site();
    await seed(s.id, 16, (n) => (n % 3 === 0 ? `Checkout BROKEN on step ${n}` : `Layout ${n}`));
    const found = await list(s, `?search=${encodeURIComponent('checkout broken')}`);
    expect(found.requests.map((r) => r.number)).toEqual([15, 12, 9, 6, 3]);
    expect(found.total_requests).toBe(5);
    expect(found.searchWindow).toBeUndefined();
    expect(await numbers(s, '?search=DESCRIPTION%20OF%20ISSUE%2011')).toEqual([11]);
    expect(await numbers(s, '?search=layout&page=2')).toEqual([1]);
    expect((await list(s, '?search=nothing-like-this')).total_requests).toBe(0);
    // Closed issues are found in the resolved list only.
    await setState(s, 9, false);
    expect(await numbers(s, '?search=checkout')).toEqual([15, 12, 6, 3]);
    expect(await numbers(s, '?search=checkout&resolved=1')).toEqual([9]);
    expect((await s.client.get(`/api/client/website/${s.id}/request?search=${'x'.repeat(50)}`)).status).toBe(
      200,
    );
    const long = await s.client.get(`/api/client/website/${s.id}/request?search=${'x'.repeat(51)}`);
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ status: 'error', code: 'INVALID_PARAMETERS' });
  });

  it('finds an issue by its number, reporter, page and custom field values, within 3 requests and no Scan (issue 19)', async () => {
    const s = await site();
    await seed(s.id, 14, (n) => (n === 4 ? 'Error 404 on the shop' : `Layout ${n}`));
    const reported = await fileReport(stack.url, s.id, SITE, {
      fields: {
        msg: 'The basket is empty',
        username: 'Jane.Doe@Example.org',
        href: 'https://shop.example/Checkout?step=2',
        customFields: [{ name: 'Customer number', value: 'C-1042' }],
      },
    });
    expect(reported).toBe(15);
    for (const term of ['jane.doe@example', 'checkout?step=2', 'c-1042', 'C-1042'])
      expect(await numbers(s, `?search=${encodeURIComponent(term)}`), term).toEqual([15]);
    // A number is the issue of that number first, then the issues whose text contains it.
    expect(await numbers(s, '?search=4')).toEqual([4, 15, 14]);
    expect(await numbers(s, '?search=404')).toEqual([4]);
    expect(await numbers(s, `?search=${encodeURIComponent('#12')}`)).toEqual([12]);
    expect(await numbers(s, '?search=12')).toEqual([12]);
    expect(await numbers(s, '?search=99')).toEqual([]);
    // The number is looked up in the list searched only.
    await setState(s, 12, false);
    expect(await numbers(s, '?search=12')).toEqual([]);
    expect(await numbers(s, '?search=12&resolved=1')).toEqual([12]);
    // An old issue outside the newest 200 is still found by its number (a direct read, not the window).
    const budget = await dynamoRequestsOf(() => numbers(s, '?search=%2312'));
    // The session read, META with the issue's header in one batch, and the text Query.
    expect(budget.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'QueryCommand']);
    const text = await dynamoRequestsOf(() => numbers(s, '?search=layout'));
    // The session read, META with the caller's TEAMS in one batch (issue 22), and the text Query.
    expect(text.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'QueryCommand']);
    // Another client's project stays closed to a number search too.
    const other = await site();
    const theirs = await other.client.get(`/api/client/website/${s.id}/request?search=4`);
    expect(theirs.status).toBe(404);
  });

  it('searches the newest 200 of a longer list and says so', async () => {
    const s = await site();
    await seed(s.id, 203, (n) => (n === 3 || n === 150 ? `Needle ${n}` : `Hay ${n}`));
    // 203 issues: the newest 200 are 4..203, so issue 3 is outside the window.
    const found = await list(s, '?search=needle');
    expect(found).toMatchObject({ requests: [{ number: 150 }], total_requests: 1, searchWindow: 200 });
    expect((await list(s, '?page=21')).requests.map((r) => r.number)).toEqual([3, 2, 1]);
    // Its number finds it all the same: a direct read, not the window.
    expect((await numbers(s, '?search=3')).slice(0, 3)).toEqual([3, 203, 193]);
  });
});

type IssueMsg = Record<string, unknown> & {
  number: number;
  prev_number: number | null;
  next_number: number | null;
  deleted: 0 | 1;
};

async function issue(s: Site, n: number): Promise<IssueMsg> {
  const res = await s.client.get<IssueMsg>(`/api/client/website/${s.id}/request/${n}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { msg: IssueMsg }).msg;
}

describe('one issue', () => {
  it('answers prev and next within its list, null at the ends, skipping closed issues', async () => {
    const s = await site();
    await seed(s.id, 5);
    expect(await issue(s, 5)).toMatchObject({ prev_number: 4, next_number: null, deleted: 0 });
    expect(await issue(s, 1)).toMatchObject({ prev_number: null, next_number: 2 });
    await setState(s, 3, false);
    expect(await issue(s, 2)).toMatchObject({ prev_number: 1, next_number: 4 });
    expect(await issue(s, 4)).toMatchObject({ prev_number: 2, next_number: 5 });
    expect(await issue(s, 3)).toMatchObject({ prev_number: null, next_number: null, deleted: 1 });
    await setState(s, 5, false);
    expect(await issue(s, 3)).toMatchObject({ prev_number: null, next_number: 5 });
    expect(await issue(s, 4)).toMatchObject({ prev_number: 2, next_number: null });
    expect((await s.client.get(`/api/client/website/${s.id}/request/99`)).status).toBe(404);
    expect((await s.client.get(`/api/client/website/${s.id}/request/abc`)).status).toBe(404);
  });

  it('closes and restores idempotently, and the project list follows', async () => {
    const s = await site();
    await seed(s.id, 3);
    const totals = async () =>
      (await s.client.get('/api/client/website')).body as {
        msg: { websites: { total: number; resolved: number }[] };
      };
    for (let i = 0; i < 2; i++) {
      const res = await setState(s, 2, false);
      expect(res.body).toMatchObject({ status: 'success', msg: { number: 2, deleted: 1 } });
      expect((await totals()).msg.websites[0]).toMatchObject({ total: 2, resolved: 1 });
    }
    await checkInvariants(s.id);
    for (let i = 0; i < 2; i++) {
      const res = await setState(s, 2, true);
      expect(res.body).toMatchObject({ status: 'success', msg: { number: 2, deleted: 0 } });
      expect((await totals()).msg.websites[0]).toMatchObject({ total: 3, resolved: 0 });
    }
    await checkInvariants(s.id);
    // The same close sent many times at once moves the issue once; other issues move beside it.
    const closes = await Promise.all([
      ...Array.from({ length: 6 }, () => setState(s, 1, false)),
      setState(s, 3, false),
      setState(s, 2, false),
    ]);
    expect(closes.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect((await totals()).msg.websites[0]).toMatchObject({ total: 0, resolved: 3 });
    await checkInvariants(s.id);
    expect(await allPages(s, true)).toEqual([3, 2, 1]);
    expect((await setState(s, 7, false)).status).toBe(404);
    const bad = await s.client.patch(`/api/client/website/${s.id}/request/1`, { restore: 'yes' });
    expect(bad.status).toBe(400);
  });
});

/** A report with a screenshot, its snapshot and an attachment, through the widget's own calls. */
async function reportWithMedia(s: Site, fileName: string) {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
  const html = '<p>page</p><script>alert(1)</script>';
  const number = await fileReport(stack.url, s.id, SITE, {
    fields: {
      msg: 'Checkout broken\nThe button does nothing.',
      username: 'visitor@example.org',
      href: 'https://shop.example/cart',
      browser: 'Firefox',
      customFields: [{ name: 'Plan', value: 'Gold' }],
      logs: [{ t: 1, level: 'error', kind: 'console', msg: 'TypeError: x is undefined' }],
    },
    screenshots: [{ type: 'image/png', content: png, snapshot: html }],
    files: [{ name: fileName, type: 'application/pdf', content: new Uint8Array(300).fill(7) }],
  });
  return { number, png, html: new TextEncoder().encode(html) };
}

/** A session GET that does not follow redirects. */
async function rawGet(client: ApiClient, path: string) {
  return fetch(new URL(path, stack.url), {
    redirect: 'manual',
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
}

describe('an issue with media', () => {
  it("answers SPEC's fields, and downloads redirect to S3 with safe headers", async () => {
    const s = await site('BASIC_PLAN');
    const fileName = 'Rechnung März.pdf';
    const { number, png, html } = await reportWithMedia(s, fileName);
    const got = await issue(s, number);
    expect(got).toMatchObject({
      number,
      prev_number: null,
      next_number: null,
      deleted: 0,
      total_files: 1,
      files: [{ original_name: fileName, size: 300, type: 'application/pdf' }],
      screenshots: [{ type: 'png', size: png.length }],
      data: {
        title: 'Checkout broken',
        msg: expect.stringContaining('The button does nothing.'),
        username: 'visitor@example.org',
        href: 'https://shop.example/cart',
        browser: 'Firefox',
        customFields: [{ name: 'Plan', value: 'Gold' }],
      },
      email_status: expect.any(Number),
      gitlab_status: 0,
      webhooks_status: 0,
      logs: [{ msg: 'TypeError: x is undefined' }],
      date_created: { date: expect.any(String) },
    });
    const row = (await list(s)).requests[0];
    expect(row).toMatchObject({ number, total_files: 1, total_screenshots: 1 });

    const files = got.files as { name: string }[];
    const screenshots = got.screenshots as { name: string; html: string }[];
    const fileRes = await rawGet(s.client, `/api/client/download/file/${s.id}/${files[0]?.name}`);
    expect(fileRes.status).toBe(302);
    const fileUrl = fileRes.headers.get('location') ?? '';
    expect(new URL(fileUrl).origin).not.toBe(new URL(stack.url).origin);
    const fileObject = await fetch(fileUrl);
    expect(fileObject.status).toBe(200);
    expect(fileObject.headers.get('content-disposition')).toBe(
      `attachment; filename="Rechnung M_rz.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf`,
    );
    expect(fileObject.headers.get('content-type')).toBe('application/octet-stream');
    expect((await fileObject.arrayBuffer()).byteLength).toBe(300);

    const shotUrl =
      (await rawGet(s.client, `/api/client/download/screenshot/${s.id}/${screenshots[0]?.name}`)).headers.get(
        'location',
      ) ?? '';
    const shot = await fetch(shotUrl);
    expect(shot.headers.get('content-disposition')).toMatch(/^inline; /);
    expect(shot.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await shot.arrayBuffer())).toEqual(png);
    const forced = await fetch(
      (
        await rawGet(s.client, `/api/client/download/screenshot/${s.id}/${screenshots[0]?.name}?download=1`)
      ).headers.get('location') ?? '',
    );
    expect(forced.headers.get('content-disposition')).toMatch(/^attachment; /);

    // The HTML snapshot is never served inline, nor as HTML.
    const snap = await fetch(
      (await rawGet(s.client, `/api/client/download/screenshot/${s.id}/${screenshots[0]?.html}`)).headers.get(
        'location',
      ) ?? '',
    );
    expect(snap.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(snap.headers.get('content-type')).toBe('application/octet-stream');
    expect(new TextDecoder().decode(await snap.arrayBuffer())).toBe(new TextDecoder().decode(html));

    // Names that are not stored objects of this project name nothing.
    for (const name of [
      '..%2F..%2Fetc%2Fpasswd',
      '..%2Ff%2Fx.pdf',
      'x.pdf',
      `${files[0]?.name}x`,
      '00000000-0000-4000-8000-000000000000.pdf',
    ]) {
      expect((await rawGet(s.client, `/api/client/download/file/${s.id}/${name}`)).status, name).toBe(404);
    }
    // A file is not a screenshot.
    expect((await rawGet(s.client, `/api/client/download/screenshot/${s.id}/${files[0]?.name}`)).status).toBe(
      404,
    );

    // Another client gets 404 for all of it.
    const other = await site();
    expect((await rawGet(other.client, `/api/client/download/file/${s.id}/${files[0]?.name}`)).status).toBe(
      404,
    );
    expect(
      (await rawGet(other.client, `/api/client/download/screenshot/${s.id}/${screenshots[0]?.name}`)).status,
    ).toBe(404);
  });
});

describe('the page snapshot viewer (issue 19)', () => {
  it("serves a script-free copy from the bucket's origin, with the visitor's scroll position and window", async () => {
    const s = await site();
    const meta = {
      url: 'https://shop.example/',
      scrollX: 0,
      scrollY: 1500,
      width: 390,
      height: 844,
      devicePixelRatio: 3,
    };
    const html = `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><base href="https://shop.example/"><meta name="snag-snapshot" content="${JSON.stringify(meta).replace(/"/g, '&quot;')}"></head><body><script>alert(1)</script><p>page</p></body></html>`;
    const number = await fileReport(stack.url, s.id, SITE, {
      fields: { msg: 'Look here' },
      screenshots: [{ type: 'image/png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), snapshot: html }],
    });
    const shot = ((await issue(s, number)).screenshots as { name: string; html: string }[])[0];
    const path = `/api/client/snapshot/${s.id}/${shot?.html}`;
    const answer = async (client = s.client) => client.get<Record<string, unknown>>(path);
    const first = await answer();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const msg = (first.body as unknown as { msg: { url: string; anchor: string; view: unknown } }).msg;
    expect(msg.anchor).toBe('snag-scroll-position');
    expect(msg.view).toEqual({ scrollX: 0, scrollY: 1500, width: 390, height: 844, devicePixelRatio: 3 });
    // Never the dashboard's origin: the bucket's, inline as HTML, not cached.
    expect(new URL(msg.url).origin).not.toBe(new URL(stack.url).origin);
    const served = await fetch(msg.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(served.headers.get('content-disposition')).toBe('inline');
    const body = await served.text();
    expect(
      body.startsWith(
        "<!DOCTYPE html><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'none'",
      ),
    ).toBe(true);
    expect(body).toContain('<p>page</p>');
    expect(body).toMatch(/<div id="snag-scroll-position"[^>]*top:1500px!important/);
    // The copy is made once; later views find it.
    const again = await answer();
    expect((again.body as unknown as { msg: { view: unknown } }).msg.view).toEqual(msg.view);
    // The download keeps the visitor's file as it was, as an attachment.
    const original = await fetch(
      (await rawGet(s.client, `/api/client/download/screenshot/${s.id}/${shot?.html}`)).headers.get(
        'location',
      ) ?? '',
    );
    expect(await original.text()).toBe(html);
    // Only a stored snapshot of the caller's project: not a screenshot, not a made-up name, not another's.
    expect((await s.client.get(`/api/client/snapshot/${s.id}/${shot?.name}`)).status).toBe(404);
    expect(
      (await s.client.get(`/api/client/snapshot/${s.id}/00000000-0000-4000-8000-000000000000.html`)).status,
    ).toBe(404);
    expect((await s.client.get(`/api/client/snapshot/${s.id}/..%2Fs%2F${shot?.html}`)).status).toBe(404);
    const other = await site();
    const theirs = await answer(other.client);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
  });
});

describe('every review route', () => {
  it('refuses another signed-in client (404) and an anonymous caller (401)', async () => {
    const s = await site();
    await seed(s.id, 12);
    const other = await site();
    const anonymous = new ApiClient(stack.url);
    const name = '00000000-0000-4000-8000-000000000000.png';
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/client/website/${s.id}/request`],
      ['GET', `/api/client/website/${s.id}/request?page=2`],
      ['GET', `/api/client/website/${s.id}/request?search=issue`],
      ['GET', `/api/client/website/${s.id}/request/1`],
      ['PATCH', `/api/client/website/${s.id}/request/1`, { restore: false }],
      ['GET', `/api/client/download/file/${s.id}/${name}`],
      ['GET', `/api/client/download/screenshot/${s.id}/${name}`],
      ['GET', `/api/client/snapshot/${s.id}/${name.replace('.png', '.html')}`],
      ['GET', `/api/client/website/${s.id}/request?search=1`],
    ];
    for (const [method, path, body] of calls) {
      const theirs = await other.client.call(method, path, body);
      expect(theirs.status, `${method} ${path}`).toBe(404);
      expect(theirs.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
      const anon = await anonymous.call(method, path, body);
      expect(anon.status, `${method} ${path}`).toBe(401);
    }
    // Nothing changed for the owner.
    expect((await list(s)).total_requests).toBe(12);
    expect(await issue(s, 1)).toMatchObject({ deleted: 0 });
  });
});
