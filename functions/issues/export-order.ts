/**
 * Which issues an export holds, in which order (issue 23; docs/api.md "CSV export"): the list's own rank
 * indexes walked to the end instead of one page, so the export honours every filter and sort of the list
 * (list.ts) without holding more than a block group of numbers at a time.
 *   no filter, newest|oldest     STATS/BLOCK (4.5), descending or ascending
 *   no filter, priority          the list's five priority facets, urgent first, each newest first
 *   no filter, updated           USTATS/UBLOCK (4.13), most recently updated first
 *   filters, newest|oldest       the smallest named facet, each header checked against all filters
 *   filters, priority|updated    the sort's order above, kept where the smallest facet has the number
 *                                (that facet's numbers are read first, numbers only), headers checked
 *   search (with or without)     what the list's search selects (its bounded window, 4.7 and 4.13)
 * A combination of filters is complete here: the list pages a window of 500 of its smallest facet
 * (`filterWindow`), the export reads the whole facet. Search stays the list's window: the export is what
 * the list shows for it.
 */
import type { ExportQuery } from '#contracts/triage';
import { getItems, type Key } from '#runtime/db';
import { blockCounts, blockKey, type IssueList, listOfDeleted, offsetsAttribute } from './issue';
import {
  compareBy,
  exactOrderOf,
  FILTER_WINDOW,
  filterFacets,
  headersOf,
  isCollapsed,
  type ListQuery,
  listOfQuery,
  matches,
  queryList,
  SEARCH_WINDOW,
  searchedNumber,
  smallestFacet,
} from './list';
import { type ExactOrder, exactPage, exactTotal, mstatsKey } from './merge-index';
import { duplicateOfHeader } from './merge-state';
import {
  blockNumbers,
  countsOf,
  type Direction,
  directionOf,
  facetPage,
  fblockKey,
  fstatsKey,
  pagePlan,
  priorityOrder,
  totalOf,
  ublockKey,
  ublockNumbers,
  ustatsKey,
} from './rank-index';

type Item = Record<string, unknown>;

/** Index items per BatchGetItem of the order: 10 blocks hold up to 10,240 numbers. */
const BLOCK_GROUP = 10;

/** An export's candidates: at most `bound` numbers in order, each row kept when `keep(header)` holds. */
export interface ExportOrder {
  list: IssueList;
  /** How many headers the export will read at most (what the limit is checked against). */
  bound: number;
  numbers: AsyncIterable<number[]>;
  keep: (header: Item) => boolean;
}

/**
 * The keys the export's first read (with META and the caller's TEAMS) needs for `query`: its filters'
 * FSTATS and, for its sort, the priority facets' or USTATS, each once (BatchGetItem refuses duplicates).
 */
export function orderKeys(projectId: string, query: ExportQuery, userId: string): Key[] {
  const q = query as ListQuery;
  const list = listOfQuery(q);
  const keys = [
    ...filterFacets(list, q, userId).map((f) => fstatsKey(projectId, f)),
    ...(q.sort === 'priority' ? priorityOrder(list).map((f) => fstatsKey(projectId, f)) : []),
    ...(q.sort === 'updated' ? [ustatsKey(projectId, list)] : []),
    ...(q.sort === 'reports' || isCollapsed(q) ? [mstatsKey(projectId, list)] : []),
  ];
  return [...new Map(keys.map((k) => [k.sk, k])).values()];
}

/** Reads index items `group` at a time, in order, and yields each item's numbers. */
async function* walk<T>(
  parts: T[],
  keyOf: (p: T) => Key,
  numbersOf: (item: Item | undefined, p: T) => number[],
): AsyncGenerator<number[]> {
  for (let i = 0; i < parts.length; i += BLOCK_GROUP) {
    const group = parts.slice(i, i + BLOCK_GROUP);
    const items = await getItems(group.map(keyOf));
    for (const [j, p] of group.entries()) yield numbersOf(items[j], p);
  }
}

/** The concatenated facets, each in `dir` order, to the end. */
function facetWalk(pid: string, facets: string[], fstats: (Item | undefined)[], dir: Direction) {
  const counts = fstats.map(countsOf);
  const total = counts.flat().reduce((s, [, c]) => s + c, 0);
  const plan = pagePlan(counts, 0, total, dir);
  return walk(
    plan,
    (p) => fblockKey(pid, facets[p.segment] ?? '', p.b),
    (item, p) => blockNumbers(item, p.b, dir),
  );
}

/** The list by `updated`, most recent first, to the end. */
function updatedWalk(pid: string, list: IssueList, ustats: Item | undefined) {
  const plan = pagePlan([countsOf(ustats)], 0, totalOf(ustats), 'newest');
  return walk(
    plan,
    (p) => ublockKey(pid, list, p.b),
    (item) => ublockNumbers(item, 'newest'),
  );
}

/** The list by number (4.5's STATS and BLOCK), newest or oldest first, to the end. */
function listWalk(pid: string, list: IssueList, stats: Item | undefined, dir: Direction) {
  const blocks = blockCounts(stats ?? {}, list)
    .filter(([, count]) => count > 0)
    .map(([b]) => b);
  if (dir === 'oldest') blocks.reverse();
  return walk(
    blocks,
    (b) => blockKey(pid, b),
    (item, b) => blockNumbers(item, b, dir, offsetsAttribute(list)),
  );
}

/** Keeps the numbers of `order` that `members` has. */
async function* within(order: AsyncIterable<number[]>, members: Set<number>): AsyncGenerator<number[]> {
  for await (const group of order) yield group.filter((n) => members.has(n));
}

/** The merge index's exact order (merge-index.ts), 10 blocks' worth of rows at a time, to the end. */
async function* exactWalk(
  pid: string,
  list: IssueList,
  stats: Item | undefined,
  mstats: Item | undefined,
  order: ExactOrder,
  total: number,
): AsyncGenerator<number[]> {
  const chunk = BLOCK_GROUP * 1024;
  for (let skip = 0; skip < total; skip += chunk) {
    const numbers = await exactPage(pid, list, stats ?? {}, mstats, order, skip, chunk);
    if (numbers.length === 0) return;
    yield numbers;
  }
}

async function* once(numbers: number[]): AsyncGenerator<number[]> {
  yield numbers;
}

/**
 * The export's order for `query`, from what the first read returned for `orderKeys` (`read`, by sort key)
 * and the project's STATS. `live` is the project's live label ids.
 */
export async function exportOrder(
  pid: string,
  query: ExportQuery,
  userId: string,
  meta: Item,
  stats: Item | undefined,
  read: ReadonlyMap<string, Item | undefined>,
  live: ReadonlySet<string>,
): Promise<ExportOrder> {
  const q = query as ListQuery;
  const list = listOfQuery(q);
  const facets = filterFacets(list, q, userId);
  const fstats = facets.map((f) => read.get(fstatsKey(pid, f).sk));
  const priorityStats = priorityOrder(list).map((f) => read.get(fstatsKey(pid, f).sk));
  const ustats = read.get(ustatsKey(pid, list).sk);
  const sort = q.sort ?? 'newest';
  const dir = directionOf(sort);
  const mstats = read.get(mstatsKey(pid, list).sk);
  // Issue 37: `collapse=1` leaves duplicates out, whatever the path; `reports` orders as the list does.
  const collapse = isCollapsed(q);
  const inList = (h: Item) => listOfDeleted(h.deleted) === list && !(collapse && duplicateOfHeader(h));
  const keep = (h: Item) => inList(h) && matches(h, { ...q, search: undefined }, userId, live);
  const exact = exactOrderOf(q);
  const listTotal = Number(meta[`${list}Count`] ?? 0);
  const exactAll = () => exactWalk(pid, list, stats, mstats, exact, exactTotal(listTotal, mstats, exact));
  // A label deleted since the link was made selects nothing (decision Tr-C4).
  if (q.label && !live.has(q.label)) return { list, bound: 0, numbers: once([]), keep };

  const search = q.search?.toLowerCase() || undefined;
  if (search) {
    // The list's own selection (list.ts searchList / combination): its window, sorted as it sorts.
    let found: Item[];
    if (facets.length === 0) {
      const n = searchedNumber(search);
      const [exact] = n === null ? [] : await headersOf(pid, [n]);
      const matched = await queryList(pid, list, { limit: SEARCH_WINDOW, filter: search });
      const sorted = sort !== 'newest' ? [...matched].sort(compareBy(sort)) : matched;
      found = exact && inList(exact) ? [exact, ...sorted.filter((h) => h.number !== exact.number)] : sorted;
    } else {
      const smallest = smallestFacet(facets, fstats);
      const numbers = await facetPage(pid, [smallest.facet], [smallest.stats], 0, FILTER_WINDOW, dir);
      found = (await headersOf(pid, numbers))
        .filter((h) => inList(h) && matches(h, { ...q, search }, userId, live))
        .sort(compareBy(sort));
    }
    const numbers = found.map((h) => Number(h.number));
    return { list, bound: numbers.length, numbers: once(numbers), keep: inList };
  }

  if (facets.length === 0) {
    if (sort === 'reports' || (collapse && (sort === 'newest' || sort === 'oldest')))
      return { list, bound: exactTotal(listTotal, mstats, exact), numbers: exactAll(), keep };
    if (sort === 'priority')
      return {
        list,
        bound: priorityStats.reduce((s, f) => s + totalOf(f), 0),
        numbers: facetWalk(pid, priorityOrder(list), priorityStats, 'newest'),
        keep,
      };
    if (sort === 'updated')
      return { list, bound: totalOf(ustats), numbers: updatedWalk(pid, list, ustats), keep };
    return { list, bound: Number(meta[`${list}Count`] ?? 0), numbers: listWalk(pid, list, stats, dir), keep };
  }

  const smallest = smallestFacet(facets, fstats);
  const bound = smallest.total;
  const smallestWalk = () => facetWalk(pid, [smallest.facet], [smallest.stats], dir);
  if (sort === 'newest' || sort === 'oldest') return { list, bound, numbers: smallestWalk(), keep };
  // priority, updated or reports with filters: the sort's whole order, kept where the smallest facet has the number.
  const members = new Set<number>();
  for await (const group of smallestWalk()) for (const n of group) members.add(n);
  const order =
    sort === 'priority'
      ? facetWalk(pid, priorityOrder(list), priorityStats, 'newest')
      : sort === 'reports'
        ? exactAll()
        : updatedWalk(pid, list, ustats);
  return { list, bound, numbers: within(order, members), keep };
}
