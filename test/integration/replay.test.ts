/**
 * Reading a session replay through the local stack (issue 33, docs/replay.md "Storage and access"): the
 * signed-in route and a tracker's signed link answer the stored gzip bytes themselves, never cached;
 * everything that opens nothing (another client, a forged, expired or malformed token, a name of
 * nothing) is the same 404; the public link counts its caller; the recording goes with the project.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { s3 } from '#runtime/aws/s3';
import { rateWindow } from '#runtime/rate-limit';
import { replayLinkRateLimit } from '../../functions/issues/replay';
import { replayLinkToken } from '../../functions/issues/replay-link';
import type { ApiClient } from '../support/api-client';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const stack = setUpTestStack();

const events = [
  {
    type: 4,
    timestamp: 1_764_400_000_000,
    data: { href: 'https://shop.example/', width: 1280, height: 800 },
  },
  { type: 3, timestamp: 1_764_400_001_000, data: { source: 2, type: 2, id: 7 } },
];
const content = new Uint8Array(gzipSync(JSON.stringify(events)));
const covers = { start: 1_764_400_000_000, end: 1_764_400_060_000 };
const hour = 3_600_000;

/** A Business client whose project starts with replay on, and a report carrying `content`. */
async function recorded(): Promise<Site & { name: string }> {
  const { client, email } = await signedIn(stack.url);
  const plan = await client.post('/api/dev/plan', { username: email, plan: 'BUSINESS_PLAN', days: 30 });
  expect(plan.status).toBe(200);
  const created = await client.post<{ id: string }>('/api/client/website', {
    name: 'Shop',
    url: 'shop.example',
  });
  const id = (created.body as { msg: { id: string } }).msg.id;
  const n = await fileReport(stack.url, id, 'https://shop.example', {
    fields: { msg: 'The cart empties itself' },
    replay: { content, ...covers },
  });
  const issue = await client.get<{ replay: { name: string } }>(`/api/client/website/${id}/request/${n}`);
  const name = (issue.body as { msg: { replay: { name: string } } }).msg.replay.name;
  return { client, email, id, name };
}

/** A GET of the stack with `client`'s session (or none) from `source`, the answer's bytes as they came. */
async function get(path: string, client?: ApiClient, source = '203.0.113.9:4000') {
  const res = await fetch(new URL(path, stack.url), {
    headers: {
      'cloudfront-viewer-address': source,
      ...(client ? { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
    },
  });
  const body = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body };
}

const codeOf = (body: Uint8Array) =>
  (JSON.parse(Buffer.from(body).toString('utf8')) as { code?: string }).code;

function expectRecording(res: Awaited<ReturnType<typeof get>>) {
  expect(res.status, Buffer.from(res.body).toString('utf8').slice(0, 200)).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/gzip');
  expect(res.headers.get('cache-control')).toBe('private, no-store');
  expect(res.headers.get('content-encoding')).toBeNull();
  expect(Buffer.from(res.body).equals(Buffer.from(content))).toBe(true);
  expect(JSON.parse(gunzipSync(res.body).toString('utf8'))).toEqual(events);
}

function expectNotFound(res: Awaited<ReturnType<typeof get>>) {
  expect(res.status).toBe(404);
  expect(codeOf(res.body)).toBe('NOT_FOUND');
}

describe('the signed-in replay route', () => {
  it("answers the stored gzip bytes to the project's client, and 404 to anything else", async () => {
    const s = await recorded();
    expectRecording(await get(`/api/client/replay/${s.id}/${s.name}`, s.client));

    // Another signed-in client, no session, another project, a name of nothing, a name of another kind.
    const other = await newSite(stack.url, 'BUSINESS_PLAN');
    expectNotFound(await get(`/api/client/replay/${s.id}/${s.name}`, other.client));
    expectNotFound(await get(`/api/client/replay/${other.id}/${s.name}`, other.client));
    expectNotFound(await get(`/api/client/replay/${s.id}/${crypto.randomUUID()}.gz`, s.client));
    expectNotFound(await get(`/api/client/replay/${s.id}/${s.name.replace('.gz', '.png')}`, s.client));
    expectNotFound(await get(`/api/client/replay/${s.id}/..%2F${s.name}`, s.client));
    const anonymous = await get(`/api/client/replay/${s.id}/${s.name}`);
    expect(anonymous.status).toBe(401);
    expect(codeOf(anonymous.body)).toBe('UNAUTHORIZED');
  });
});

describe("a tracker's signed link", () => {
  it('answers the same bytes without a session, and 404 for a forged, expired or malformed token', async () => {
    const s = await recorded();
    const token = await replayLinkToken({ projectId: s.id, name: s.name }, Date.now() + hour);
    const res = await get(`/api/replay/${token}`);
    expectRecording(res);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');

    const signature = token.slice(token.lastIndexOf('.') + 1);
    const flipped = `${token.slice(0, -signature.length)}${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const expired = await replayLinkToken({ projectId: s.id, name: s.name }, Date.now() - 1000);
    const nothing = await replayLinkToken(
      { projectId: s.id, name: `${crypto.randomUUID()}.gz` },
      Date.now() + hour,
    );
    const other = await recorded();
    const crossed = `${other.id}${token.slice(other.id.length)}`;
    for (const bad of [flipped, expired, nothing, crossed, 'not-a-token', token.slice(0, -1), '%00']) {
      expectNotFound(await get(`/api/replay/${bad}`));
    }
  });

  it('counts its callers per source: past the window the source is refused, another goes on', async () => {
    const s = await recorded();
    const token = await replayLinkToken({ projectId: s.id, name: s.name }, Date.now() + hour);
    const source = '203.0.113.77';
    // The window filled to one short of its limit, as a script walking tokens would have filled it.
    await db().send(
      new PutCommand({
        TableName: stack.tableName,
        Item: {
          ...rateWindow({ ...replayLinkRateLimit, key: source }).key,
          count: replayLinkRateLimit.max - 1,
        },
      }),
    );
    expectRecording(await get(`/api/replay/${token}`, undefined, `${source}:5000`));
    const refused = await get(`/api/replay/${token}`, undefined, `${source}:5001`);
    expect(refused.status).toBe(429);
    expect(codeOf(refused.body)).toBe('RATE_LIMITED');
    expectRecording(await get(`/api/replay/${token}`, undefined, '203.0.113.78:5000'));
  });
});

describe('deletion', () => {
  it('removes the recording with its project: both routes then answer 404', async () => {
    const s = await recorded();
    const token = await replayLinkToken({ projectId: s.id, name: s.name }, Date.now() + hour);
    const listed = async () =>
      (
        await (await s3()).send(new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: `p/${s.id}/` }))
      ).Contents?.map((o) => o.Key) ?? [];
    expect(await listed()).toContain(`p/${s.id}/s/${s.name}`);
    expect((await s.client.delete(`/api/client/website/${s.id}`)).status).toBe(200);
    expect(await listed()).toEqual([]);
    expectNotFound(await get(`/api/replay/${token}`));
    expectNotFound(await get(`/api/client/replay/${s.id}/${s.name}`, s.client));
  });
});
