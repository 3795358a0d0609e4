/**
 * The merge index (issue 37; docs/data-model.md 4.19 "Merge index"): what the list needs to sort by reports
 * and to leave duplicates out EXACTLY at any size, in 4.5's block scheme (numbers grouped by 1,024):
 *   PROJECT#<pid> / MSTATS#<L>                 top-level counts `<tag>_<b6>` per tag and block of list L
 *   PROJECT#<pid> / MBLOCK#<L>#<tag>#<b6>      `o`: number set of the offsets (n-1) mod 1024 in block b
 * Tags: `d` (a duplicate), `p` (a primary: reports > 1) and `r<reports, 4 digits>` (a primary with that many
 * reports; `r0003`). An issue is in `d`, or in `p` and one `r…`, or in none, of the list it is in.
 * `sort=reports` is the `r…` tags highest first (each newest first), then the list's blocks minus `p`;
 * `collapse=1` is the list's blocks minus `d`. Every write that changes an issue's list or merge state takes
 * its actions from `mergeIndexActions` in the same transaction as the header, and conditions the header on
 * the merge state and list it read (`mergeCondition`), so the index cannot drift from the headers under
 * races (`checkMergeIndex` recomputes it; `rebuildMergeIndex` is the ops backfill, decision Mrg-8).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#runtime/aws/dynamo';
import { batchDelete, getItems, type Key, queryAll, type TransactItems, tableName } from '#runtime/db';
import { projectPartition } from '../projects/project';
import {
  blockCounts,
  blockKey,
  blockOf,
  type IssueList,
  isIssueHeader,
  listOfDeleted,
  offsetsAttribute,
} from './issue';
import { duplicateOfHeader, reportsOfHeader } from './merge-state';
import { blockNumbers, countsOf, type Direction, pagePlan } from './rank-index';

type Item = Record<string, unknown>;

const b6 = (b: number) => String(b).padStart(6, '0');
const r4 = (reports: number) => String(reports).padStart(4, '0');

/** What the merge index holds of one issue: its list and merge state. */
export interface MergeIndexState {
  list: IssueList;
  duplicate: boolean;
  reports: number;
}

/** The state a header says (null: no header, in no list). */
export function mergeIndexStateOf(h: Item | undefined): MergeIndexState | null {
  if (!h) return null;
  return {
    list: listOfDeleted(h.deleted),
    duplicate: duplicateOfHeader(h) !== null,
    reports: reportsOfHeader(h),
  };
}

/** The tags an issue in state `s` carries. */
export function tagsOf(s: MergeIndexState | null): string[] {
  if (!s) return [];
  if (s.duplicate) return ['d'];
  return s.reports > 1 ? ['p', `r${r4(s.reports)}`] : [];
}

export const mstatsKey = (pid: string, list: IssueList): Key => ({
  pk: projectPartition(pid),
  sk: `MSTATS#${list}`,
});
export const mblockKey = (pid: string, list: IssueList, tag: string, b: number): Key => ({
  pk: projectPartition(pid),
  sk: `MBLOCK#${list}#${tag}#${b6(b)}`,
});

/** One issue's change of state within a transaction. */
export interface MergeIndexChange {
  n: number;
  before: MergeIndexState | null;
  after: MergeIndexState | null;
}

/**
 * The actions that take the index from the changes' `before` to their `after` states: one Update of each
 * list's MSTATS with every count that moves (a transaction may not name an item twice, and a merge moves
 * two issues of one list), one Update of each MBLOCK an issue leaves or joins. At most 2 + 2 × 3 per issue.
 */
export function mergeIndexActions(pid: string, changes: MergeIndexChange[]): TransactItems {
  const T = tableName();
  const counts = new Map<IssueList, Map<string, number>>();
  const blocks = new Map<string, { key: Key; op: 'ADD' | 'DELETE'; off: number }>();
  for (const { n, before, after } of changes) {
    const { b, off } = blockOf(n);
    const was = new Set(tagsOf(before).map((t) => `${before?.list}|${t}`));
    const now = new Set(tagsOf(after).map((t) => `${after?.list}|${t}`));
    const move = (entry: string, delta: 1 | -1) => {
      const [list, tag] = entry.split('|') as [IssueList, string];
      const c = counts.get(list) ?? new Map<string, number>();
      const attr = `${tag}_${b6(b)}`;
      c.set(attr, (c.get(attr) ?? 0) + delta);
      counts.set(list, c);
      const key = mblockKey(pid, list, tag, b);
      const id = key.sk;
      // A duplicate and its primary are never in one tag, so no MBLOCK is named twice; a transaction
      // would refuse it, so say which.
      if (blocks.has(id)) throw new Error(`merge index: ${id} twice`);
      blocks.set(id, { key, op: delta > 0 ? 'ADD' : 'DELETE', off });
    };
    for (const e of was) if (!now.has(e)) move(e, -1);
    for (const e of now) if (!was.has(e)) move(e, 1);
  }
  const actions: TransactItems = [];
  for (const [list, c] of counts) {
    const moved = [...c].filter(([, d]) => d !== 0);
    if (moved.length === 0) continue;
    actions.push({
      Update: {
        TableName: T,
        Key: mstatsKey(pid, list),
        UpdateExpression: `ADD ${moved.map((_, i) => `#a${i} :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(moved.map(([a], i) => [`#a${i}`, a])),
        ExpressionAttributeValues: Object.fromEntries(moved.map(([, d], i) => [`:v${i}`, d])),
      },
    });
  }
  for (const { key, op, off } of blocks.values())
    actions.push({
      Update: {
        TableName: T,
        Key: key,
        UpdateExpression: `${op} o :off`,
        ExpressionAttributeValues: { ':off': new Set([off]) },
      },
    });
  return actions;
}

/**
 * The header condition that its list and merge state are still the ones read (`h`), with placeholders
 * prefixed `p` (two headers in one transaction use two prefixes): a concurrent merge, unmerge or move makes
 * the writer read again instead of moving the index from a state that is gone.
 */
export function mergeCondition(h: Item, p: string): { expression: string; values: Item } {
  const values: Item = { [`:${p}del`]: Number(h.deleted) === 1 ? 1 : 0 };
  const parts = [`deleted = :${p}del`];
  const dup = duplicateOfHeader(h);
  if (dup) {
    parts.push(`duplicateOf = :${p}dup`);
    values[`:${p}dup`] = dup;
  } else parts.push('attribute_not_exists(duplicateOf)');
  const reports = reportsOfHeader(h);
  if (reports > 1) {
    parts.push(`reports = :${p}rep`);
    values[`:${p}rep`] = reports;
  } else {
    parts.push(`(attribute_not_exists(reports) OR reports <= :${p}one)`);
    values[`:${p}one`] = 1;
  }
  return { expression: parts.join(' AND '), values };
}

// Reads.

/** The per-block counts of `tag` in an MSTATS item, block ascending, empty blocks left out. */
export function tagCounts(mstats: Item | undefined, tag: string): [number, number][] {
  const prefix = `${tag}_`;
  return countsOf(
    Object.fromEntries(
      Object.entries(mstats ?? {})
        .filter(([k]) => k.startsWith(prefix))
        .map(([k, v]) => [k.slice(prefix.length), v]),
    ),
  );
}

export const tagTotal = (mstats: Item | undefined, tag: string) =>
  tagCounts(mstats, tag).reduce((s, [, c]) => s + c, 0);

/** The `r…` tags present in an MSTATS item, most reports first. */
export function reportTags(mstats: Item | undefined): string[] {
  const tags = new Set<string>();
  for (const [k, v] of Object.entries(mstats ?? {})) {
    const m = /^(r\d{4})_\d{6}$/.exec(k);
    if (m && Number(v) > 0) tags.add(m[1] as string);
  }
  return [...tags].sort().reverse();
}

/** How an exact page is ordered: the primaries by reports first (or not), the list's rest without `exclude`. */
export interface ExactOrder {
  reportsFirst: boolean;
  exclude: string[];
  dir: Direction;
}

/** The list's per-block counts less the excluded tags' (STATS − MSTATS per block), block ascending. */
export function restCounts(stats: Item, mstats: Item | undefined, list: IssueList, exclude: string[]) {
  const less = new Map<number, number>();
  for (const tag of exclude) for (const [b, c] of tagCounts(mstats, tag)) less.set(b, (less.get(b) ?? 0) + c);
  return blockCounts(stats, list)
    .map(([b, c]): [number, number] => [b, c - (less.get(b) ?? 0)])
    .filter(([, c]) => c > 0)
    .sort((x, y) => x[0] - y[0]);
}

/** How many rows the exact order holds. */
export function exactTotal(listCount: number, mstats: Item | undefined, order: ExactOrder): number {
  // The primaries counted first are the list's `p` rows, so the total is the list less the excluded.
  const excluded = order.exclude.filter((t) => !(order.reportsFirst && t === 'p'));
  return Math.max(0, listCount - excluded.reduce((s, t) => s + tagTotal(mstats, t), 0));
}

/**
 * The numbers of rows [skip, skip+take) of list `list` in `order` (STATS and MSTATS as read): one
 * BatchGetItem of the MBLOCKs and BLOCKs the counts say hold them (the rest's blocks read with the
 * excluded tags' MBLOCKs, subtracted in memory). A commit between the reads can shift a page by a row (D14).
 */
export async function exactPage(
  pid: string,
  list: IssueList,
  stats: Item,
  mstats: Item | undefined,
  order: ExactOrder,
  skip: number,
  take: number,
): Promise<number[]> {
  const tags = order.reportsFirst ? reportTags(mstats) : [];
  const exclude = order.reportsFirst ? [...new Set(['p', ...order.exclude])] : order.exclude;
  const segments = [...tags.map((t) => tagCounts(mstats, t)), restCounts(stats, mstats, list, exclude)];
  const plan = pagePlan(segments, skip, take, tags.length > 0 ? 'newest' : order.dir);
  if (plan.length === 0) return [];
  const keys: Key[] = [];
  const reads = plan.map((p) => {
    const first = keys.length;
    if (p.segment < tags.length) keys.push(mblockKey(pid, list, tags[p.segment] as string, p.b));
    else keys.push(blockKey(pid, p.b), ...exclude.map((t) => mblockKey(pid, list, t, p.b)));
    return first;
  });
  const items = await getItems(keys);
  return plan.flatMap((p, i) => {
    const at = reads[i] as number;
    const dir = p.segment < tags.length ? 'newest' : order.dir;
    if (p.segment < tags.length) return blockNumbers(items[at], p.b, dir).slice(p.from, p.from + p.take);
    const out = new Set<number>();
    exclude.forEach((_, j) => {
      for (const n of blockNumbers(items[at + 1 + j], p.b, dir)) out.add(n);
    });
    return blockNumbers(items[at], p.b, dir, offsetsAttribute(list))
      .filter((n) => !out.has(n))
      .slice(p.from, p.from + p.take);
  });
}

// The invariant and the backfill (ops, tests): never a request path.

/** What a project's headers say the merge index must hold: MSTATS attributes and MBLOCK offsets per list. */
async function expected(pid: string) {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': projectPartition(pid) },
    ConsistentRead: true,
  });
  const stats = new Map<IssueList, Record<string, number>>([
    ['open', {}],
    ['resolved', {}],
  ]);
  const blocks = new Map<string, { key: Key; offs: number[] }>();
  for (const h of items.filter(isIssueHeader)) {
    const s = mergeIndexStateOf(h) as MergeIndexState;
    const { b, off } = blockOf(Number(h.number));
    for (const tag of tagsOf(s)) {
      const st = stats.get(s.list) as Record<string, number>;
      const attr = `${tag}_${b6(b)}`;
      st[attr] = (st[attr] ?? 0) + 1;
      const key = mblockKey(pid, s.list, tag, b);
      const entry = blocks.get(key.sk) ?? { key, offs: [] };
      entry.offs.push(off);
      blocks.set(key.sk, entry);
    }
  }
  const stored = items.filter((i) => /^M(STATS|BLOCK)#/.test(String(i.sk)));
  return { stats, blocks, stored };
}

const setText = (s: unknown) =>
  [...((s as Set<number> | undefined) ?? [])]
    .map(Number)
    .sort((x, y) => x - y)
    .join(',');

/** The differences between project `pid`'s merge index and its headers; empty when exact. */
export async function checkMergeIndex(pid: string): Promise<string[]> {
  const { stats, blocks, stored } = await expected(pid);
  const bySk = new Map(stored.map((i) => [String(i.sk), i]));
  const problems: string[] = [];
  for (const [list, want] of stats) {
    const have = bySk.get(`MSTATS#${list}`) ?? {};
    const attrs = new Set([...Object.keys(want), ...Object.keys(have).filter((k) => /_\d{6}$/.test(k))]);
    for (const a of attrs)
      if (Number(have[a] ?? 0) !== (want[a] ?? 0))
        problems.push(`MSTATS#${list} ${a} ${have[a] ?? 0} ≠ ${want[a] ?? 0}`);
  }
  for (const [sk, { offs }] of blocks) {
    const have = setText(bySk.get(sk)?.o);
    const want = [...offs].sort((x, y) => x - y).join(',');
    if (have !== want) problems.push(`${sk} {${have}} ≠ {${want}}`);
  }
  for (const i of stored)
    if (String(i.sk).startsWith('MBLOCK#') && !blocks.has(String(i.sk)) && setText(i.o) !== '')
      problems.push(`${i.sk} {${setText(i.o)}} ≠ {}`);
  return problems;
}

/**
 * Builds project `pid`'s merge index from its headers (issues merged before the index existed; a repair):
 * the MSTATS items and MBLOCKs written whole, stale MBLOCKs deleted, then checked; a merge that committed
 * during the run makes the check differ, and the run starts again (≤ 5 rounds). Idempotent.
 */
export async function rebuildMergeIndex(pid: string): Promise<{ rounds: number; consistent: boolean }> {
  for (let round = 1; round <= 5; round++) {
    const { stats, blocks, stored } = await expected(pid);
    const T = tableName();
    for (const [list, attrs] of stats)
      await db().send(new PutCommand({ TableName: T, Item: { ...mstatsKey(pid, list), ...attrs } }));
    for (const { key, offs } of blocks.values())
      await db().send(new PutCommand({ TableName: T, Item: { ...key, o: new Set(offs) } }));
    await batchDelete(
      stored
        .filter((i) => String(i.sk).startsWith('MBLOCK#') && !blocks.has(String(i.sk)))
        .map((i) => ({ pk: String(i.pk), sk: String(i.sk) })),
    );
    if ((await checkMergeIndex(pid)).length === 0) return { rounds: round, consistent: true };
  }
  return { rounds: 5, consistent: false };
}
