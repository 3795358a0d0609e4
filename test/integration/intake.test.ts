/**
 * The widget's intake through the local stack (issue 7): presigned uploads to s3rver posted as a browser
 * posts them, reports, and every refusal of docs/widget-api.md "The upload and report calls": the project,
 * the Origin, floods, plan and widget settings, sizes and types, forged and reused keys, the quota. Each
 * visitor is a `CloudFront-Viewer-Address` of its own unless a test needs one visitor.
 */
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it } from 'vitest';
import { intakeRateLimits, projectDay, type UploadKind } from '#contracts/intake';
import { type PlanName, plans } from '#contracts/plans';
import { db } from '#runtime/aws/dynamo';
import { s3 } from '#runtime/aws/s3';
import { rateWindow } from '#runtime/rate-limit';
import { projectDayWindow } from '../../functions/issues/intake';
import { solveAltcha } from '../support/altcha';
import { ApiClient } from '../support/api-client';
import { eventually } from '../support/local-stack';
import { activateIntegration } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { cheapCostsEnv, signedIn } from '../support/users';
import { uploadFile, type WidgetCallOptions, type WidgetReply, widgetCall } from '../support/widget';

// A delivery that fails once lands in the DLQ at once, where the fan-out test reads it.
const stack = setUpTestStack({ queues: { delivery: { visibilityTimeoutSeconds: 1, maxReceiveCount: 1 } } });

const SITE = 'https://shop.example';
const MB = 1024 * 1024;

type Reply = WidgetReply;

interface Site {
  client: ApiClient;
  email: string;
  id: string;
}

/** A signed-in client with one project for shop.example, on `plan`. */
async function site(plan: PlanName = 'FREE_PLAN', data: Record<string, unknown> = {}): Promise<Site> {
  const { client, email } = await signedIn(stack.url);
  const created = await client.post<{ id: string }>('/api/client/website', {
    name: 'Shop',
    url: 'shop.example',
  });
  const id = (created.body as { msg: { id: string } }).msg.id;
  if (plan !== 'FREE_PLAN') await setPlan(client, email, plan);
  if (Object.keys(data).length) await client.patch(`/api/client/website/${id}`, { data });
  return { client, email, id };
}

async function setPlan(client: ApiClient, email: string, plan: PlanName, days = 30) {
  const res = await client.post('/api/dev/plan', { username: email, plan, days });
  expect(res.status).toBe(200);
}

let visitors = 0;
const newVisitor = () => `198.51.100.${(++visitors % 250) + 1}:${40000 + visitors}`;

/** A call as the widget on a customer's page makes it, from a new visitor unless one is named. */
const widget = (id: string, path: 'upload' | 'request', body: unknown, opts: WidgetCallOptions = {}) =>
  widgetCall(stack.url, id, path, body, {
    ...opts,
    origin: opts.origin === undefined ? SITE : opts.origin,
    visitor: opts.visitor ?? newVisitor(),
  });

const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);

const upload = (
  id: string,
  kind: UploadKind,
  type: string,
  content: Uint8Array,
  opts: { declaredSize?: number; storedType?: string; visitor?: string } = {},
) =>
  uploadFile(stack.url, id, kind, type, content, {
    ...opts,
    origin: SITE,
    visitor: opts.visitor ?? newVisitor(),
  });

const report = (id: string, body: Record<string, unknown> = {}, opts: Parameters<typeof widget>[3] = {}) =>
  widget(id, 'request', { msg: 'The checkout button does nothing', ...body }, opts);

/** An item of the table, or `{}` when there is none. */
async function item(pk: string, sk: string): Promise<Record<string, unknown>> {
  const Key = { pk, sk };
  const out = await db().send(new GetCommand({ TableName: stack.tableName, Key, ConsistentRead: true }));
  return out.Item ?? {};
}
const project = (id: string) => item(`PROJECT#${id}`, 'META');

/** The project's team, whose TEAM item counts the storage quota (issue 22). */
async function teamIdOf(id: string): Promise<string> {
  return (await project(id)).teamId as string;
}

async function objectsUnder(prefix: string): Promise<string[]> {
  const out = await (await s3()).send(new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key ?? '');
}

function expectRefused(res: Reply, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ status: 'error', code });
}

/** An active email integration to `email` (the fan-out turns a report into a delivery for it). */
async function emailTo(projectId: string, email: string) {
  await activateIntegration(stack.tableName, projectId, 'email');
  await db().send(
    new UpdateCommand({
      TableName: stack.tableName,
      Key: { pk: `PROJECT#${projectId}`, sk: 'INTEGRATION#email' },
      UpdateExpression: 'SET #d = :d',
      ExpressionAttributeNames: { '#d': 'data' },
      ExpressionAttributeValues: { ':d': { email, cc: [], contactFields: [] } },
    }),
  );
}

describe('a report', () => {
  it('stores the issue with its screenshot and snapshot, counts it, and answers the number', async () => {
    const s = await site();
    const shot = await upload(s.id, 'screenshot', 'image/png', bytes(2048));
    const page = await upload(s.id, 'snapshot', 'text/html', new TextEncoder().encode('<p>page</p>'));
    const res = await report(s.id, {
      msg: '\nCheckout broken\nThe button does nothing.',
      username: 'visitor@example.org',
      href: 'https://shop.example/cart?x=1',
      browser: 'Firefox',
      browserVersion: '130',
      deviceType: 'Mobile',
      screenResolution: '390x844',
      customFields: [{ name: 'Plan', value: 'Gold' }],
      screenshots: [{ key: shot, type: 'png', snapshotKey: page }],
      logs: [{ t: 1, level: 'error', kind: 'console', msg: 'TypeError: x is undefined' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ status: 'success', msg: { number: 1 } });
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(res.headers.get('vary')).toBe('Origin');

    const header = await item(`PROJECT#${s.id}`, 'ISSUE#0000000001');
    expect(header).toMatchObject({
      gsi1pk: `PROJECT#${s.id}#OPEN`,
      gsi1sk: '0000000001',
      number: 1,
      deleted: 0,
      title: 'Checkout broken',
      totalScreenshots: 1,
      totalFiles: 0,
    });
    const detail = await item(`PROJECT#${s.id}`, 'ISSUE#0000000001#DETAIL');
    const size = 2048 + '<p>page</p>'.length;
    expect(detail).toMatchObject({
      data: {
        username: 'visitor@example.org',
        browser: 'Firefox',
        deviceType: 'Mobile',
        customFields: [{ name: 'Plan', value: 'Gold' }],
      },
      bytes: size,
      logs: [{ msg: 'TypeError: x is undefined' }],
      st: { email: 0, gitlab: 0, jira: 0, slack: 0, asana: 0, webhooks: 0 },
    });
    const [screenshot] = detail.screenshots as { name: string; html: string; type: string }[];
    expect(screenshot?.type).toBe('png');
    expect(screenshot?.name).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(screenshot?.html).toMatch(/^[0-9a-f-]{36}\.html$/);

    // The objects moved to their final keys, the pending ones are gone.
    expect((await objectsUnder(`p/${s.id}/s/`)).sort()).toEqual(
      [`p/${s.id}/s/${screenshot?.name}`, `p/${s.id}/s/${screenshot?.html}`].sort(),
    );
    expect(await objectsUnder(`pending/${s.id}/`)).toEqual([]);

    // The counters: the project's open count and bytes, the owner's storage, the list's total.
    expect(await project(s.id)).toMatchObject({ openCount: 1, bytes: size, seq: 1 });
    expect(await item(`TEAM#${await teamIdOf(s.id)}`, 'TEAM')).toMatchObject({ storageBytes: size });
    const list = await s.client.get<{ websites: { uuid: string; total: number }[] }>('/api/client/website');
    expect((list.body as { msg: { websites: { total: number }[] } }).msg.websites[0]?.total).toBe(1);
    await report(s.id);
    const again = await s.client.get('/api/client/website');
    expect((again.body as { msg: { websites: { total: number }[] } }).msg.websites[0]?.total).toBe(2);
  });

  it('files a report whose loader clock said 1970 or the future, its times clamped into the day before it', async () => {
    const s = await site();
    const sentAt = Date.now() - 2_000;
    const day = 24 * 60 * 60 * 1000;
    const res = await report(s.id, {
      sentAt,
      logs: [
        { t: 1, level: 'error', kind: 'exception', msg: 'TypeError: total is undefined' },
        { t: sentAt - 4_000, level: 'error', kind: 'network', msg: 'POST https://shop.example/pay 500' },
      ],
      steps: [
        { t: sentAt + 3_600_000, kind: 'click', label: 'button "Pay"' },
        { t: sentAt - 9_000, kind: 'load', label: 'https://shop.example/checkout' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const n = (res.body as { msg: { number: number } }).msg.number;

    const issue = await s.client.get<{
      logs: { t: number; msg: string }[];
      steps: { t: number }[];
      sent_at: number;
    }>(`/api/client/website/${s.id}/request/${n}`);
    const msg = (
      issue.body as { msg: { logs: { t: number; msg: string }[]; steps: { t: number }[]; sent_at: number } }
    ).msg;
    expect(msg.sent_at).toBe(sentAt);
    expect(msg.logs).toEqual([
      expect.objectContaining({ t: sentAt - day, msg: 'TypeError: total is undefined' }),
      expect.objectContaining({ t: sentAt - 4_000 }),
    ]);
    expect(msg.steps.map((step) => step.t)).toEqual([sentAt, sentAt - 9_000]);
  });

  it('keeps attachments under their own names with the original name as metadata only', async () => {
    const s = await site('BASIC_PLAN');
    const key = await upload(s.id, 'file', 'application/pdf', bytes(300));
    const name = 'Rechnung März "final" (2).pdf';
    const res = await report(s.id, { files: [{ key, original_name: name }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const detail = await item(`PROJECT#${s.id}`, 'ISSUE#0000000001#DETAIL');
    const [file] = detail.files as { name: string; original_name: string; size: number; type: string }[];
    expect(file).toMatchObject({ original_name: name, size: 300, type: 'application/pdf' });
    expect(file?.name).toMatch(/^[0-9a-f-]{36}\.pdf$/);
    const head = await (await s3()).send(
      new HeadObjectCommand({ Bucket: stack.bucket, Key: `p/${s.id}/f/${file?.name}` }),
    );
    expect(head.ContentType).toBe('application/pdf');
    const stored = head.Metadata?.['original-name'] ?? '';
    expect(stored.startsWith("UTF-8''")).toBe(true);
    expect(decodeURIComponent(stored.slice(7))).toBe(name);
  });

  it("refuses a visitor's name with control or bidi characters, and downloads end in the stored type (issue 19)", async () => {
    const s = await site('BASIC_PLAN');
    const text = await upload(
      s.id,
      'file',
      'text/plain',
      new TextEncoder().encode('<script>alert(1)</script>'),
    );
    const image = await upload(s.id, 'file', 'image/png', bytes(64));
    const before = await objectsUnder(`p/${s.id}/`);
    const bidi = await report(s.id, { files: [{ key: text, original_name: 'invoice\u202Efdp.exe' }] });
    expectRefused(bidi, 400, 'INVALID_PARAMETERS');
    expectRefused(await report(s.id, { msg: 'hi\u0000there' }), 400, 'INVALID_PARAMETERS');
    expect(await objectsUnder(`p/${s.id}/`)).toEqual(before);
    expect(await project(s.id)).toMatchObject({ openCount: 0 });

    const res = await report(s.id, {
      files: [
        { key: text, original_name: 'evil.html' },
        { key: image, original_name: 'x.svg' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const detail = await item(`PROJECT#${s.id}`, 'ISSUE#0000000001#DETAIL');
    const cookie = [...s.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const names: string[] = [];
    for (const f of detail.files as { name: string }[]) {
      const signed = await fetch(new URL(`/api/client/download/file/${s.id}/${f.name}`, stack.url), {
        redirect: 'manual',
        headers: { cookie },
      });
      expect(signed.status).toBe(302);
      const object = await fetch(signed.headers.get('location') ?? '');
      expect(object.headers.get('content-type')).toBe('application/octet-stream');
      names.push(object.headers.get('content-disposition') ?? '');
    }
    expect(names).toEqual([
      `attachment; filename="evil.html.txt"; filename*=UTF-8''evil.html.txt`,
      `attachment; filename="x.svg.png"; filename*=UTF-8''x.svg.png`,
    ]);
  });

  it('takes the title from the request when given, and sends issue.created to the fan-out', async () => {
    const s = await site();
    // An active email integration: the fan-out turns the message into a delivery for it.
    await emailTo(s.id, 'intake-team@example.com');
    // A screenshot without a page snapshot may name it empty, as the widget does.
    const shot = await upload(s.id, 'screenshot', 'image/png', bytes(64));
    const res = await report(s.id, {
      title: 'Own title',
      screenshots: [{ key: shot, type: 'png', snapshotKey: '' }],
    });
    expect(res.status).toBe(200);
    expect(await item(`PROJECT#${s.id}`, 'ISSUE#0000000001')).toMatchObject({
      title: 'Own title',
      totalScreenshots: 1,
    });
    // New for every integration, with the sync marker (carrying what the sync list shows); the fan-out sets
    // 1 and deletes the marker only for the active ones (slack is not).
    expect(await item(`PROJECT#${s.id}`, 'ISSUE#0000000001#DETAIL')).toMatchObject({ st: { slack: 0 } });
    expect(await item(`PROJECT#${s.id}`, 'SYNC#slack#0000000001')).toMatchObject({
      s: 0,
      number: 1,
      title: 'Own title',
    });
    // The active email integration got the issue through fan-out and delivery: status 2, no marker.
    await eventually(
      async () => {
        const d = await item(`PROJECT#${s.id}`, 'ISSUE#0000000001#DETAIL');
        return (d.st as Record<string, number>).email === 2 ? true : undefined;
      },
      30_000,
      'the delivery of the new issue',
    );
    expect(await item(`PROJECT#${s.id}`, 'SYNC#email#0000000001')).toEqual({});
  });
});

describe('the project and the origin', () => {
  it('refuses unknown, malformed, inactive and deleted projects with 404 and no CORS', async () => {
    const s = await site();
    for (const id of [randomUUID(), 'not-a-project']) {
      for (const path of ['upload', 'request'] as const) {
        const res = await widget(id, path, { kind: 'screenshot', type: 'image/png', size: 10, msg: 'x' });
        expectRefused(res, 404, 'NOT_FOUND');
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
      }
    }
    await s.client.patch(`/api/client/website/${s.id}`, { active: 0 });
    expectRefused(await report(s.id), 404, 'NOT_FOUND');
    expectRefused(
      await widget(s.id, 'upload', { kind: 'screenshot', type: 'image/png', size: 10 }),
      404,
      'NOT_FOUND',
    );
    await s.client.patch(`/api/client/website/${s.id}`, { active: 1 });
    expect((await report(s.id)).status).toBe(200);
    await s.client.delete(`/api/client/website/${s.id}`);
    expectRefused(await report(s.id), 404, 'NOT_FOUND');
  });

  it('answers only the project domain and its subdomains, unless wildcard', async () => {
    const s = await site();
    for (const origin of ['https://www.shop.example', 'https://eu.shop.example', 'http://shop.example']) {
      const res = await report(s.id, {}, { origin });
      expect(res.status, origin).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    }
    for (const origin of [
      null,
      'null',
      'https://evil.example',
      'https://shop.example.evil.example',
      stack.url,
    ]) {
      const res = await report(s.id, {}, { origin });
      expectRefused(res, 403, 'FORBIDDEN_ORIGIN');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('vary')).toBe('Origin');
    }
    await s.client.patch(`/api/client/website/${s.id}`, { data: { widgetDomainWildcard: true } });
    const anywhere = await report(s.id, {}, { origin: 'https://elsewhere.example' });
    expect(anywhere.status).toBe(200);
    expect(anywhere.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example');
  });

  it('answers the preflight of both calls for the project domain only', async () => {
    const s = await site();
    for (const path of ['upload', 'request'] as const) {
      const ok = await widget(s.id, path, undefined, {
        method: 'OPTIONS',
        origin: 'https://www.shop.example',
      });
      expect(ok.status).toBe(204);
      expect(Object.fromEntries(ok.headers)).toMatchObject({
        'access-control-allow-origin': 'https://www.shop.example',
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
        vary: 'Origin',
      });
      const refused = await widget(s.id, path, undefined, {
        method: 'OPTIONS',
        origin: 'https://evil.example',
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      const unknown = await widget(randomUUID(), path, undefined, { method: 'OPTIONS' });
      expect(unknown.status).toBe(404);
    }
  });

  it('lets the widget read refusals: error envelopes carry CORS for the project domain', async () => {
    const s = await site();
    const res = await widget(s.id, 'upload', { kind: 'file', type: 'application/pdf', size: 10 });
    expectRefused(res, 403, 'PLAN_LIMIT');
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    const bad = await widget(s.id, 'request', { msg: '' });
    expectRefused(bad, 400, 'INVALID_PARAMETERS');
    expect(bad.headers.get('access-control-allow-origin')).toBe(SITE);
  });
});

describe('uploads', () => {
  it('refuses oversize and wrong types when the form is asked for', async () => {
    const s = await site('BUSINESS_PLAN', { widgetDisableVideo: false });
    const cases: [UploadKind, string, number, number, string][] = [
      ['screenshot', 'image/png', 10 * MB + 1, 413, 'FILE_TOO_LARGE'],
      ['snapshot', 'text/html', 5 * MB + 1, 413, 'FILE_TOO_LARGE'],
      ['file', 'application/pdf', 25 * MB + 1, 413, 'FILE_TOO_LARGE'],
      ['video', 'video/webm', 100 * MB + 1, 413, 'FILE_TOO_LARGE'],
      ['screenshot', 'image/svg+xml', 100, 415, 'FILE_TYPE_NOT_ALLOWED'],
      ['snapshot', 'image/png', 100, 415, 'FILE_TYPE_NOT_ALLOWED'],
      ['file', 'text/html', 100, 415, 'FILE_TYPE_NOT_ALLOWED'],
      ['file', 'application/x-msdownload', 100, 415, 'FILE_TYPE_NOT_ALLOWED'],
      ['video', 'video/quicktime', 100, 415, 'FILE_TYPE_NOT_ALLOWED'],
    ];
    for (const [kind, type, size, status, code] of cases) {
      expectRefused(await widget(s.id, 'upload', { kind, type, size }), status, code);
    }
    expectRefused(
      await widget(s.id, 'upload', { kind: 'screenshot', type: 'image/png', size: 0 }),
      400,
      'INVALID_PARAMETERS',
    );
    expectRefused(
      await widget(s.id, 'upload', { kind: 'archive', type: 'image/png', size: 5 }),
      400,
      'INVALID_PARAMETERS',
    );
  });

  it('issues a form for one pending key of the project and kind, with the type bound', async () => {
    const s = await site();
    const res = await widget(s.id, 'upload', { kind: 'snapshot', type: 'text/html', size: 42 });
    expect(res.status).toBe(200);
    const { key, url, fields } = res.body.msg;
    expect(key).toMatch(new RegExp(`^pending/${s.id}/snapshot/[0-9a-f-]{36}\\.html$`));
    expect(url).toContain(stack.endpoints.s3);
    expect(fields).toMatchObject({ key, 'Content-Type': 'text/html' });
    expect(fields.Policy).toBeTruthy();
  });
});

describe('report-time checks of the uploads', () => {
  it('refuses forged, foreign, misplaced, repeated and missing keys', async () => {
    const a = await site();
    const b = await site();
    const mine = await upload(a.id, 'screenshot', 'image/png', bytes(100));
    const page = await upload(a.id, 'snapshot', 'text/html', bytes(100));
    const theirs = await upload(b.id, 'screenshot', 'image/png', bytes(100));
    const refusals: Record<string, unknown>[] = [
      { screenshots: [{ key: `pending/${a.id}/screenshot/${randomUUID()}.png`, type: 'png' }] },
      { screenshots: [{ key: 'pending/../../etc/passwd', type: 'png' }] },
      { screenshots: [{ key: `p/${a.id}/s/${randomUUID()}.png`, type: 'png' }] },
      { screenshots: [{ key: theirs, type: 'png' }] },
      { screenshots: [{ key: page, type: 'png' }] },
      { screenshots: [{ key: mine, type: 'png', snapshotKey: mine }] },
      {
        screenshots: [
          { key: mine, type: 'png' },
          { key: mine, type: 'png' },
        ],
      },
      { screenshots: [{ key: mine, type: 'webm' }] },
      { files: [{ key: mine, original_name: 'a.png' }] },
    ];
    for (const body of refusals) expectRefused(await report(a.id, body), 400, 'INVALID_UPLOAD');
    // Nothing was stored or counted on the way.
    expect(await project(a.id)).toMatchObject({ openCount: 0 });
    expect(await objectsUnder(`p/${a.id}/`)).toEqual([]);
    // The keys are still good for the report they belong to.
    expect(
      (await report(a.id, { screenshots: [{ key: mine, type: 'png', snapshotKey: page }] })).status,
    ).toBe(200);
  });

  it('catches an object uploaded with another size or type than its kind allows', async () => {
    const s = await site();
    // The form bound 100 bytes of PNG; s3rver enforces no policy, S3 would have refused these uploads.
    const tooBig = await upload(s.id, 'snapshot', 'text/html', bytes(5 * MB + 1), { declaredSize: 100 });
    expectRefused(
      await report(s.id, {
        screenshots: [
          { key: await upload(s.id, 'screenshot', 'image/png', bytes(10)), type: 'png', snapshotKey: tooBig },
        ],
      }),
      400,
      'INVALID_UPLOAD',
    );
    const wrongType = await upload(s.id, 'screenshot', 'image/png', bytes(100), { storedType: 'text/html' });
    expectRefused(
      await report(s.id, { screenshots: [{ key: wrongType, type: 'png' }] }),
      400,
      'INVALID_UPLOAD',
    );
    const empty = await upload(s.id, 'screenshot', 'image/png', bytes(0), { declaredSize: 100 });
    expectRefused(await report(s.id, { screenshots: [{ key: empty, type: 'png' }] }), 400, 'INVALID_UPLOAD');
    expect(await project(s.id)).toMatchObject({ openCount: 0 });
  });

  it('uses a key once: a second report with it fails, even when both race', async () => {
    const s = await site();
    const key = await upload(s.id, 'screenshot', 'image/png', bytes(500));
    const racing = await Promise.all(
      [0, 1, 2].map(() => report(s.id, { screenshots: [{ key, type: 'png' }] })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    for (const r of racing.filter((r) => r.status !== 200)) expect(r.body.code).toBe('INVALID_UPLOAD');
    expectRefused(await report(s.id, { screenshots: [{ key, type: 'png' }] }), 400, 'INVALID_UPLOAD');
    // One issue, its bytes counted once, one stored copy.
    expect(await project(s.id)).toMatchObject({ openCount: 1, bytes: 500 });
    expect(await item(`TEAM#${await teamIdOf(s.id)}`, 'TEAM')).toMatchObject({ storageBytes: 500 });
    expect(await objectsUnder(`p/${s.id}/`)).toHaveLength(1);
  });
});

describe('the storage quota', () => {
  it('refuses a report that would pass the Free 100 MB and leaves nothing behind', async () => {
    const s = await site();
    const team = await teamIdOf(s.id);
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { pk: `TEAM#${team}`, sk: 'TEAM' },
        UpdateExpression: 'SET storageBytes = :used',
        ExpressionAttributeValues: { ':used': 100 * MB - 1000 },
      }),
    );
    const fits = await upload(s.id, 'screenshot', 'image/png', bytes(1000));
    const over = await upload(s.id, 'screenshot', 'image/png', bytes(1001));
    const refused = await report(s.id, { screenshots: [{ key: over, type: 'png' }] });
    expectRefused(refused, 403, 'QUOTA_EXCEEDED');
    expect(refused.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(await item(`TEAM#${team}`, 'TEAM')).toMatchObject({ storageBytes: 100 * MB - 1000 });
    expect(await project(s.id)).toMatchObject({ openCount: 0 });
    expect(await objectsUnder(`p/${s.id}/`)).toEqual([]);
    // Exactly the rest still fits, and a report without files needs no room at all.
    expect((await report(s.id, { screenshots: [{ key: fits, type: 'png' }] })).status).toBe(200);
    expect(await item(`TEAM#${team}`, 'TEAM')).toMatchObject({ storageBytes: 100 * MB });
    expect((await report(s.id)).status).toBe(200);
    // The same account on Starter has 1 GB.
    await setPlan(s.client, s.email, 'BASIC_PLAN');
    expect((await report(s.id, { screenshots: [{ key: over, type: 'png' }] })).status).toBe(200);
  });

  it("is freed when the project is deleted, with the project's files", async () => {
    const s = await site();
    const team = await teamIdOf(s.id);
    const key = await upload(s.id, 'screenshot', 'image/png', bytes(4000));
    expect((await report(s.id, { screenshots: [{ key, type: 'png' }] })).status).toBe(200);
    expect(await item(`TEAM#${team}`, 'TEAM')).toMatchObject({ storageBytes: 4000 });
    expect((await s.client.delete(`/api/client/website/${s.id}`)).status).toBe(200);
    expect(await item(`TEAM#${team}`, 'TEAM')).toMatchObject({ storageBytes: 0, projectCount: 0 });
    expect(await objectsUnder(`p/${s.id}/`)).toEqual([]);
    expect(await item(`PROJECT#${s.id}`, 'ISSUE#0000000001')).toEqual({});
  });

  it("is each team's own: a full team refuses, another team of the same user still takes files", async () => {
    const own = await site();
    const full = await teamIdOf(own.id);
    const useUp = (team: string, used = 100 * MB) =>
      db().send(
        new UpdateCommand({
          TableName: stack.tableName,
          Key: { pk: `TEAM#${team}`, sk: 'TEAM' },
          UpdateExpression: 'SET storageBytes = :used',
          ExpressionAttributeValues: { ':used': used },
        }),
      );
    await useUp(full);
    // The same user is an ADMIN of another team (on Starter: room for a second project), and creates a
    // project there.
    const other = await site('BASIC_PLAN');
    const otherTeam = await teamIdOf(other.id);
    await addToTeam(otherTeam, full, 'ADMIN');
    const made = await own.client.post<{ id: string }>('/api/client/website', {
      name: 'Client shop',
      url: 'shop.example',
      teamId: otherTeam,
    });
    expect(made.status).toBe(201);
    const there = (made.body as { msg: { id: string } }).msg.id;
    const key = await upload(own.id, 'screenshot', 'image/png', bytes(1000));
    expectRefused(await report(own.id, { screenshots: [{ key, type: 'png' }] }), 403, 'QUOTA_EXCEEDED');
    const fits = await upload(there, 'screenshot', 'image/png', bytes(1000));
    expect((await report(there, { screenshots: [{ key: fits, type: 'png' }] })).status).toBe(200);
    expect(await item(`TEAM#${otherTeam}`, 'TEAM')).toMatchObject({ storageBytes: 1000 });
    expect(await item(`TEAM#${full}`, 'TEAM')).toMatchObject({ storageBytes: 100 * MB });
    // The other team filling up refuses there too, whatever the creator's own team holds.
    await useUp(otherTeam, plans.BASIC_PLAN.storageBytes ?? 0);
    const more = await upload(there, 'screenshot', 'image/png', bytes(10));
    expectRefused(await report(there, { screenshots: [{ key: more, type: 'png' }] }), 403, 'QUOTA_EXCEEDED');
  });

  it("counts a pre-team project's first files on its owner's team, made then (migration step 1)", async () => {
    const s = await site();
    const uid = await teamIdOf(s.id);
    // As the code before teams left it: bytes on USER, no team, META without teamId.
    for (const sk of ['TEAM', `MEMBER#${uid}`])
      await db().send(new DeleteCommand({ TableName: stack.tableName, Key: { pk: `TEAM#${uid}`, sk } }));
    await db().send(
      new DeleteCommand({ TableName: stack.tableName, Key: { pk: `USER#${uid}`, sk: 'TEAMS' } }),
    );
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { pk: `USER#${uid}`, sk: 'USER' },
        UpdateExpression: 'SET storageBytes = :b, projectCount = :one',
        ExpressionAttributeValues: { ':b': 700, ':one': 1 },
      }),
    );
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { pk: `PROJECT#${s.id}`, sk: 'META' },
        UpdateExpression: 'REMOVE teamId',
      }),
    );
    const key = await upload(s.id, 'screenshot', 'image/png', bytes(300));
    expect((await report(s.id, { screenshots: [{ key, type: 'png' }] })).status).toBe(200);
    expect(await item(`TEAM#${uid}`, 'TEAM')).toMatchObject({
      storageBytes: 1000,
      projectCount: 1,
      plan: 'FREE_PLAN',
    });
    expect(await item(`USER#${uid}`, 'TEAMS')).toMatchObject({ teams: { [uid]: { r: 'OWNER' } } });
    expect(await item(`USER#${uid}`, 'USER')).toMatchObject({ teamId: uid });
  });
});

describe('flood limits', () => {
  it('lets a visitor (an IPv6 /56) file 10 reports per 10 minutes and project; other visitors go on', async () => {
    const s = await site();
    // Ten /64s of one /56 (issue 19: a probe used 50 of them as 50 visitors).
    for (let i = 0; i < intakeRateLimits.reportPerVisitor.max; i++) {
      const res = await report(
        s.id,
        {},
        { visitor: `2001:db8:1:2${i.toString(16).padStart(2, '0')}::1:443` },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // The same /56 is the same visitor, whatever the rest of the address and the port.
    const refused = await report(s.id, {}, { visitor: '2001:db8:1:2ff:ffff::9:51000' });
    expectRefused(refused, 429, 'RATE_LIMITED');
    expect(refused.headers.get('access-control-allow-origin')).toBe(SITE);
    expect((await report(s.id, {}, { visitor: '2001:db8:1:300::1:443' })).status).toBe(200);
    expect((await report(s.id)).status).toBe(200);
    expect(await project(s.id)).toMatchObject({ openCount: 12 });
  });

  it('after a flood from many addresses of one /56 and one /48, a visitor from another network is accepted', async () => {
    const s = await site();
    // The attacker: 40 /64s of one /56, and 60 /56s of another /48, all at once.
    const fromOne56 = Array.from(
      { length: 40 },
      (_, i) => `2001:db8:a:1${i.toString(16).padStart(2, '0')}::7:443`,
    );
    const fromOne48 = Array.from({ length: 60 }, (_, i) => `2001:db8:b:${(i * 256).toString(16)}::7:443`);
    const flood: Reply[] = [];
    const attackers = [...fromOne56, ...fromOne48];
    // Twenty at a time, as fast as the stack takes them.
    for (let i = 0; i < attackers.length; i += 20) {
      flood.push(
        ...(await Promise.all(attackers.slice(i, i + 20).map((visitor) => report(s.id, {}, { visitor })))),
      );
    }
    const accepted = flood.filter((r) => r.status === 200).length;
    for (const r of flood) if (r.status !== 200) expectRefused(r, 429, 'RATE_LIMITED');
    // The /56 is one visitor (10), the other /48 one network (30).
    expect(accepted).toBe(intakeRateLimits.reportPerVisitor.max + intakeRateLimits.reportPerNetwork.max);
    // Refused requests counted in no window: the network's count is what it let through.
    const { action, windowMs } = intakeRateLimits.reportPerNetwork;
    const net = rateWindow({ action, key: `${s.id}#2001:db8:b::/48`, windowMs });
    expect(await item(net.key.pk, net.key.sk)).toMatchObject({
      count: intakeRateLimits.reportPerNetwork.max,
    });
    // A real visitor elsewhere, over IPv6 or IPv4, files their report.
    expect((await report(s.id, {}, { visitor: '2a00:1450:4001:80e::200e:443' })).status).toBe(200);
    expect((await report(s.id, {}, { visitor: '203.0.113.77:5000' })).status).toBe(200);
    expect(await project(s.id)).toMatchObject({ openCount: accepted + 2 });
  });

  it("counts only stored reports in the project's day", async () => {
    const s = await site();
    const day = projectDayWindow(s.id).key;
    const forged = `pending/${s.id}/file/${randomUUID()}.pdf`;
    expectRefused(
      await report(s.id, { files: [{ key: forged, original_name: 'a.pdf' }] }),
      403,
      'PLAN_LIMIT',
    );
    const missing = `pending/${s.id}/screenshot/${randomUUID()}.png`;
    expectRefused(
      await report(s.id, { screenshots: [{ key: missing, type: 'png' }] }),
      400,
      'INVALID_UPLOAD',
    );
    expect(await item(day.pk, day.sk)).toEqual({});
    expect((await report(s.id)).status).toBe(200);
    expect(await item(day.pk, day.sk)).toMatchObject({ count: 1 });
  });

  it('limits upload forms per visitor and project, by number and by bytes, used or not', async () => {
    const s = await site();
    const visitor = '203.0.113.9:1234';
    const { action, windowMs, max, maxBytes } = intakeRateLimits.uploadPerVisitor;
    const { key } = rateWindow({ action, key: `${s.id}#203.0.113.9`, windowMs });
    await db().send(new PutCommand({ TableName: stack.tableName, Item: { ...key, count: max - 2 } }));
    const ask = (v: string, size = 10) =>
      widget(s.id, 'upload', { kind: 'screenshot', type: 'image/png', size }, { visitor: v });
    expect((await ask(visitor)).status).toBe(200);
    expect((await ask('203.0.113.9:9999')).status).toBe(200);
    expectRefused(await ask(visitor), 429, 'RATE_LIMITED');
    expect((await ask('203.0.113.10:1234')).status).toBe(200);

    // The bytes: a visitor whose forms already carry all but 10 MB of the budget gets one more of 10 MB.
    const other = rateWindow({ action, key: `${s.id}#203.0.113.11`, windowMs });
    await db().send(
      new PutCommand({
        TableName: stack.tableName,
        Item: { ...other.key, count: 1, amount: maxBytes - 10 * MB },
      }),
    );
    expect((await ask('203.0.113.11:1', 10 * MB)).status).toBe(200);
    expectRefused(await ask('203.0.113.11:1', 1), 429, 'RATE_LIMITED');
    expect(await item(other.key.pk, other.key.sk)).toMatchObject({ count: 2, amount: maxBytes });
  });

  it('limits upload bytes per network', async () => {
    const s = await site();
    const { action, windowMs, maxBytes } = intakeRateLimits.uploadPerNetwork;
    const net = rateWindow({ action, key: `${s.id}#2001:db8:c::/48`, windowMs });
    await db().send(
      new PutCommand({ TableName: stack.tableName, Item: { ...net.key, count: 1, amount: maxBytes - 5 } }),
    );
    const ask = (visitor: string, size: number) =>
      widget(s.id, 'upload', { kind: 'screenshot', type: 'image/png', size }, { visitor });
    expectRefused(await ask('2001:db8:c:100::1:443', 6), 429, 'RATE_LIMITED');
    expect((await ask('2001:db8:c:200::1:443', 5)).status).toBe(200);
    // The refused form counted nowhere, not even for its visitor.
    const { action: va, windowMs: vw } = intakeRateLimits.uploadPerVisitor;
    const refusedVisitor = rateWindow({ action: va, key: `${s.id}#2001:db8:c:100::/56`, windowMs: vw });
    expect(await item(refusedVisitor.key.pk, refusedVisitor.key.sk)).toEqual({});
  });
});

describe('a busy project (issue 19)', () => {
  /** Marks the project's day as `count` stored reports. */
  const busy = (id: string, count: number = projectDay.proofFrom) =>
    db().send(new PutCommand({ TableName: stack.tableName, Item: { ...projectDayWindow(id).key, count } }));

  type Challenge = Parameters<typeof solveChallenge>[0]['challenge'];
  async function solve(res: Reply): Promise<{ proof: string; challenge: Challenge }> {
    expectRefused(res, 429, 'PROOF_REQUIRED');
    const challenge = JSON.parse(
      (res.body as unknown as { fields: { proof: string } }).fields.proof,
    ) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw new Error('no solution');
    return { proof: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'), challenge };
  }

  it('asks for a proof of work instead of closing, and takes each proof once, for its project only', async () => {
    const s = await site();
    const elsewhere = await site();
    await busy(s.id);
    await busy(elsewhere.id);
    const { proof, challenge } = await solve(await report(s.id));
    expect(challenge.parameters.data).toEqual({ use: 'report', project: s.id });
    // Not for another project, and not as registration's proof either.
    expectRefused(await report(elsewhere.id, { proof }), 429, 'PROOF_REQUIRED');
    const registration = await new ApiClient(stack.url).post('/api/registration/client', {
      _username: `proof-${randomUUID()}@example.org`,
      _password: 'secret123',
      firstName: 'Ada',
      lastName: 'L',
      altcha: proof,
    });
    expect(registration.status).toBe(400);
    // And a registration challenge is no proof for a report.
    expectRefused(await report(s.id, { proof: await solveAltcha(stack.url) }), 429, 'PROOF_REQUIRED');
    const res = await report(s.id, { proof });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    // A replay is refused with a new challenge.
    await solve(await report(s.id, { proof }));
    expectRefused(await report(s.id, { proof: 'bm90IGEgcHJvb2Y=' }), 429, 'PROOF_REQUIRED');
    expect(await project(s.id)).toMatchObject({ openCount: 1 });
  });

  it('makes the work grow with the day and caps it', async () => {
    const s = await site();
    const counterMax = Number(cheapCostsEnv.ALTCHA_COUNTER_MAX);
    // The counter is secret; what is observable is that solving takes more tries. Sample the solutions.
    const tries = async (count: number) => {
      await busy(s.id, count);
      const counters = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const { proof } = await solve(await report(s.id));
          return JSON.parse(Buffer.from(proof, 'base64').toString()).solution.counter as number;
        }),
      );
      return Math.max(...counters);
    };
    expect(await tries(projectDay.proofFrom)).toBeLessThanOrEqual(counterMax);
    expect(await tries(projectDay.proofFrom * 100)).toBeGreaterThan(counterMax);
    expect(await tries(projectDay.proofFrom * 100)).toBeLessThanOrEqual(
      counterMax * 2 ** projectDay.maxDoublings,
    );
  });

  it('stores the report without sending it to the integrations; their sync lists show it', async () => {
    const s = await site();
    await emailTo(s.id, 'intake-team@example.com');
    await busy(s.id);
    const { proof } = await solve(await report(s.id));
    expect((await report(s.id, { proof })).status).toBe(200);
    // Below the threshold again (a new day), the next report goes out; the held one stays new.
    await busy(s.id, 0);
    expect((await report(s.id)).status).toBe(200);
    await eventually(
      async () => {
        const d = await item(`PROJECT#${s.id}`, 'ISSUE#0000000002#DETAIL');
        return (d.st as Record<string, number>).email === 2 ? true : undefined;
      },
      30_000,
      'the delivery of the report after the busy day',
    );
    expect(await item(`PROJECT#${s.id}`, 'ISSUE#0000000001#DETAIL')).toMatchObject({ st: { email: 0 } });
    expect(await item(`PROJECT#${s.id}`, 'SYNC#email#0000000001')).toMatchObject({ s: 0, number: 1 });
  });
});

describe('plan and widget settings per kind', () => {
  const ask = (id: string, kind: UploadKind, type: string) => widget(id, 'upload', { kind, type, size: 100 });

  it('Free: screenshots and snapshots only', async () => {
    const s = await site();
    expect((await ask(s.id, 'screenshot', 'image/png')).status).toBe(200);
    expect((await ask(s.id, 'snapshot', 'text/html')).status).toBe(200);
    expectRefused(await ask(s.id, 'file', 'application/pdf'), 403, 'PLAN_LIMIT');
    expectRefused(await ask(s.id, 'video', 'video/webm'), 403, 'PLAN_LIMIT');
  });

  it('Starter: files, and video once the project turns it on; the switches refuse their kinds', async () => {
    const s = await site('BASIC_PLAN');
    const profile = await s.client.get('/api/client/profile');
    expect(profile.body).toMatchObject({
      msg: { plan: 'BASIC_PLAN', settings: { attachments: true, videos: true } },
    });
    expect((await ask(s.id, 'file', 'application/pdf')).status).toBe(200);
    // Video is off by default (SPEC: widgetDisableVideo defaults to true).
    expectRefused(await ask(s.id, 'video', 'video/webm'), 403, 'FEATURE_DISABLED');
    await s.client.patch(`/api/client/website/${s.id}`, { data: { widgetDisableVideo: false } });
    expect((await ask(s.id, 'video', 'video/mp4')).status).toBe(200);
    await s.client.patch(`/api/client/website/${s.id}`, {
      data: { widgetDisableScreenshot: true, widgetDisableUpload: true, widgetDisableVideo: true },
    });
    expectRefused(await ask(s.id, 'screenshot', 'image/png'), 403, 'FEATURE_DISABLED');
    expectRefused(await ask(s.id, 'snapshot', 'text/html'), 403, 'FEATURE_DISABLED');
    expectRefused(await ask(s.id, 'file', 'application/pdf'), 403, 'FEATURE_DISABLED');
    expectRefused(await ask(s.id, 'video', 'video/webm'), 403, 'FEATURE_DISABLED');
  });

  it('checks the plan again at report time: a file uploaded on Starter is refused after a downgrade', async () => {
    const s = await site('BUSINESS_PLAN', { widgetDisableVideo: false });
    const file = await upload(s.id, 'file', 'text/plain', bytes(20));
    const video = await upload(s.id, 'video', 'video/webm', bytes(50));
    expect((await report(s.id, { screenshots: [{ key: video, type: 'webm' }] })).status).toBe(200);
    await setPlan(s.client, s.email, 'FREE_PLAN');
    expectRefused(
      await report(s.id, { files: [{ key: file, original_name: 'notes.txt' }] }),
      403,
      'PLAN_LIMIT',
    );
    await setPlan(s.client, s.email, 'BUSINESS_PLAN');
    expect((await report(s.id, { files: [{ key: file, original_name: 'notes.txt' }] })).status).toBe(200);
  });

  it('refuses /api/dev/plan for an unknown client', async () => {
    const s = await site();
    const res = await s.client.post('/api/dev/plan', {
      username: 'nobody@example.org',
      plan: 'BASIC_PLAN',
      days: 3,
    });
    expect(res.status).toBe(404);
  });
});

describe('concurrency', () => {
  it('gives 20 parallel reports 20 distinct numbers, and the counters agree', async () => {
    const s = await site();
    const results = await Promise.all(Array.from({ length: 20 }, () => report(s.id)));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const numbers = results.map((r) => r.body.msg.number as number).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await project(s.id)).toMatchObject({ openCount: 20, seq: 20 });
    expect(await item(`PROJECT#${s.id}`, 'STATS')).toMatchObject({ open_000000: 20 });
    const block = await item(`PROJECT#${s.id}`, 'BLOCK#000000');
    expect([...(block.openOffsets as Set<number>)].sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
  });
});

describe('objects a browser can fetch back', () => {
  it('stores exactly the uploaded bytes', async () => {
    const s = await site();
    const content = bytes(1234, 42);
    const key = await upload(s.id, 'screenshot', 'image/png', content);
    expect((await report(s.id, { screenshots: [{ key, type: 'png' }] })).status).toBe(200);
    const detail = await item(`PROJECT#${s.id}`, 'ISSUE#0000000001#DETAIL');
    const name = (detail.screenshots as { name: string }[])[0]?.name;
    const out = await (await s3()).send(
      new GetObjectCommand({ Bucket: stack.bucket, Key: `p/${s.id}/s/${name}` }),
    );
    expect(Buffer.from(await out.Body!.transformToByteArray()).equals(Buffer.from(content))).toBe(true);
  });
});

describe('session replay and steps (issue 33)', () => {
  /** What the widget uploads: a gzip of rrweb's JSON array of events. */
  const recording = (events = [{ type: 4, timestamp: 1, data: { href: SITE } }]) =>
    new Uint8Array(gzipSync(JSON.stringify(events)));
  const gz = 'application/gzip';
  const covers = { start: 1_764_400_000_000, end: 1_764_400_060_000 };
  const steps = [
    { t: covers.start + 1000, kind: 'load', label: 'https://shop.example/' },
    { t: covers.start + 5000, kind: 'click', label: 'Add to cart' },
    { t: covers.start + 9000, kind: 'navigate', label: 'https://shop.example/cart' },
    { t: covers.start + 59_000, kind: 'open', label: 'Feedback' },
  ];
  /** A Starter project with replay switched on (made on Free, so it starts off as every older project). */
  const replaySite = () => site('BASIC_PLAN', { widgetReplay: true });
  const ask = (id: string, type: string, size: number) =>
    widget(id, 'upload', { kind: 'replay', type, size });

  it('stores the recording and the steps with the issue, counted in its bytes and the storage', async () => {
    const s = await replaySite();
    const content = recording();
    const key = await upload(s.id, 'replay', gz, content);
    const shot = await upload(s.id, 'screenshot', 'image/png', bytes(300));
    const res = await report(s.id, {
      screenshots: [{ key: shot, type: 'png' }],
      replay: { key, ...covers, stopped: 'mutations' },
      steps,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const detail = await item(`PROJECT#${s.id}`, 'ISSUE#0000000001#DETAIL');
    const replay = detail.replay as { name: string };
    expect(detail).toMatchObject({
      steps,
      replay: { size: content.length, ...covers, stopped: 'mutations' },
      bytes: 300 + content.length,
    });
    expect(replay.name).toMatch(/^[0-9a-f-]{36}\.gz$/);
    // Moved to its own final name beside the screenshot; the pending upload is gone.
    expect(await objectsUnder(`p/${s.id}/s/${replay.name}`)).toEqual([`p/${s.id}/s/${replay.name}`]);
    expect(await objectsUnder(`pending/${s.id}/`)).toEqual([]);
    expect(await project(s.id)).toMatchObject({ bytes: 300 + content.length });
    expect(await item(`TEAM#${await teamIdOf(s.id)}`, 'TEAM')).toMatchObject({
      storageBytes: 300 + content.length,
    });
    // The issue's answer shows both.
    const answer = await s.client.get(`/api/client/website/${s.id}/request/1`);
    expect(answer.body).toMatchObject({
      msg: { steps, replay: { name: replay.name, size: content.length, ...covers, stopped: 'mutations' } },
    });
  });

  it('takes steps on every plan; a report without them or a recording answers none', async () => {
    const s = await site();
    // With the send time, as the widget sends it: the steps' times are on its clock (a year ago here).
    expect((await report(s.id, { steps: steps.slice(0, 2), sentAt: covers.end })).status).toBe(200);
    expect((await report(s.id)).status).toBe(200);
    const [first, second] = await Promise.all(
      [1, 2].map(async (n) => (await s.client.get(`/api/client/website/${s.id}/request/${n}`)).body),
    );
    expect(first).toMatchObject({ msg: { steps: steps.slice(0, 2), replay: null } });
    expect(second).toMatchObject({ msg: { steps: [], replay: null } });
  });

  it('refuses too many steps, an unknown kind, control or bidi characters and long labels', async () => {
    const s = await site();
    const step = steps[1]!;
    const refusals = [
      Array.from({ length: 51 }, () => step),
      [{ ...step, kind: 'hover' }],
      [{ ...step, label: 'Add\u0007 to cart' }],
      [{ ...step, label: 'Add \u202eto cart' }],
      [{ ...step, label: 'x'.repeat(201) }],
      [{ ...step, t: -1 }],
      [{ t: step.t, kind: 'click' }],
    ];
    for (const bad of refusals) expectRefused(await report(s.id, { steps: bad }), 400, 'INVALID_PARAMETERS');
    expect((await report(s.id, { steps: Array.from({ length: 50 }, () => step) })).status).toBe(200);
    expect(await project(s.id)).toMatchObject({ openCount: 1 });
  });

  it('refuses an oversized, mistyped, foreign, misplaced, missing or reused recording', async () => {
    const a = await replaySite();
    const b = await replaySite();
    expectRefused(await ask(a.id, gz, MB + 1), 413, 'FILE_TOO_LARGE');
    expectRefused(await ask(a.id, 'application/json', 100), 415, 'FILE_TYPE_NOT_ALLOWED');
    // s3rver enforces no policy: S3 would have refused these two uploads, the report catches them.
    const tooBig = await upload(a.id, 'replay', gz, bytes(MB + 1), { declaredSize: 100 });
    const wrongType = await upload(a.id, 'replay', gz, recording(), { storedType: 'text/html' });
    const theirs = await upload(b.id, 'replay', gz, recording());
    const shot = await upload(a.id, 'screenshot', 'image/png', bytes(100));
    const mine = await upload(a.id, 'replay', gz, recording());
    const refusals: Record<string, unknown>[] = [
      { replay: { key: tooBig, ...covers } },
      { replay: { key: wrongType, ...covers } },
      { replay: { key: theirs, ...covers } },
      { replay: { key: shot, ...covers } },
      { replay: { key: `pending/${a.id}/replay/${randomUUID()}.gz`, ...covers } },
      { replay: { key: 'pending/../../etc/passwd', ...covers } },
      { screenshots: [{ key: mine, type: 'png' }] },
      { screenshots: [{ key: shot, type: 'png' }], replay: { key: shot, ...covers } },
    ];
    for (const body of refusals) expectRefused(await report(a.id, body), 400, 'INVALID_UPLOAD');
    expectRefused(
      await report(a.id, { replay: { key: mine, start: covers.end, end: covers.start } }),
      400,
      'INVALID_PARAMETERS',
    );
    expect(await project(a.id)).toMatchObject({ openCount: 0 });
    expect(await objectsUnder(`p/${a.id}/`)).toEqual([]);
    // The good key works once, and only once.
    expect((await report(a.id, { replay: { key: mine, ...covers } })).status).toBe(200);
    expectRefused(await report(a.id, { replay: { key: mine, ...covers } }), 400, 'INVALID_UPLOAD');
    expect(await project(a.id)).toMatchObject({ openCount: 1 });
  });

  it('is a paid feature the project switches on, checked again at report time, as video', async () => {
    const free = await site();
    expectRefused(await ask(free.id, gz, 100), 403, 'PLAN_LIMIT');
    const forged = `pending/${free.id}/replay/${randomUUID()}.gz`;
    expectRefused(await report(free.id, { replay: { key: forged, ...covers } }), 403, 'PLAN_LIMIT');

    // A project made on Free keeps replay off after the upgrade, as every project older than replay.
    const s = await site('BASIC_PLAN');
    expectRefused(await ask(s.id, gz, 100), 403, 'FEATURE_DISABLED');
    await s.client.patch(`/api/client/website/${s.id}`, { data: { widgetReplay: true } });
    const key = await upload(s.id, 'replay', gz, recording());
    await s.client.patch(`/api/client/website/${s.id}`, { data: { widgetReplay: false } });
    expectRefused(await report(s.id, { replay: { key, ...covers } }), 403, 'FEATURE_DISABLED');
    await s.client.patch(`/api/client/website/${s.id}`, { data: { widgetReplay: true } });
    await setPlan(s.client, s.email, 'FREE_PLAN');
    expectRefused(await report(s.id, { replay: { key, ...covers } }), 403, 'PLAN_LIMIT');
    // The steps alone need no plan: the same visitor's report without the recording is taken.
    expect((await report(s.id, { steps })).status).toBe(200);
    await setPlan(s.client, s.email, 'BUSINESS_PLAN');
    expect((await report(s.id, { replay: { key, ...covers } })).status).toBe(200);
  });
});
