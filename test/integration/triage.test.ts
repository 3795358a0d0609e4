/**
 * Triage writes through the local stack (issue 23, docs/data-model.md 4.13): every field's validation, who
 * may triage, the answer, activity and outbox entries in the change's transaction, bulk idempotence, the
 * counters and the facet index exact after 50 parallel mixed calls, and unassigning a removed member.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { n10 } from '../../functions/issues/issue';
import { checkRankIndex } from '../../functions/issues/rank-check';
import type { ApiClient } from '../support/api-client';
import { bulkSeedIssues, seedIssues } from '../support/issues';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { signedIn } from '../support/users';

const stack = setUpTestStack();

interface Person {
  client: ApiClient;
  uid: string;
}

async function person(): Promise<Person> {
  const { client, email } = await signedIn(stack.url);
  const uid = await findUserIdByEmail(email.toLowerCase());
  if (!uid) throw new Error('no user id');
  return { client, uid };
}

/** An owner with a project of `count` issues, a MEMBER and a GUEST of it. */
async function team(count: number) {
  const [owner, member, guest] = await Promise.all([person(), person(), person()]);
  const created = await owner.client.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  const pid = (created.body as { msg: { id: string } }).msg.id;
  await addToTeam(owner.uid, member.uid, 'MEMBER');
  await addToTeam(owner.uid, guest.uid, 'GUEST', [pid]);
  await seedIssues(pid, count);
  const path = (n: number) => `/api/client/website/${pid}/request/${n}`;
  return { owner, member, guest, pid, path };
}

async function label(owner: Person, pid: string, name: string): Promise<string> {
  const res = await owner.client.post(`/api/client/website/${pid}/labels`, { name, color: '#112233' });
  expect(res.status).toBe(201);
  return (res.body as { msg: { label: { id: string } } }).msg.label.id;
}

async function timeline(pid: string, n: number): Promise<Record<string, unknown>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: stack.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :t)',
      ExpressionAttributeValues: { ':pk': `PROJECT#${pid}`, ':t': `ISSUE#${n10(n)}#T#` },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

async function outbox(): Promise<Record<string, unknown>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: stack.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'NOTIFY' },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => i.event as Record<string, unknown>);
}

type IssueMsg = Record<string, unknown> & { number: number; deleted: number; status: string };

describe('PATCH …/request/{ticketId}', () => {
  it('refuses every malformed or out-of-project value with INVALID_PARAMETERS, storing nothing', async () => {
    const { owner, member, guest, pid, path } = await team(1);
    const outsider = await person();
    const bug = await label(owner, pid, 'Bug');
    const bad: unknown[] = [
      {},
      { status: 'done' },
      { status: 7 },
      { priority: 'critical' },
      { assignee: 'not-a-uuid' },
      { assignee: outsider.uid },
      { assignee: guest.uid },
      { labels: ['zzzzzzzzzzzz'] },
      { labels: 'bug' },
      { labels: Array.from({ length: 11 }, () => bug) },
      { dueDate: '2026-13-01' },
      { dueDate: '1 May' },
      { restore: true, status: 'closed' },
      { restore: false, status: 'in_progress' },
      { status: 'new', extra: 1 },
    ];
    for (const body of bad) {
      const res = await member.client.patch(path(1), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_PARAMETERS' });
    }
    const after = await owner.client.get(path(1));
    expect(after.body).toMatchObject({
      msg: { status: 'new', priority: 'none', assignee: null, labels: [], dueDate: null },
    });
    expect(await timeline(pid, 1)).toHaveLength(1);
  });

  it('sets each field, answers the issue as GET does, and writes one activity entry per change', async () => {
    const { owner, member, pid, path } = await team(2);
    const bug = await label(owner, pid, 'Bug');
    const ui = await label(owner, pid, 'UI');
    const res = await member.client.patch<IssueMsg>(path(2), {
      status: 'in_progress',
      priority: 'high',
      assignee: owner.uid,
      labels: [bug, ui],
      dueDate: '2026-12-24',
    });
    expect(res.status).toBe(200);
    const got = await member.client.get(path(2));
    expect(res.body).toEqual(got.body);
    expect(res.body).toMatchObject({
      msg: {
        number: 2,
        deleted: 0,
        status: 'in_progress',
        priority: 'high',
        assignee: owner.uid,
        labels: [bug, ui],
        dueDate: '2026-12-24',
      },
    });
    const kinds = (await timeline(pid, 2)).map((e) => e.type).sort();
    expect(kinds).toEqual(['assignee', 'created', 'dueDate', 'labels', 'priority', 'status']);
    const statusEntry = (await timeline(pid, 2)).find((e) => e.type === 'status');
    expect(statusEntry).toMatchObject({
      from: 'new',
      to: 'in_progress',
      actor: { kind: 'member', id: member.uid },
    });
    // Assigning someone else tells them (the outbox entry, written with the change).
    expect(await outbox()).toContainEqual(
      expect.objectContaining({ kind: 'assigned', projectId: pid, number: 2, to: owner.uid }),
    );
    // Unassigning and clearing the due date.
    const cleared = await member.client.patch(path(2), { assignee: null, dueDate: null });
    expect(cleared.body).toMatchObject({ msg: { assignee: null, dueDate: null } });
    // Nothing changes: no entry.
    const before = (await timeline(pid, 2)).length;
    await member.client.patch(path(2), { priority: 'high' });
    expect(await timeline(pid, 2)).toHaveLength(before);
    expect(await checkRankIndex(pid)).toEqual([]);
  });

  it('refuses a due date outside 2000–2100 (a half-typed year) with INVALID_PARAMETERS naming the field', async () => {
    const { member, pid, path } = await team(1);
    for (const dueDate of ['0202-12-15', '0002-12-15', '1999-12-31', '2101-01-01']) {
      const res = await member.client.patch(path(1), { dueDate });
      expect([res.status, res.body], dueDate).toEqual([
        400,
        expect.objectContaining({ code: 'INVALID_PARAMETERS', fields: { dueDate: 'INVALID_PARAMETERS' } }),
      ]);
    }
    for (const dueDate of ['2000-01-01', '2100-12-31']) {
      const res = await member.client.patch(path(1), { dueDate });
      expect([res.status, res.body], dueDate).toEqual([
        200,
        expect.objectContaining({ msg: expect.objectContaining({ dueDate }) }),
      ]);
    }
    expect((await timeline(pid, 1)).filter((e) => e.type === 'dueDate')).toHaveLength(2);
  });

  it('says which due dates it takes, in English and German, on the dashboard route and on REST v1', async () => {
    const { owner, path, pid } = await team(1);
    const made = await owner.client.post(`/api/client/team/${owner.uid}/tokens`, {
      name: 'CI',
      scopes: ['issues:write'],
    });
    expect(made.status).toBe(201);
    const token = (made.body as { msg: { token: string } }).msg.token;
    const v1 = (lng: string) =>
      fetch(new URL(`/api/v1/projects/${pid}/issues/1?lng=${lng}`, stack.url), {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ dueDate: '0202-12-15' }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const messages = {
      en: 'Invalid parameters: dueDate: expected a date from 2000-01-01 to 2100-12-31 (YYYY-MM-DD)',
      de: 'Ungültige Parameter: dueDate: erwartet: ein Datum von 2000-01-01 bis 2100-12-31 (JJJJ-MM-TT)',
    };
    for (const lng of ['en', 'de'] as const) {
      const dashboard = await owner.client.patch(`${path(1)}?lng=${lng}`, { dueDate: '0202-12-15' });
      const rest = await v1(lng);
      for (const res of [dashboard, rest]) {
        expect([res.status, res.body], lng).toEqual([
          400,
          expect.objectContaining({ code: 'INVALID_PARAMETERS', msg: messages[lng] }),
        ]);
      }
    }
  });

  it("adds and removes labels on the set as stored, so a teammate's label added meanwhile stays", async () => {
    const { owner, member, pid, path } = await team(1);
    const [bug, checkout, ui] = await Promise.all(['Bug', 'Checkout', 'UI'].map((n) => label(owner, pid, n)));
    await member.client.patch(path(1), { labels: [bug] });
    // A teammate adds UI; the member, whose copy still shows [bug], adds checkout: both stay.
    await owner.client.patch(path(1), { addLabels: [ui] });
    const added = await member.client.patch(path(1), { addLabels: [checkout] });
    expect(added.status).toBe(200);
    expect(new Set((added.body as { msg: { labels: string[] } }).msg.labels)).toEqual(
      new Set([bug, ui, checkout]),
    );
    // A removal takes out only what it names, and its activity says exactly that.
    const removed = await member.client.patch(path(1), { removeLabels: [bug] });
    expect(new Set((removed.body as { msg: { labels: string[] } }).msg.labels)).toEqual(
      new Set([ui, checkout]),
    );
    const last = (await timeline(pid, 1)).filter((e) => e.type === 'labels').pop();
    expect(new Set(last?.from as string[])).toEqual(new Set([bug, ui, checkout]));
    expect(new Set(last?.to as string[])).toEqual(new Set([ui, checkout]));
    // Adding what is there already or removing what is not changes nothing and logs nothing.
    const before = (await timeline(pid, 1)).length;
    await member.client.patch(path(1), { addLabels: [ui], removeLabels: [bug] });
    expect(await timeline(pid, 1)).toHaveLength(before);
    // Bad forms: with the whole list, one id both ways, an unknown label.
    for (const body of [
      { labels: [bug], addLabels: [ui] },
      { addLabels: [bug], removeLabels: [bug] },
      { addLabels: ['zzzzzzzzzzzz'] },
      { removeLabels: 'bug' },
    ]) {
      const res = await member.client.patch(path(1), body);
      expect([res.status, (res.body as { code?: string }).code], JSON.stringify(body)).toEqual([
        400,
        'INVALID_PARAMETERS',
      ]);
    }
    expect(await checkRankIndex(pid)).toEqual([]);
  });

  it('keeps every one of 10 parallel label additions, and refuses one past the limit of 10', async () => {
    const { owner, member, pid, path } = await team(1);
    const ids = await Promise.all(Array.from({ length: 11 }, (_, i) => label(owner, pid, `L${i}`)));
    const answers = await Promise.all(
      ids.slice(0, 10).map((id, i) => (i % 2 ? owner : member).client.patch(path(1), { addLabels: [id] })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    const got = await member.client.get(path(1));
    expect(new Set((got.body as { msg: { labels: string[] } }).msg.labels)).toEqual(
      new Set(ids.slice(0, 10)),
    );
    expect((await timeline(pid, 1)).filter((e) => e.type === 'labels')).toHaveLength(10);
    const over = await member.client.patch(path(1), { addLabels: [ids[10]] });
    expect([over.status, (over.body as { code?: string }).code]).toEqual([400, 'INVALID_PARAMETERS']);
    expect(await checkRankIndex(pid)).toEqual([]);
  });

  it('keeps SPEC close and restore: false resolves, true reopens as new; status moves between the lists', async () => {
    const { owner, member, pid, path } = await team(3);
    const closed = await member.client.patch<IssueMsg>(path(1), { restore: false });
    expect(closed.body).toMatchObject({ msg: { number: 1, deleted: 1, status: 'resolved' } });
    const again = await member.client.patch(path(1), { restore: false });
    expect(again.body).toMatchObject({ msg: { deleted: 1, status: 'resolved' } });
    const reopened = await member.client.patch(path(1), { restore: true });
    expect(reopened.body).toMatchObject({ msg: { deleted: 0, status: 'new' } });
    const done = await member.client.patch(path(2), { status: 'closed' });
    expect(done.body).toMatchObject({ msg: { deleted: 1, status: 'closed' } });
    const kinds = (await timeline(pid, 1)).map((e) => e.type);
    expect(kinds).toEqual(['created', 'closed', 'restored']);
    const projects = await owner.client.get(`/api/client/website/${pid}`);
    expect(projects.status).toBe(200);
    expect(await checkRankIndex(pid)).toEqual([]);
  });

  it('lets a GUEST read but not triage (403), and refuses another client (404)', async () => {
    const { guest, path } = await team(1);
    expect((await guest.client.get(path(1))).status).toBe(200);
    const res = await guest.client.patch(path(1), { status: 'in_review' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN' });
    const outsider = await person();
    expect((await outsider.client.patch(path(1), { status: 'in_review' })).status).toBe(404);
    expect(
      (
        await outsider.client.patch(path(1).replace(/\/request\/1$/, '/requests'), {
          tickets: [1],
          set: { priority: 'low' },
        })
      ).status,
    ).toBe(404);
  });
});

describe('PATCH …/requests (bulk)', () => {
  it('changes each listed issue atomically, is idempotent and leaves missing numbers out', async () => {
    const { owner, member, pid } = await team(5);
    const bug = await label(owner, pid, 'Bug');
    const bulk = `/api/client/website/${pid}/requests`;
    const body = {
      tickets: [1, 2, 3, 99],
      set: { priority: 'urgent', labels: { add: [bug] }, assignee: member.uid },
    };
    const first = await member.client.patch(bulk, body);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ msg: { updated: [1, 2, 3] } });
    const entries = (await timeline(pid, 1)).length;
    const second = await member.client.patch(bulk, body);
    expect(second.body).toMatchObject({ msg: { updated: [1, 2, 3] } });
    expect(await timeline(pid, 1)).toHaveLength(entries);
    const one = await member.client.get(`/api/client/website/${pid}/request/2`);
    expect(one.body).toMatchObject({ msg: { priority: 'urgent', labels: [bug], assignee: member.uid } });
    const removed = await member.client.patch(bulk, {
      tickets: [1, 2],
      set: { labels: { remove: [bug] }, status: 'resolved' },
    });
    expect(removed.body).toMatchObject({ msg: { updated: [1, 2] } });
    const refused = [
      { tickets: [], set: { priority: 'low' } },
      { tickets: Array.from({ length: 101 }, (_, i) => i + 1), set: { priority: 'low' } },
      { tickets: [1], set: {} },
      { tickets: [1], set: { labels: { add: ['zzzzzzzzzzzz'] } } },
      { tickets: [1], set: { restore: true } },
    ];
    for (const b of refused) expect((await member.client.patch(bulk, b)).status, JSON.stringify(b)).toBe(400);
    expect(await checkRankIndex(pid)).toEqual([]);
  });

  it('keeps the counters and the facet index exact under 50 parallel mixed single, bulk, close and restore calls', async () => {
    const { owner, member, pid, path } = await team(12);
    const bug = await label(owner, pid, 'Bug');
    const bulk = `/api/client/website/${pid}/requests`;
    const statuses = ['new', 'in_progress', 'in_review', 'resolved', 'closed'] as const;
    const calls = Array.from({ length: 50 }, (_, i) => {
      const n = (i % 12) + 1;
      const who = i % 2 ? member : owner;
      switch (i % 5) {
        case 0:
          return who.client.patch(path(n), { restore: i % 3 === 0 });
        case 1:
          return who.client.patch(path(n), {
            status: statuses[i % 5 === 1 ? (i >> 1) % 5 : 0],
            priority: 'low',
          });
        case 2:
          return who.client.patch(bulk, {
            tickets: [n, ((n + 3) % 12) + 1, ((n + 6) % 12) + 1],
            set: { status: statuses[i % 5], labels: { add: [bug] } },
          });
        case 3:
          return who.client.patch(bulk, {
            tickets: [n, ((n + 1) % 12) + 1],
            set: { assignee: member.uid, priority: 'high' },
          });
        default:
          return who.client.patch(path(n), { labels: i % 2 ? [bug] : [], assignee: null });
      }
    });
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(await checkRankIndex(pid)).toEqual([]);
    const open = await owner.client.get<{ total_requests: number }>(`/api/client/website/${pid}/request`);
    const resolved = await owner.client.get(`/api/client/website/${pid}/request?resolved=1`);
    const total =
      (open.body as { msg: { total_requests: number } }).msg.total_requests +
      (resolved.body as { msg: { total_requests: number } }).msg.total_requests;
    expect(total).toBe(12);
  });
});

describe('a member who leaves the team', () => {
  it('is unassigned from every issue of every project of the team, with activity', async () => {
    const { owner, member, pid, path } = await team(3);
    const bulk = `/api/client/website/${pid}/requests`;
    await owner.client.patch(bulk, { tickets: [1, 2], set: { assignee: member.uid } });
    await owner.client.patch(path(2), { status: 'resolved' });
    const res = await owner.client.delete(`/api/client/team/${owner.uid}/members/${member.uid}`);
    expect(res.status).toBe(200);
    for (const n of [1, 2]) {
      const got = await owner.client.get(path(n));
      expect(got.body).toMatchObject({ msg: { assignee: null } });
      expect((await timeline(pid, n)).map((e) => e.type)).toContain('assignee');
    }
    // Nobody can assign them any more.
    expect((await owner.client.patch(path(3), { assignee: member.uid })).status).toBe(400);
    expect(await checkRankIndex(pid)).toEqual([]);
  });
});

describe('the bench seed', () => {
  it('leaves the rank indexes as the create transactions would, across a block boundary', async () => {
    const { owner, pid } = await team(0);
    await bulkSeedIssues(pid, 1030);
    expect(await checkRankIndex(pid)).toEqual([]);
    const page = await owner.client.get(`/api/client/website/${pid}/request?sort=updated&page=2`);
    expect(page.status).toBe(200);
    const rows = (page.body as { msg: { requests: { number: number }[] } }).msg.requests;
    expect(rows.map((r) => r.number)).toEqual([1020, 1019, 1018, 1017, 1016, 1015, 1014, 1013, 1012, 1011]);
  });
});
