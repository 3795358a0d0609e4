/**
 * The list's `sort=reports` and `collapse=1` exact past 500 issues (issue 37; docs/data-model.md 4.19 "Merge
 * index"): a project of 1,300 issues (both lists, two blocks of 1,024 numbers) seeded in DynamoDB Local, merges
 * written into its headers as they stood before the index existed and indexed by the ops backfill
 * (`rebuildMergeIndex`), then merged, unmerged, moved and deleted through the real calls. Every page of every
 * exact order is compared with the order computed in memory from the headers, and the index with the headers
 * (`checkMergeIndex`), also after merges racing a list move of their primary.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IssueListAnswer } from '#contracts/review';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { deleteIssue } from '../../functions/issues/delete-issue';
import { issueHeaderKey, listOfDeleted } from '../../functions/issues/issue';
import { checkMergeIndex, rebuildMergeIndex } from '../../functions/issues/merge-index';
import { duplicateKey, duplicateOfHeader, reportsOfHeader } from '../../functions/issues/merge-state';
import { checkRankIndex } from '../../functions/issues/rank-check';
import { parseCsv } from '../support/csv';
import { countFunctionRequests } from '../support/dynamo-calls';
import { issueHeaders } from '../support/issues';
import { type Person, person, projectOf } from '../support/members-teams';
import { setUpTestStack } from '../support/stack-fixture';
import { inDays, setTeamPlan } from '../support/teams';
import { bulkSeedTriaged } from '../support/triage-seed';

const dynamoRequestsOf = countFunctionRequests('api:issues');
const stack = setUpTestStack();
const COUNT = 1300;
let owner: Person;
let pid = '';

type Item = Record<string, unknown>;

/** Primaries and their duplicates as merged before the index: counts 2..9, spread over both lists and blocks. */
function legacyMerges(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  let next = 1;
  for (let i = 0; i < 60; i++) {
    const primary = 7 + i * 21;
    const dups = 1 + (i % 8);
    const list: number[] = [];
    for (let k = 0; k < dups; k++) {
      // Duplicates from anywhere in the project, never a primary (those are 7 mod 21).
      while (next % 21 === 7) next++;
      list.push(next);
      next += 2;
    }
    out.set(primary, list);
  }
  return out;
}

async function writeLegacy(merges: Map<number, number[]>) {
  const T = tableName();
  const set = (
    key: { pk: string; sk: string },
    expression: string,
    values: Item,
    names?: Record<string, string>,
  ) =>
    db().send(
      new UpdateCommand({
        TableName: T,
        Key: key,
        UpdateExpression: expression,
        ExpressionAttributeValues: values,
        ...(names ? { ExpressionAttributeNames: names } : {}),
      }),
    );
  const writes: (() => Promise<unknown>)[] = [];
  for (const [primary, dups] of merges) {
    writes.push(() => set(issueHeaderKey(pid, primary), 'SET reports = :r', { ':r': dups.length + 1 }));
    for (const d of dups) {
      writes.push(() => set(issueHeaderKey(pid, d), 'SET duplicateOf = :p', { ':p': primary }));
      writes.push(() =>
        set(
          duplicateKey(pid, primary, d),
          'SET #n = :n, #at = :at',
          { ':n': d, ':at': '2026-01-02T00:00:00.000Z' },
          { '#n': 'number', '#at': 'at' },
        ),
      );
    }
  }
  for (let i = 0; i < writes.length; i += 16) await Promise.all(writes.slice(i, i + 16).map((w) => w()));
}

const headers = () => issueHeaders(pid);

interface Order {
  resolved: boolean;
  reports: boolean;
  collapse: boolean;
  oldest?: boolean;
}

/** What the list must answer, computed from every header. */
function expectedOrder(all: Item[], o: Order): number[] {
  const list = o.resolved ? 'resolved' : 'open';
  const rows = all.filter((h) => listOfDeleted(h.deleted) === list);
  const num = (h: Item) => Number(h.number);
  const primaries = o.reports
    ? rows
        .filter((h) => reportsOfHeader(h) > 1)
        .sort((a, b) => reportsOfHeader(b) - reportsOfHeader(a) || num(b) - num(a))
    : [];
  const rest = rows
    .filter((h) => !primaries.includes(h) && !(o.collapse && duplicateOfHeader(h)))
    .sort((a, b) => (o.oldest ? num(a) - num(b) : num(b) - num(a)));
  return [...primaries, ...rest].map(num);
}

/** Every page of the list in order `o`, with the totals each page answered. */
async function allPages(o: Order): Promise<{ numbers: number[]; totals: Set<number>; windows: number }> {
  const q = [
    o.resolved ? 'resolved=1' : '',
    o.reports ? 'sort=reports' : o.oldest ? 'sort=oldest' : '',
    o.collapse ? 'collapse=1' : '',
  ]
    .filter(Boolean)
    .join('&');
  const numbers: number[] = [];
  const totals = new Set<number>();
  let windows = 0;
  for (let page = 1; ; page++) {
    const res = await owner.client.get<IssueListAnswer>(
      `/api/client/website/${pid}/request?page=${page}&${q}`,
    );
    expect(res.status).toBe(200);
    const msg = res.body.msg as IssueListAnswer;
    totals.add(msg.total_requests);
    if (msg.filterWindow) windows++;
    if (msg.requests.length === 0) break;
    // Every page but the last is full.
    if (numbers.length + msg.requests.length < msg.total_requests) expect(msg.requests).toHaveLength(10);
    numbers.push(...msg.requests.map((r) => r.number));
  }
  return { numbers, totals, windows };
}

const orders: Order[] = [
  { resolved: false, reports: true, collapse: false },
  { resolved: false, reports: true, collapse: true },
  { resolved: false, reports: false, collapse: true },
  { resolved: false, reports: false, collapse: true, oldest: true },
  { resolved: true, reports: true, collapse: false },
  { resolved: true, reports: false, collapse: true },
];

/**
 * Every page of every order against the headers. A primary's move sends its open duplicates after it through
 * the fan-out (decision Mrg-7), off the request path: a round that read the headers while they moved is read
 * again (≤ 10 s); the last round asserts.
 */
async function expectExact() {
  for (let round = 1; ; round++) {
    const problems = await checkMergeIndex(pid);
    const all = await headers();
    const results = [];
    for (const o of orders) results.push({ o, want: expectedOrder(all, o), got: await allPages(o) });
    const settled = results.every((r) => JSON.stringify(r.got.numbers) === JSON.stringify(r.want));
    if (!settled && round < 10) {
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    expect(problems).toEqual([]);
    for (const { o, want, got } of results) {
      expect({ o, numbers: got.numbers }).toEqual({ o, numbers: want });
      expect([...got.totals]).toEqual([want.length]);
      expect(got.windows).toBe(0);
    }
    return;
  }
}

beforeAll(async () => {
  owner = await person(stack.url);
  await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
  pid = await projectOf(owner.client, 'Big shop');
  // Details where the test triages (the triage calls read the detail too): the newest and the oldest.
  await bulkSeedTriaged(pid, COUNT, { assignees: [owner.id], withDetail: (n) => n <= 60 || n > 1260 });
  await writeLegacy(legacyMerges());
}, 300_000);

/** The numbers of the CSV export of `query` (the redirect, then the file), in the file's order. */
async function exported(query: string): Promise<number[]> {
  const cookie = [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(new URL(`/api/client/website/${pid}/requests.csv?${query}`, stack.url), {
    redirect: 'manual',
    headers: { cookie },
  });
  expect(res.status).toBe(302);
  const rows = parseCsv(await (await fetch(res.headers.get('location') ?? '')).text());
  const col = rows[0]?.indexOf('Number') ?? -1;
  return rows.slice(1).map((r) => Number(r[col]));
}

const issuePath = (n: number) => `/api/client/website/${pid}/request/${n}`;
const merge = (n: number, into: number) => owner.client.post(`${issuePath(n)}/merge`, { into });

describe('the merge index', () => {
  it('is built for merges made before it existed, and the lists are exact past 500 issues', async () => {
    // Before the backfill the index is empty: the check names what is missing.
    expect((await checkMergeIndex(pid)).length).toBeGreaterThan(0);
    expect(await rebuildMergeIndex(pid)).toEqual({ rounds: 1, consistent: true });
    // A second run changes nothing.
    expect(await rebuildMergeIndex(pid)).toEqual({ rounds: 1, consistent: true });
    const all = await headers();
    expect(all.filter((h) => listOfDeleted(h.deleted) === 'open').length).toBeGreaterThan(500);
    await expectExact();
    // Page 1 and a deep page cost the same: session, META+TEAMS+LABELS+STATS+MSTATS, the blocks, the headers.
    for (const q of [
      'sort=reports&page=1',
      'sort=reports&page=40',
      'collapse=1&page=1',
      'collapse=1&sort=reports&page=50',
    ])
      expect({
        q,
        calls: await dynamoRequestsOf(() => owner.client.get(`/api/client/website/${pid}/request?${q}`)),
      }).toEqual({
        q,
        calls: ['GetItemCommand', 'BatchGetItemCommand', 'BatchGetItemCommand', 'BatchGetItemCommand'],
      });
  }, 300_000);

  it('stays exact through merges, unmerges, list moves and deletions', async () => {
    const all = await headers();
    const plain = all
      .filter((h) => !duplicateOfHeader(h) && reportsOfHeader(h) === 1)
      .map((h) => Number(h.number))
      .sort((a, b) => b - a);
    const open = all.filter((h) => listOfDeleted(h.deleted) === 'open').map((h) => Number(h.number));
    const resolved = all.filter((h) => listOfDeleted(h.deleted) === 'resolved').map((h) => Number(h.number));
    const primaryOpen = plain.find((n) => open.includes(n) && n > 1024) as number;
    const primaryResolved = plain.find((n) => resolved.includes(n) && n < 1024) as number;
    const dups = plain.filter((n) => n !== primaryOpen && n !== primaryResolved).slice(0, 12);
    // Merges across lists and blocks: an open issue into a resolved primary, a resolved one into an open.
    for (const d of dups.slice(0, 6)) expect((await merge(d, primaryOpen)).status).toBe(200);
    for (const d of dups.slice(6, 9)) expect((await merge(d, primaryResolved)).status).toBe(200);
    expect((await owner.client.delete(`${issuePath(dups[0] as number)}/merge`)).status).toBe(200);
    // The primary moves to the resolved list and back, a duplicate moves too.
    expect((await owner.client.patch(issuePath(primaryOpen), { status: 'resolved' })).status).toBe(200);
    expect((await owner.client.patch(issuePath(dups[1] as number), { status: 'closed' })).status).toBe(200);
    await expectExact();
    expect((await owner.client.patch(issuePath(primaryOpen), { status: 'new' })).status).toBe(200);
    // A duplicate deleted (its primary counts one less), and a primary deleted (its duplicates released).
    expect(await deleteIssue(pid, dups[2] as number)).toBe('deleted');
    expect(await deleteIssue(pid, primaryResolved)).toBe('deleted');
    await expectExact();
    expect(await checkRankIndex(pid)).toEqual([]);
  }, 300_000);

  it('stays exact when merges race a list move of their primary', async () => {
    const all = await headers();
    const plain = all
      .filter((h) => !duplicateOfHeader(h) && reportsOfHeader(h) === 1 && listOfDeleted(h.deleted) === 'open')
      .map((h) => Number(h.number))
      .sort((a, b) => a - b);
    const [primary, ...rest] = plain;
    const racers = rest.slice(0, 6);
    const results = await Promise.all([
      ...racers.map((d) => merge(d, primary as number)),
      owner.client.patch(issuePath(primary as number), { status: 'resolved' }),
      owner.client.patch(issuePath(racers[0] as number), { status: 'closed' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(await checkMergeIndex(pid)).toEqual([]);
    const [p] = (await headers()).filter((h) => Number(h.number) === primary);
    expect([reportsOfHeader(p), listOfDeleted(p?.deleted)]).toEqual([7, 'resolved']);
    await expectExact();
  }, 300_000);

  it('exports the CSV in the exact order of the list, duplicates left out with collapse=1', async () => {
    const all = await headers();
    expect(await exported('sort=reports&collapse=1')).toEqual(
      expectedOrder(all, { resolved: false, reports: true, collapse: true }),
    );
    expect(await exported('sort=reports&resolved=1')).toEqual(
      expectedOrder(all, { resolved: true, reports: true, collapse: false }),
    );
    expect(await exported('collapse=1&sort=oldest')).toEqual(
      expectedOrder(all, { resolved: false, reports: false, collapse: true, oldest: true }),
    );
    // With a filter the export reads the whole facet: exact too (the list pages a window there).
    const urgent = (o: Order) =>
      expectedOrder(
        all.filter((h) => h.priority === 'urgent'),
        o,
      );
    expect(await exported('sort=reports&priority=urgent&collapse=1')).toEqual(
      urgent({ resolved: false, reports: true, collapse: true }),
    );
  }, 300_000);
});
