/**
 * The inbound tracker hooks, `POST /api/hooks/{vendor}/{hookId}` (issue 24, DESIGN section 8,
 * docs/webhooks.md "Inbound tracker hooks"), through the local gateway: for GitLab and Jira a valid
 * delivery is queued (202), a forged one refused (401), a replay taken once (202 duplicate), a malformed
 * one refused (400), an unknown hook 404, a flood 429, a huge body 413, never a 500; regenerating the
 * secret stops the old one; another client can neither read nor regenerate the secret. (Linear's stale
 * timestamp is a unit test of its verifier: GitLab and Jira sign no time.)
 */

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HookAnswer } from '#contracts/sync';
import { db } from '#runtime/aws/dynamo';
import { rateWindow } from '#runtime/rate-limit';
import { hookRate } from '../../functions/integrations/sync/inbound';
import { hubSignature } from '../../functions/integrations/sync/verify';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';

const stack = setUpTestStack();
let site: Site;
let gitlab: HookAnswer;
let jira: HookAnswer;

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions themselves.
const msgOf = (r: { body: unknown }): any => (r.body as { msg?: unknown }).msg;

beforeAll(async () => {
  site = await newSite(stack.url, 'BASIC_PLAN');
  for (const [name, data] of [
    ['gitlab', { host: '', key: 'glpat-hooks-0123456789', id: '101' }],
    ['jira', { host: 'http://127.0.0.1:9', username: 'me@example.com', key: 'jira-hooks-0123456789' }],
  ] as const) {
    const res = await site.client.patch(`/api/client/integration/${site.id}`, [{ name, active: 1, data }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  gitlab = msgOf(await site.client.post(`/api/client/integration/gitlab/hook/${site.id}/secret`));
  jira = msgOf(await site.client.post(`/api/client/integration/jira/hook/${site.id}/secret`));
}, 120_000);

let keys = 0;
const issueHook = (iid = 1, project = 101) =>
  JSON.stringify({
    object_kind: 'issue',
    user: { id: 42, name: 'Jane Doe', username: 'jane' },
    project: { id: project },
    object_attributes: {
      id: 9001,
      iid,
      action: 'close',
      state: 'closed',
      url: `https://gitlab.com/x/-/issues/${iid}`,
    },
  });

async function toGitlab(body: string, headers: Record<string, string> = {}, url = String(gitlab.url)) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-gitlab-event': 'Issue Hook',
      'x-gitlab-token': String(gitlab.secret),
      'idempotency-key': `key-${++keys}-${Date.now()}`,
      ...headers,
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as { code?: string; msg?: { outcome?: string } } };
}

const jiraComment = (id: string, timestamp = Date.now()) =>
  JSON.stringify({
    timestamp,
    webhookEvent: 'comment_created',
    issue: { id: '20001', key: 'WEB-1', self: 'https://acme.atlassian.net/rest/api/2/issue/20001' },
    comment: { id, body: 'Looking into it', author: { accountId: 'abc', displayName: 'Jane Doe' } },
  });

async function toJira(body: string, signature = hubSignature(String(jira.secret), body)) {
  const res = await fetch(String(jira.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature': signature },
    body,
  });
  return { status: res.status, body: (await res.json()) as { code?: string; msg?: { outcome?: string } } };
}

describe('GitLab hooks (X-Gitlab-Token)', () => {
  it('a valid delivery is queued: 202', async () => {
    const res = await toGitlab(issueHook());
    expect(res).toEqual({ status: 202, body: { status: 'success', msg: { outcome: 'queued' } } });
  });

  it('a replay of the same delivery (same Idempotency-Key) is taken once: 202 duplicate', async () => {
    const headers = { 'idempotency-key': 'replayed-7f1c' };
    expect((await toGitlab(issueHook(), headers)).body.msg?.outcome).toBe('queued');
    expect(await toGitlab(issueHook(), headers)).toMatchObject({
      status: 202,
      body: { msg: { outcome: 'duplicate' } },
    });
  });

  it('a forged or missing token is 401 HOOK_SIGNATURE_INVALID', async () => {
    expect(await toGitlab(issueHook(), { 'x-gitlab-token': `${gitlab.secret}x` })).toMatchObject({
      status: 401,
      body: { code: 'HOOK_SIGNATURE_INVALID' },
    });
    expect((await toGitlab(issueHook(), { 'x-gitlab-token': '' })).status).toBe(401);
    // The other tracker's secret is not this hook's.
    expect((await toGitlab(issueHook(), { 'x-gitlab-token': String(jira.secret) })).status).toBe(401);
  });

  it('malformed deliveries are 400, never 500', async () => {
    expect(await toGitlab('{"object_kind": "issue",')).toMatchObject({
      status: 400,
      body: { code: 'INVALID_JSON' },
    });
    expect(await toGitlab(JSON.stringify({ object_kind: 'issue', user: 'x' }))).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PARAMETERS' },
    });
    expect((await toGitlab(JSON.stringify([1, 2]))).status).toBe(400);
    expect((await toGitlab('null')).status).toBe(400);
    expect((await toGitlab(issueHook(), { 'idempotency-key': '' })).status).toBe(400);
  });

  it('a delivery about another GitLab project, or an event Snag does not act on, is 202 ignored', async () => {
    expect((await toGitlab(issueHook(1, 999))).body.msg?.outcome).toBe('ignored');
    const opened = JSON.parse(issueHook()) as { object_attributes: { action: string } };
    opened.object_attributes.action = 'open';
    expect((await toGitlab(JSON.stringify(opened))).body.msg?.outcome).toBe('ignored');
  });

  it('an unknown or malformed hook id, or the wrong vendor, is 404', async () => {
    const hookId = String(gitlab.url).split('/').pop();
    expect((await toGitlab(issueHook(), {}, `${stack.url}/api/hooks/gitlab/${'0'.repeat(32)}`)).status).toBe(
      404,
    );
    expect((await toGitlab(issueHook(), {}, `${stack.url}/api/hooks/gitlab/not-a-hook`)).status).toBe(404);
    expect((await toGitlab(issueHook(), {}, `${stack.url}/api/hooks/jira/${hookId}`)).status).toBe(404);
    expect((await toGitlab(issueHook(), {}, `${stack.url}/api/hooks/bitbucket/${hookId}`)).status).toBe(404);
  });

  it('a body over the bound is 413', async () => {
    const huge = JSON.stringify({ object_kind: 'note', pad: 'x'.repeat(300 * 1024) });
    expect((await toGitlab(huge)).status).toBe(413);
  });

  it('a hook past its rate limit is 429', async () => {
    const hookId = String(gitlab.url).split('/').pop() as string;
    const limit = hookRate(hookId);
    const { key } = rateWindow(limit);
    await db().send(new PutCommand({ TableName: stack.tableName, Item: { ...key, count: limit.max } }));
    expect(await toGitlab(issueHook())).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    await db().send(new PutCommand({ TableName: stack.tableName, Item: { ...key, count: 0 } }));
  });

  it('a regenerated secret stops the old one at once', async () => {
    const old = String(gitlab.secret);
    const fresh = msgOf(
      await site.client.post(`/api/client/integration/gitlab/hook/${site.id}/regenerate`),
    ) as HookAnswer;
    expect(fresh.url).toBe(gitlab.url);
    expect(fresh.secret).not.toBe(old);
    expect((await toGitlab(issueHook(), { 'x-gitlab-token': old })).status).toBe(401);
    gitlab = fresh;
    expect((await toGitlab(issueHook())).status).toBe(202);
  });
});

describe('Jira hooks (X-Hub-Signature)', () => {
  it('a valid signed delivery is queued; its replay is a duplicate', async () => {
    const body = jiraComment('10001');
    expect(await toJira(body)).toMatchObject({ status: 202, body: { msg: { outcome: 'queued' } } });
    expect(await toJira(body)).toMatchObject({ status: 202, body: { msg: { outcome: 'duplicate' } } });
  });

  it('a forged, missing or re-signed-with-another-key signature is 401', async () => {
    const body = jiraComment('10002');
    expect((await toJira(body, hubSignature('not-the-secret', body))).status).toBe(401);
    expect((await toJira(body, '')).status).toBe(401);
    expect((await toJira(body, 'sha256=zz')).status).toBe(401);
    // A signature of another body does not cover this one.
    expect((await toJira(body, hubSignature(String(jira.secret), jiraComment('10003')))).status).toBe(401);
  });

  it('malformed deliveries are 400, never 500 (nor a 503 for what the queue could not carry)', async () => {
    expect((await toJira('not json')).status).toBe(400);
    const oversized = JSON.parse(jiraComment('10004'));
    oversized.issue.id = '9'.repeat(5000);
    expect((await toJira(JSON.stringify(oversized))).status).toBe(400);
    oversized.issue.id = '20001';
    oversized.issue.key = '';
    expect((await toJira(JSON.stringify(oversized))).status).toBe(400);
    expect(await toJira(JSON.stringify({ webhookEvent: 'comment_created' }))).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PARAMETERS' },
    });
  });
});

describe('the hook settings', () => {
  it('a GET never carries the secret', async () => {
    const shown = msgOf(
      await site.client.get(`/api/client/integration/gitlab/hook/${site.id}`),
    ) as HookAnswer;
    expect(shown).toEqual({ vendor: 'gitlab', url: gitlab.url, registered: null });
  });

  it('another signed-in client can neither read nor regenerate the secret: 404', async () => {
    const { client } = await signedIn(stack.url);
    for (const [method, path] of [
      ['GET', `/api/client/integration/gitlab/hook/${site.id}`],
      ['POST', `/api/client/integration/gitlab/hook/${site.id}/secret`],
      ['POST', `/api/client/integration/jira/hook/${site.id}/regenerate`],
      ['POST', `/api/client/integration/gitlab/hook/${site.id}/register`],
    ] as const) {
      const res = method === 'GET' ? await client.get(path) : await client.post(path);
      expect(res.status, path).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(String(gitlab.secret));
    }
    // The secret still works: nothing was regenerated.
    expect((await toJira(jiraComment('10009'))).status).toBe(202);
  });
});
