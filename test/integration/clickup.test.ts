/**
 * ClickUp end to end on the local stack with its fake (issue 36), through the real queues: the token
 * checked and every list listed by the authorise call (owner only, plan gated); a report becoming one task
 * in the chosen list with the screenshot attached and the visitor's hostile text inert, status 2 and the
 * task recorded; an outage retried to one task, a redelivery after the task was recorded creating nothing
 * twice, an attempt whose outcome nobody recorded asking before Sync (no second task), a refused token
 * failing at once. Both ways: the webhook registered through ClickUp's API with ClickUp's own secret;
 * deliveries valid, forged, stale, replayed and malformed; the task closed in ClickUp resolving the Snag
 * issue (and the reporter mailed), reopened reopening it; resolved in Snag closing the task with the
 * list's closed status, its echo dropped; comments both ways, no echo, nothing taken twice.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HookAnswer } from '#contracts/sync';
import { db } from '#runtime/aws/dynamo';
import { sqs } from '#runtime/aws/sqs';
import { clickupSignature } from '../../functions/integrations/sync/clickup';
import { clickupHuman, clickupStatuses } from '../../lib/local/vendors/clickup';
import { mailCount } from '../support/api-client';
import { eventually } from '../support/local-stack';
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
import { fileReport } from '../support/widget';

const sync = setUpTrackerSync();
const TOKEN = 'pk_4242_CLICKUPTESTTOKEN';
const BUGS = '9001/124';
const fake = () => sync.fakes.clickup;
const codeOf = (r: { body: unknown }) => (r.body as { code?: string }).code;

async function clickupView(site: Site) {
  const project = msgOf(await site.client.get(`/api/client/website/${site.id}`));
  return project.integrations.find((i: { name: string }) => i.name === 'clickup');
}
const detail = async (site: Site, n: number) =>
  (
    await db().send(
      new GetCommand({
        TableName: sync.stack.tableName,
        Key: { pk: `PROJECT#${site.id}`, sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL` },
        ConsistentRead: true,
      }),
    )
  ).Item ?? {};
const clickupStatus = (site: Site, n: number, want: number) =>
  eventually(
    async () => {
      const d = await detail(site, n);
      return Number((d.st as Record<string, number>)?.clickup) === want ? d : undefined;
    },
    45_000,
    `clickup status ${want}`,
  );
const redeliver = (site: Site, n: number) =>
  sqs().send(
    new SendMessageCommand({
      QueueUrl: sync.stack.queues.delivery.url,
      MessageBody: JSON.stringify({
        projectId: site.id,
        issueNumber: n,
        integration: 'clickup',
        correlationId: 'again',
      }),
    }),
  );
const tasksOf = (n: number) => fake().tasks.filter((t) => t.name.startsWith(`#${n} `));

describe('ClickUp: authorise and deliver', () => {
  let site: Site;
  let n = 0;

  beforeAll(async () => {
    site = await newSite(sync.stack.url, 'BASIC_PLAN');
  });

  it('a refused token is TOKEN_REFUSED; a good one lists every list by its path and authorises', async () => {
    const refused = await site.client.post('/api/client/integration/clickup/lists', {
      siteId: site.id,
      key: 'pk_invalid',
    });
    expect([refused.status, codeOf(refused)]).toEqual([400, 'TOKEN_REFUSED']);
    const res = await site.client.post('/api/client/integration/clickup/lists', {
      siteId: site.id,
      key: TOKEN,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(msgOf(res)).toEqual([
      { id: '9001/124', name: 'Snag Agency / Clients / Website / Bugs' },
      { id: '9001/125', name: 'Snag Agency / Clients / Inbox' },
    ]);
    // The personal token as is, no Bearer.
    expect(fake().calls('/api/v2/team').at(-1)?.headers.authorization).toBe(TOKEN);
    expect(await clickupView(site)).toMatchObject({
      active: 0,
      authorized: 1,
      data: { key: `••••${TOKEN.slice(-4)}`, id: BUGS, name: 'Snag Agency / Clients / Website / Bugs' },
    });
  });

  it('another client is refused, a plan without integrations too, and a bad list id is INVALID_PARAMETERS', async () => {
    const stranger = await newSite(sync.stack.url, 'BASIC_PLAN');
    const calls = fake().requests.length;
    const answers = [
      await stranger.client.post('/api/client/integration/clickup/lists', { siteId: site.id, key: TOKEN }),
      await stranger.client.post(`/api/client/integration/clickup/hook/${site.id}/register`),
      await stranger.client.patch(`/api/client/integration/${site.id}`, [
        { name: 'clickup', active: 1, data: { key: TOKEN, id: BUGS } },
      ]),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404]);
    expect(fake().requests).toHaveLength(calls);
    const free = await newSite(sync.stack.url, 'FREE_PLAN');
    const gated = await free.client.post('/api/client/integration/clickup/lists', {
      siteId: free.id,
      key: TOKEN,
    });
    expect([gated.status, codeOf(gated)]).toEqual([403, 'INTEGRATION_NOT_AVAILABLE']);
    const current = await clickupView(site);
    const bad = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'clickup', active: 1, data: { ...current.data, id: '../124' } },
    ]);
    expect([bad.status, codeOf(bad)]).toEqual([400, 'INVALID_PARAMETERS']);
  });

  it('a report becomes one task in the list: hostile text inert, screenshot attached, status 2', async () => {
    await switchOn(site, 'clickup', {}, { authorized: 1 });
    await site.client.patch(`/api/client/website/${site.id}`, { data: { reporterUpdates: true } });
    n = await fileReport(sync.stack.url, site.id, ORIGIN, {
      fields: {
        msg: '@everyone <@123> [x](javascript:alert(1)) <img src=x onerror=alert(1)>\n```\n[y](javascript:y)',
        title: 'Pay @here [z](javascript:z)',
        username: 'visitor@example.org',
        href: 'https://shop.example/cart',
      },
      screenshots: [{ type: 'image/png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) }],
      files: [
        { name: '[f](javascript:f) @all.pdf', type: 'application/pdf', content: new Uint8Array(300).fill(7) },
      ],
    });
    const d = await clickupStatus(site, n, 2);
    const [task] = tasksOf(n);
    expect(tasksOf(n)).toHaveLength(1);
    expect(task?.listId).toBe('124');
    expect(task?.name).toBe(`#${n} Pay @\u2060here [z](javascript:z)`);
    // What ClickUp would act on: no mention; links only to Snag (the signed files and the issue).
    expect(task?.mentions).toEqual([]);
    for (const link of task?.links ?? []) expect(link).toMatch(/^http:\/\/(127\.0\.0\.1|localhost)[:/]/);
    expect(task?.links.some((l) => l.includes(`/ticket/${n}`))).toBe(true);
    expect(task?.markdown).toContain('- **Page:** ` https://shop.example/cart `');
    expect(task?.attachments.map((a) => a.title)).toEqual(['screenshot-1.png']);
    expect(d.vendor_clickup).toBe(task?.id);
    expect(d.url_clickup).toBe(`${fake().url}/t/${task?.id}`);
    for (const r of fake().calls(/\/task/)) expect(r.headers.authorization).toBe(TOKEN);
  });

  it('a redelivery after the task was recorded creates nothing twice', async () => {
    await db().send(
      new UpdateCommand({
        TableName: sync.stack.tableName,
        Key: { pk: `PROJECT#${site.id}`, sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL` },
        UpdateExpression: 'SET st.clickup = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await redeliver(site, n);
    await clickupStatus(site, n, 2);
    expect(tasksOf(n)).toHaveLength(1);
    expect(tasksOf(n)[0]?.attachments).toHaveLength(1);
  });

  it('an attempt whose outcome nobody recorded asks before Sync instead of making a second task', async () => {
    await db().send(
      new UpdateCommand({
        TableName: sync.stack.tableName,
        Key: { pk: `PROJECT#${site.id}`, sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL` },
        UpdateExpression: 'SET st.clickup = :one, attempt_clickup = :mark REMOVE vendor_clickup',
        ExpressionAttributeValues: { ':one': 1, ':mark': { at: 1, message: 'gone', receive: 1 } },
      }),
    );
    await redeliver(site, n);
    const d = await clickupStatus(site, n, 3);
    expect(String(d.reason_clickup)).toMatch(/Check ClickUp, and Sync only if it is missing/);
    expect(tasksOf(n)).toHaveLength(1);
  });

  it('an outage is retried until ClickUp answers, still one task; a refused token fails at once', async () => {
    fake().fail({ match: /\/task$/, times: 2, reply: { status: 503, json: { err: 'down' } } });
    const m = await fileReport(sync.stack.url, site.id, ORIGIN, { fields: { msg: 'Second report' } });
    await clickupStatus(site, m, 2);
    expect(tasksOf(m)).toHaveLength(1);
    fake().fail({ match: /\/task$/, times: 1, reply: { status: 401, json: { err: 'Token invalid' } } });
    const k = await fileReport(sync.stack.url, site.id, ORIGIN, { fields: { msg: 'Third report' } });
    const d = await clickupStatus(site, k, 3);
    expect(String(d.reason_clickup)).toMatch(/ClickUp refused the token/);
    expect(tasksOf(k)).toHaveLength(0);
  });
});

describe('ClickUp both ways', () => {
  let site: Site;
  let hook: HookAnswer;
  let n: number;
  let taskId: string;
  const task = () => fake().tasks.find((t) => t.id === taskId);
  const post = async (body: string, headers: Record<string, string>) => {
    const res = await fetch(String(hook.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as { code?: string; msg?: { outcome?: string } } };
  };
  const REPORTER = `reporter-${Date.now()}@mail.example`;

  beforeAll(async () => {
    site = await newSite(sync.stack.url, 'BASIC_PLAN');
    const list = await site.client.post('/api/client/integration/clickup/lists', {
      siteId: site.id,
      key: TOKEN,
    });
    expect(list.status).toBe(200);
    await switchOn(site, 'clickup', {}, { authorized: 1 });
    await site.client.patch(`/api/client/website/${site.id}`, { data: { reporterUpdates: true } });
    const delivered = await sync.delivered(
      site,
      'clickup' as never,
      { msg: 'Login loops', title: 'Login', username: REPORTER } as never,
      // Another project's issues are numbered from 1 too: the title tells this one's task apart.
      (m) => fake().tasks.find((t) => t.name === `#${m} Login`),
    );
    n = delivered.n;
    taskId = (delivered.created as { id: string }).id;
  });

  it('registers a workspace webhook on the list for status and comment events, keeping ClickUp’s secret', async () => {
    const registered = await site.client.post(`/api/client/integration/clickup/hook/${site.id}/register`);
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    hook = msgOf(await site.client.post(`/api/client/integration/clickup/hook/${site.id}/secret`));
    const made = fake().hooks.find((h) => h.endpoint === hook.url);
    expect(made).toMatchObject({
      teamId: '9001',
      listId: 124,
      events: ['taskStatusUpdated', 'taskCommentPosted'],
    });
    // ClickUp chose the secret; Snag verifies with it.
    expect(hook.secret).toBe(made?.secret);
    expect(msgOf(registered).registered).toMatchObject({ id: made?.id });
  });

  it('refuses forged, stale and malformed deliveries; a replay is taken once', async () => {
    const payload = (date: number) =>
      JSON.stringify({
        event: 'taskStatusUpdated',
        history_items: [{ id: `h${date}`, date: String(date), field: 'status', user: clickupHuman }],
        task_id: taskId,
        webhook_id: fake().hooks[0]?.id,
      });
    const sign = (raw: string) => clickupSignature(String(hook.secret), raw);
    const fresh = payload(Date.now());
    const forged = await post(fresh, { 'x-signature': sign(`${fresh} `) });
    expect([forged.status, forged.body.code]).toEqual([401, 'HOOK_SIGNATURE_INVALID']);
    const unsigned = await post(fresh, {});
    expect([unsigned.status, unsigned.body.code]).toEqual([401, 'HOOK_SIGNATURE_INVALID']);
    const old = payload(Date.now() - 25 * 3600_000);
    const stale = await post(old, { 'x-signature': sign(old) });
    expect([stale.status, stale.body.code]).toEqual([401, 'HOOK_STALE']);
    const malformed = JSON.stringify({
      event: 'taskStatusUpdated',
      history_items: [{ date: String(Date.now()) }],
    });
    const bad = await post(malformed, { 'x-signature': sign(malformed) });
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
    const notJson = `{"history_items":[{"date":"${Date.now()}"}]`;
    const broken = await post(notJson, { 'x-signature': sign(notJson) });
    expect(broken.status).toBe(400);
    const first = await post(fresh, { 'x-signature': sign(fresh) });
    const again = await post(fresh, { 'x-signature': sign(fresh) });
    expect([first.body.msg?.outcome, again.body.msg?.outcome]).toEqual(['queued', 'duplicate']);
    // The re-read found the task open, as Snag has it: nothing changes.
    await quiet(fake().settled);
    expect((await issue(site, n)).status).toBe('new');
  });

  it('closed in ClickUp → resolved in Snag by "Jane Doe on ClickUp", the reporter mailed; reopened → new', async () => {
    const puts = () =>
      fake()
        .calls(`/api/v2/task/${taskId}`)
        .filter((r) => r.method === 'PUT').length;
    const mails = await mailCount(sync.stack.url, REPORTER);
    const [delivery] = await fake().actAsHuman(taskId, { kind: 'close' });
    expect(delivery?.status).toBe(202);
    await statusBecomes(site, n, 'resolved');
    expect((await statuses(site, n))[0]).toMatchObject({
      actor: { kind: 'tracker', vendor: 'clickup', name: `${clickupHuman.username} on ClickUp` },
      to: 'resolved',
    });
    await eventually(
      async () => {
        await sync.stack.runSchedule('notifications');
        return (await mailCount(sync.stack.url, REPORTER)) > mails ? true : undefined;
      },
      30_000,
      'the reporter’s mail',
    );
    // ClickUp's retry of the same delivery is a duplicate.
    expect(await fake().resend(delivery as never)).toBe(202);
    await fake().actAsHuman(taskId, { kind: 'reopen' });
    await statusBecomes(site, n, 'new');
    await quiet(fake().settled);
    expect(puts()).toBe(0);
  });

  it('resolved in Snag → the list’s closed status on the task, once; its echo dropped', async () => {
    const res = await site.client.patch(`/api/client/website/${site.id}/request/${n}`, {
      status: 'resolved',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const closed = clickupStatuses.find((s) => s.type === 'closed')?.status;
    await eventually(async () => (task()?.status === closed ? true : undefined), 30_000, 'closed in ClickUp');
    await quiet(fake().settled);
    expect(fake().deliveries.at(-1)?.status).toBe(202);
    const all = await statuses(site, n);
    expect(all).toHaveLength(3);
    expect(all.at(-1)).toMatchObject({ actor: { kind: 'member' }, to: 'resolved' });
    // Reopened in Snag: the first open status.
    await site.client.patch(`/api/client/website/${site.id}/request/${n}`, { status: 'new' });
    await eventually(
      async () => (task()?.status === 'to do' ? true : undefined),
      30_000,
      'reopened in ClickUp',
    );
  });

  it('comments both ways: ClickUp → internal Snag comment once; public Snag comment → ClickUp, no mention, no echo', async () => {
    await fake().actAsHuman(taskId, { kind: 'comment', text: 'Looking into it' });
    await eventually(
      async () => (await comments(site, n)).find((c) => c.body === 'Looking into it'),
      30_000,
      'the synced comment',
    );
    const body = 'We shipped a fix, @everyone';
    await site.client.post(`/api/client/website/${site.id}/request/${n}/comments`, {
      body,
      visibility: 'public',
    });
    const posted = await eventually(
      async () => task()?.comments.find((c) => c.text.includes('We shipped')),
      30_000,
      'the ClickUp comment',
    );
    expect(posted.text).toMatch(/ wrote in Snag:\n\nWe shipped a fix, @\u2060everyone$/);
    await quiet(fake().settled);
    const all = await comments(site, n);
    expect(all.map((c) => c.body).sort()).toEqual(['Looking into it', body]);
    expect(all.find((c) => c.body === 'Looking into it')).toMatchObject({
      visibility: 'internal',
      author: { kind: 'tracker', vendor: 'clickup' },
    });
    expect(task()?.comments).toHaveLength(2);
  });

  it('ClickUp chooses the secret: regenerate is refused and changes nothing; registering again replaces the webhook and its secret', async () => {
    const before = fake().hooks.map((h) => ({ ...h }));
    const refused = await site.client.post(`/api/client/integration/clickup/hook/${site.id}/regenerate`);
    expect([refused.status, (refused.body as { code?: string }).code]).toEqual([
      400,
      'HOOK_SECRET_NOT_SNAGS',
    ]);
    expect(fake().hooks).toEqual(before);
    const again = await site.client.post(`/api/client/integration/clickup/hook/${site.id}/register`);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(fake().hooks).toHaveLength(1);
    const made = fake().hooks[0];
    expect(made?.id).not.toBe(before[0]?.id);
    expect(
      fake()
        .requests.filter((r) => r.method === 'DELETE')
        .map((r) => r.path),
    ).toEqual([`/api/v2/webhook/${before[0]?.id}`]);
    const now: HookAnswer = msgOf(
      await site.client.post(`/api/client/integration/clickup/hook/${site.id}/secret`),
    );
    expect(now.secret).toBe(made?.secret);
    // The new webhook's deliveries, signed with ClickUp's new secret, are taken.
    const [delivery] = await fake().actAsHuman(taskId, {
      kind: 'comment',
      text: 'Seen after the new webhook',
    });
    expect([delivery?.hookId, delivery?.status]).toEqual([made?.id, 202]);
    await eventually(
      async () => (await comments(site, n)).find((c) => c.body === 'Seen after the new webhook'),
      30_000,
      'the comment through the new webhook',
    );
  });

  it('removing the integration deletes the webhook at ClickUp', async () => {
    const removed = await site.client.delete(`/api/client/integration/clickup/authentication/${site.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(fake().hooks).toEqual([]);
    const shown: HookAnswer = msgOf(await site.client.get(`/api/client/integration/clickup/hook/${site.id}`));
    expect(shown.registered).toBeNull();
  });
});
