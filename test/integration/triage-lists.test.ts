/**
 * The list's triage filters and sorts through the local stack (issue 23, docs/data-model.md 4.13): each
 * filter and each sort paged to the end against the truth computed from the stored headers, combinations
 * too, and the request budget (DESIGN section 7): one filter or sort costs ≤ 4 DynamoDB requests for page 1
 * and for page N alike.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { priorities } from '#contracts/triage';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { checkRankIndex } from '../../functions/issues/rank-check';
import { triageFieldsOf } from '../../functions/issues/triage-fields';
import type { ApiClient } from '../support/api-client';
import { countFunctionRequests } from '../support/dynamo-calls';
import { issueHeaders, seedIssues } from '../support/issues';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { signedIn } from '../support/users';

const dynamoRequestsOf = countFunctionRequests('api:issues');

const stack = setUpTestStack();
let owner: ApiClient;
let ownerUid = '';
let memberUid = '';
let pid = '';
const labels: string[] = [];
const COUNT = 34;

type Item = Record<string, unknown>;

beforeAll(async () => {
  const o = await signedIn(stack.url);
  owner = o.client;
  ownerUid = (await findUserIdByEmail(o.email.toLowerCase())) ?? '';
  const m = await signedIn(stack.url);
  memberUid = (await findUserIdByEmail(m.email.toLowerCase())) ?? '';
  await addToTeam(ownerUid, memberUid, 'MEMBER');
  const created = await owner.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  pid = (created.body as { msg: { id: string } }).msg.id;
  await seedIssues(pid, COUNT);
  for (const name of ['Bug', 'UI', 'Later']) {
    const res = await owner.post(`/api/client/website/${pid}/labels`, { name, color: '#445566' });
    labels.push((res.body as { msg: { label: { id: string } } }).msg.label.id);
  }
  // A spread of fields, set through the API in an order unlike the numbers (so `updated` differs).
  const statuses = ['new', 'in_progress', 'in_review', 'resolved', 'closed'] as const;
  for (let k = 0; k < COUNT; k++) {
    const n = ((k * 7) % COUNT) + 1;
    const body: Item = {
      status: statuses[n % 5],
      priority: priorities[(n * 3) % 5],
      assignee: n % 3 === 0 ? ownerUid : n % 3 === 1 ? memberUid : null,
      labels: labels.filter((_, i) => (n >> i) & 1),
    };
    const res = await owner.patch(`/api/client/website/${pid}/request/${n}`, body);
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
  // A label deleted: it leaves every answer at once.
  await owner.delete(`/api/client/website/${pid}/labels/${labels[2]}`);
}, 240_000);

const headers = () => issueHeaders(pid);

interface Query {
  resolved?: boolean;
  status?: string;
  priority?: string;
  assignee?: string;
  label?: string;
  sort?: 'newest' | 'oldest' | 'priority' | 'updated';
}

/** The numbers a query must list, computed from the headers. */
function truth(all: Item[], q: Query): number[] {
  const live = new Set(labels.slice(0, 2));
  const rank = (h: Item) => priorities.indexOf(triageFieldsOf(h).priority);
  const resolvedList = q.status ? ['resolved', 'closed'].includes(q.status) : Boolean(q.resolved);
  const rows = all.filter((h) => {
    const f = triageFieldsOf(h, live);
    if ((Number(h.deleted) === 1) !== resolvedList) return false;
    if (q.status && f.status !== q.status) return false;
    if (q.priority && f.priority !== q.priority) return false;
    if (q.assignee) {
      const who = q.assignee === 'me' ? ownerUid : q.assignee === 'none' ? null : q.assignee;
      if (f.assignee !== who) return false;
    }
    if (q.label && !f.labels.includes(q.label)) return false;
    return true;
  });
  const num = (h: Item) => Number(h.number);
  const by: Record<string, (a: Item, b: Item) => number> = {
    newest: (a, b) => num(b) - num(a),
    oldest: (a, b) => num(a) - num(b),
    priority: (a, b) => rank(b) - rank(a) || num(b) - num(a),
    updated: (a, b) => Number(b.u) - Number(a.u),
  };
  return rows.sort(by[q.sort ?? 'newest']).map(num);
}

function url(q: Query, page: number) {
  const p = new URLSearchParams({ page: String(page) });
  if (q.resolved) p.set('resolved', '1');
  for (const k of ['status', 'priority', 'assignee', 'label', 'sort'] as const) {
    const v = q[k];
    if (v) p.set(k, v);
  }
  return `/api/client/website/${pid}/request?${p}`;
}

type ListMsg = { requests: Item[]; total_requests: number; filterWindow?: number };

/** Every page of `q` to the end (one past it), checked against the truth. */
async function pagedToTheEnd(q: Query, all: Item[]) {
  const want = truth(all, q);
  const got: number[] = [];
  for (let page = 1; page <= Math.ceil(want.length / 10) + 1; page++) {
    const res = await owner.get<ListMsg>(url(q, page));
    expect(res.status, url(q, page)).toBe(200);
    const msg = (res.body as { msg: ListMsg }).msg;
    expect(msg.total_requests, url(q, page)).toBe(want.length);
    got.push(...msg.requests.map((r) => Number(r.number)));
    for (const r of msg.requests) expect(r.labels as string[]).not.toContain(labels[2]);
  }
  expect(got, JSON.stringify(q)).toEqual(want);
}

const singles: Query[] = [
  {},
  { resolved: true },
  { sort: 'oldest' },
  { sort: 'priority' },
  { sort: 'updated' },
  { resolved: true, sort: 'updated' },
  { resolved: true, sort: 'priority' },
  { resolved: true, sort: 'oldest' },
  ...['new', 'in_progress', 'in_review', 'resolved', 'closed'].map((status) => ({ status })),
  ...priorities.map((priority) => ({ priority })),
  ...priorities.map((priority) => ({ priority, resolved: true })),
  { assignee: 'me' },
  { assignee: 'none' },
  { assignee: 'none', resolved: true },
  { label: 'LABEL0' },
  { label: 'LABEL1', sort: 'oldest' as const },
  { status: 'in_review', sort: 'oldest' as const },
];

describe('GET …/request with triage filters and sorts', () => {
  it('keeps the facet index consistent with the headers', async () => {
    expect(await checkRankIndex(pid)).toEqual([]);
  });

  it('pages each filter and each sort to the end, as the headers say', async () => {
    const all = await headers();
    for (const q of singles) {
      const resolved = {
        ...q,
        label: q.label === 'LABEL0' ? labels[0] : q.label === 'LABEL1' ? labels[1] : q.label,
      };
      await pagedToTheEnd(resolved, all);
    }
    await pagedToTheEnd({ assignee: memberUid }, all);
  });

  it('answers combinations within a window, as the headers say', async () => {
    const all = await headers();
    const combos: Query[] = [
      { status: 'in_progress', priority: 'low' },
      { assignee: memberUid, label: labels[0] },
      { assignee: 'none', sort: 'updated' },
      { label: labels[1], sort: 'priority' },
      { priority: 'high', assignee: 'me', sort: 'oldest' },
    ];
    for (const q of combos) await pagedToTheEnd(q, all);
    // A deleted label lists nothing.
    const gone = await owner.get<ListMsg>(url({ label: labels[2] }, 1));
    expect((gone.body as { msg: ListMsg }).msg.total_requests).toBe(0);
  });

  it('costs at most 4 DynamoDB requests for page 1 and page N of any one filter or sort', async () => {
    const cases: Query[] = [
      {},
      { sort: 'oldest' },
      { sort: 'priority' },
      { sort: 'updated' },
      { status: 'new' },
      { priority: 'none' },
      { assignee: 'me' },
      { label: labels[0] },
    ];
    for (const q of cases) {
      for (const page of [1, 2]) {
        const calls = await dynamoRequestsOf(() => owner.get(url(q, page)));
        expect(calls.length, `${JSON.stringify(q)} page ${page}: ${calls.join(' ')}`).toBeLessThanOrEqual(4);
        expect(calls).not.toContain('ScanCommand');
      }
    }
  });

  it('refuses malformed filters with INVALID_PARAMETERS', async () => {
    for (const q of ['status=open', 'priority=3', 'assignee=someone', 'label=x', 'sort=random']) {
      const res = await owner.get(`/api/client/website/${pid}/request?${q}`);
      expect(res.status, q).toBe(400);
    }
  });
});
