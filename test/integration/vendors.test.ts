/**
 * A report reaches all six targets, GitLab, Jira, Slack, Asana, email and the webhook receiver, through the
 * real queues of the local stack (intake → fan-out → delivery), against the vendor fakes as
 * `npm start` runs them: each with the right auth header, body shape and attachments,
 * status 2 on the issue, and a redelivery (after the vendor id was recorded) creates nothing twice. The
 * integrations are authorised through the vendor endpoints (OAuth for Slack and Asana), then switched on
 * through the dashboard's save call, PATCH client/integration/{siteId}, as the screens do; the webhook
 * receiver's http://127.0.0.1 URL is one only the local stack accepts.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { sqs } from '#runtime/aws/sqs';
import type { VendorFakes } from '../../lib/local/vendors';
import { type ApiReply, mailCount } from '../support/api-client';
import { eventually } from '../support/local-stack';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { fileReport } from '../support/widget';

const SITE = 'https://shop.example';
const MAILBOX = 'team@agency.example';
const vendors = ['gitlab', 'jira', 'slack', 'asana'] as const;
type Vendor = (typeof vendors)[number];
const targets = [...vendors, 'email', 'webhooks'] as const;

// The fakes as `npm start` runs them: started and configured by the local stack.
const stack = setUpTestStack({
  vendorFakes: true,
  // Retries come fast through the backoff (1 s); the visibility timeout stays longer than a delivery takes,
  // as in AWS (the function's timeout and more): at 1 s a Slack or Jira delivery with its uploads, slowed by
  // a loaded machine, was received a second time while the first was still running, and uploaded twice.
  queues: { delivery: { visibilityTimeoutSeconds: 30, maxReceiveCount: 5, retryDelaysSeconds: [1] } },
});
let fakes: VendorFakes;
let site: Site;

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions themselves.
const msgOf = (r: ApiReply): any => (r.body as { msg?: unknown }).msg;

beforeAll(async () => {
  if (!stack.vendorFakes) throw new Error('the local stack did not start the vendor fakes');
  fakes = stack.vendorFakes;
  site = await newSite(stack.url, 'BASIC_PLAN');
  await connectAll();
});

/**
 * Switches an authorised integration on with its chosen project or channel through the dashboard's save
 * call, sending back the (masked) data it read, as the screens do.
 */
async function activate(name: Vendor, id: string) {
  const current = msgOf(await site.client.get(`/api/client/website/${site.id}`)).integrations.find(
    (i: { name: string }) => i.name === name,
  );
  const res = await site.client.patch(`/api/client/integration/${site.id}`, [
    { name, active: 1, data: { ...current.data, id } },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function oauth(vendor: 'slack' | 'asana') {
  const { url, state, redirectUrl } = msgOf(
    await site.client.get(`/api/client/integration/${vendor}/authorize/${site.id}`),
  );
  const page = await (await fetch(url)).text();
  const back = new URL((/id="allow" href="([^"]+)"/.exec(page)?.[1] ?? '').replace(/&#38;/g, '&'));
  const res = await site.client.post(`/api/client/integration/${vendor}/authentication/${site.id}`, {
    code: back.searchParams.get('code'),
    state,
    redirectUrl,
  });
  expect(res.status).toBe(200);
}

async function connectAll() {
  const gitlab = await site.client.post('/api/client/integration/gitlab/projects', {
    siteId: site.id,
    host: '',
    key: 'glpat-pipeline',
  });
  expect(gitlab.status).toBe(200);
  const jira = await site.client.post('/api/client/integration/jira/projects', {
    siteId: site.id,
    host: fakes.jira.url,
    username: 'me@example.com',
    key: 'jira-pipeline',
  });
  expect(jira.status).toBe(200);
  await oauth('slack');
  await oauth('asana');
  await activate('gitlab', '101');
  await activate('jira', '10000');
  await activate('slack', 'C0GENERAL');
  const projects = msgOf(await site.client.get(`/api/client/integration/asana/channels/${site.id}`));
  await activate('asana', projects[0].id);
  for (const [name, data] of [
    ['email', { email: MAILBOX, cc: [], contactFields: [] }],
    ['webhooks', { url: `${fakes.webhooks.url}/hook`, token: 'whsec-local-0123456789' }],
  ] as const) {
    const res = await site.client.patch(`/api/client/integration/${site.id}`, [{ name, active: 1, data }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
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

const allPassed = async (n: number) => {
  const d = await detail(n);
  const st = (d.st ?? {}) as Record<string, number>;
  return targets.every((v) => Number(st[v]) === 2) ? d : undefined;
};

describe('a report reaches GitLab, Jira, Slack, Asana, email and the webhook receiver', () => {
  let n = 0;

  it('with each vendor’s auth header, body shape and attachments', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    n = await fileReport(stack.url, site.id, SITE, {
      fields: {
        msg: 'Checkout broken\nThe <Pay> button does nothing.',
        username: 'visitor@example.org',
        href: 'https://shop.example/cart',
        browser: 'Firefox',
      },
      screenshots: [{ type: 'image/png', content: png }],
      files: [{ name: 'invoice.pdf', type: 'application/pdf', content: new Uint8Array(300).fill(7) }],
    });
    const d = await eventually(() => allPassed(n), 45_000, 'all six deliveries');

    // GitLab: the screenshot uploaded and embedded; PRIVATE-TOKEN on every call.
    expect(fakes.gitlab.issues).toHaveLength(1);
    const gl = fakes.gitlab.issues[0];
    expect(gl?.title).toBe(`#${n} Checkout broken`);
    expect(gl?.description).toContain(fakes.gitlab.uploads[0]?.url);
    expect(gl?.description).toContain('invoice.pdf');
    expect(fakes.gitlab.uploads).toEqual([
      expect.objectContaining({ name: 'screenshot-1.png', size: png.length }),
    ]);
    for (const r of fakes.gitlab.requests) expect(r.headers['private-token']).toBe('glpat-pipeline');
    expect(d.vendor_gitlab).toBe('1');

    // Jira: ADF description, chosen issue type, both attachments with no-check; basic auth.
    expect(fakes.jira.issues).toHaveLength(1);
    expect(fakes.jira.issues[0]?.fields).toMatchObject({
      project: { id: '10000' },
      issuetype: { id: '10004' },
      summary: `#${n} Checkout broken`,
      description: { type: 'doc', version: 1 },
    });
    expect(fakes.jira.issues[0]?.attachments.map((a) => a.filename).sort()).toEqual([
      'invoice.pdf',
      'screenshot-1.png',
    ]);
    const basic = `Basic ${Buffer.from('me@example.com:jira-pipeline').toString('base64')}`;
    for (const r of fakes.jira.requests) expect(r.headers.authorization).toBe(basic);
    expect(d.vendor_jira).toBe('WEB-1');

    // Slack: one message with blocks, the screenshot shared in its thread; the bot token.
    expect(fakes.slack.messages).toHaveLength(1);
    const message = fakes.slack.messages[0];
    expect(message?.channel).toBe('C0GENERAL');
    expect(message?.blocks).toContainEqual(expect.objectContaining({ type: 'header' }));
    const shared = fakes.slack.files.filter((f) => f.channel);
    expect(shared).toEqual([expect.objectContaining({ name: 'screenshot-1.png', threadTs: message?.ts })]);
    expect(fakes.slack.calls('chat.postMessage')[0]?.headers.authorization).toMatch(/^Bearer xoxb-local-/);
    expect(d.vendor_slack).toBe(`C0GENERAL/${message?.ts}#files`);

    // Asana: one task with html notes in the chosen project, both attachments.
    expect(fakes.asana.tasks).toHaveLength(1);
    const task = fakes.asana.tasks[0];
    expect(task?.htmlNotes).toMatch(/^<body>Checkout broken\nThe &lt;Pay&gt; button/);
    expect(task?.attachments.map((a) => a.name).sort()).toEqual(['invoice.pdf', 'screenshot-1.png']);
    expect(fakes.asana.calls('/api/1.0/tasks')[0]?.headers.authorization).toMatch(/^Bearer asana-access-/);
    expect(d.vendor_asana).toBe(task?.gid);

    // Email: one mail to the address.
    expect(await mailCount(stack.url, MAILBOX)).toBe(1);

    // The webhook receiver: one delivery whose signature it checked (it answers 401 to a bad one).
    expect(fakes.webhooks.deliveries).toEqual([
      expect.objectContaining({ version: 1, issue: expect.objectContaining({ number: n }) }),
    ]);
    expect(fakes.webhooks.calls('/hook')[0]?.headers['x-snag-token']).toBe('whsec-local-0123456789');
  });

  it('the web address stored for each created item opens its page on the fake', async () => {
    // What the issue page's "Open in …" links to: on `npm start`, a page and no 404.
    const d = await detail(n);
    for (const name of vendors) {
      const url = String(d[`url_${name}`]);
      expect(url.startsWith(fakes[name].url), `${name}: ${url}`).toBe(true);
      const page = await fetch(url);
      expect(page.status, name).toBe(200);
      expect(page.headers.get('content-type'), name).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html, name).toContain(`#${n} Checkout broken`);
      // The visitor's `<Pay>` is text on the page, never markup.
      expect(html, name).not.toContain('<Pay>');
    }
  });

  it('each fake shows what it received on /_fake, escaped and without credentials', async () => {
    const page = await (await fetch(`${fakes.asana.url}/_fake`)).text();
    expect(page).toContain('Asana: what the local fake received');
    expect(page).toContain('POST</span> /api/1.0/tasks');
    // Neither the bearer token nor the OAuth client secret of the code exchange is shown.
    expect(page).not.toMatch(/asana-access-|local-asana-secret/);
    expect(page).toContain('Bearer ••••');
    const hooks = await (await fetch(`${fakes.webhooks.url}/_fake`)).text();
    expect(hooks).toContain('POST</span> /hook');
    expect(hooks).not.toContain('whsec-local-0123456789');
    // The visitor's `<Pay>` is shown as text, never as markup.
    expect(hooks).toContain('&#60;Pay&#62;');
    expect(hooks).not.toContain('<Pay>');
  });

  it('tells the integration screens which integrations talk to a fake, and where it is', async () => {
    const integrations = msgOf(await site.client.get(`/api/client/website/${site.id}`)).integrations as {
      name: string;
      fake?: string;
    }[];
    const fakeOf = Object.fromEntries(integrations.map((i) => [i.name, i.fake]));
    expect(fakeOf).toEqual({
      email: undefined,
      gitlab: fakes.gitlab.url,
      jira: fakes.jira.url,
      slack: fakes.slack.url,
      asana: fakes.asana.url,
      webhooks: `${fakes.webhooks.url}/hook`,
      github: fakes.github.url,
      linear: fakes.linear.url,
      clickup: fakes.clickup.url,
      teams: fakes.teams.webhookUrl,
      discord: fakes.discord.webhookUrl,
      azure: fakes.azure.orgUrl,
      trello: fakes.trello.url,
    });
  });

  it('the webhook receiver refuses a delivery whose signature does not check out', async () => {
    const res = await fetch(`${fakes.webhooks.url}/hook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-snag-token': 'whsec-local-0123456789',
        'x-snag-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      },
      body: '{"version":1}',
    });
    expect(res.status).toBe(401);
  });

  it('a loopback webhook URL is refused where the local allowance is off, and nothing stored changes', async () => {
    const saved = process.env.SNAG_OUTBOUND_ALLOW_LOCAL;
    delete process.env.SNAG_OUTBOUND_ALLOW_LOCAL;
    try {
      const res = await site.client.patch(`/api/client/integration/${site.id}`, [
        {
          name: 'webhooks',
          active: 1,
          data: { url: 'http://127.0.0.1:9/other', token: 'whsec-other-0123456789' },
        },
      ]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_PARAMETERS' });
    } finally {
      process.env.SNAG_OUTBOUND_ALLOW_LOCAL = saved;
    }
    const hooks = msgOf(await site.client.get(`/api/client/website/${site.id}`)).integrations.find(
      (i: { name: string }) => i.name === 'webhooks',
    );
    expect(hooks.data.url).toBe(`${fakes.webhooks.url}/hook`);
  });

  it('a redelivery after the vendor id was recorded creates no duplicate', async () => {
    // As if each delivery had crashed after recording its id but before its status was written.
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { pk: `PROJECT#${site.id}`, sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL` },
        UpdateExpression:
          'SET st.gitlab = :one, st.jira = :one, st.slack = :one, st.asana = :one, st.email = :one, st.webhooks = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    for (const integration of targets) {
      await sqs().send(
        new SendMessageCommand({
          QueueUrl: stack.queues.delivery.url,
          MessageBody: JSON.stringify({
            projectId: site.id,
            issueNumber: n,
            integration,
            correlationId: 'redeliver',
          }),
        }),
      );
    }
    await eventually(() => allPassed(n), 45_000, 'the redeliveries');
    expect(fakes.gitlab.issues).toHaveLength(1);
    expect(fakes.jira.issues).toHaveLength(1);
    expect(fakes.jira.issues[0]?.attachments).toHaveLength(2);
    expect(fakes.slack.messages).toHaveLength(1);
    expect(fakes.slack.files.filter((f) => f.channel)).toHaveLength(1);
    expect(fakes.asana.tasks).toHaveLength(1);
    expect(fakes.asana.tasks[0]?.attachments).toHaveLength(2);
    expect(await mailCount(stack.url, MAILBOX)).toBe(1);
    expect(fakes.webhooks.deliveries).toHaveLength(1);
  });

  it('a permanent failure fails at once with the reason: the Slack app not in the channel', async () => {
    await activate('slack', 'C0RANDOM');
    const before = fakes.slack.calls('chat.postMessage').length;
    const m = await fileReport(stack.url, site.id, SITE, { fields: { msg: 'Second report' } });
    const d = await eventually(
      async () => {
        const item = await detail(m);
        return Number((item.st as Record<string, number>)?.slack) === 3 ? item : undefined;
      },
      45_000,
      'the Slack failure',
    );
    expect(String(d.reason_slack)).toContain('/invite @Snag');
    // Failed at once: one attempt, no retries.
    expect(fakes.slack.calls('chat.postMessage').length).toBe(before + 1);
    await eventually(async () => (fakes.gitlab.issues.length === 2 ? true : undefined), 45_000, 'GitLab');
    await activate('slack', 'C0GENERAL');
  });
});
