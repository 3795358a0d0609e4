/**
 * The facet rank index (issue 23; docs/data-model.md 4.13): 4.5's STATS/BLOCK scheme once per facet, so a
 * list filtered by ONE field pages N at the cost of page 1, and the `updated` order beside it.
 *   PROJECT#<pid> / FSTATS#<facet>             `<b6>`: how many of the facet's issues are in block b (1,024 numbers)
 *   PROJECT#<pid> / FBLOCK#<facet>#<b6>        `o`: number set of the offsets (n-1) mod 1024 in block b
 *   PROJECT#<pid> / USTATS#<L>                 `<b6>`: how many issues of list L have a `u` in u-block b
 *   PROJECT#<pid> / UBLOCK#<L>#<b6>            `i<n>`: issue n's offset (u-1) mod 1024 in u-block b
 * Facets are `<L>.status.<s>`, `<L>.priority.<p>`, `<L>.assignee.<uid|none>`, `<L>.label.<id>` with L the
 * list (`open`|`resolved`) the status puts the issue in. `u` is the issue's place in the `updated` order,
 * allocated from META's `useq` (`allocateUpdates`). Every write that changes an issue's facets or `u` takes
 * its actions from `indexActions`, in the same transaction as the header, so the index cannot drift from
 * the headers (`test/support/rank-invariant.ts` checks it).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type IssueListSort,
  type IssueStatus,
  isOpenStatus,
  type Priority,
  priorities,
} from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { getItems, type Key, type TransactItems, tableName } from '#runtime/db';
import { projectKey, projectPartition } from '../projects/project';
import { BLOCK_SIZE, blockOf, type IssueList } from './issue';

type Item = Record<string, unknown>;

const b6 = (b: number) => String(b).padStart(6, '0');

/** The fields an issue's facets come from. */
export interface FacetFields {
  status: IssueStatus;
  priority: Priority;
  assignee: string | null;
  labels: readonly string[];
}

/** What the index holds of one issue: its facets' fields and its `u` (null: not indexed, a pre-triage issue). */
export interface IndexState {
  fields: FacetFields;
  u: number | null;
}

export const listOfStatus = (s: IssueStatus): IssueList => (isOpenStatus(s) ? 'open' : 'resolved');

export const statusFacet = (list: IssueList, s: IssueStatus) => `${list}.status.${s}`;
export const priorityFacet = (list: IssueList, p: Priority) => `${list}.priority.${p}`;
export const assigneeFacet = (list: IssueList, uid: string | null) => `${list}.assignee.${uid ?? 'none'}`;
export const labelFacet = (list: IssueList, id: string) => `${list}.label.${id}`;

/** The facets an issue with `f` is in: one per status, priority and assignee, one per label. */
export function facetsOf(f: FacetFields): string[] {
  const list = listOfStatus(f.status);
  return [
    statusFacet(list, f.status),
    priorityFacet(list, f.priority),
    assigneeFacet(list, f.assignee),
    ...[...new Set(f.labels)].map((id) => labelFacet(list, id)),
  ];
}

/** The `priority` sort: the list's five priority facets, urgent first. */
export const priorityOrder = (list: IssueList) =>
  [...priorities].reverse().map((p) => priorityFacet(list, p));

const partition = projectPartition;
export const fstatsKey = (pid: string, facet: string): Key => ({ pk: partition(pid), sk: `FSTATS#${facet}` });
export const fblockKey = (pid: string, facet: string, b: number): Key => ({
  pk: partition(pid),
  sk: `FBLOCK#${facet}#${b6(b)}`,
});
export const ustatsKey = (pid: string, list: IssueList): Key => ({
  pk: partition(pid),
  sk: `USTATS#${list}`,
});
export const ublockKey = (pid: string, list: IssueList, b: number): Key => ({
  pk: partition(pid),
  sk: `UBLOCK#${list}#${b6(b)}`,
});
const uAttribute = (n: number) => `i${n}`;

/**
 * The transaction actions that take issue `n`'s index entries from `before` (null, or a state without `u`:
 * not indexed, as a new issue or one filed before triage) to
 * `after`: for each facet left and joined, its FSTATS count and FBLOCK offset; for the `updated` order, the
 * USTATS counts and UBLOCK entries. Never two actions on one item (a transaction refuses that): facets left
 * and joined are disjoint, and a move within one u-block is one SET. At most 2 × (3 + 10) + 4 = 30 actions
 * (a move between the lists with ten labels).
 */
export function indexActions(
  pid: string,
  n: number,
  before: IndexState | null,
  after: IndexState,
): TransactItems {
  const T = tableName();
  const { b, off } = blockOf(n);
  const was = new Set(before && before.u !== null ? facetsOf(before.fields) : []);
  const now = new Set(facetsOf(after.fields));
  const actions: TransactItems = [];
  const facetChange = (facet: string, delta: 1 | -1) => {
    actions.push(
      {
        Update: {
          TableName: T,
          Key: fstatsKey(pid, facet),
          UpdateExpression: 'ADD #c :d',
          ExpressionAttributeNames: { '#c': b6(b) },
          ExpressionAttributeValues: { ':d': delta },
        },
      },
      {
        Update: {
          TableName: T,
          Key: fblockKey(pid, facet, b),
          UpdateExpression: delta > 0 ? 'ADD o :off' : 'DELETE o :off',
          ExpressionAttributeValues: { ':off': new Set([off]) },
        },
      },
    );
  };
  for (const f of was) if (!now.has(f)) facetChange(f, -1);
  for (const f of now) if (!was.has(f)) facetChange(f, 1);
  actions.push(...updatedActions(pid, n, before, after));
  return actions;
}

/**
 * The transaction actions that take issue `n` out of the index altogether (its deletion, docs/retention.md):
 * each facet's FSTATS count and FBLOCK offset, and its place in the `updated` order. An issue never
 * indexed (no `u`, filed before triage) is in no facet: nothing. At most 2 × 13 + 2 = 28 actions.
 */
export function unindexActions(pid: string, n: number, before: IndexState): TransactItems {
  if (before.u === null) return [];
  const T = tableName();
  const { b, off } = blockOf(n);
  const actions: TransactItems = [];
  for (const facet of new Set(facetsOf(before.fields))) {
    actions.push(
      {
        Update: {
          TableName: T,
          Key: fstatsKey(pid, facet),
          UpdateExpression: 'ADD #c :d',
          ExpressionAttributeNames: { '#c': b6(b) },
          ExpressionAttributeValues: { ':d': -1 },
        },
      },
      {
        Update: {
          TableName: T,
          Key: fblockKey(pid, facet, b),
          UpdateExpression: 'DELETE o :off',
          ExpressionAttributeValues: { ':off': new Set([off]) },
        },
      },
    );
  }
  const list = listOfStatus(before.fields.status);
  const ub = blockOf(before.u);
  actions.push(
    {
      Update: {
        TableName: T,
        Key: ublockKey(pid, list, ub.b),
        UpdateExpression: 'REMOVE #i',
        ExpressionAttributeNames: { '#i': uAttribute(n) },
      },
    },
    {
      Update: {
        TableName: T,
        Key: ustatsKey(pid, list),
        UpdateExpression: 'ADD #from :minus',
        ExpressionAttributeNames: { '#from': b6(ub.b) },
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
  );
  return actions;
}

function updatedActions(pid: string, n: number, before: IndexState | null, after: IndexState): TransactItems {
  const T = tableName();
  if (after.u === null) throw new Error('an indexed issue needs its u');
  const to = { list: listOfStatus(after.fields.status), ...blockOf(after.u) };
  const from = before?.u != null ? { list: listOfStatus(before.fields.status), ...blockOf(before.u) } : null;
  if (from && from.list === to.list && from.b === to.b && from.off === to.off) return [];
  const set = {
    Update: {
      TableName: T,
      Key: ublockKey(pid, to.list, to.b),
      UpdateExpression: 'SET #i = :off',
      ExpressionAttributeNames: { '#i': uAttribute(n) },
      ExpressionAttributeValues: { ':off': to.off },
    },
  };
  // The same u-block: overwriting the offset is the whole move (USTATS unchanged).
  if (from && from.list === to.list && from.b === to.b) return [set];
  const actions: TransactItems = [set];
  if (from) {
    actions.push({
      Update: {
        TableName: T,
        Key: ublockKey(pid, from.list, from.b),
        UpdateExpression: 'REMOVE #i',
        ExpressionAttributeNames: { '#i': uAttribute(n) },
      },
    });
  }
  if (from && from.list === to.list) {
    actions.push({
      Update: {
        TableName: T,
        Key: ustatsKey(pid, to.list),
        UpdateExpression: 'ADD #from :minus, #to :one',
        ExpressionAttributeNames: { '#from': b6(from.b), '#to': b6(to.b) },
        ExpressionAttributeValues: { ':minus': -1, ':one': 1 },
      },
    });
    return actions;
  }
  actions.push({
    Update: {
      TableName: T,
      Key: ustatsKey(pid, to.list),
      UpdateExpression: 'ADD #to :one',
      ExpressionAttributeNames: { '#to': b6(to.b) },
      ExpressionAttributeValues: { ':one': 1 },
    },
  });
  if (from) {
    actions.push({
      Update: {
        TableName: T,
        Key: ustatsKey(pid, from.list),
        UpdateExpression: 'ADD #from :minus',
        ExpressionAttributeNames: { '#from': b6(from.b) },
        ExpressionAttributeValues: { ':minus': -1 },
      },
    });
  }
  return actions;
}

/**
 * The next `k` places of the project's `updated` order: `ADD useq :k` on META, one request (the budget
 * exception of a triage change, docs/data-model.md section 6). Answers the first of the k values.
 */
export async function allocateUpdates(pid: string, k = 1): Promise<number> {
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: projectKey(pid),
      UpdateExpression: 'ADD useq :k',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':k': k },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.useq) - k + 1;
}

/**
 * The header's condition that its place `u` is still the one read (none: not yet indexed), so a concurrent
 * change, which moves it, makes the writer read again instead of leaving the index behind (decision Tr-C3).
 */
export function placeCondition(u: number | null): { expression: string; values: Item } {
  return u === null
    ? { expression: 'attribute_not_exists(u)', values: {} }
    : { expression: 'u = :u0', values: { ':u0': u } };
}

// Reads.

/** The per-block counts of an FSTATS or USTATS item, block ascending, empty blocks left out. */
export function countsOf(stats: Item | undefined): [number, number][] {
  return Object.entries(stats ?? {})
    .filter(([k, v]) => /^\d{6}$/.test(k) && Number(v) > 0)
    .map(([k, v]): [number, number] => [Number(k), Number(v)])
    .sort((x, y) => x[0] - y[0]);
}
export const totalOf = (stats: Item | undefined) => countsOf(stats).reduce((s, [, c]) => s + c, 0);

export type Direction = 'newest' | 'oldest';

/** One block's part of a page: skip `from` entries of the block (in the page's direction), take `take`. */
export interface BlockSlice {
  segment: number;
  b: number;
  from: number;
  take: number;
}

/**
 * Which blocks of a concatenation of segments (each its per-block counts) hold entries [skip, skip+take)
 * in `dir` order (each segment newest or oldest first, the segments in the given order).
 */
export function pagePlan(
  segments: [number, number][][],
  skip: number,
  take: number,
  dir: Direction,
): BlockSlice[] {
  const plan: BlockSlice[] = [];
  let before = 0;
  let want = take;
  for (let s = 0; s < segments.length && want > 0; s++) {
    const blocks = dir === 'newest' ? [...(segments[s] ?? [])].reverse() : (segments[s] ?? []);
    for (const [b, count] of blocks) {
      if (want <= 0) break;
      if (before + count <= skip) {
        before += count;
        continue;
      }
      const from = Math.max(0, skip - before);
      const n = Math.min(count - from, want);
      plan.push({ segment: s, b, from, take: n });
      want -= n;
      before += count;
    }
  }
  return plan;
}

/** The issue numbers of block `b`'s offset set `attr` in `dir` order: an FBLOCK's `o`, or a 4.5 BLOCK's list set. */
export function blockNumbers(item: Item | undefined, b: number, dir: Direction, attr = 'o'): number[] {
  const offs = [...((item?.[attr] as Set<number> | undefined) ?? [])].map(Number).sort((x, y) => x - y);
  if (dir === 'newest') offs.reverse();
  return offs.map((o) => b * BLOCK_SIZE + o + 1);
}

/** The issue numbers of a UBLOCK item in `dir` order of their `u`. */
export function ublockNumbers(item: Item | undefined, dir: Direction): number[] {
  const entries = Object.entries(item ?? {})
    .filter(([k]) => /^i\d+$/.test(k))
    .map(([k, v]): [number, number] => [Number(k.slice(1)), Number(v)])
    .sort((x, y) => x[1] - y[1]);
  if (dir === 'newest') entries.reverse();
  return entries.map(([n]) => n);
}

/**
 * The numbers of entries [skip, skip+take) of the concatenated `facets` (their FSTATS items as read, in the
 * same order): one BatchGetItem of the FBLOCKs the counts say hold them. A commit between the two reads can
 * shift a page by a row (as D14 says of the lists); the slice never reads past a block.
 */
export async function facetPage(
  pid: string,
  facets: string[],
  fstats: (Item | undefined)[],
  skip: number,
  take: number,
  dir: Direction,
): Promise<number[]> {
  const plan = pagePlan(fstats.map(countsOf), skip, take, dir);
  if (plan.length === 0) return [];
  const items = await getItems(plan.map((p) => fblockKey(pid, facets[p.segment] ?? '', p.b)));
  return plan.flatMap((p, i) => blockNumbers(items[i], p.b, dir).slice(p.from, p.from + p.take));
}

/** The numbers of entries [skip, skip+take) of list `list` by `updated` (USTATS as read): one BatchGetItem. */
export async function updatedPage(
  pid: string,
  list: IssueList,
  ustats: Item | undefined,
  skip: number,
  take: number,
  dir: Direction,
): Promise<number[]> {
  const plan = pagePlan([countsOf(ustats)], skip, take, dir);
  if (plan.length === 0) return [];
  const items = await getItems(plan.map((p) => ublockKey(pid, list, p.b)));
  return plan.flatMap((p, i) => ublockNumbers(items[i], dir).slice(p.from, p.from + p.take));
}

/** The page direction of a sort over facets (`priority` and `updated` read newest first). */
export const directionOf = (sort: IssueListSort): Direction => (sort === 'oldest' ? 'oldest' : 'newest');
