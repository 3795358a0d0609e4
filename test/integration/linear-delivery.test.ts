/**
 * Linear end to end on the local stack with the vendor fakes (as `npm start` runs
 * them): the key checked and the teams listed by the authorise call, the save (masked, validated, plan
 * gated, owner only), a report through the real queues (intake → fan-out → delivery) to a Linear issue
 * with status 2 and the issue's id, identifier and URL recorded, an outage retried to success, a
 * redelivery and an attempt whose outcome nobody recorded creating nothing twice, and a refused key
 * failing at once (status 3, the reason, the sync list), then Sync after a new key.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SyncListAnswer } from '#contracts/integrations';
import { db } from '#runtime/aws/dynamo';
import type { LinearFake } from '../../lib/local/vendors/linear';
import type { ApiReply } from '../support/api-client';
import { deliveryProbe } from '../support/delivery-probe';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { fileReport } from '../support/widget';

const ORIGIN = 'https://shop.example';
const KEY = 'lin_api_pipeline0123456789';

const stack = setUpTestStack({
  vendorFakes: true,
  queues: { delivery: { visibilityTimeoutSeconds: 1, maxReceiveCount: 5, retryDelaysSeconds: [1] } },
});
let fake: LinearFake;
let site: Site;

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions themselves.
const msgOf = (r: ApiReply): any => (r.body as { msg?: unknown }).msg;
const codeOf = (r: ApiReply) => (r.body as { code?: string }).code;

beforeAll(async () => {
  if (!stack.vendorFakes) throw new Error('the local stack did not start the vendor fakes');
  fake = stack.vendorFakes.linear;
  site = await newSite(stack.url, 'BASIC_PLAN');
});

const {
  detailKey,
  status: linearStatus,
  view: linearView,
  redeliver,
} = deliveryProbe(stack, () => site, 'linear');

describe('Linear: authorise and save', () => {
  it('a refused key is TOKEN_REFUSED and authorises nothing; a good one lists the teams and authorises', async () => {
    const refused = await site.client.post('/api/client/integration/linear/teams', {
      siteId: site.id,
      key: 'lin_api_invalid',
    });
    expect([refused.status, codeOf(refused)]).toEqual([400, 'TOKEN_REFUSED']);
    expect(await linearView()).toMatchObject({ authorized: 0, data: { key: '', id: '' } });

    const res = await site.client.post('/api/client/integration/linear/teams', { siteId: site.id, key: KEY });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(msgOf(res)).toEqual([
      { id: fake.teams[0]?.id, name: 'Engineering (ENG)' },
      { id: fake.teams[1]?.id, name: 'Operations (OPS)' },
    ]);
    // The key's user first, then the teams; the key as sent, with no scheme.
    const queries = fake.calls('/graphql').map((r) => String((r.body as { query: string }).query));
    expect(queries.slice(-2).map((q) => /\{ (\w+)/.exec(q)?.[1])).toEqual(['viewer', 'teams']);
    expect(fake.calls('/graphql').at(-1)?.headers.authorization).toBe(KEY);
    // Saved at once, the key masked, the first team chosen, not yet active.
    expect(await linearView()).toMatchObject({
      active: 0,
      authorized: 1,
      data: { key: `••••${KEY.slice(-4)}`, id: fake.teams[0]?.id, name: 'Engineering (ENG)' },
    });
  });

  it('refuses bad input with the catalogue code and leaves what is stored as it was', async () => {
    const before = await linearView();
    for (const body of [
      { siteId: site.id },
      { siteId: site.id, key: '' },
      { siteId: site.id, key: 'x'.repeat(1001) },
      { siteId: 'not-a-uuid', key: KEY },
    ]) {
      const res = await site.client.post('/api/client/integration/linear/teams', body);
      expect({ body: Object.keys(body), status: res.status, code: codeOf(res) }).toMatchObject({
        status: 400,
        code: 'INVALID_PARAMETERS',
      });
    }
    const save = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'linear', active: 1, data: { ...before.data, id: 'x'.repeat(201) } },
    ]);
    expect([save.status, codeOf(save)]).toEqual([400, 'INVALID_PARAMETERS']);
    const noKey = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'linear', active: 1, data: { key: '', id: before.data.id } },
    ]);
    expect([noKey.status, codeOf(noKey)]).toEqual([400, 'INVALID_PARAMETERS']);
    expect(await linearView()).toEqual(before);
  });

  it('another signed-in client is refused on every Linear call, and nothing reaches Linear', async () => {
    const stranger = await newSite(stack.url, 'BASIC_PLAN');
    const calls = fake.calls('/graphql').length;
    const answers = [
      await stranger.client.post('/api/client/integration/linear/teams', { siteId: site.id, key: KEY }),
      await stranger.client.delete(`/api/client/integration/linear/authentication/${site.id}`),
      await stranger.client.patch(`/api/client/integration/${site.id}`, [
        { name: 'linear', active: 1, data: { key: KEY, id: fake.teams[1]?.id } },
      ]),
      await stranger.client.get(`/api/client/website/${site.id}/request?integration=linear`),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    expect(fake.calls('/graphql')).toHaveLength(calls);
    expect(await linearView()).toMatchObject({ authorized: 1, data: { id: fake.teams[0]?.id } });
  });

  it('a plan without integrations gets INTEGRATION_NOT_AVAILABLE', async () => {
    const free = await newSite(stack.url, 'FREE_PLAN');
    const res = await free.client.post('/api/client/integration/linear/teams', { siteId: free.id, key: KEY });
    expect([res.status, codeOf(res)]).toEqual([403, 'INTEGRATION_NOT_AVAILABLE']);
  });

  it('switches on with the masked key sent back, as the screen saves it', async () => {
    const current = await linearView();
    const res = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'linear', active: 1, authorized: 1, data: { ...current.data, id: fake.teams[1]?.id } },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await linearView()).toMatchObject({ active: 1, authorized: 1, data: { id: fake.teams[1]?.id } });
  });
});

describe('Linear: delivery through the fan-out', () => {
  let n = 0;

  it('a report becomes one Linear issue in the chosen team, status 2, its id, identifier and URL kept', async () => {
    fake.reset();
    n = await fileReport(stack.url, site.id, ORIGIN, {
      fields: {
        msg: 'Checkout broken @everyone, see OPS-1',
        username: 'visitor@example.org',
        href: 'https://shop.example/cart',
        browser: 'Firefox',
      },
      screenshots: [{ type: 'image/png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) }],
      files: [{ name: 'invoice.pdf', type: 'application/pdf', content: new Uint8Array(300).fill(7) }],
    });
    const d = await linearStatus(n, 2);
    expect(fake.issues).toHaveLength(1);
    const issue = fake.issues[0];
    expect(issue?.teamId).toBe(fake.teams[1]?.id);
    expect(issue?.identifier).toBe('OPS-1');
    // Reads the same, but a WORD JOINER after `@` keeps a mention from forming.
    expect(issue?.title).toBe(`#${n} Checkout broken @\u2060everyone, see OPS-1`);
    expect(issue?.mentions).toEqual([]);
    expect(issue?.references).toEqual([]);
    expect(issue?.description).toContain('invoice.pdf');
    expect(issue?.description).toContain(`/ticket/${n})`);
    expect(issue?.description).toMatch(
      /\[Open in Snag\]\(http:\/\/[^)]+\/profile\/site\/[^)]+\/ticket\/\d+\)/,
    );
    // The screenshot embedded (Linear copies it) and attached as a link to Snag's signed URL.
    expect(issue?.images).toHaveLength(1);
    expect(issue?.images[0]).toMatch(/\/api\/files\//);
    expect(fake.attachments.map((a) => a.title)).toEqual(['screenshot-1.png', `Snag issue #${n}`]);
    expect(fake.attachments[0]?.url).toBe(issue?.images[0]);
    expect(d.vendor_linear).toBe(`${issue?.id} OPS-1 ${issue?.url}`);
    // The issue page's link: Linear's `url` for the issue, kept with the delivery.
    expect(d.url_linear).toBe(issue?.url);
    for (const r of fake.calls('/graphql')) expect(r.headers.authorization).toBe(KEY);
    // The signed link works without a session, as Linear fetches it.
    const file = await fetch(issue?.images[0] ?? '', { redirect: 'manual' });
    expect([302, 303, 307]).toContain(file.status);
  });

  it('the fake shows what it received on /_fake without the key', async () => {
    const page = await (await fetch(`${fake.url}/_fake`)).text();
    expect(page).toContain('Linear: what the local fake received');
    expect(page).toContain('issueCreate');
    expect(page).toContain('API key ••••');
    expect(page).not.toContain(KEY);
  });

  it('a redelivery after the id was recorded creates nothing twice', async () => {
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: detailKey(n),
        UpdateExpression: 'SET st.linear = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await redeliver(n);
    await linearStatus(n, 2);
    expect(fake.issues).toHaveLength(1);
    expect(fake.attachments).toHaveLength(2);
  });

  it('an attempt whose outcome nobody recorded is sent again and finds the issue it made', async () => {
    // As if the consumer died after Linear created the issue, before anything was written back.
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: detailKey(n),
        UpdateExpression: 'SET st.linear = :one, attempt_linear = :mark REMOVE vendor_linear',
        ExpressionAttributeValues: { ':one': 1, ':mark': { at: 1, message: 'gone', receive: 1 } },
      }),
    );
    await redeliver(n);
    const d = await linearStatus(n, 2);
    expect(fake.issues).toHaveLength(1);
    expect(d.vendor_linear).toBe(`${fake.issues[0]?.id} OPS-1 ${fake.issues[0]?.url}`);
    expect(d.attempt_linear).toBeUndefined();
  });

  it('an outage is retried until Linear answers, still one issue', async () => {
    fake.fail({ match: '/graphql', times: 2, reply: { status: 503, text: 'down' } });
    const m = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Second report' } });
    await linearStatus(m, 2);
    expect(fake.issues.filter((i) => i.title.startsWith(`#${m} `))).toHaveLength(1);
  });

  it('a refused key fails at once with the reason, lists the issue as failed, and Sync sends it with a new key', async () => {
    fake.revoke(KEY);
    const before = fake.calls('/graphql').length;
    const m = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Third report' } });
    const d = await linearStatus(m, 3);
    expect(String(d.reason_linear)).toMatch(/Linear refused the API key/);
    // At once: one call (the lookup), no retries.
    expect(fake.calls('/graphql').length).toBe(before + 1);
    const list = msgOf(await site.client.get(`/api/client/website/${site.id}/request?integration=linear`))
      .requests as SyncListAnswer['requests'];
    expect(list.failed.map((t) => t.number)).toContain(m);

    const newKey = 'lin_api_second0123456789';
    const again = await site.client.post('/api/client/integration/linear/teams', {
      siteId: site.id,
      key: newKey,
    });
    expect(again.status).toBe(200);
    const sync = await site.client.patch(`/api/client/integration/sync/${site.id}`, {
      tickets: [String(m)],
      type: 'linear',
    });
    expect(msgOf(sync)).toEqual({ synced: [m] });
    await linearStatus(m, 2);
    expect(fake.issues.filter((i) => i.title.startsWith(`#${m} `))).toHaveLength(1);
  });
});
