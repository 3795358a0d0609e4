import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SyncListAnswer } from '#contracts/integrations';
import { db } from '#runtime/aws/dynamo';
import type { TeamsFake } from '../../lib/local/vendors/teams';
import type { ApiReply } from '../support/api-client';
import { deliveryProbe } from '../support/delivery-probe';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { fileReport } from '../support/widget';

const ORIGIN = 'https://shop.example';
const HOSTILE =
  '@everyone <@123456789012345678> [Reset](javascript:alert(1)) <at>Jane</at> https://evil.example';

const stack = setUpTestStack({
  vendorFakes: true,
  queues: { delivery: { visibilityTimeoutSeconds: 1, maxReceiveCount: 5, retryDelaysSeconds: [1] } },
});
let fake: TeamsFake;
let site: Site;

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions themselves.
const msgOf = (r: ApiReply): any => (r.body as { msg?: unknown }).msg;
const codeOf = (r: ApiReply) => (r.body as { code?: string }).code;

beforeAll(async () => {
  if (!stack.vendorFakes) throw new Error('the local stack did not start the vendor fakes');
  fake = stack.vendorFakes.teams;
  site = await newSite(stack.url, 'BASIC_PLAN');
});

const {
  detailKey,
  status: teamsStatus,
  view: teamsView,
  redeliver,
} = deliveryProbe(stack, () => site, 'teams');
const save = (client: Site['client'], id: string, active: 0 | 1, url: string) =>
  client.patch(`/api/client/integration/${id}`, [{ name: 'teams', active, data: { url } }]);
type Run = { text?: string };
const runsOf = (card: Record<string, unknown>) =>
  ((card.body as { inlines?: Run[] }[]) ?? []).flatMap((b) => b.inlines ?? []).map((r) => r.text ?? '');

describe('Microsoft Teams: the workflow URL', () => {
  it('refuses what is not an https URL, saves the fake’s URL and reads it back masked', async () => {
    for (const url of ['http://example.com/hook', 'not a url', 'https://u:p@example.com/x']) {
      const res = await save(site.client, site.id, 1, url);
      expect([url, res.status, codeOf(res)]).toEqual([url, 400, 'INVALID_PARAMETERS']);
    }
    const missing = await save(site.client, site.id, 1, '');
    expect([missing.status, codeOf(missing)]).toEqual([400, 'INVALID_PARAMETERS']);
    const res = await save(site.client, site.id, 1, fake.webhookUrl);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const view = await teamsView();
    expect(view).toMatchObject({ active: 1, data: { url: `••••${fake.webhookUrl.slice(-4)}` } });
    expect(JSON.stringify(view.data)).not.toContain('sig=');
    // Sent back masked, as the screen saves it: the stored URL stays.
    const again = await save(site.client, site.id, 1, view.data.url);
    expect(again.status).toBe(200);
  });

  it('another signed-in client is refused, a plan without integrations too', async () => {
    const stranger = await newSite(stack.url, 'BASIC_PLAN');
    const res = await save(stranger.client, site.id, 1, 'https://evil.example/hook');
    expect(res.status).toBe(404);
    const free = await newSite(stack.url, 'FREE_PLAN');
    const gated = await save(free.client, free.id, 1, fake.webhookUrl);
    expect([gated.status, codeOf(gated)]).toEqual([403, 'INTEGRATION_NOT_AVAILABLE']);
  });
});

describe('Microsoft Teams: delivery through the fan-out', () => {
  let n = 0;

  it('a report becomes one valid Adaptive Card with the screenshot from a signed link, the visitor’s text inert', async () => {
    fake.reset();
    n = await fileReport(stack.url, site.id, ORIGIN, {
      fields: {
        msg: HOSTILE,
        username: 'visitor@example.org',
        href: 'https://shop.example/cart?q=@here',
        browser: 'Firefox',
      },
      screenshots: [{ type: 'image/png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) }],
      files: [
        {
          name: 'invoice.pdf',
          type: 'application/pdf',
          content: new Uint8Array(30).fill(7),
        },
      ],
    });
    const d = await teamsStatus(n, 2);
    expect(fake.cards).toHaveLength(1);
    const card = fake.cards[0] ?? {};
    const runs = runsOf(card);
    expect(runs[0]).toMatch(new RegExp(`^#${n} `));
    for (const text of runs) expect(text).not.toMatch(/@(?:everyone|here)|<@|<at>|:\/\//);
    expect(runs.join('\n').replace(/\u2060/g, '')).toContain('[Reset](javascript:alert(1))');
    const image = (card.body as { type: string; url?: string }[]).find((b) => b.type === 'Image');
    expect(image?.url).toMatch(/\/api\/files\//);
    // Teams fetches it without a session.
    const file = await fetch(image?.url ?? '', { redirect: 'manual' });
    expect([302, 303, 307]).toContain(file.status);
    const actions = card.actions as { title: string; url: string }[];
    expect(actions[0]).toMatchObject({ title: 'Open in Snag' });
    expect(actions[0]?.url).toMatch(new RegExp(`/ticket/${n}$`));
    expect(String(d.vendor_teams)).toMatch(/^202@\d+$/);
    const posted = fake.calls('/invoke');
    expect(posted).toHaveLength(1);
    expect(posted[0]?.headers['content-type']).toContain('application/json');
  });

  it('a redelivery after the post was recorded posts nothing twice', async () => {
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: detailKey(n),
        UpdateExpression: 'SET st.teams = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await redeliver(n);
    await teamsStatus(n, 2);
    expect(fake.cards).toHaveLength(1);
  });

  it('an attempt whose outcome nobody recorded asks the client to check before Sync, and posts nothing', async () => {
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: detailKey(n),
        UpdateExpression: 'SET st.teams = :one, attempt_teams = :mark REMOVE vendor_teams',
        ExpressionAttributeValues: {
          ':one': 1,
          ':mark': { at: Date.now() - 3_600_000, message: 'gone', receive: 1 },
        },
      }),
    );
    await redeliver(n);
    const d = await teamsStatus(n, 3);
    expect(String(d.reason_teams)).toContain('Check Microsoft Teams, and Sync only if it is missing');
    expect(fake.cards).toHaveLength(1);
  });

  it('an outage is retried until Teams answers, still one card', async () => {
    fake.fail({ match: '/invoke', times: 2, reply: { status: 502, text: 'Bad Gateway' } });
    const m = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Second report' } });
    await teamsStatus(m, 2);
    expect(fake.cards.filter((c) => runsOf(c)[0]?.startsWith(`#${m} `))).toHaveLength(1);
  });

  it('a deleted flow fails at once with the reason, lists the issue as failed, and Sync sends it once fixed', async () => {
    fake.fail({
      match: '/invoke',
      times: 1,
      reply: { status: 404, json: { error: { code: 'WorkflowNotFound' } } },
    });
    const before = fake.calls('/invoke').length;
    const m = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Third report' } });
    const d = await teamsStatus(m, 3);
    expect(String(d.reason_teams)).toMatch(/Microsoft Teams refused the workflow URL \(404\)/);
    expect(fake.calls('/invoke').length).toBe(before + 1);
    const list = msgOf(await site.client.get(`/api/client/website/${site.id}/request?integration=teams`))
      .requests as SyncListAnswer['requests'];
    expect(list.failed.map((t) => t.number)).toContain(m);
    const sync = await site.client.patch(`/api/client/integration/sync/${site.id}`, {
      tickets: [String(m)],
      type: 'teams',
    });
    expect(msgOf(sync)).toEqual({ synced: [m] });
    await teamsStatus(m, 2);
    expect(fake.cards.filter((c) => runsOf(c)[0]?.startsWith(`#${m} `))).toHaveLength(1);
  });

  it('the fake’s page shows the card with its screenshot', async () => {
    const page = await (await fetch(`${fake.url}/`)).text();
    expect(page).toContain('Microsoft Teams: a local stand-in');
    expect(page).toMatch(/<img src="[^"]*\/api\/files\//);
  });
});
