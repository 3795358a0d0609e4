import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SyncListAnswer } from '#contracts/integrations';
import { db } from '#runtime/aws/dynamo';
import type { DiscordFake } from '../../lib/local/vendors/discord';
import type { ApiReply } from '../support/api-client';
import { deliveryProbe } from '../support/delivery-probe';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { fileReport } from '../support/widget';

const ORIGIN = 'https://shop.example';
const HOSTILE =
  '@everyone @here <@123456789012345678> <@&123456789012345678> [Reset](https://evil.example) ```\ncode\n```';

// Retries come back after the 1 s delay the consumer sets (or the longer wait Discord asks); the
// visibility timeout is long enough that a slow attempt on a loaded machine is not received twice, and that
// it is the delay set, not the timeout, that brings a message back (SQS cannot change the visibility of a
// message whose timeout already ran out).
const stack = setUpTestStack({
  vendorFakes: true,
  queues: { delivery: { visibilityTimeoutSeconds: 30, maxReceiveCount: 5, retryDelaysSeconds: [1] } },
});
let fake: DiscordFake;
let site: Site;

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions themselves.
const msgOf = (r: ApiReply): any => (r.body as { msg?: unknown }).msg;
const codeOf = (r: ApiReply) => (r.body as { code?: string }).code;

beforeAll(async () => {
  if (!stack.vendorFakes) throw new Error('the local stack did not start the vendor fakes');
  fake = stack.vendorFakes.discord;
  site = await newSite(stack.url, 'BASIC_PLAN');
});

const {
  detailKey,
  status: discordStatus,
  view: discordView,
  redeliver,
} = deliveryProbe(stack, () => site, 'discord');
const save = (client: Site['client'], id: string, active: 0 | 1, url: string) =>
  client.patch(`/api/client/integration/${id}`, [{ name: 'discord', active, data: { url } }]);
// The title as Discord shows it: Markdown's escapes read as the characters they escape.
const postsOf = (n: number) =>
  fake.messages.filter((m) => m.embeds[0]?.title?.replace(/\\(.)/g, '$1').startsWith(`#${n} `));
const executes = () => fake.requests.filter((r) => r.method === 'POST' && /\/webhooks\//.test(r.path));

/** Discord's next answer is a 429 asking `seconds` (as a float, in the body and its rate-limit headers). */
const rateLimitOnce = (seconds: number) =>
  fake.fail({
    match: /\/webhooks\//,
    times: 1,
    reply: {
      status: 429,
      json: { message: 'You are being rate limited.', retry_after: seconds, global: false },
      headers: {
        'retry-after': String(Math.ceil(seconds)),
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset-after': String(seconds),
        'x-ratelimit-scope': 'shared',
      },
    },
  });

describe('Discord: the webhook URL', () => {
  it('refuses what is not a Discord webhook, saves the fake’s and reads it back masked', async () => {
    for (const url of [
      'https://evil.example/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz',
      'http://discord.com/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz',
      'https://discord.com/channels/1/2',
    ]) {
      const res = await save(site.client, site.id, 1, url);
      expect([url, res.status, codeOf(res)]).toEqual([url, 400, 'INVALID_PARAMETERS']);
    }
    const res = await save(site.client, site.id, 1, fake.webhookUrl);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const view = await discordView();
    expect(view).toMatchObject({ active: 1, data: { url: `••••${fake.webhookUrl.slice(-4)}` } });
    expect(JSON.stringify(view.data)).not.toContain('/webhooks/');
    const again = await save(site.client, site.id, 1, view.data.url);
    expect(again.status).toBe(200);
  });

  it('another signed-in client is refused, a plan without integrations too', async () => {
    const stranger = await newSite(stack.url, 'BASIC_PLAN');
    expect((await save(stranger.client, site.id, 1, fake.webhookUrl)).status).toBe(404);
    const free = await newSite(stack.url, 'FREE_PLAN');
    const gated = await save(free.client, free.id, 1, fake.webhookUrl);
    expect([gated.status, codeOf(gated)]).toEqual([403, 'INTEGRATION_NOT_AVAILABLE']);
  });
});

describe('Discord: delivery through the fan-out', () => {
  let n = 0;

  it('a report becomes one embed with the screenshot, pinging nobody; its id and jump link are kept', async () => {
    fake.reset();
    n = await fileReport(stack.url, site.id, ORIGIN, {
      fields: {
        msg: HOSTILE,
        username: 'visitor@example.org',
        href: 'https://shop.example/cart?q=@everyone',
      },
      screenshots: [{ type: 'image/png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) }],
      files: [{ name: 'invoice.pdf', type: 'application/pdf', content: new Uint8Array(30).fill(7) }],
    });
    const d = await discordStatus(n, 2);
    expect(fake.messages).toHaveLength(1);
    const m = fake.messages[0];
    expect(m?.allowed_mentions).toEqual({ parse: [] });
    expect(m?.pinged).toEqual([]);
    const embed = m?.embeds[0];
    expect(embed?.url).toMatch(new RegExp(`/ticket/${n}$`));
    expect(embed?.image?.url).toMatch(/\/api\/files\//);
    // Even with Discord's default parse rules, nothing in the text would mention anyone or link anywhere.
    const text = [embed?.description, ...(embed?.fields ?? []).map((f) => f.value)].join('\n');
    expect(text).not.toMatch(/@(?:everyone|here)|<@|https:\/\/evil|(?<!\\)```/);
    expect(text.replace(/[\\\u2060]/g, '')).toContain('[Reset](https:/');
    const file = await fetch(embed?.image?.url ?? '', { redirect: 'manual' });
    expect([302, 303, 307]).toContain(file.status);
    // The created message: its channel and id, and its jump link with the webhook's server.
    expect(d.vendor_discord).toBe(`${m?.channel_id}/${m?.id}`);
    expect(String(d.url_discord)).toMatch(new RegExp(`/channels/\\d+/${m?.channel_id}/${m?.id}$`));
    const jump = await fetch(String(d.url_discord));
    expect(await jump.text()).toContain(`#${n} `);
    // No Authorization header: the token in the URL is the credential; `wait=true` to learn the id.
    const [posted] = executes();
    expect(posted?.headers.authorization).toBeUndefined();
    expect(posted?.path).toMatch(/^\/api\/v10\/webhooks\//);
    expect(posted?.query.wait).toBe('true');
  });

  it('a redelivery after the post was recorded posts nothing twice', async () => {
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: detailKey(n),
        UpdateExpression: 'SET st.discord = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await redeliver(n);
    await discordStatus(n, 2);
    expect(fake.messages).toHaveLength(1);
  });

  it('an attempt whose outcome nobody recorded asks the client to check before Sync, and posts nothing', async () => {
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: detailKey(n),
        UpdateExpression: 'SET st.discord = :one, attempt_discord = :mark REMOVE vendor_discord',
        ExpressionAttributeValues: {
          ':one': 1,
          ':mark': { at: Date.now() - 3_600_000, message: 'gone', receive: 1 },
        },
      }),
    );
    await redeliver(n);
    const d = await discordStatus(n, 3);
    expect(String(d.reason_discord)).toContain('Check Discord, and Sync only if it is missing');
    expect(fake.messages).toHaveLength(1);
  });

  it('a 429 is waited out through its retry_after, still one message', async () => {
    const before = executes().length;
    rateLimitOnce(0.2);
    const m = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Second report' } });
    await discordStatus(m, 2);
    expect(postsOf(m)).toHaveLength(1);
    // The 429, then the post that passed (and the webhook lookup for the link, a GET).
    expect(executes().length).toBe(before + 2);
  });

  it('a 429 with retry_after 7.5 comes back no sooner than Discord asked, not on the queue’s 1 s delay', async () => {
    const before = executes().length;
    rateLimitOnce(7.5);
    const m = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'A rate-limited report' } });
    await discordStatus(m, 2);
    expect(postsOf(m)).toHaveLength(1);
    const mine = executes()
      .slice(before)
      .filter((r) => JSON.stringify(r.body).includes(`"New issue #${m}"`));
    const [limited, passed] = mine;
    expect(mine).toHaveLength(2);
    // This stack's delivery queue retries after 1 s; Discord asked for 7.5 s, which the retry honoured.
    expect(Date.parse(String(passed?.at)) - Date.parse(String(limited?.at))).toBeGreaterThanOrEqual(7_500);
  });

  it('an outage is retried until Discord answers, still one message', async () => {
    fake.fail({ match: /\/webhooks\//, times: 2, reply: { status: 502, text: 'Bad Gateway' } });
    const m = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Third report' } });
    await discordStatus(m, 2);
    expect(postsOf(m)).toHaveLength(1);
  });

  it('a deleted webhook fails at once with the reason, lists the issue as failed, and Sync sends it once fixed', async () => {
    fake.fail({
      match: /\/webhooks\//,
      times: 1,
      reply: { status: 404, json: { message: 'Unknown Webhook', code: 10015 } },
    });
    const before = executes().length;
    const m = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Fourth report' } });
    const d = await discordStatus(m, 3);
    expect(String(d.reason_discord)).toMatch(/webhook no longer exists \(404\)/);
    expect(executes().length).toBe(before + 1);
    const list = msgOf(await site.client.get(`/api/client/website/${site.id}/request?integration=discord`))
      .requests as SyncListAnswer['requests'];
    expect(list.failed.map((t) => t.number)).toContain(m);
    const sync = await site.client.patch(`/api/client/integration/sync/${site.id}`, {
      tickets: [String(m)],
      type: 'discord',
    });
    expect(msgOf(sync)).toEqual({ synced: [m] });
    await discordStatus(m, 2);
    expect(postsOf(m)).toHaveLength(1);
  });
});
