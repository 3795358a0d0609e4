/**
 * GitHub through the local stack (issue 24), against the GitHub fake as `npm start`
 * runs it: the token is checked on Authorize (the repository list), the settings are saved through the
 * dashboard's call with hostile input refused, another client and a plan without integrations are refused,
 * and a report travels intake → fan-out → delivery: status 2 with the issue's address recorded, the
 * screenshot's signed link answering, a 5xx retried into one issue, 410 failing at once with its reason
 * (then Sync after a fix), a redelivery and an attempt of unknown outcome creating nothing twice.
 */
import { gzipSync } from 'node:zlib';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SyncListAnswer } from '#contracts/integrations';
import { db } from '#runtime/aws/dynamo';
import { sqs } from '#runtime/aws/sqs';
import type { VendorFakes } from '../../lib/local/vendors';
import type { ApiReply } from '../support/api-client';
import { eventually } from '../support/local-stack';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { fileReport } from '../support/widget';

const ORIGIN = 'https://shop.example';
const TOKEN = 'github_pat_11AAAlocal0123456789';

const stack = setUpTestStack({
  vendorFakes: true,
  queues: { delivery: { visibilityTimeoutSeconds: 1, maxReceiveCount: 3, retryDelaysSeconds: [1] } },
});
let fakes: VendorFakes;
let site: Site;
let stranger: Site;

const codeOf = (r: ApiReply) => (r.body as { code?: string }).code;
// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions themselves.
const msgOf = (r: ApiReply): any => (r.body as { msg?: unknown }).msg;

beforeAll(async () => {
  if (!stack.vendorFakes) throw new Error('the local stack did not start the vendor fakes');
  fakes = stack.vendorFakes;
  site = await newSite(stack.url, 'BASIC_PLAN');
  stranger = await newSite(stack.url, 'BUSINESS_PLAN');
  // A new project mails its owner; off, so that only GitHub's status is in play.
  await site.client.patch(`/api/client/integration/${site.id}`, [{ name: 'email', active: 0, data: {} }]);
});

beforeEach(() => fakes.github.reset());

async function stored(projectId = site.id) {
  const out = await db().send(
    new GetCommand({
      TableName: stack.tableName,
      Key: { pk: `PROJECT#${projectId}`, sk: 'INTEGRATION#github' },
      ConsistentRead: true,
    }),
  );
  return out.Item;
}

async function detail(n: number) {
  const out = await db().send(
    new GetCommand({
      TableName: stack.tableName,
      Key: { pk: `PROJECT#${site.id}`, sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL` },
      ConsistentRead: true,
    }),
  );
  return out.Item ?? {};
}

const statusIs = (n: number, want: number) =>
  eventually(
    async () => {
      const d = await detail(n);
      return Number((d.st as Record<string, number> | undefined)?.github) === want ? d : undefined;
    },
    30_000,
    `st.github = ${want} for #${n}`,
  );

const view = async (s: Site = site) =>
  msgOf(await s.client.get(`/api/client/website/${s.id}`)).integrations.find(
    (i: { name: string }) => i.name === 'github',
  );

/** Authorize as the screen does, then switch on with `data` changes, sending back what it read. */
async function connect(data: Record<string, unknown> = {}) {
  const repos = await site.client.post('/api/client/integration/github/repos', {
    siteId: site.id,
    key: TOKEN,
  });
  expect(repos.status, JSON.stringify(repos.body)).toBe(200);
  const current = await view();
  const res = await site.client.patch(`/api/client/integration/${site.id}`, [
    { name: 'github', active: 1, authorized: 1, data: { ...current.data, ...data } },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('GitHub settings', () => {
  it('Authorize checks the token on the repository list, saves it and preselects the first repository', async () => {
    const res = await site.client.post('/api/client/integration/github/repos', {
      siteId: site.id,
      key: TOKEN,
    });
    expect(res.status).toBe(200);
    expect(msgOf(res)).toEqual([
      { id: 'octo-org/website', name: 'octo-org/website' },
      { id: 'octo-org/shop', name: 'octo-org/shop' },
    ]);
    expect(fakes.github.calls('/user/repos')[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(await stored()).toMatchObject({ authorized: 1, data: { key: TOKEN, id: 'octo-org/website' } });
    // The dashboard reads the token masked, never whole.
    const read = await view();
    expect(read).toMatchObject({
      authorized: 1,
      available: true,
      data: { id: 'octo-org/website', labels: [] },
    });
    expect(read.data.key).toBe(`••••${TOKEN.slice(-4)}`);
    // The masked token sent back means the stored one.
    const again = await site.client.post('/api/client/integration/github/repos', {
      siteId: site.id,
      key: read.data.key,
    });
    expect(again.status).toBe(200);
    expect(fakes.github.calls('/user/repos')[1]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('answers TOKEN_REFUSED for a refused token and VENDOR_UNAVAILABLE only when GitHub is down', async () => {
    const bad = await site.client.post('/api/client/integration/github/repos?lng=de', {
      siteId: site.id,
      key: 'github_pat_invalid',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'TOKEN_REFUSED' });
    expect((bad.body as { msg?: string }).msg).toMatch(/^Das Token wurde abgelehnt/);
    fakes.github.fail({ match: '/user/repos', reply: { status: 503, json: { message: 'down' } } });
    const down = await site.client.post('/api/client/integration/github/repos', {
      siteId: site.id,
      key: TOKEN,
    });
    expect(down.status).toBe(502);
    expect(codeOf(down)).toBe('VENDOR_UNAVAILABLE');
  });

  it('refuses hostile settings with INVALID_PARAMETERS and leaves what is stored as it was', async () => {
    await connect({ labels: ['feedback'] });
    const before = await stored();
    const current = await view();
    for (const data of [
      { id: '../../orgs/x' },
      { id: 'octo-org/..' },
      { id: 'octo org/website' },
      { labels: ['a,b'] },
      { labels: ['x'.repeat(51)] },
      { labels: Array.from({ length: 11 }, (_, i) => `l${i}`) },
      { labels: ['bad\u202Eeman'] },
      { labels: 'bug' },
      { key: 'x'.repeat(1001) },
    ]) {
      const res = await site.client.patch(`/api/client/integration/${site.id}`, [
        { name: 'github', active: 1, data: { ...current.data, ...data } },
      ]);
      expect({ data, status: res.status, code: codeOf(res) }).toEqual({
        data,
        status: 400,
        code: 'INVALID_PARAMETERS',
      });
    }
    expect(await stored()).toEqual(before);
    // Active without a token is refused too.
    const reset = await site.client.delete(`/api/client/integration/github/authentication/${site.id}`);
    expect(reset.status).toBe(200);
    const empty = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'github', active: 1, data: { key: '', id: 'octo-org/website' } },
    ]);
    expect(codeOf(empty)).toBe('INVALID_PARAMETERS');
    // Reset forgot the token and the repository, and kept the labels.
    expect(await stored()).toMatchObject({
      active: 0,
      authorized: 0,
      data: { key: '', id: '', labels: ['feedback'] },
    });
    const masked = await site.client.post('/api/client/integration/github/repos', {
      siteId: site.id,
      key: '••••',
    });
    expect(codeOf(masked)).toBe('INVALID_PARAMETERS');
    expect(fakes.github.calls('/user/repos')).toHaveLength(1);
  });

  it('refuses another signed-in client on every GitHub call (404, nothing reaches GitHub or is stored)', async () => {
    await connect();
    const before = await stored();
    const calls = [
      ['POST', '/api/client/integration/github/repos', { siteId: site.id, key: 'github_pat_stranger' }],
      ['DELETE', `/api/client/integration/github/authentication/${site.id}`, undefined],
      [
        'PATCH',
        `/api/client/integration/${site.id}`,
        [{ name: 'github', active: 1, data: { key: 'github_pat_stranger', id: 'octo-org/shop' } }],
      ],
      ['PATCH', `/api/client/integration/sync/${site.id}`, { tickets: ['1'], type: 'github' }],
      ['GET', `/api/client/website/${site.id}/request?integration=github`, undefined],
    ] as const;
    const seen = fakes.github.requests.length;
    for (const [method, path, body] of calls) {
      const res = await stranger.client.call(method, path, body);
      expect({ path, status: res.status, code: codeOf(res) }).toEqual({
        path,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    expect(fakes.github.requests).toHaveLength(seen);
    expect(await stored()).toEqual(before);
  });

  it('is not available on a plan without integrations (a reset stays possible)', async () => {
    const free = await newSite(stack.url, 'FREE_PLAN');
    const repos = await free.client.post('/api/client/integration/github/repos', {
      siteId: free.id,
      key: TOKEN,
    });
    expect(codeOf(repos)).toBe('INTEGRATION_NOT_AVAILABLE');
    const save = await free.client.patch(`/api/client/integration/${free.id}`, [
      { name: 'github', active: 1, data: { key: TOKEN, id: 'octo-org/website' } },
    ]);
    expect(codeOf(save)).toBe('INTEGRATION_NOT_AVAILABLE');
    expect((await view(free)).available).toBe(false);
    expect(
      (await free.client.delete(`/api/client/integration/github/authentication/${free.id}`)).status,
    ).toBe(200);
    expect(fakes.github.requests).toHaveLength(0);
  });
});

describe('a report reaches GitHub', () => {
  it('one issue with the labels, quoted text and a screenshot link that answers; the address recorded', async () => {
    await connect({ id: 'octo-org/shop', labels: ['feedback', 'snag'] });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const n = await fileReport(stack.url, site.id, ORIGIN, {
      fields: { msg: 'Checkout broken @octo-org/owners see #1', href: 'https://shop.example/cart' },
      screenshots: [{ type: 'image/png', content: png }],
    });
    const d = await statusIs(n, 2);
    expect(fakes.github.issues).toHaveLength(1);
    const [issue] = fakes.github.issues;
    expect(d.vendor_github).toBe(`${fakes.github.url}/octo-org/shop/issues/1`);
    // The issue page links the created issue: its `html_url`, kept with the delivery and answered.
    expect(d.url_github).toBe(`${fakes.github.url}/octo-org/shop/issues/1`);
    const answer = msgOf(await site.client.get(`/api/client/website/${site.id}/request/${n}`));
    expect(answer.github_url).toBe(`${fakes.github.url}/octo-org/shop/issues/1`);
    expect(issue).toMatchObject({ repo: 'octo-org/shop', labels: ['feedback', 'snag'] });
    expect(issue?.title.replace(/\u2060/g, '')).toBe(`#${n} Checkout broken @octo-org/owners see #1`);
    expect(issue?.actions).toEqual({ mentions: [], references: [], autolinks: [] });
    expect(issue?.body).toContain(`/profile/site/${site.id}/ticket/${n}`);
    // GitHub's Camo would fetch this link: it must answer without a session.
    const link = /!\[Screenshot 1\]\(([^)]+)\)/.exec(issue?.body ?? '')?.[1] ?? '';
    const res = await fetch(link, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png);

    // A redelivered message after the address was recorded creates nothing.
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { pk: `PROJECT#${site.id}`, sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL` },
        UpdateExpression: 'SET st.github = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await sqs().send(
      new SendMessageCommand({
        QueueUrl: stack.queues.delivery.url,
        MessageBody: JSON.stringify({
          projectId: site.id,
          issueNumber: n,
          integration: 'github',
          correlationId: 'again',
        }),
      }),
    );
    await statusIs(n, 2);
    expect(fakes.github.issues).toHaveLength(1);
  });

  it('carries the numbered steps and a replay link that plays that recording (what `npm start` shows)', async () => {
    await connect({ id: 'octo-org/shop' });
    expect(
      (await site.client.patch(`/api/client/website/${site.id}`, { data: { widgetReplay: true } })).status,
    ).toBe(200);
    const at = Date.now();
    const recording = new Uint8Array(
      gzipSync(JSON.stringify([{ type: 4, timestamp: at - 60_000, data: {} }])),
    );
    const n = await fileReport(stack.url, site.id, ORIGIN, {
      fields: {
        msg: 'Pay does nothing',
        steps: [
          { t: at - 20_000, kind: 'navigate', label: '/checkout' },
          { t: at - 9_000, kind: 'click', label: 'Pay now @octo-org/owners #1' },
          { t: at - 2_000, kind: 'open', label: '' },
        ],
      },
      replay: { content: recording, start: at - 60_000, end: at - 500 },
    });
    await statusIs(n, 2);
    const [issue] = fakes.github.issues;
    expect(issue?.actions).toEqual({ mentions: [], references: [], autolinks: [] });
    expect(issue?.body).toMatch(
      /### Steps to reproduce\n\n1\. Went to ` \/checkout ` \(\d+ s before the report\)\n2\. Clicked ` Pay now @octo-org\/owners #1 ` \(\d+ s before the report\)\n3\. Opened the feedback widget/,
    );
    const url = /\[Watch the replay\]\(([^)]+)\)/.exec(issue?.body ?? '')?.[1] ?? '';
    expect(url).toMatch(new RegExp(`^${stack.url}/replay/`));
    // The player's data route answers the recording to whoever holds the link, without a session.
    const played = await fetch(url.replace('/replay/', '/api/replay/'));
    expect(played.status).toBe(200);
    expect(Buffer.from(await played.arrayBuffer()).equals(Buffer.from(recording))).toBe(true);
  });

  it('a 5xx is retried into one issue', async () => {
    await connect({ id: 'octo-org/website' });
    fakes.github.fail({
      match: '/repos/octo-org/website/issues',
      reply: { status: 502, json: { message: 'Bad' } },
    });
    const n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Flaky' } });
    await statusIs(n, 2);
    expect(fakes.github.calls('/repos/octo-org/website/issues')).toHaveLength(2);
    expect(fakes.github.issues).toHaveLength(1);
  });

  it('issues switched off (410) fail at once with the reason in the sync list; Sync after a fix delivers', async () => {
    await connect({ id: 'octo-org/no-issues' });
    const n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Nowhere to go' } });
    await statusIs(n, 3);
    // Not retried: one call.
    expect(fakes.github.calls('/repos/octo-org/no-issues/issues')).toHaveLength(1);
    const list = await site.client.get<SyncListAnswer>(
      `/api/client/website/${site.id}/request?integration=github`,
    );
    const failed = (list.body.msg as SyncListAnswer).requests.failed.find((t) => t.number === n);
    expect(failed?.reason).toBe('GitHub issues are switched off in octo-org/no-issues (410)');

    const current = await view();
    await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'github', active: 1, data: { ...current.data, id: 'octo-org/website' } },
    ]);
    const synced = await site.client.patch(`/api/client/integration/sync/${site.id}`, {
      tickets: [String(n)],
      type: 'github',
    });
    expect(synced.body).toMatchObject({ msg: { synced: [n] } });
    await statusIs(n, 2);
    expect(fakes.github.issues.map((i) => i.repo)).toEqual(['octo-org/website']);
  });

  it('after an attempt of unknown outcome nothing is sent again: failed, asking the client to check GitHub', async () => {
    await connect({ id: 'octo-org/website' });
    // Switched off, the report stays new; then an attempt is marked as a consumer that died would leave it.
    const current = await view();
    await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'github', active: 0, data: current.data },
    ]);
    const n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Lost in flight' } });
    await eventually(
      async () => {
        const list = await site.client.get<SyncListAnswer>(
          `/api/client/website/${site.id}/request?integration=github`,
        );
        return (list.body.msg as SyncListAnswer).requests.new.some((t) => t.number === n) || undefined;
      },
      20_000,
      'the report listed as new',
    );
    await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'github', active: 1, data: current.data },
    ]);
    // Sync would clear the mark (the client's decision to send again): the queue's own retry finds it.
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { pk: `PROJECT#${site.id}`, sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL` },
        UpdateExpression: 'SET st.github = :one, attempt_github = :mark',
        ExpressionAttributeValues: {
          ':one': 1,
          ':mark': { at: Date.now() - 3_600_000, message: 'a-consumer-that-died', receive: 1 },
        },
      }),
    );
    await sqs().send(
      new SendMessageCommand({
        QueueUrl: stack.queues.delivery.url,
        MessageBody: JSON.stringify({
          projectId: site.id,
          issueNumber: n,
          integration: 'github',
          correlationId: 'retry',
        }),
      }),
    );
    const d = await statusIs(n, 3);
    expect(String(d.reason_github)).toContain('Check GitHub, and Sync only if it is missing');
    expect(fakes.github.issues).toHaveLength(0);
  });
});
