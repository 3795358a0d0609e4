/**
 * API tokens and the public REST API v1 through the local stack (issue 25, docs/api.md): tokens made by an
 * ADMIN, shown once, hashed at rest, never logged, refused to a MEMBER and to another team; every v1 call
 * and its refusals (401 without, with a revoked or an expired token; 403 for a missing scope; 404 outside
 * the token's team; 400 for bad input); cursor paging to the end against the list's truth; the rate limit
 * and its headers; a change and a comment shown as "<creator> via API token <name>" in the activity (the
 * creator's name as it was when the token was made; "API token <name>" for a token made before that was
 * kept). Every v1 answer is
 * checked against its route's response schema, the one the OpenAPI document is built from.
 */
import { gzipSync } from 'node:zlib';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it, vi } from 'vitest';
import { API_RATE_LIMIT } from '#contracts/tokens';
import { db } from '#runtime/aws/dynamo';
import { resetConfig } from '#runtime/config';
import { sha256 } from '#runtime/crypto';
import { tableName } from '#runtime/db';
import { rateWindow } from '#runtime/rate-limit';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { matchRoute } from '../../functions/routes';
import { tokenKey } from '../../functions/teams/token';
import type { ApiClient } from '../support/api-client';
import { seedIssues } from '../support/issues';
import { png } from '../support/png';
import { hostileSteps, openedReplay } from '../support/reproduction';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

type Json = Record<string, unknown>;

const stack = setUpTestStack();
const SITE = 'https://shop.example';

interface Reply<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: { status: 'success'; msg: T } | { status: 'error'; code: string; msg: string };
}

/** Every v1 answer seen, to check against the route table's response schemas at the end. */
const seen: { method: string; path: string; status: number; body: unknown }[] = [];

/** A v1 call as a script would make it: bearer token, no cookies, no Origin. */
async function v1<T = Record<string, unknown>>(
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply<T>> {
  const res = await fetch(new URL(path, stack.url), {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await res.json();
  seen.push({ method, path: new URL(path, stack.url).pathname, status: res.status, body: parsed });
  return { status: res.status, headers: res.headers, body: parsed };
}

const msgOf = <T>(r: Reply<T>): T => {
  if (r.body.status !== 'success') throw new Error(`refused: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.msg;
};
const codeOf = (r: Reply<unknown>) => (r.body.status === 'error' ? r.body.code : 'success');

async function uidOf(email: string) {
  const uid = await findUserIdByEmail(email.toLowerCase());
  if (!uid) throw new Error('no user id');
  return uid;
}

interface Created {
  entry: { id: string; name: string; scopes: string[]; prefix: string; expires: string | null };
  token: string;
}

async function createToken(client: ApiClient, teamId: string, body: Record<string, unknown>) {
  return client.post<Created>(`/api/client/team/${teamId}/tokens`, body);
}

const allScopes = ['projects:read', 'issues:read', 'issues:write', 'comments:write', 'issues:create'];

/**
 * An agency (owner, on Starter) with a project, an ADMIN named Grace Hopper (everyone else is the test
 * accounts' Ada Lovelace), a MEMBER and an all-scopes token made by the ADMIN.
 */
async function agency() {
  const site = await newSite(stack.url, 'BASIC_PLAN');
  const teamId = await uidOf(site.email);
  const [admin, member] = await Promise.all([signedIn(stack.url), signedIn(stack.url)]);
  const [adminId, memberId] = await Promise.all([uidOf(admin.email), uidOf(member.email)]);
  await addToTeam(teamId, adminId, 'ADMIN');
  await addToTeam(teamId, memberId, 'MEMBER');
  expect(
    (await admin.client.patch('/api/client/profile', { firstName: 'Grace', lastName: 'Hopper' })).status,
  ).toBe(200);
  const made = await createToken(admin.client, teamId, { name: 'CI', scopes: allScopes });
  expect(made.status).toBe(201);
  const { token, entry } = (made.body as { msg: Created }).msg;
  return { site, teamId, admin, adminId, member, memberId, token, entry };
}

describe('tokens', () => {
  it('are made by an ADMIN, shown once, listed without the secret, and stored only as a hash', async () => {
    const a = await agency();
    expect(a.token).toMatch(/^snag_pat_[A-Za-z0-9_-]{55}$/);
    expect(a.entry).toMatchObject({
      name: 'CI',
      scopes: allScopes,
      prefix: a.token.slice(0, 21),
      expires: null,
    });

    const list = await a.site.client.get<{ tokens: Record<string, unknown>[] }>(
      `/api/client/team/${a.teamId}/tokens`,
    );
    expect(list.status).toBe(200);
    const tokens = (list.body as { msg: { tokens: Record<string, unknown>[] } }).msg.tokens;
    expect(tokens).toEqual([
      {
        id: a.entry.id,
        // Its creator, whose removal or demotion below ADMIN revokes it (issue 31).
        createdBy: a.adminId,
        creatorName: 'Grace Hopper',
        name: 'CI',
        scopes: allScopes,
        prefix: a.entry.prefix,
        created: expect.any(String),
        lastUsed: null,
        expires: null,
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(a.token.slice(21));

    const stored = await db().send(
      new GetCommand({ TableName: tableName(), Key: tokenKey(a.entry.id), ConsistentRead: true }),
    );
    expect(stored.Item?.hash).toBe(sha256(a.token));
    expect(JSON.stringify(stored.Item)).not.toContain(a.token.slice(21));
  });

  it('are refused to a MEMBER (403) and to another team (404), and bad input is a 400', async () => {
    const a = await agency();
    const member = await createToken(a.member.client, a.teamId, { name: 'Mine', scopes: ['issues:read'] });
    expect([member.status, (member.body as { code: string }).code]).toEqual([403, 'FORBIDDEN']);
    const other = await signedIn(stack.url);
    const outsider = await createToken(other.client, a.teamId, { name: 'Theirs', scopes: ['issues:read'] });
    expect(outsider.status).toBe(404);
    expect((await other.client.get(`/api/client/team/${a.teamId}/tokens`)).status).toBe(404);
    // Another team's admin cannot revoke it either: the token still works.
    const otherTeam = await uidOf(other.email);
    expect((await other.client.delete(`/api/client/team/${otherTeam}/tokens/${a.entry.id}`)).status).toBe(
      200,
    );
    expect((await v1(a.token, 'GET', '/api/v1/projects')).status).toBe(200);

    for (const body of [
      { name: '', scopes: ['issues:read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['billing:write'] },
      { name: 'x', scopes: ['issues:read', 'issues:read'] },
      { name: 'x', scopes: ['issues:read'], expiresInDays: 0 },
      { name: 'x', scopes: ['issues:read'], expiresInDays: 366 },
      { name: 'x', scopes: ['issues:read'], extra: 1 },
    ]) {
      const res = await createToken(a.admin.client, a.teamId, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
    }
  });

  it('end at once when revoked, and after their expiry', async () => {
    const a = await agency();
    expect((await v1(a.token, 'GET', '/api/v1/projects')).status).toBe(200);
    const revoked = await a.admin.client.delete(`/api/client/team/${a.teamId}/tokens/${a.entry.id}`);
    expect(revoked.status).toBe(200);
    const after = await v1(a.token, 'GET', '/api/v1/projects');
    expect([after.status, codeOf(after)]).toEqual([401, 'TOKEN_INVALID']);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);

    const made = await createToken(a.admin.client, a.teamId, {
      name: 'Short',
      scopes: ['projects:read'],
      expiresInDays: 1,
    });
    const short = (made.body as { msg: Created }).msg;
    expect(Date.parse(short.entry.expires ?? '') - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect((await v1(short.token, 'GET', '/api/v1/projects')).status).toBe(200);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: tokenKey(short.entry.id),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1000 },
      }),
    );
    expect((await v1(short.token, 'GET', '/api/v1/projects')).status).toBe(401);
    // A forged secret for a real id, and a malformed token, are the same 401.
    const forged = `${short.token.slice(0, 21)}${'A'.repeat(43)}`;
    expect((await v1(forged, 'GET', '/api/v1/projects')).status).toBe(401);
    expect((await v1('snag_pat_short', 'GET', '/api/v1/projects')).status).toBe(401);
    expect((await v1(null, 'GET', '/api/v1/projects')).status).toBe(401);
  });

  it('say a bad token is invalid, not that the caller should sign in', async () => {
    const a = await agency();
    const forged = `${a.token.slice(0, 21)}${'A'.repeat(43)}`;
    for (const token of [forged, 'snag_pat_short', '']) {
      const res = await v1(token, 'GET', '/api/v1/projects');
      expect([token, res.status, res.body]).toMatchObject([
        token,
        401,
        { code: 'TOKEN_INVALID', msg: expect.stringMatching(/^The API token is invalid/) },
      ]);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="snag", error="invalid_token"');
    }
    const german = await v1('snag_pat_short', 'GET', '/api/v1/projects?lng=de');
    expect(german.body).toMatchObject({ msg: expect.stringMatching(/^Das API-Token ist ungültig/) });
    // No token at all is still the transport's UNAUTHORIZED.
    expect(codeOf(await v1(null, 'GET', '/api/v1/projects'))).toBe('UNAUTHORIZED');
  });

  it('record their last use, and never appear in a log line', async () => {
    const a = await agency();
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk, ...rest) => {
      lines.push(String(chunk));
      return write(chunk, ...(rest as []));
    });
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'debug';
    resetConfig();
    try {
      await v1(a.token, 'GET', '/api/v1/projects');
      await v1(a.token, 'GET', `/api/v1/projects/${a.site.id}/issues?limit=0`);
    } finally {
      process.env.LOG_LEVEL = level;
      resetConfig();
      spy.mockRestore();
    }
    const text = lines.join('');
    expect(text).toContain(a.entry.id);
    expect(text).toContain('api call');
    expect(text).not.toContain(a.token.slice(21));
    const list = await a.admin.client.get(`/api/client/team/${a.teamId}/tokens`);
    const [entry] = (list.body as { msg: { tokens: { lastUsed: string | null }[] } }).msg.tokens;
    expect(Date.now() - Date.parse(entry?.lastUsed ?? '')).toBeLessThan(60_000);
  });
});

describe('v1', () => {
  it("lists and reads the projects of the token's team only", async () => {
    const a = await agency();
    const other: Site = await newSite(stack.url);
    const projects = msgOf(
      await v1<{ projects: { id: string; name: string }[] }>(a.token, 'GET', '/api/v1/projects'),
    );
    expect(projects.projects.map((p) => [p.id, p.name])).toEqual([[a.site.id, 'Shop']]);
    const one = msgOf(
      await v1<{ id: string; openIssues: number }>(a.token, 'GET', `/api/v1/projects/${a.site.id}`),
    );
    expect(one).toMatchObject({ id: a.site.id, openIssues: 0, url: expect.stringContaining('shop.example') });
    expect(one).toMatchObject({ labels: [], assignees: expect.any(Array) });
    const outside = await v1(a.token, 'GET', `/api/v1/projects/${other.id}`);
    expect([outside.status, codeOf(outside)]).toEqual([404, 'NOT_FOUND']);
    expect((await v1(a.token, 'GET', `/api/v1/projects/${other.id}/issues`)).status).toBe(404);
    expect((await v1(a.token, 'GET', '/api/v1/projects/not-a-uuid')).status).toBe(404);
  });

  it("reads a project's labels and the people it may assign, so a script can triage by name", async () => {
    const a = await agency();
    const guest = await signedIn(stack.url);
    await addToTeam(a.teamId, await uidOf(guest.email), 'GUEST', [a.site.id]);
    const label = await a.site.client.post(`/api/client/website/${a.site.id}/labels`, {
      name: 'Checkout',
      color: '#aa3300',
    });
    expect(label.status).toBe(201);
    const detail = msgOf(
      await v1<{
        labels: { id: string; name: string; color: string }[];
        assignees: { id: string; name: string; role: string }[];
      }>(a.token, 'GET', `/api/v1/projects/${a.site.id}`),
    );
    expect(detail.labels).toEqual([
      { id: expect.stringMatching(/^[a-z0-9]{8,16}$/), name: 'Checkout', color: '#aa3300' },
    ]);
    // The owner, the ADMIN and the MEMBER may triage; the project's GUEST may not, so is not offered.
    expect(detail.assignees.map((p) => [p.id, p.role]).sort()).toEqual(
      [
        [a.teamId, 'OWNER'],
        [a.adminId, 'ADMIN'],
        [a.memberId, 'MEMBER'],
      ].sort(),
    );
    expect(detail.assignees.every((p) => p.name.length > 0)).toBe(true);
    // What it offers, a PATCH takes: the label by its id, the MEMBER as assignee.
    const number = await fileReport(stack.url, a.site.id, SITE, {
      fields: { msg: 'Checkout broken', href: 'https://shop.example/cart' },
    });
    const patched = await v1<{ labels: string[]; assignee: string }>(
      a.token,
      'PATCH',
      `/api/v1/projects/${a.site.id}/issues/${number}`,
      { labels: [detail.labels[0]?.id], assignee: a.memberId },
    );
    expect(msgOf(patched)).toMatchObject({ labels: [detail.labels[0]?.id], assignee: a.memberId });
    // The additive form: removals and additions apply to the set as stored, not a script's copy of it.
    const removed = await v1<{ labels: string[] }>(
      a.token,
      'PATCH',
      `/api/v1/projects/${a.site.id}/issues/${number}`,
      { removeLabels: [detail.labels[0]?.id] },
    );
    expect(msgOf(removed).labels).toEqual([]);
    const late = await v1(a.token, 'PATCH', `/api/v1/projects/${a.site.id}/issues/${number}`, {
      dueDate: '0202-12-15',
    });
    expect([late.status, codeOf(late)]).toEqual([400, 'INVALID_PARAMETERS']);
  });

  it('refuses a call whose scope the token lacks (403), and the dashboard routes take no token', async () => {
    const a = await agency();
    const made = await createToken(a.admin.client, a.teamId, { name: 'Reader', scopes: ['issues:read'] });
    const reader = (made.body as { msg: Created }).msg.token;
    const res = await v1(reader, 'GET', '/api/v1/projects');
    expect([res.status, codeOf(res)]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    // The answer names the scope to grant.
    expect(res.body).toMatchObject({
      scope: 'projects:read',
      msg: 'This API token does not have the scope this call needs: projects:read',
    });
    await seedIssues(a.site.id, 1);
    expect((await v1(reader, 'GET', `/api/v1/projects/${a.site.id}/issues/1`)).status).toBe(200);
    const patch = await v1(reader, 'PATCH', `/api/v1/projects/${a.site.id}/issues/1`, { status: 'closed' });
    expect([patch.status, codeOf(patch)]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    const comment = await v1(reader, 'POST', `/api/v1/projects/${a.site.id}/issues/1/comments`, {
      body: 'Hi',
      visibility: 'public',
    });
    expect(comment.status).toBe(403);
    // A token is no session: the dashboard's routes answer 401 to it (and want their Origin for changes).
    expect((await v1(a.token, 'GET', `/api/client/team/${a.teamId}/tokens`)).status).toBe(401);
    const post = await v1(a.token, 'POST', `/api/client/team/${a.teamId}/tokens`, {
      name: 'x',
      scopes: ['issues:read'],
    });
    expect(post.status).toBe(403);
    expect(codeOf(post)).toBe('FORBIDDEN_ORIGIN');
  });

  it('pages a filtered list to its end with cursors, matching the list exactly', async () => {
    const a = await agency();
    await seedIssues(a.site.id, 23);
    const base = `/api/v1/projects/${a.site.id}/issues`;
    const walk = async (query: string) => {
      const numbers: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q = `${query}&limit=5${cursor ? `&cursor=${cursor}` : ''}`;
        const page: { issues: { number: number }[]; total: number; next: string | null } = msgOf(
          await v1(a.token, 'GET', `${base}?${q}`),
        );
        numbers.push(...page.issues.map((i) => i.number));
        cursor = page.next;
        pages++;
      } while (cursor && pages < 20);
      return { numbers, pages };
    };
    const newest = await walk('sort=newest');
    expect(newest.numbers).toEqual(Array.from({ length: 23 }, (_, i) => 23 - i));
    expect(newest.pages).toBe(5);
    const oldest = await walk('sort=oldest');
    expect(oldest.numbers).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));

    // Close five through the API: the status filter then finds exactly those, newest first.
    for (const n of [2, 4, 6, 8, 10]) {
      const res = await v1(a.token, 'PATCH', `${base}/${n}`, { status: 'closed', priority: 'high' });
      expect(res.status).toBe(200);
    }
    const closed = await walk('status=closed');
    expect(closed.numbers).toEqual([10, 8, 6, 4, 2]);
    const open = await walk('sort=newest');
    expect(open.numbers).toHaveLength(18);
    expect(open.numbers).not.toContain(4);

    for (const q of [
      'limit=101',
      'limit=0',
      'cursor=%%%',
      'cursor=bzA',
      'sort=random',
      'status=done',
      'assignee=x',
    ]) {
      const res = await v1(a.token, 'GET', `${base}?${q}`);
      expect([q, res.status, codeOf(res)]).toEqual([q, 400, expect.any(String)]);
    }
  });

  it('reads an issue with working signed links, changes it and comments as "<creator> via API token <name>"', async () => {
    const a = await agency();
    const image = png(4, 4, [200, 10, 10]);
    const number = await fileReport(stack.url, a.site.id, SITE, {
      fields: {
        msg: 'Checkout broken\nThe button does nothing.',
        username: 'visitor@example.org',
        href: 'https://shop.example/cart',
      },
      screenshots: [{ type: 'image/png', content: image, snapshot: '<p>page</p>' }],
      files: [{ name: 'log.txt', type: 'text/plain', content: new TextEncoder().encode('trace') }],
    });
    const path = `/api/v1/projects/${a.site.id}/issues/${number}`;
    const issue = msgOf(
      await v1<{
        title: string;
        description: string;
        reporter: string;
        pageUrl: string;
        screenshots: { url: string; snapshotUrl: string | null }[];
        files: { url: string; originalName: string }[];
      }>(a.token, 'GET', path),
    );
    expect(issue).toMatchObject({
      title: 'Checkout broken',
      reporter: 'visitor@example.org',
      pageUrl: 'https://shop.example/cart',
      files: [{ originalName: 'log.txt' }],
    });
    // The stored screenshot (the intake re-encodes it), served inline as an image.
    const shot = await fetch(issue.screenshots[0]?.url ?? '');
    expect(shot.headers.get('content-type')).toBe('image/png');
    expect(shot.headers.get('content-disposition')).toMatch(/^inline; /);
    expect([...new Uint8Array(await shot.arrayBuffer()).slice(0, 4)]).toEqual([...image.slice(0, 4)]);
    expect(await (await fetch(issue.files[0]?.url ?? '')).text()).toBe('trace');
    expect(await (await fetch(issue.screenshots[0]?.snapshotUrl ?? '')).text()).toContain('<p>page</p>');

    const changed = msgOf(
      await v1<{ status: string; assignee: string | null; dueDate: string | null }>(a.token, 'PATCH', path, {
        status: 'in_progress',
        assignee: a.memberId,
        dueDate: '2026-12-24',
      }),
    );
    expect(changed).toMatchObject({ status: 'in_progress', assignee: a.memberId, dueDate: '2026-12-24' });
    const bad = await v1(a.token, 'PATCH', path, {
      status: 'in_progress',
      assignee: await uidOf((await signedIn(stack.url)).email),
    });
    expect([bad.status, codeOf(bad)]).toEqual([400, 'INVALID_PARAMETERS']);
    for (const body of [{}, { status: 'done' }, { labels: ['nope'] }, 'not json']) {
      expect((await v1(a.token, 'PATCH', path, body)).status).toBe(400);
    }
    expect(
      (await v1(a.token, 'PATCH', `/api/v1/projects/${a.site.id}/issues/999`, { status: 'closed' })).status,
    ).toBe(404);

    // The admin renames themself after making the token: its changes keep the name it was made under.
    await a.admin.client.patch('/api/client/profile', { firstName: 'Grace', lastName: 'Brewster' });
    const posted = await v1<{ author: Json }>(a.token, 'POST', `${path}/comments`, {
      body: 'Fixed in 1.2.3',
      visibility: 'public',
    });
    expect(posted.status).toBe(201);
    const byCI = { kind: 'token', id: a.entry.id, name: 'Grace Hopper', token: 'CI' };
    expect(msgOf(posted).author).toEqual(byCI);
    const comments = msgOf(
      await v1<{ comments: { body: string; author: Json }[]; next: null }>(
        a.token,
        'GET',
        `${path}/comments`,
      ),
    );
    expect(comments.comments.map((c) => [c.body, c.author])).toEqual([['Fixed in 1.2.3', byCI]]);
    expect((await v1(a.token, 'POST', `${path}/comments`, { body: '  ', visibility: 'public' })).status).toBe(
      400,
    );

    // The dashboard's own timeline call shows who did it: the creator, through the token, by name.
    const timeline = async () => {
      const res = await a.site.client.get(`/api/client/website/${a.site.id}/request/${number}/activity`);
      expect(res.status).toBe(200);
      const { entries } = (res.body as { msg: { entries: (Json & { actor?: Json; author?: Json })[] } }).msg;
      return entries;
    };
    const entries = await timeline();
    const byToken = entries
      .filter((e) => (e.actor ?? e.author)?.kind === 'token')
      .map((e) => [e.type === 'comment' ? 'comment' : e.kind, e.actor ?? e.author]);
    expect(byToken).toEqual(
      expect.arrayContaining([
        ['status', byCI],
        ['assignee', byCI],
        ['dueDate', byCI],
        ['comment', byCI],
      ]),
    );
    expect(byToken).toHaveLength(4);

    // A token made before the creator's name was kept acts under its own name alone (decision API-13).
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: tokenKey(a.entry.id),
        UpdateExpression: 'REMOVE creatorName',
        ConditionExpression: 'attribute_exists(creatorName)',
      }),
    );
    expect((await v1(a.token, 'PATCH', path, { priority: 'low' })).status).toBe(200);
    const legacy = (await timeline()).find((e) => e.kind === 'priority');
    expect(legacy?.actor).toEqual({ kind: 'token', id: a.entry.id, name: 'API token CI' });
  });

  it("says where an issue went: each delivery with the created item's link (http(s) only), as the dashboard does", async () => {
    const a = await agency();
    const n = await fileReport(stack.url, a.site.id, SITE, { fields: { msg: 'Sent everywhere' } });
    // The delivery state as the consumer leaves it: GitHub and Slack delivered with their links, email
    // delivered (nothing to link), Jira failed, Linear still under way; Asana delivered before links were
    // kept; a hostile Slack link (a vendor answered `javascript:`) must never come out.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `PROJECT#${a.site.id}`, sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL` },
        UpdateExpression:
          'SET st = :st, url_github = :gh, url_slack = :bad, url_linear = :ln, reason_jira = :why',
        ExpressionAttributeValues: {
          ':st': { email: 2, github: 2, slack: 2, jira: 3, linear: 1, asana: 2 },
          ':gh': 'https://github.com/octo-org/shop/issues/12',
          ':bad': 'javascript:alert(1)',
          ':ln': 'https://linear.app/snag/issue/ENG-3',
          ':why': 'Jira refused the token',
        },
      }),
    );
    const issue = msgOf(
      await v1<{ deliveries: unknown[] }>(a.token, 'GET', `/api/v1/projects/${a.site.id}/issues/${n}`),
    );
    expect(issue.deliveries).toEqual([
      { integration: 'email', status: 'delivered', url: null, reason: null },
      { integration: 'jira', status: 'failed', url: null, reason: 'Jira refused the token' },
      { integration: 'slack', status: 'delivered', url: null, reason: null },
      { integration: 'asana', status: 'delivered', url: null, reason: null },
      {
        integration: 'github',
        status: 'delivered',
        url: 'https://github.com/octo-org/shop/issues/12',
        reason: null,
      },
      {
        integration: 'linear',
        status: 'in_progress',
        url: 'https://linear.app/snag/issue/ENG-3',
        reason: null,
      },
    ]);
    // The dashboard's issue answer carries the same links, additively (`<name>_url`).
    const dashboard = (await a.site.client.get<Json>(`/api/client/website/${a.site.id}/request/${n}`))
      .body as { msg: Json };
    expect(dashboard.msg).toMatchObject({
      github_url: 'https://github.com/octo-org/shop/issues/12',
      github_status: 2,
    });
    expect(dashboard.msg).not.toHaveProperty('slack_url');
    expect(dashboard.msg).not.toHaveProperty('email_url');
  });

  it('gives the steps to reproduce and a signed link to the replay, which opens that recording for an hour', async () => {
    const a = await agency();
    const reportedAt = new Date().toISOString();
    // The report call takes one-line labels (a line break is refused there, not here).
    const steps = hostileSteps(reportedAt).filter((s) => !s.label.includes('\n'));
    const n = await fileReport(stack.url, a.site.id, SITE, { fields: { msg: 'Pay fails', steps } });
    const path = `/api/v1/projects/${a.site.id}/issues/${n}`;
    type Answer = { steps: unknown[]; replay: Json | null; createdAt: string };
    const without = msgOf(await v1<Answer>(a.token, 'GET', path));
    // What the visitor's page said, exactly as stored: the label is data here, each client renders it.
    expect(without.steps).toEqual(steps);
    expect(without.replay).toBeNull();

    // With replay on, a report carrying a recording, as the widget uploads it.
    expect(
      (await a.site.client.patch(`/api/client/website/${a.site.id}`, { data: { widgetReplay: true } }))
        .status,
    ).toBe(200);
    const recording = new Uint8Array(gzipSync(JSON.stringify([{ type: 4, timestamp: 1, data: {} }])));
    const replay = { start: Date.now() - 60_000, end: Date.now() - 500, stopped: 'mutations' as const };
    const m = await fileReport(stack.url, a.site.id, SITE, {
      fields: { msg: 'Pay fails again', steps },
      replay: { content: recording, ...replay },
    });
    const replayPath = `/api/v1/projects/${a.site.id}/issues/${m}`;
    const before = Date.now();
    const issue = msgOf(await v1<Answer>(a.token, 'GET', replayPath));
    const after = Date.now();
    expect(issue.steps).toEqual(steps);
    expect(issue.replay).toEqual({
      url: expect.stringMatching(new RegExp(`^${stack.url}/replay/[\\w.-]+$`)),
      dataUrl: expect.stringMatching(new RegExp(`^${stack.url}/api/replay/[\\w.-]+$`)),
      expiresAt: expect.any(String),
      start: replay.start,
      end: replay.end,
      stopped: 'mutations',
    });
    const url = String(issue.replay?.url);
    expect(await openedReplay(url, stack.url)).toMatchObject({ projectId: a.site.id });
    expect(String(issue.replay?.dataUrl).split('/').pop()).toBe(url.split('/').pop());
    // The data link answers the recording's bytes with no token of the API and no session.
    const bytes = await fetch(String(issue.replay?.dataUrl));
    expect(bytes.headers.get('content-type')).toBe('application/gzip');
    expect(Buffer.from(await bytes.arrayBuffer()).equals(Buffer.from(recording))).toBe(true);
    // An hour from when the server signed it, which is some moment between the call and its answer.
    const expires = Date.parse(String(issue.replay?.expiresAt));
    expect(expires).toBeGreaterThan(before + 59 * 60_000);
    expect(expires).toBeLessThanOrEqual(after + 60 * 60_000);
    // The list stays as it was: no steps, no replay.
    const list = msgOf(await v1<{ issues: Json[] }>(a.token, 'GET', `/api/v1/projects/${a.site.id}/issues`));
    expect(list.issues[0]).not.toHaveProperty('steps');
    expect(list.issues[0]).not.toHaveProperty('replay');
  });

  it('counts calls per token with RateLimit headers, and answers 429 with Retry-After past the limit', async () => {
    const a = await agency();
    const first = await v1(a.token, 'GET', '/api/v1/projects');
    expect(first.headers.get('ratelimit-limit')).toBe(String(API_RATE_LIMIT.max));
    expect(first.headers.get('ratelimit-remaining')).toBe(String(API_RATE_LIMIT.max - 1));
    const second = await v1(a.token, 'GET', '/api/v1/projects');
    expect(second.headers.get('ratelimit-remaining')).toBe(String(API_RATE_LIMIT.max - 2));
    const reset = Number(second.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);

    // Fill the window as `max` calls would, then one more is refused, the others' tokens untouched.
    const { key } = rateWindow({ action: 'api', key: a.entry.id, windowMs: API_RATE_LIMIT.windowMs });
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET #c = :max',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':max': API_RATE_LIMIT.max },
      }),
    );
    const refused = await v1(a.token, 'GET', '/api/v1/projects');
    expect([refused.status, codeOf(refused)]).toEqual([429, 'RATE_LIMITED']);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const made = await createToken(a.admin.client, a.teamId, { name: 'Other', scopes: ['projects:read'] });
    expect((await v1((made.body as { msg: Created }).msg.token, 'GET', '/api/v1/projects')).status).toBe(200);
  });

  it('answers every call as the OpenAPI document it serves says, and the document is valid', async () => {
    const res = await fetch(new URL('/api/v1/openapi.json', stack.url));
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: Json }> }> }>
      >;
      components: { schemas: Record<string, Json> };
    };
    const valid = await new Validator().validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(valid).toEqual({ valid: true });
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const resolve = (schema: Json): Json =>
      typeof schema.$ref === 'string'
        ? (doc.components.schemas[schema.$ref.split('/').pop() ?? ''] ?? {})
        : schema;
    let checked = 0;
    for (const call of seen) {
      const match = matchRoute(call.method, call.path);
      if (!('route' in match) || !match.route.token) continue;
      const key = `${call.method} ${call.path} ${call.status}`;
      const documented =
        doc.paths[match.route.path]?.[call.method.toLowerCase()]?.responses[String(call.status)];
      expect(documented, key).toBeDefined();
      const schema = documented?.content?.['application/json']?.schema;
      if (!schema) continue;
      const validate = ajv.compile(resolve(schema));
      expect([key, validate(call.body), validate.errors ?? null]).toEqual([key, true, null]);
      checked++;
    }
    expect(checked).toBeGreaterThan(60);
  });
});
