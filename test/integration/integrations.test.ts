/**
 * Integrations through the real queues of the local stack (issue 11): saving (masked, plan-gated, owner
 * only), a report reaching email and a webhook receiver with the documented headers and signature, a
 * failing receiver → retries → status 3 → sync list → Sync → status 2, no duplicate on redelivery, a plan
 * without integrations stopping all but email, and SSRF refusals. The webhook receiver is on loopback,
 * which only the local stack's outbound allowance permits, at the save call and at delivery.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationName, IntegrationsAnswer, SyncListAnswer } from '#contracts/integrations';
import { db } from '#runtime/aws/dynamo';
import { sqs } from '#runtime/aws/sqs';
import { queueDecls } from '../../functions/manifests';
import { latestMail } from '../support/api-client';
import { eventually } from '../support/local-stack';
import { png } from '../support/png';
import { type Receiver, startReceiver } from '../support/receiver';
import { openedReplay } from '../support/reproduction';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

// Short backoff (1, 2, 3, 4 s rather than minutes) so the retries come quickly; the receive count is the
// manifest's (status 3 at the last). The visibility timeout outlasts a slow receive on a busy machine (a
// message still in work is not handed out again), and is longer than the first delays, so only the
// backoff can bring a retry back after one or two seconds.
const stack = setUpTestStack({
  queues: { delivery: { visibilityTimeoutSeconds: 5, retryDelaysSeconds: [1, 2, 3, 4] } },
});
let receiver: Receiver;
const ORIGIN = 'https://shop.example';
const TOKEN = 'whsec-test-token-0123456789';

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

const detailKey = (id: string, n: number) => ({
  pk: `PROJECT#${id}`,
  sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL`,
});

async function detail(id: string, n: number) {
  const out = await db().send(
    new GetCommand({ TableName: stack.tableName, Key: detailKey(id, n), ConsistentRead: true }),
  );
  return out.Item ?? {};
}

async function statusOf(id: string, n: number, name: IntegrationName): Promise<number> {
  return Number(((await detail(id, n)).st as Record<string, number>)?.[name]);
}

const statusIs = (id: string, n: number, name: IntegrationName, want: number) =>
  eventually(
    async () => ((await statusOf(id, n, name)) === want ? true : undefined),
    60_000,
    `${name} status ${want}`,
  );

/** The webhook integration switched on through the save call (a loopback receiver: the local stack only). */
async function webhookTo(site: Site, url: string) {
  const res = await site.client.patch(`/api/client/integration/${site.id}`, [
    { name: 'webhooks', active: 1, data: { url, token: TOKEN } },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const saveEmail = (site: Site, email: string, cc: string[] = []) =>
  site.client.patch(`/api/client/integration/${site.id}`, [
    { name: 'email', active: 1, data: { email, cc } },
  ]);

describe('saving integrations', () => {
  it('saves, answers masked, refuses other clients, validates and gates on the plan', async () => {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    const saved = await site.client.patch<{ integrations: IntegrationsAnswer }>(
      `/api/client/integration/${site.id}`,
      [{ name: 'webhooks', active: 1, data: { url: 'https://hooks.example/snag', token: TOKEN } }],
    );
    expect(saved.status).toBe(200);
    const hook = (saved.body.msg as { integrations: IntegrationsAnswer }).integrations.find(
      (i) => i.name === 'webhooks',
    );
    expect(hook).toMatchObject({
      active: 1,
      available: true,
      data: { url: 'https://hooks.example/snag', token: '••••6789' },
    });
    expect(JSON.stringify(saved.body)).not.toContain(TOKEN);

    // The masked token sent back keeps the stored one (for the same receiver; vendor-auth.test.ts has a new one).
    await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'webhooks', active: 1, data: { url: 'https://hooks.example/snag/', token: '••••6789' } },
    ]);
    const stored = await db().send(
      new GetCommand({
        TableName: stack.tableName,
        Key: { pk: `PROJECT#${site.id}`, sk: 'INTEGRATION#webhooks' },
      }),
    );
    expect(stored.Item?.data).toEqual({ url: 'https://hooks.example/snag/', token: TOKEN });

    // GET client/website/{id} answers all seven, masked.
    const read = await site.client.get<{ integrations: IntegrationsAnswer }>(
      `/api/client/website/${site.id}`,
    );
    expect((read.body.msg as { integrations: IntegrationsAnswer }).integrations.map((i) => i.name)).toEqual([
      'email',
      'gitlab',
      'jira',
      'slack',
      'asana',
      'github',
      'linear',
      'webhooks',
      'clickup',
      'teams',
      'discord',
      'azure',
      'trello',
    ]);
    expect(JSON.stringify(read.body)).not.toContain(TOKEN);

    // Validation: https only; the email address while active.
    const http = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'webhooks', active: 1, data: { url: 'http://hooks.example/', token: 'x' } },
    ]);
    expect(http.status).toBe(400);
    const noEmail = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'email', active: 1, data: { email: '' } },
    ]);
    expect(noEmail.body).toMatchObject({ status: 'error', code: 'INVALID_EMAIL' });

    // Another signed-in client: the same 404 as no project, for every owner-scoped integration call.
    const { client: other } = await signedIn(stack.url);
    for (const res of [
      await other.patch(`/api/client/integration/${site.id}`, [{ name: 'email', active: 0, data: {} }]),
      await other.patch(`/api/client/integration/sync/${site.id}`, { tickets: ['1'], type: 'webhooks' }),
      await other.get(`/api/client/website/${site.id}/request?integration=webhooks`),
      await other.get(`/api/client/website/${site.id}`),
    ])
      expect(res.status).toBe(404);

    // A plan without integrations: only email can be saved.
    const free = await newSite(stack.url);
    const gated = await free.client.patch(`/api/client/integration/${free.id}`, [
      { name: 'webhooks', active: 1, data: { url: 'https://hooks.example/', token: 'x' } },
    ]);
    expect(gated.body).toMatchObject({ status: 'error', code: 'INTEGRATION_NOT_AVAILABLE' });
    expect((await saveEmail(free, 'owner@example.com')).status).toBe(200);
  });
});

describe('deliveries', () => {
  it('reaches email and the webhook with the documented headers, body and signature', async () => {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    expect((await saveEmail(site, 'team@example.com', ['cc1@example.com'])).status).toBe(200);
    await webhookTo(site, `${receiver.url}/ok/${site.id}`);
    // Replay switched on (a project made before its plan starts with it off): the report carries one.
    expect(
      (await site.client.patch(`/api/client/website/${site.id}`, { data: { widgetReplay: true } })).status,
    ).toBe(200);
    const recording = new Uint8Array(gzipSync(JSON.stringify([{ type: 4, timestamp: 1, data: {} }])));
    const steps = [
      { t: Date.now() - 8_000, kind: 'click', label: 'Add <b>to</b> cart @channel' },
      { t: Date.now() - 3_000, kind: 'navigate', label: '/checkout' },
    ];
    const n = await fileReport(stack.url, site.id, ORIGIN, {
      fields: {
        msg: 'Pay <b>button</b> broken',
        title: 'Checkout',
        customFields: [{ name: 'Order', value: 'A-17' }],
        steps,
      },
      screenshots: [{ type: 'image/png', content: png(4, 4, [200, 10, 10]) }],
      replay: { content: recording, start: Date.now() - 60_000, end: Date.now() - 500 },
    });
    await statusIs(site.id, n, 'email', 2);
    await statusIs(site.id, n, 'webhooks', 2);

    const mail = await latestMail(stack.url, 'team@example.com');
    expect(mail?.subject).toContain(`#${n}`);
    expect(mail?.html).toContain('Pay &#60;b&#62;button&#60;/b&#62; broken');
    expect(mail?.text).toContain(`/profile/site/${site.id}/ticket/${n}`);
    expect(mail?.text).toContain('Order: A-17');
    const fileUrl = mail?.text.match(/https?:\/\/\S+\/api\/files\/\S+/)?.[0];
    expect(fileUrl).toBeDefined();
    const redirect = await fetch(fileUrl as string, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const image = await fetch(redirect.headers.get('location') as string);
    expect(image.status).toBe(200);
    // A forged link is refused.
    expect((await fetch(`${(fileUrl as string).slice(0, -4)}AAAA`, { redirect: 'manual' })).status).toBe(404);

    const [hit] = receiver.to(`/ok/${site.id}`);
    expect(hit?.method).toBe('POST');
    expect(hit?.headers['content-type']).toBe('application/json');
    expect(hit?.headers['x-snag-token']).toBe(TOKEN);
    expect(hit?.headers['x-snag-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const body = JSON.parse(hit?.rawBody ?? '{}');
    expect(body).toMatchObject({
      version: 1,
      event: 'issue.created',
      deliveryId: `${site.id}:${n}:webhooks`,
      project: { id: site.id },
      issue: { number: n, title: 'Checkout', description: 'Pay <b>button</b> broken', page: '' },
    });
    expect(body.issue.screenshots[0].url).toContain('/api/files/');
    // The steps as stored, structured, and the replay's signed page (both additive to version 1).
    expect(body.issue.steps).toEqual(steps);
    expect(body.issue.replay).toEqual({
      url: expect.stringMatching(/\/replay\/[\w.-]+$/),
      start: expect.any(Number),
      end: expect.any(Number),
    });
    const { url } = body.issue.replay as { url: string };
    expect(await openedReplay(url, stack.url)).toMatchObject({ projectId: site.id });
    // The page's own data route opens that very recording with the token alone, no sign-in.
    const played = await fetch(url.replace('/replay/', '/api/replay/'));
    expect(played.headers.get('content-type')).toBe('application/gzip');
    expect(Buffer.from(await played.arrayBuffer()).equals(Buffer.from(recording))).toBe(true);
    expect(mail?.text).toContain(`Watch the replay: ${url.replace(/\.\d+\.[\w-]+$/, '')}`);
    // The mail lists them as sentences, the label escaped in HTML.
    expect(mail?.text).toMatch(
      /Steps to reproduce:\n1\. Clicked “Add <b>to<\/b> cart @channel” \(\d+ s before the report\)\n2\. Went to \/checkout/,
    );
    expect(mail?.html).toContain('Clicked “Add &#60;b&#62;to&#60;/b&#62; cart @channel”');

    // The documented verification snippet, exactly as docs/webhooks.md prints it.
    const doc = readFileSync('docs/webhooks.md', 'utf8');
    const snippet = /## Verifying a delivery \(Node\)[\s\S]*?```js\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(snippet).toBeDefined();
    const file = join(await mkdtemp(join(tmpdir(), 'snag-hook-')), 'verify.mjs');
    await writeFile(file, snippet as string);
    const { verifySnagWebhook } = await import(pathToFileURL(file).href);
    expect(verifySnagWebhook(hit?.rawBody, hit?.headers, TOKEN)).toBe(true);
    expect(verifySnagWebhook(`${hit?.rawBody} `, hit?.headers, TOKEN)).toBe(false);
    expect(verifySnagWebhook(hit?.rawBody, hit?.headers, 'another-token')).toBe(false);
  });

  it('retries a failing receiver with growing delays, marks it failed after the last receive, and Sync delivers it', async () => {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    await webhookTo(site, `${receiver.url}/flaky/${site.id}`);
    // A new project mails its owner (an opt-out); switched off, email keeps the issue as new.
    await site.client.patch(`/api/client/integration/${site.id}`, [{ name: 'email', active: 0, data: {} }]);
    receiver.answer(`/flaky/${site.id}`, 503);
    const n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Broken' } });
    await statusIs(site.id, n, 'webhooks', 3);
    const attempts = receiver.to(`/flaky/${site.id}`);
    expect(attempts).toHaveLength(queueDecls.delivery.maxReceiveCount);
    // Backoff: each wait is about a second longer than the one before (1, 2, 3, 4 s), where the queue's
    // 5 s visibility timeout alone would bring every retry back after the same five seconds.
    const gaps = attempts.slice(1).map((a, i) => (a.at - (attempts[i]?.at ?? 0)) / 1000);
    expect(gaps[0], JSON.stringify(gaps)).toBeGreaterThanOrEqual(0.9);
    for (let i = 1; i < gaps.length; i++)
      expect(gaps[i], JSON.stringify(gaps)).toBeGreaterThan((gaps[i - 1] ?? 0) + 0.5);

    const list = await site.client.get<SyncListAnswer>(
      `/api/client/website/${site.id}/request?integration=webhooks`,
    );
    expect(list.status).toBe(200);
    expect((list.body.msg as SyncListAnswer).requests.failed.map((t) => t.number)).toEqual([n]);
    expect((list.body.msg as SyncListAnswer).requests.failed[0]?.reason).toContain('Gave up after');
    // Email is off: the issue is a new ticket of its list.
    const emailList = await site.client.get<SyncListAnswer>(
      `/api/client/website/${site.id}/request?integration=email`,
    );
    expect((emailList.body.msg as SyncListAnswer).requests.new.map((t) => t.number)).toEqual([n]);

    receiver.answer(`/flaky/${site.id}`, 200);
    const synced = await site.client.patch(`/api/client/integration/sync/${site.id}`, {
      tickets: [String(n)],
      type: 'webhooks',
    });
    expect(synced.body).toMatchObject({ status: 'success', msg: { synced: [n] } });
    await statusIs(site.id, n, 'webhooks', 2);
    const after = await site.client.get<SyncListAnswer>(
      `/api/client/website/${site.id}/request?integration=webhooks`,
    );
    expect((after.body.msg as SyncListAnswer).requests).toEqual({ new: [], failed: [] });
    // Syncing a ticket that is no longer new or failed sends nothing.
    const again = await site.client.patch(`/api/client/integration/sync/${site.id}`, {
      tickets: [String(n)],
      type: 'webhooks',
    });
    expect(again.body).toMatchObject({ msg: { synced: [] } });
  });

  it('never sends twice: a redelivered message after the vendor id was recorded creates no duplicate', async () => {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    await webhookTo(site, `${receiver.url}/once/${site.id}`);
    const n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Once' } });
    await statusIs(site.id, n, 'webhooks', 2);
    expect(receiver.to(`/once/${site.id}`)).toHaveLength(1);
    // As if the consumer died after recording the vendor id, before its status write: status back to 1,
    // and the same message delivered again.
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: detailKey(site.id, n),
        UpdateExpression: 'SET st.webhooks = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await sqs().send(
      new SendMessageCommand({
        QueueUrl: stack.queues.delivery.url,
        MessageBody: JSON.stringify({ projectId: site.id, issueNumber: n, integration: 'webhooks' }),
      }),
    );
    await statusIs(site.id, n, 'webhooks', 2);
    expect(receiver.to(`/once/${site.id}`)).toHaveLength(1);
  });

  it('stops everything but email on a plan without integrations', async () => {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    expect((await saveEmail(site, 'free-owner@example.com')).status).toBe(200);
    await webhookTo(site, `${receiver.url}/gated/${site.id}`);
    await site.client.post('/api/dev/plan', { username: site.email, plan: 'FREE_PLAN', days: 1 });
    const n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Free' } });
    // The fan-out decides both in one step: once email passed, the webhook was left out.
    await statusIs(site.id, n, 'email', 2);
    expect(await statusOf(site.id, n, 'webhooks')).toBe(0);
    expect(receiver.to(`/gated/${site.id}`)).toHaveLength(0);
    const list = await site.client.get<SyncListAnswer>(
      `/api/client/website/${site.id}/request?integration=webhooks`,
    );
    expect((list.body.msg as SyncListAnswer).requests.new.map((t) => t.number)).toEqual([n]);
    const sync = await site.client.patch(`/api/client/integration/sync/${site.id}`, {
      tickets: [String(n)],
      type: 'webhooks',
    });
    expect(sync.body).toMatchObject({ status: 'error', code: 'INTEGRATION_NOT_AVAILABLE' });
  });

  it('refuses a webhook to a metadata or private address at once, with the reason on the issue', async () => {
    for (const url of ['https://169.254.169.254/latest/meta-data/', 'https://10.0.0.1/hook']) {
      const site = await newSite(stack.url, 'BASIC_PLAN');
      await webhookTo(site, url);
      const n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'SSRF' } });
      await statusIs(site.id, n, 'webhooks', 3);
      const issue = await site.client.get<Record<string, unknown>>(
        `/api/client/website/${site.id}/request/${n}`,
      );
      expect(String((issue.body.msg as Record<string, unknown>).webhooks_reason)).toMatch(/refused/);
    }
  });
});

describe('the owner hears of new reports', () => {
  it('a new project mails its owner from the start, in the owner’s language, styled with a screenshot preview', async () => {
    const { client, email } = await signedIn(stack.url);
    // The dashboard in German when the project is created: that is the account's language now.
    const created = await client.post('/api/client/website?lng=de', { name: 'Laden', url: 'shop.example' });
    const id = (created.body as { msg: { id: string } }).msg.id;
    const n = await fileReport(stack.url, id, ORIGIN, {
      fields: { msg: 'Der <b>Knopf</b> fehlt', title: 'Warenkorb' },
      screenshots: [{ type: 'image/png', content: png(4, 4, [10, 200, 10]) }],
    });
    await statusIs(id, n, 'email', 2);
    const mail = await latestMail(stack.url, email);
    expect(mail?.subject).toBe(`[Laden] #${n} Warenkorb`);
    expect(mail?.text).toMatch(new RegExp(`^Neue Meldung #${n} für Laden`));
    expect(mail?.text).toContain('(Links 8 Tage gültig)');
    expect(mail?.html).toContain('Der &#60;b&#62;Knopf&#60;/b&#62; fehlt');
    expect(mail?.html).toContain('background:#4F4EAE');
    // The preview is the screenshot itself, through its signed link.
    const src = /<img src="([^"]+)"/.exec(mail?.html ?? '')?.[1]?.replace(/&#38;/g, '&');
    expect(src).toMatch(/\/api\/files\//);
    const redirect = await fetch(src as string, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const image = await fetch(redirect.headers.get('location') as string);
    expect(image.headers.get('content-type')).toBe('image/png');

    // Switched off, the next report is not mailed (an opt-out).
    const off = await client.patch(`/api/client/integration/${id}`, [{ name: 'email', data: { active: 0 } }]);
    expect(off.status).toBe(200);
    const second = await fileReport(stack.url, id, ORIGIN, { fields: { msg: 'Noch einer' } });
    await statusIs(id, second, 'email', 0);
    expect((await latestMail(stack.url, email))?.subject).toBe(mail?.subject);
  });
});

describe('one setting decides whether a member hears of new reports (decision Tr-N8)', () => {
  /** Mails that reached `address`, as the addressee or a copy. */
  const mailCount = async (address: string) => {
    const res = await fetch(`${stack.url}/api/dev/emails`);
    const all = ((await res.json()) as { msg: { to: string[]; cc?: string[] }[] }).msg;
    return all.filter((m) => [...m.to, ...(m.cc ?? [])].some((a) => a.includes(address))).length;
  };
  const settings = (client: Site['client'], newIssue: 'off' | 'instant' | 'daily') =>
    client.call('PUT', '/api/client/notifications', {
      newIssue,
      assigned: true,
      mentioned: true,
      comments: true,
    });

  it('the member’s own setting: one mail at once (the integration’s), none when off; other addresses as configured', async () => {
    const { client, email } = await signedIn(stack.url);
    const created = await client.post('/api/client/website', { name: 'Rule', url: 'shop.example' });
    const id = (created.body as { msg: { id: string } }).msg.id;
    const desk = `desk-${id.slice(0, 8)}@support.example`;
    expect(
      (
        await client.patch(`/api/client/integration/${id}`, [
          { name: 'email', active: 1, data: { email, cc: [desk] } },
        ])
      ).status,
    ).toBe(200);
    const before = await mailCount(email);
    const reportAndFlush = async (msg: string) => {
      const n = await fileReport(stack.url, id, ORIGIN, { fields: { msg } });
      await statusIs(id, n, 'email', 2);
      await stack.runSchedule('notifications');
    };

    // Settings from before the rule (never saved): the integration naming the owner mails them, once.
    await reportAndFlush('One');
    expect(await mailCount(email)).toBe(before + 1);
    expect(await mailCount(desk)).toBe(1);

    // "At once": one mail per report, the integration's, not a second from the notifications.
    expect((await settings(client, 'instant')).status).toBe(200);
    await reportAndFlush('Two');
    expect(await mailCount(email)).toBe(before + 2);
    expect((await latestMail(stack.url, email))?.subject).toBe(`[Rule] #2 Two`);

    // "No mail": nothing, though the integration names the address; the support desk still hears.
    expect((await settings(client, 'off')).status).toBe(200);
    await reportAndFlush('Three');
    expect(await mailCount(email)).toBe(before + 2);
    expect(await mailCount(desk)).toBe(3);
  });
});
