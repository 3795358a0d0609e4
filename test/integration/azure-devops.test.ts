/**
 * Azure DevOps Boards end to end on the local stack with the vendor fakes (issue 36): the organisation URL
 * and PAT authorise (Basic with an empty user name, api-version 7.1, a refused token TOKEN_REFUSED);
 * a report through the real queues becomes one Bug with its Repro Steps in inert HTML, the screenshot
 * uploaded as raw bytes and linked (AttachedFile), a Hyperlink to Snag, status 2; an outage retried
 * to one work item; a redelivery after the id was recorded and an attempt with an unknown outcome
 * create nothing twice (the latter asks before Sync). Two-way sync: the service hook subscriptions
 * registered with Snag's secret in a header; deliveries forged, stale, malformed, replayed and about
 * another project refused or ignored; closed in Azure → resolved in Snag and the reporter mailed;
 * resolved in Snag → the type's Completed state once, its echo dropped; comments both ways, inert, no echo.
 */
import { randomUUID } from 'node:crypto';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HookAnswer } from '#contracts/sync';
import { db } from '#runtime/aws/dynamo';
import { sqs } from '#runtime/aws/sqs';
import { fill, reporterTexts } from '../../functions/issues/reporter-texts';
import { type AzureFake, azureProjects, htmlActions } from '../../lib/local/vendors/azure';
import type { SentMail } from '../support/api-client';
import { eventually } from '../support/local-stack';
import { png } from '../support/png';
import { newSite, type Site } from '../support/sites';
import {
  comments,
  issue,
  msgOf,
  ORIGIN,
  quiet,
  setUpTrackerSync,
  statusBecomes,
  statuses,
  switchOn,
} from '../support/tracker-sync-fixture';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const PAT = 'azurepat0123456789abcdefghijklmnopqrstuvwxyz01';
const sync = setUpTrackerSync();
let fake: AzureFake;
let site: Site;
let hook: HookAnswer;
let n = 0;
let itemId = 0;
const REPORTER = `reporter-${randomUUID().slice(0, 8)}@mail.example`;

const detailKey = (m: number) => ({
  pk: `PROJECT#${site.id}`,
  sk: `ISSUE#${String(m).padStart(10, '0')}#DETAIL`,
});
async function detail(m: number) {
  const out = await db().send(
    new GetCommand({ TableName: sync.stack.tableName, Key: detailKey(m), ConsistentRead: true }),
  );
  return out.Item ?? {};
}
const azureStatus = (m: number, want: number) =>
  eventually(
    async () => {
      const d = await detail(m);
      return Number((d.st as Record<string, number>)?.azure) === want ? d : undefined;
    },
    45_000,
    `azure status ${want}`,
  );
const redeliver = (m: number) =>
  sqs().send(
    new SendMessageCommand({
      QueueUrl: sync.stack.queues.delivery.url,
      MessageBody: JSON.stringify({
        projectId: site.id,
        issueNumber: m,
        integration: 'azure',
        correlationId: 'again',
      }),
    }),
  );
const itemOf = (m: number) =>
  fake.workItems.filter((w) => String(w.fields['System.Title']).startsWith(`#${m} `));
const basic = (token: string) => `Basic ${Buffer.from(`:${token}`).toString('base64')}`;

async function post(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as { code?: string; msg?: { outcome?: string } } };
}

async function mailsTo(email: string): Promise<SentMail[]> {
  const res = await fetch(new URL(`/api/dev/emails?to=${encodeURIComponent(email)}`, sync.stack.url));
  return ((await res.json()) as { msg: SentMail[] }).msg;
}

beforeAll(async () => {
  fake = sync.fakes.azure;
  site = await newSite(sync.stack.url, 'BASIC_PLAN');
});

describe('Azure DevOps: authorise', () => {
  it('a refused PAT is TOKEN_REFUSED; a good one lists the projects and the first one’s types, Basic with an empty user', async () => {
    const refused = await site.client.post('/api/client/integration/azure/projects', {
      siteId: site.id,
      host: fake.orgUrl,
      key: 'invalid-pat',
    });
    expect([refused.status, (refused.body as { code?: string }).code]).toEqual([400, 'TOKEN_REFUSED']);

    const res = await site.client.post('/api/client/integration/azure/projects', {
      siteId: site.id,
      host: fake.orgUrl,
      key: PAT,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(msgOf(res).projects).toEqual(azureProjects.map((p) => ({ id: p.id, name: p.name })));
    expect(msgOf(res).issueTypes.map((t: { id: string }) => t.id)).toEqual(['Bug', 'Task', 'User Story']);
    const [projects, types] = fake.requests.slice(-2);
    expect(projects?.path).toBe('/fabrikam/_apis/projects');
    expect(types?.path).toBe(`/fabrikam/${azureProjects[0]?.id}/_apis/wit/workitemtypes`);
    for (const r of [projects, types]) {
      expect(r?.headers.authorization).toBe(basic(PAT));
      expect(r?.query['api-version']).toBe('7.1');
    }
    const view = (await site.client.get(`/api/client/website/${site.id}`)).body as {
      msg: { integrations: { name: string; authorized: number; data: Record<string, unknown> }[] };
    };
    const azure = view.msg.integrations.find((i) => i.name === 'azure');
    expect(azure).toMatchObject({ authorized: 1, data: { id: azureProjects[0]?.id, issueId: 'Bug' } });
    expect(JSON.stringify(azure)).not.toContain(PAT);
  });

  it('another signed-in client cannot list with this project’s stored token: 404', async () => {
    const { client } = await signedIn(sync.stack.url);
    const res = await client.post('/api/client/integration/azure/projects', {
      siteId: site.id,
      host: fake.orgUrl,
      key: '••••',
    });
    expect(res.status).toBe(404);
  });
});

describe('Azure DevOps: delivery', () => {
  it('a report becomes one Bug: inert HTML Repro Steps, the screenshot attached and linked, a link to Snag, status 2', async () => {
    await switchOn(site, 'azure', {});
    n = await fileReport(sync.stack.url, site.id, ORIGIN, {
      fields: {
        title: 'Pay button',
        msg: 'Broken <script>alert(1)</script> <a href="javascript:alert(1)">x</a> [x](javascript:alert(1)) @everyone <@123> #42 https://evil.example/phish',
        username: REPORTER,
        href: 'https://shop.example/cart',
        browser: 'Firefox',
      },
      screenshots: [{ type: 'image/png', content: png(4, 4, [200, 20, 20]) }],
    });
    const d = await azureStatus(n, 2);
    const [w] = itemOf(n);
    expect(itemOf(n)).toHaveLength(1);
    itemId = w?.id ?? 0;
    expect(w?.type).toBe('Bug');
    expect(w?.fields['System.Title']).toBe(`#${n} Pay button`);
    // Bug shows Repro Steps (the Agile process): the description goes there, as HTML.
    const html = String(w?.fields['Microsoft.VSTS.TCM.ReproSteps']);
    expect(w?.fields['System.Description']).toBeUndefined();
    expect(html).toContain('&lt;script&gt;');
    // Nothing the visitor typed makes a tag, a link, a mention or a work item link.
    expect(w?.acted.mentions).toEqual([]);
    expect(
      w?.acted.tags.every((t) => ['p', 'br', 'ul', 'li', 'strong', 'a', 'img', 'em', 'h3', 'ol'].includes(t)),
    ).toBe(true);
    const [attachment] = fake.attachments;
    for (const link of w?.acted.links ?? []) {
      expect(
        link === attachment?.url || link.startsWith(sync.stack.url) || /\/api\/files\//.test(link),
        link,
      ).toBe(true);
    }
    expect(html).not.toContain('\u200B');
    // The screenshot: raw bytes, then linked in the create's JSON Patch.
    const upload = fake.calls(/\/_apis\/wit\/attachments$/).at(-1);
    expect(upload?.headers['content-type']).toBe('application/octet-stream');
    expect(upload?.query.fileName).toBe('screenshot-1.png');
    expect(w?.relations.map((r) => r.rel)).toEqual(['AttachedFile', 'Hyperlink']);
    expect(w?.relations[0]?.url).toBe(attachment?.url);
    expect(w?.relations[1]?.url).toMatch(new RegExp(`/ticket/${n}$`));
    const create = fake.calls(/\/_apis\/wit\/workitems\/\$Bug$/).at(-1);
    expect(create?.headers['content-type']).toMatch(/^application\/json-patch\+json/);
    expect(create?.headers.authorization).toBe(basic(PAT));
    expect(d.vendor_azure).toBe(String(itemId));
    expect(d.url_azure).toBe(`${fake.url}/fabrikam/${azureProjects[0]?.id}/_workitems/edit/${itemId}`);
  });

  it('an outage is retried until Azure answers, still one work item', async () => {
    fake.fail({ match: /\/_apis\/wit\/workitems\/\$Bug$/, times: 2, reply: { status: 503, text: 'down' } });
    const m = await fileReport(sync.stack.url, site.id, ORIGIN, { fields: { msg: 'Second report' } });
    await azureStatus(m, 2);
    expect(itemOf(m)).toHaveLength(1);
  });

  it('a redelivery after the id was recorded creates nothing twice; an unknown outcome asks before Sync', async () => {
    const items = fake.workItems.length;
    await db().send(
      new UpdateCommand({
        TableName: sync.stack.tableName,
        Key: detailKey(n),
        UpdateExpression: 'SET st.azure = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await redeliver(n);
    await azureStatus(n, 2);
    expect(fake.workItems).toHaveLength(items);
    // As if the consumer died after Azure created the work item, before anything was written back.
    await db().send(
      new UpdateCommand({
        TableName: sync.stack.tableName,
        Key: detailKey(n),
        UpdateExpression: 'SET st.azure = :one, attempt_azure = :mark REMOVE vendor_azure',
        ExpressionAttributeValues: { ':one': 1, ':mark': { at: 1, message: 'gone', receive: 1 } },
      }),
    );
    await redeliver(n);
    const d = await azureStatus(n, 3);
    expect(String(d.reason_azure)).toMatch(/Azure DevOps/);
    expect(fake.workItems).toHaveLength(items);
    // Back as it was, for the sync below.
    await db().send(
      new UpdateCommand({
        TableName: sync.stack.tableName,
        Key: detailKey(n),
        UpdateExpression: 'SET st.azure = :two, vendor_azure = :id REMOVE attempt_azure, reason_azure',
        ExpressionAttributeValues: { ':two': 2, ':id': String(itemId) },
      }),
    );
  });
});

describe('Azure DevOps: two-way sync', () => {
  const w = () => fake.workItems.find((i) => i.id === itemId);

  it('registers a subscription per event with the secret in a header; another client may not', async () => {
    const { client } = await signedIn(sync.stack.url);
    expect((await client.post(`/api/client/integration/azure/hook/${site.id}/register`)).status).toBe(404);
    expect(fake.subscriptions).toHaveLength(0);
    const registered = await site.client.post(`/api/client/integration/azure/hook/${site.id}/register`);
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    hook = msgOf(await site.client.post(`/api/client/integration/azure/hook/${site.id}/secret`));
    expect(fake.subscriptions.map((s) => s.eventType)).toEqual(['workitem.updated', 'workitem.commented']);
    for (const s of fake.subscriptions) {
      expect(s).toMatchObject({ projectId: azureProjects[0]?.id, workItemType: 'Bug', url: hook.url });
      expect(s.headers['x-snag-secret']).toBe(hook.secret);
    }
    expect(fake.subscriptions[0]?.changedFields).toBe('System.State');
    expect(hook.registered?.id).toBe(fake.subscriptions.map((s) => s.id).join(','));
  });

  it('refuses forged, stale and malformed deliveries, takes a replay once, ignores another project', async () => {
    const payload = (over: Record<string, unknown> = {}) =>
      JSON.stringify({
        id: randomUUID(),
        eventType: 'workitem.commented',
        publisherId: 'tfs',
        resource: {
          id: itemId,
          rev: 99,
          fields: { 'System.History': '<div>Hello</div>', 'System.ChangedBy': 'Someone' },
        },
        resourceContainers: { project: { id: azureProjects[0]?.id } },
        createdDate: new Date().toISOString(),
        ...over,
      });
    const secret = { 'x-snag-secret': String(hook.secret) };
    const fresh = payload();
    const forged = await post(String(hook.url), fresh, { 'x-snag-secret': `${hook.secret}x` });
    expect([forged.status, forged.body.code]).toEqual([401, 'HOOK_SIGNATURE_INVALID']);
    const unsigned = await post(String(hook.url), fresh, {});
    expect([unsigned.status, unsigned.body.code]).toEqual([401, 'HOOK_SIGNATURE_INVALID']);
    const old = payload({ createdDate: new Date(Date.now() - 2 * 86_400_000).toISOString() });
    const stale = await post(String(hook.url), old, secret);
    expect([stale.status, stale.body.code]).toEqual([401, 'HOOK_STALE']);
    const malformed = payload({ resource: { id: 'one' } });
    const bad = await post(String(hook.url), malformed, secret);
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
    const other = payload({ resourceContainers: { project: { id: azureProjects[1]?.id } } });
    expect((await post(String(hook.url), other, secret)).body.msg?.outcome).toBe('ignored');
    // The basic-auth password works as well (the subscription set up by hand).
    const first = await post(String(hook.url), fresh, {
      authorization: `Basic ${Buffer.from(`snag:${hook.secret}`).toString('base64')}`,
    });
    const again = await post(String(hook.url), fresh, secret);
    expect([first.body.msg?.outcome, again.body.msg?.outcome]).toEqual(['queued', 'duplicate']);
    await eventually(
      async () => (await comments(site, n)).find((c) => c.body === 'Hello'),
      30_000,
      'the comment',
    );
    await quiet(fake.settled);
    expect((await comments(site, n)).filter((c) => c.body === 'Hello')).toHaveLength(1);
  });

  it('closed in Azure → resolved in Snag by "Jamal Hartnett on Azure DevOps", the reporter mailed; reopened → new', async () => {
    const patches = () => fake.requests.filter((r) => r.method === 'PATCH').length;
    const before = patches();
    const [delivery] = await fake.actAsHuman(itemId, { kind: 'close' });
    expect(delivery?.status).toBe(202);
    await statusBecomes(site, n, 'resolved');
    expect((await statuses(site, n))[0]).toMatchObject({
      actor: { kind: 'tracker', vendor: 'azure', name: 'Jamal Hartnett on Azure DevOps' },
      to: 'resolved',
    });
    await sync.stack.runSchedule('notifications');
    const subject = fill(reporterTexts.en.resolvedSubject, { n: String(n) });
    await eventually(
      async () => {
        await sync.stack.runSchedule('notifications');
        return (await mailsTo(REPORTER)).find((m) => m.subject.includes(subject));
      },
      30_000,
      'the reporter’s mail',
    );
    // Resolved (a Resolved-category state) counts as closed too; back to New reopens.
    await fake.actAsHuman(itemId, { kind: 'state', state: 'Active' });
    await statusBecomes(site, n, 'new');
    await quiet(fake.settled);
    expect(patches()).toBe(before);
  });

  it('resolved in Snag → Closed in Azure once; its echo dropped', async () => {
    const res = await site.client.patch(`/api/client/website/${site.id}/request/${n}`, {
      status: 'resolved',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await eventually(
      async () => (w()?.fields['System.State'] === 'Closed' ? true : undefined),
      30_000,
      'Closed',
    );
    await quiet(fake.settled);
    const patch = fake.requests.filter((r) => r.method === 'PATCH').at(-1);
    expect(JSON.parse(JSON.stringify(patch?.body))).toEqual([
      { op: 'add', path: '/fields/System.State', value: 'Closed' },
    ]);
    expect(fake.deliveries.at(-1)?.status).toBe(202);
    const all = await statuses(site, n);
    expect(all).toHaveLength(3);
    expect(all.at(-1)).toMatchObject({ actor: { kind: 'member' }, to: 'resolved' });
    expect(fake.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });

  it('comments both ways: Azure → internal Snag comment; public Snag comment → inert HTML comment, no echo', async () => {
    await fake.actAsHuman(itemId, {
      kind: 'comment',
      text: '<div>Fixed in <b>2.3.1</b> &amp; deployed</div>',
    });
    const synced = await eventually(
      async () => (await comments(site, n)).find((c) => c.body === 'Fixed in 2.3.1 & deployed'),
      30_000,
      'the synced comment',
    );
    expect(synced).toMatchObject({
      visibility: 'internal',
      author: { kind: 'tracker', vendor: 'azure', name: 'Jamal Hartnett on Azure DevOps' },
    });
    const body = 'Thanks @everyone <img src=x onerror=alert(1)> see #5 javascript:alert(1)';
    const posted = await site.client.post(`/api/client/website/${site.id}/request/${n}/comments`, {
      body,
      visibility: 'public',
    });
    expect(posted.status).toBe(201);
    const onAzure = await eventually(
      async () => w()?.comments.find((c) => c.text.includes('Thanks')),
      30_000,
      'the Azure comment',
    );
    expect(onAzure.text).toMatch(/wrote in Snag:/);
    const call = fake.calls(/\/comments$/).at(-1);
    expect(call?.query['api-version']).toBe('7.1-preview.4');
    const acted = htmlActions(onAzure.text);
    expect(acted).toEqual({ links: [], mentions: [], tags: ['p', 'strong'] });
    await quiet(fake.settled);
    expect((await comments(site, n)).map((c) => c.body).sort()).toEqual([
      'Fixed in 2.3.1 & deployed',
      'Hello',
      body,
    ]);
    expect(w()?.comments).toHaveLength(2);
    expect((await issue(site, n)).status).toBe('resolved');
  });

  it('a new secret: the subscriptions registered again with it and the old ones deleted at Azure; a change still syncs', async () => {
    const old = fake.subscriptions.map((s) => s.id);
    const renewed = await site.client.post(`/api/client/integration/azure/hook/${site.id}/regenerate`);
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    const fresh: HookAnswer = msgOf(renewed);
    expect(fresh.secret).not.toBe(hook.secret);
    expect(fake.subscriptions.map((s) => s.eventType)).toEqual(['workitem.updated', 'workitem.commented']);
    expect(fake.subscriptions.filter((s) => old.includes(s.id))).toEqual([]);
    for (const s of fake.subscriptions) expect(s.headers['x-snag-secret']).toBe(fresh.secret);
    expect(fresh.registered?.id).toBe(fake.subscriptions.map((s) => s.id).join(','));
    const deleted = fake.requests.filter((r) => r.method === 'DELETE').map((r) => r.path.split('/').at(-1));
    expect(deleted).toEqual(old);
    // Azure's next delivery carries the new secret and is taken: no Register press needed.
    const [delivery] = await fake.actAsHuman(itemId, { kind: 'reopen' });
    expect(delivery?.status).toBe(202);
    await statusBecomes(site, n, 'new');
  });

  it('removing the integration deletes its subscriptions at Azure and forgets the registration', async () => {
    const removed = await site.client.delete(`/api/client/integration/azure/authentication/${site.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(fake.subscriptions).toEqual([]);
    const shown: HookAnswer = msgOf(await site.client.get(`/api/client/integration/azure/hook/${site.id}`));
    expect(shown.registered).toBeNull();
  });
});
