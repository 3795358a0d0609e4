/**
 * Filing issues through the public API (issue 34, docs/api.md "Filing issues") on the local stack, real
 * handlers: the upload form and the create under the `issues:create` scope (403 without it, 404 on another
 * team's project), the widget's own refusals (keys foreign, reused, missing or of the wrong kind; stored
 * objects of the wrong type; sizes; text rules), the plan (features, quota) and not the visitor windows,
 * idempotency (a retry answers the first issue, another body is refused, concurrent calls file one), who
 * filed it (the activity and the issue page), the fan-out to an integration, the widget configuration for
 * the extension, and the documented example script run as a user would.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v1IssueCreatedSchema, v1UploadSchema, v1WidgetConfigSchema } from '#contracts/api-v1';
import { intakeRateLimits } from '#contracts/intake';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { findUserIdByEmail } from '../../functions/accounts/user';
import type { ApiClient } from '../support/api-client';
import { countFunctionRequests } from '../support/dynamo-calls';
import { eventually } from '../support/local-stack';
import { png } from '../support/png';
import { type Receiver, startReceiver } from '../support/receiver';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { signedIn } from '../support/users';
import { postForm, type UploadForm } from '../support/widget';

type Json = Record<string, unknown>;
const MB = 1024 * 1024;

const stack = setUpTestStack({
  queues: { delivery: { visibilityTimeoutSeconds: 1, retryDelaysSeconds: [1, 1, 1, 1] } },
});
/** DynamoDB requests the v1 function sends per call (docs/data-model.md 4.15's table). */
const requestsOf = countFunctionRequests('api:v1');
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  await receiver?.close();
});

interface Reply {
  status: number;
  headers: Headers;
  body: { status: 'success'; msg: Json } | { status: 'error'; code: string; msg: string; fields?: Json };
}

async function v1(
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await fetch(new URL(path, stack.url), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const codeOf = (r: Reply) => (r.body.status === 'error' ? r.body.code : 'success');
const msgOf = <T = Json>(r: Reply): T => {
  if (r.body.status !== 'success') throw new Error(`refused: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.msg as T;
};

async function uidOf(email: string) {
  const uid = await findUserIdByEmail(email.toLowerCase());
  if (!uid) throw new Error('no user id');
  return uid;
}

const fileScopes = ['projects:read', 'issues:read', 'issues:create'];

/** The browser extension's connection as it makes it (contracts/extension.ts): approve, then exchange. */
async function extensionToken(client: ApiClient): Promise<string> {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const approved = await client.post<{ code: string }>('/api/client/extension/connect', {
    challenge,
    browser: 'Chrome',
  });
  const { code } = (approved.body as { msg: { code: string } }).msg;
  const res = await fetch(new URL('/api/extension/token', stack.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
    },
    body: JSON.stringify({ code, verifier }),
  });
  const answer = (await res.json()) as { msg: { token: string } };
  return answer.msg.token;
}

async function tokenFor(client: ApiClient, teamId: string, name: string, scopes = fileScopes) {
  const made = await client.post<{ token: string }>(`/api/client/team/${teamId}/tokens`, { name, scopes });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return (made.body as { msg: { token: string } }).msg.token;
}

/** A team (its owner named Ada Lovelace, on `plan`) with one project for shop.example and a filing token "CI". */
async function team(plan: 'FREE_PLAN' | 'BASIC_PLAN' = 'BASIC_PLAN') {
  const site = await newSite(stack.url, plan);
  const teamId = await uidOf(site.email);
  const token = await tokenFor(site.client, teamId, 'CI');
  return { site, teamId, token, base: `/api/v1/projects/${site.id}` };
}
type Team = Awaited<ReturnType<typeof team>>;

/** The API's upload form for `content`, and the upload itself (the form posted to storage). */
async function upload(t: Team, kind: string, type: string, content: Uint8Array, storedType?: string) {
  const res = await v1(t.token, 'POST', `${t.base}/uploads`, { kind, type, size: content.length });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const form = v1UploadSchema.parse(msgOf(res)) as UploadForm;
  expect(await postForm(form, content, storedType)).toBeLessThan(300);
  return form.key;
}

const screenshot = () => png(64, 48, [200, 40, 40]);
const create = (t: Team, body: Json, headers: Record<string, string> = {}) =>
  v1(t.token, 'POST', `${t.base}/issues`, { description: 'The pay button does nothing', ...body }, headers);

async function meta(projectId: string) {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: { pk: `PROJECT#${projectId}`, sk: 'META' },
      ConsistentRead: true,
    }),
  );
  return out.Item ?? {};
}
const openCount = async (projectId: string) => Number((await meta(projectId)).openCount ?? 0);

async function activity(site: Site, n: number) {
  const res = await site.client.get(`/api/client/website/${site.id}/request/${n}/activity`);
  expect(res.status).toBe(200);
  return (res.body as { msg: { entries: (Json & { actor?: Json })[] } }).msg.entries;
}

async function issuePage(site: Site, n: number) {
  const res = await site.client.get(`/api/client/website/${site.id}/request/${n}`);
  expect(res.status).toBe(200);
  return (res.body as { msg: Json }).msg;
}

describe('filing an issue with a token', () => {
  it('uploads a screenshot and a file, files the issue (201, its dashboard address) and sends it to the integrations', async () => {
    const t = await team();
    // An integration that receives issue.created (a webhook to the local receiver).
    const hook = `/hook-${t.site.id}`;
    const saved = await t.site.client.patch(`/api/client/integration/${t.site.id}`, [
      {
        name: 'webhooks',
        active: 1,
        data: { url: `${receiver.url}${hook}`, token: 'whsec-create-0123456789' },
      },
    ]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const shot = await upload(t, 'screenshot', 'image/png', screenshot());
    const file = await upload(t, 'file', 'application/pdf', new TextEncoder().encode('%PDF-1.4 test'));
    const res = await create(t, {
      title: 'Checkout button does nothing',
      reporterEmail: 'qa@shop.example',
      pageUrl: 'https://shop.example/checkout',
      device: { browser: 'Chrome', browserVersion: '131' },
      customFields: [{ name: 'Build', value: '1.4.2' }],
      screenshots: [{ key: shot, type: 'png' }],
      files: [{ key: file, name: 'invoice.pdf' }],
      steps: [{ t: 1_700_000_000_000, kind: 'click', label: 'Pay' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = v1IssueCreatedSchema.parse(msgOf(res));
    expect(created.url).toBe(`${stack.url}/profile/site/${t.site.id}/ticket/${created.number}`);
    // The token's own rate limit counts it; nothing counts it as a visitor's.
    expect(res.headers.get('ratelimit-limit')).toBeTruthy();

    const issue = msgOf(await v1(t.token, 'GET', `${t.base}/issues/${created.number}`));
    expect(issue).toMatchObject({
      title: 'Checkout button does nothing',
      description: 'The pay button does nothing',
      reporter: 'qa@shop.example',
      pageUrl: 'https://shop.example/checkout',
      customFields: [{ name: 'Build', value: '1.4.2' }],
      filedVia: { kind: 'token', name: 'Ada Lovelace', token: 'CI' },
      steps: [{ kind: 'click', label: 'Pay' }],
    });
    expect((issue.device as Json).browser).toBe('Chrome');
    const [stored] = issue.screenshots as { url: string; size: number }[];
    expect(stored?.size).toBe(screenshot().length);
    const fetched = await fetch(stored!.url);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(Buffer.from(screenshot()))).toBe(true);
    expect((issue.files as Json[])[0]).toMatchObject({
      originalName: 'invoice.pdf',
      type: 'application/pdf',
    });

    // The dashboard: "Ada Lovelace via API token CI" filed it.
    const created1 = (await activity(t.site, created.number)).find((e) => e.kind === 'created');
    expect(created1?.actor).toMatchObject({ kind: 'token', name: 'Ada Lovelace', token: 'CI' });
    expect((await issuePage(t.site, created.number)).filedVia).toEqual({
      kind: 'token',
      name: 'Ada Lovelace',
      token: 'CI',
    });

    const hit = await eventually(
      async () => receiver.to(hook).find((r) => JSON.parse(r.rawBody).event === 'issue.created'),
      60_000,
      'issue.created at the webhook',
    );
    expect(JSON.parse(hit.rawBody)).toMatchObject({ event: 'issue.created' });
    expect(hit.rawBody).toContain('Checkout button does nothing');
  });

  it('is not held to the visitor windows: more issues than a visitor may send in ten minutes', async () => {
    const t = await team();
    const many = intakeRateLimits.reportPerVisitor.max + 2;
    for (let i = 0; i < many; i++) expect(codeOf(await create(t, { title: `Run ${i}` }))).toBe('success');
    expect(await openCount(t.site.id)).toBe(many);
  });

  it("answers the project's widget for the extension, as the snippet's loader gets it", async () => {
    const t = await team();
    const res = await v1(t.token, 'GET', `${t.base}/widget`);
    expect(res.status).toBe(200);
    const widget = v1WidgetConfigSchema.parse(msgOf(res));
    expect(widget).toMatchObject({ id: t.site.id, host: 'shop.example', screenshot: true, api: stack.url });
    const loader = await (await fetch(new URL(`/api/website/${t.site.id}/code`, stack.url))).text();
    expect(loader).toContain(`"customFields":${JSON.stringify(widget.customFields)}`);
    expect(loader).toContain(`"video":${widget.video}`);
  });
});

describe('who may file', () => {
  it('refuses a token without issues:create (403 INSUFFICIENT_SCOPE) on every filing route', async () => {
    const t = await team();
    const reader = await tokenFor(t.site.client, t.teamId, 'reader', ['projects:read', 'issues:read']);
    const calls: [string, 'GET' | 'POST', unknown][] = [
      [`${t.base}/uploads`, 'POST', { kind: 'screenshot', type: 'image/png', size: 10 }],
      [`${t.base}/issues`, 'POST', { description: 'x' }],
      [`${t.base}/widget`, 'GET', undefined],
    ];
    for (const [path, method, body] of calls) {
      const res = await v1(reader, method, path, body);
      expect([path, res.status, codeOf(res)]).toEqual([path, 403, 'INSUFFICIENT_SCOPE']);
    }
    expect(await openCount(t.site.id)).toBe(0);
  });

  it("answers another team's project as NOT_FOUND, and files nothing there", async () => {
    const [mine, theirs] = await Promise.all([team(), team()]);
    const foreign = { ...mine, base: `/api/v1/projects/${theirs.site.id}` };
    expect(
      codeOf(
        await v1(mine.token, 'POST', `${foreign.base}/uploads`, {
          kind: 'screenshot',
          type: 'image/png',
          size: 10,
        }),
      ),
    ).toBe('NOT_FOUND');
    expect((await create(foreign, {})).status).toBe(404);
    expect((await v1(mine.token, 'GET', `${foreign.base}/widget`)).status).toBe(404);
    expect(await openCount(theirs.site.id)).toBe(0);
  });

  it('files as the member through the browser extension: "<name> via extension", a GUEST on its own project too', async () => {
    const t = await team();
    const guest = await signedIn(stack.url);
    const guestId = await uidOf(guest.email);
    await addToTeam(t.teamId, guestId, 'GUEST', [t.site.id]);
    expect(
      (await guest.client.patch('/api/client/profile', { firstName: 'Grace', lastName: 'Hopper' })).status,
    ).toBe(200);
    const ext = { ...t, token: await extensionToken(guest.client) };
    expect(ext.token).toMatch(/^snag_ext_/);

    // The widget's form for the page without the snippet, then a screenshot and the issue.
    expect((await v1(ext.token, 'GET', `${t.base}/widget`)).status).toBe(200);
    const key = await upload(ext, 'screenshot', 'image/png', screenshot());
    const res = await create(ext, { title: 'Found on staging', screenshots: [{ key, type: 'png' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { number } = v1IssueCreatedSchema.parse(msgOf(res));
    const entry = (await activity(t.site, number)).find((e) => e.kind === 'created');
    expect(entry?.actor).toEqual({ kind: 'member', id: guestId, name: 'Grace Hopper', via: 'extension' });
    expect((await issuePage(t.site, number)).filedVia).toEqual({
      kind: 'extension',
      name: 'Grace Hopper',
      token: null,
    });
    expect(msgOf(await v1(ext.token, 'GET', `${t.base}/issues/${number}`)).filedVia).toMatchObject({
      kind: 'extension',
    });

    // Another project of the same team, not in the guest's list, and another team's: not the member's to file into.
    const otherProject = await t.site.client.post<{ id: string }>('/api/client/website', {
      name: 'Other',
      url: 'other.example',
    });
    const hidden = (otherProject.body as { msg: { id: string } }).msg.id;
    const elsewhere = await team();
    for (const pid of [hidden, elsewhere.site.id]) {
      const refused = await v1(ext.token, 'POST', `/api/v1/projects/${pid}/issues`, { description: 'x' });
      expect([refused.status, codeOf(refused)]).toEqual([404, 'NOT_FOUND']);
    }
    // Revoked under Profile: 401 with the header that tells the extension to connect again.
    const [connection] = (await guest.client.get<{ id: string }[]>('/api/client/profile/extensions')).body
      .msg as unknown as { id: string }[];
    expect((await guest.client.delete(`/api/client/profile/extensions/${connection!.id}`)).status).toBe(200);
    const revoked = await create(ext, { title: 'After revoking' });
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toBe('Bearer realm="snag", error="invalid_token"');
  });
});

describe('the plan', () => {
  it('refuses videos and files on Free (PLAN_LIMIT), at the form and at the create', async () => {
    const t = await team('FREE_PLAN');
    const ask = (kind: string, type: string) =>
      v1(t.token, 'POST', `${t.base}/uploads`, { kind, type, size: 1000 });
    expect(codeOf(await ask('video', 'video/webm'))).toBe('PLAN_LIMIT');
    expect(codeOf(await ask('file', 'application/pdf'))).toBe('PLAN_LIMIT');
    const forged = `pending/${t.site.id}/video/0d8f2c1e-1111-4a4a-8b8b-123456789abc.webm`;
    const res = await create(t, { screenshots: [{ key: forged, type: 'webm' }] });
    expect([res.status, codeOf(res)]).toEqual([403, 'PLAN_LIMIT']);
    // Screenshots are every plan's.
    expect(codeOf(await ask('screenshot', 'image/png'))).toBe('success');
  });

  it("does not apply the widget's switches to the project's own people", async () => {
    const t = await team();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `PROJECT#${t.site.id}`, sk: 'META' },
        UpdateExpression: 'SET #d.widgetDisableScreenshot = :on',
        ExpressionAttributeNames: { '#d': 'data' },
        ExpressionAttributeValues: { ':on': true },
      }),
    );
    const key = await upload(t, 'screenshot', 'image/png', screenshot());
    expect((await create(t, { screenshots: [{ key, type: 'png' }] })).status).toBe(201);
  });

  it("refuses what would pass the team's storage quota, leaving nothing behind", async () => {
    const t = await team('FREE_PLAN');
    const shot = screenshot();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `TEAM#${t.teamId}`, sk: 'TEAM' },
        UpdateExpression: 'SET storageBytes = :used',
        ExpressionAttributeValues: { ':used': 100 * MB - shot.length + 1 },
      }),
    );
    const key = await upload(t, 'screenshot', 'image/png', shot);
    const res = await create(t, { screenshots: [{ key, type: 'png' }] });
    expect([res.status, codeOf(res)]).toEqual([403, 'QUOTA_EXCEEDED']);
    expect(await openCount(t.site.id)).toBe(0);
  });
});

describe('the intake rules', () => {
  it('refuses sizes and types at the form', async () => {
    const t = await team();
    const ask = (body: Json) => v1(t.token, 'POST', `${t.base}/uploads`, body);
    const big = await ask({ kind: 'screenshot', type: 'image/png', size: 500 * MB });
    expect([big.status, codeOf(big)]).toEqual([413, 'FILE_TOO_LARGE']);
    const exe = await ask({ kind: 'file', type: 'application/x-msdownload', size: 10 });
    expect([exe.status, codeOf(exe)]).toEqual([415, 'FILE_TYPE_NOT_ALLOWED']);
    expect((await ask({ kind: 'bomb', type: 'image/png', size: 10 })).status).toBe(400);
  });

  it('refuses bad, foreign, reused, missing and mistyped uploads with INVALID_UPLOAD, and files nothing', async () => {
    const [t, other] = await Promise.all([team(), team()]);
    const refused = async (screenshots: Json[], why: string) => {
      const res = await create(t, { screenshots });
      expect([why, res.status, codeOf(res)]).toEqual([why, 400, 'INVALID_UPLOAD']);
    };
    await refused([{ key: 'p/../../etc/passwd', type: 'png' }], 'malformed');
    await refused(
      [{ key: await upload(other, 'screenshot', 'image/png', screenshot()), type: 'png' }],
      'foreign',
    );
    // Asked for, never uploaded.
    const form = msgOf<UploadForm>(
      await v1(t.token, 'POST', `${t.base}/uploads`, { kind: 'screenshot', type: 'image/png', size: 100 }),
    );
    await refused([{ key: form.key, type: 'png' }], 'missing');
    // Stored as HTML under a PNG's key (storage here checks no policy; the create checks the object).
    await refused(
      [{ key: await upload(t, 'screenshot', 'image/png', screenshot(), 'text/html'), type: 'png' }],
      'mistyped',
    );
    // A file's key in a screenshot's place.
    await refused(
      [{ key: await upload(t, 'file', 'application/pdf', new Uint8Array([37, 80, 68, 70])), type: 'png' }],
      'wrong kind',
    );
    const key = await upload(t, 'screenshot', 'image/png', screenshot());
    await refused(
      [
        { key, type: 'png' },
        { key, type: 'png' },
      ],
      'twice in one issue',
    );
    expect(await openCount(t.site.id)).toBe(0);
    expect((await create(t, { screenshots: [{ key, type: 'png' }] })).status).toBe(201);
    await refused([{ key, type: 'png' }], 'reused');
    expect(await openCount(t.site.id)).toBe(1);
  });

  it("refuses text the widget's rules refuse, unknown fields and a bad Idempotency-Key (400)", async () => {
    const t = await team();
    const bad: [string, Json, Record<string, string>?][] = [
      ['empty description', { description: '   ' }],
      ['control character', { description: 'pay\u0007button' }],
      ['bidi override in a title', { title: 'a\u202eb' }],
      ['not an email', { reporterEmail: 'nobody' }],
      ['javascript: page', { pageUrl: 'javascript:alert(1)' }],
      ['unknown field', { proof: 'x' }],
      ['long key', {}, { 'idempotency-key': 'k'.repeat(201) }],
      ['key with a space', {}, { 'idempotency-key': 'a b' }],
    ];
    for (const [why, body, headers] of bad) {
      const res = await create(t, body, headers);
      expect([why, res.status]).toEqual([why, 400]);
    }
    expect(await openCount(t.site.id)).toBe(0);
  });
});

describe('idempotency', () => {
  it('answers a retry with the first issue (200), refuses the key for another body (422), per token', async () => {
    const t = await team();
    const key = { 'idempotency-key': `run-${t.site.id}` };
    const first = await create(t, { title: 'Flaky login' }, key);
    expect(first.status).toBe(201);
    const again = await create(t, { title: 'Flaky login' }, key);
    expect(again.status).toBe(200);
    expect(msgOf(again)).toEqual(msgOf(first));
    expect(await openCount(t.site.id)).toBe(1);

    const other = await create(t, { title: 'Another bug' }, key);
    expect([other.status, codeOf(other)]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(other.body.msg).toMatch(/Idempotency-Key/);
    const german = await v1(t.token, 'POST', `${t.base}/issues?lng=de`, { description: 'x' }, key);
    expect(german.body.msg).toMatch(/Schlüssel/);
    expect(await openCount(t.site.id)).toBe(1);

    // Keys are the token's own: another token's same key files its own issue.
    const second = await tokenFor(t.site.client, t.teamId, 'nightly');
    const theirs = await v1(
      second,
      'POST',
      `${t.base}/issues`,
      { description: 'The pay button does nothing', title: 'Flaky login' },
      key,
    );
    expect(theirs.status).toBe(201);
    expect(msgOf(theirs).number).not.toBe(msgOf(first).number);
  });

  it('files one issue for concurrent calls with one key', async () => {
    const t = await team();
    const key = { 'idempotency-key': `concurrent-${t.site.id}` };
    const key0 = await upload(t, 'screenshot', 'image/png', screenshot());
    const body = { title: 'Race', screenshots: [{ key: key0, type: 'png' }] };
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(t, body, key)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const a of answers) {
      if (a.status === 409) expect(codeOf(a)).toBe('IDEMPOTENCY_IN_PROGRESS');
      else expect(msgOf(a).number).toBe(msgOf(answers.find((x) => x.status === 201)!).number);
    }
    expect(await openCount(t.site.id)).toBe(1);
  });

  it('gives the key back when the create is refused, so the fixed call can use it', async () => {
    const t = await team();
    const key = { 'idempotency-key': `fix-${t.site.id}` };
    const missing = `pending/${t.site.id}/screenshot/0d8f2c1e-2222-4a4a-8b8b-123456789abc.png`;
    expect(codeOf(await create(t, { screenshots: [{ key: missing, type: 'png' }] }, key))).toBe(
      'INVALID_UPLOAD',
    );
    const shot = await upload(t, 'screenshot', 'image/png', screenshot());
    expect((await create(t, { screenshots: [{ key: shot, type: 'png' }] }, key)).status).toBe(201);
  });
});

describe('what a filing call costs', () => {
  it('sends a fixed number of DynamoDB requests per call (docs/data-model.md 4.15)', async () => {
    const t = await team();
    const upload = await requestsOf(() =>
      v1(t.token, 'POST', `${t.base}/uploads`, { kind: 'screenshot', type: 'image/png', size: 100 }),
    );
    const plain = await requestsOf(() => create(t, { title: 'No key' }));
    const keyed = await requestsOf(() =>
      create(t, { title: 'Keyed' }, { 'idempotency-key': `cost-${t.site.id}` }),
    );
    const retried = await requestsOf(() =>
      create(t, { title: 'Keyed' }, { 'idempotency-key': `cost-${t.site.id}` }),
    );
    // Every v1 call: the token, its creator's TEAMS, the rate window (its first call also records lastUsedAt).
    const auth = ['GetItemCommand', 'GetItemCommand', 'UpdateItemCommand'];
    // The access check: META with the caller's memberships (the token item) in one BatchGetItem.
    expect(upload).toEqual([...auth, 'UpdateItemCommand', 'BatchGetItemCommand']);
    // Then the number (one UpdateItem), the issue's one transaction and Insights' page count (one UpdateItem,
    // docs/insights.md); a key adds its claim (one PutItem).
    const filed = ['UpdateItemCommand', 'TransactWriteItemsCommand', 'UpdateItemCommand'];
    expect(plain).toEqual([...auth, 'BatchGetItemCommand', ...filed]);
    expect(keyed).toEqual([...auth, 'BatchGetItemCommand', 'PutItemCommand', ...filed]);
    // A retry: the refused claim and the record's read, and nothing written.
    expect(retried).toEqual([...auth, 'BatchGetItemCommand', 'PutItemCommand', 'GetItemCommand']);
  });
});

describe('the documents', () => {
  it('the live OpenAPI document passes the validator and describes the filing routes', async () => {
    const doc = (await (await fetch(new URL('/api/v1/openapi.json', stack.url))).json()) as {
      paths: Record<string, Record<string, { parameters: Json[]; responses: Json }>>;
    };
    const result = await new Validator().validate(doc as never);
    expect(result).toEqual({ valid: true });
    const createOp = doc.paths['/api/v1/projects/{projectId}/issues']?.post;
    expect(createOp?.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]),
    );
    expect(Object.keys(createOp?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '201', '400', '403', '409', '422']),
    );
    expect(doc.paths['/api/v1/projects/{projectId}/uploads']?.post).toBeDefined();
    expect(doc.paths['/api/v1/projects/{projectId}/widget']?.get).toBeDefined();
  });

  it('docs/examples/file-issue.mjs files an issue with its screenshot, as docs/api.md shows', async () => {
    const t = await team();
    const path = join(tmpdir(), `snag-example-${t.site.id}.png`);
    const shot = png(120, 80, [30, 120, 200], true);
    await writeFile(path, shot);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['docs/examples/file-issue.mjs', path, 'Found by the example script'],
      { env: { ...process.env, SNAG_URL: stack.url, SNAG_TOKEN: t.token, PROJECT_ID: t.site.id } },
    );
    const url = stdout.trim();
    expect(url).toMatch(new RegExp(`/profile/site/${t.site.id}/ticket/\\d+$`));
    const n = Number(url.split('/').pop());
    const issue = msgOf(await v1(t.token, 'GET', `${t.base}/issues/${n}`));
    expect(issue.title).toBe('Found by the example script');
    const [stored] = issue.screenshots as { url: string }[];
    const bytes = Buffer.from(await (await fetch(stored!.url)).arrayBuffer());
    expect(bytes.equals(Buffer.from(shot))).toBe(true);
  });
});
