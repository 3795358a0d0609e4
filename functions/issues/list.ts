/**
 * The issue lists (issue 8, issue 23; docs/data-model.md 4.5, 4.7, 4.13): the open or resolved list, newest
 * first, with page N at the cost of page 1; search over the newest 200; one triage filter or sort at the
 * same cost through the facet rank index; combinations over a bounded window of their smallest facet.
 * Every read is access-checked first (projects/access.ts): another client's project is NOT_FOUND.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { limits } from '#contracts/limits';
import type { IssueListAnswer, IssueRow } from '#contracts/review';
import { type IssueListSort, type IssueStatus, type Priority, priorities } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { getItems, type Key, tableName } from '#runtime/db';
import { type ProjectAction, readProjectAs } from '../projects/access';
import {
  BLOCK_SIZE,
  blockCounts,
  blockKey,
  type IssueList,
  issueHeaderKey,
  listName,
  listOfDeleted,
  listPartition,
  n10,
  offsetsAttribute,
  statsKey,
} from './issue';
import { labelsKey, liveLabelIds } from './labels';
import { type ExactOrder, exactPage, exactTotal, mstatsKey } from './merge-index';
import { duplicateOfHeader, reportsOfHeader } from './merge-state';
import {
  assigneeFacet,
  blockNumbers,
  type Direction,
  directionOf,
  facetPage,
  fstatsKey,
  labelFacet,
  listOfStatus,
  priorityFacet,
  priorityOrder,
  statusFacet,
  totalOf,
  updatedPage,
  ustatsKey,
} from './rank-index';
import { triageFieldsOf } from './triage-fields';

export const PAGE_SIZE = limits.issuesPerPage;
export const SEARCH_WINDOW = 200;
/** How many numbers of its smallest facet a combination of filters looks at (4.13). */
export const FILTER_WINDOW = 500;

type Item = Record<string, unknown>;

export function queryList(
  projectId: string,
  list: IssueList,
  opts: {
    limit: number;
    forward?: boolean;
    bound?: { op: '<' | '<=' | '>' | '>='; n: number };
    filter?: string;
  },
) {
  const values: Item = { ':l': listPartition(projectId, listName(list)) };
  let condition = 'gsi1pk = :l';
  if (opts.bound) {
    condition += ` AND gsi1sk ${opts.bound.op} :n`;
    values[':n'] = n10(opts.bound.n);
  }
  if (opts.filter !== undefined) values[':q'] = opts.filter;
  return db()
    .send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: condition,
        ExpressionAttributeValues: values,
        ...(opts.filter !== undefined ? { FilterExpression: 'contains(q, :q)' } : {}),
        ScanIndexForward: opts.forward ?? false,
        Limit: opts.limit,
      }),
    )
    .then((out) => out.Items ?? []);
}

export function row(h: Item, live?: ReadonlySet<string>): IssueRow {
  return {
    number: Number(h.number),
    title: String(h.title ?? ''),
    preview: String(h.preview ?? '').slice(0, 200),
    date_created: { date: String(h.createdAt) },
    total_files: Number(h.totalFiles ?? 0),
    total_screenshots: Number(h.totalScreenshots ?? 0),
    ...triageFieldsOf(h, live),
    reports: reportsOfHeader(h),
    ...(duplicateOfHeader(h) ? { duplicateOf: duplicateOfHeader(h) as number } : {}),
  };
}

export interface ListQuery {
  page: number;
  search?: string | undefined;
  resolved?: string | undefined;
  status?: IssueStatus | undefined;
  priority?: Priority | undefined;
  assignee?: string | undefined;
  label?: string | undefined;
  sort?: IssueListSort | undefined;
  /** Issue 37: '1'/'true' leaves duplicates out. */
  collapse?: string | undefined;
}

const isResolved = (q: { resolved?: string | undefined }) => q.resolved === '1' || q.resolved === 'true';

/** The list a query reads: a status names its own list; otherwise SPEC's `resolved`. */
export const listOfQuery = (q: ListQuery): IssueList =>
  q.status ? listOfStatus(q.status) : isResolved(q) ? 'resolved' : 'open';

/** The assignee a query's filter names: `me` is the caller, `none` nobody. */
const assigneeOf = (assignee: string, userId: string) =>
  assignee === 'me' ? userId : assignee === 'none' ? null : assignee;

/** The facets a query's filters name (`me` is the caller), in a fixed order. */
export function filterFacets(list: IssueList, q: ListQuery, userId: string): string[] {
  const out: string[] = [];
  if (q.status) out.push(statusFacet(list, q.status));
  if (q.priority) out.push(priorityFacet(list, q.priority));
  if (q.assignee) out.push(assigneeFacet(list, assigneeOf(q.assignee, userId)));
  if (q.label) out.push(labelFacet(list, q.label));
  return out;
}

/** Whether a header passes every filter of `q` (the combinations' in-memory check). */
export function matches(h: Item, q: ListQuery, userId: string, live: ReadonlySet<string>): boolean {
  const f = triageFieldsOf(h, live);
  if (q.status && f.status !== q.status) return false;
  if (q.priority && f.priority !== q.priority) return false;
  if (q.assignee && f.assignee !== assigneeOf(q.assignee, userId)) return false;
  if (q.label && !f.labels.includes(q.label)) return false;
  if (q.search && !String(h.q ?? '').includes(q.search.toLowerCase())) return false;
  return true;
}

const priorityRank = (p: Priority) => priorities.indexOf(p);

/** The order of a sort, for the rows a window holds in memory. */
export function compareBy(sort: IssueListSort): (a: Item, b: Item) => number {
  const num = (h: Item) => Number(h.number);
  switch (sort) {
    case 'reports':
      return (a, b) => reportsOfHeader(b) - reportsOfHeader(a) || num(b) - num(a);
    case 'oldest':
      return (a, b) => num(a) - num(b);
    case 'priority':
      return (a, b) =>
        priorityRank(triageFieldsOf(b).priority) - priorityRank(triageFieldsOf(a).priority) ||
        num(b) - num(a);
    case 'updated':
      return (a, b) => Number(b.u ?? 0) - Number(a.u ?? 0) || num(b) - num(a);
    default:
      return (a, b) => num(b) - num(a);
  }
}

/**
 * The number where page `skip / PAGE_SIZE` of `list` starts in `dir` order, from STATS and one BLOCK
 * (4.5), or null past the end.
 */
async function pageStart(
  projectId: string,
  list: IssueList,
  stats: Item,
  skip: number,
  dir: Direction,
): Promise<number | null> {
  let before = 0;
  const blocks = blockCounts(stats, list);
  if (dir === 'oldest') blocks.reverse();
  for (const [b, count] of blocks) {
    if (count <= 0) continue;
    if (before + count > skip) {
      const j = skip - before;
      const [block] = await getItems([blockKey(projectId, b)]);
      const numbers = blockNumbers(block, b, dir, offsetsAttribute(list));
      // A commit between the two reads can shift the page by a row (D14); never past the block.
      return (
        numbers[Math.min(j, numbers.length - 1)] ??
        (dir === 'newest' ? (b + 1) * BLOCK_SIZE : b * BLOCK_SIZE + 1)
      );
    }
    before += count;
  }
  return null;
}

const total = (meta: Item, list: IssueList) => Number(meta[`${list}Count`] ?? 0);

/** The issue number a search names: digits, optionally after '#' ("42", "#42"); null for anything else. */
export function searchedNumber(search: string): number | null {
  const m = /^#?\s*([1-9][0-9]{0,9})$/.exec(search.trim());
  return m ? Number(m[1]) : null;
}

/** Headers of `numbers`, in their order (missing ones left out): one BatchGetItem per 100. */
export async function headersOf(projectId: string, numbers: number[]): Promise<Item[]> {
  const read = await getItems(numbers.map((n) => issueHeaderKey(projectId, n)));
  return read.filter((h): h is Item => h !== undefined);
}

/**
 * Which rows of the list a call wants: the dashboard's page N (`pageWindow`), or the public API's cursor
 * (an offset) and limit (≤ 100). Every path below reads a window at the cost of the first one.
 */
export interface ListWindow {
  skip: number;
  size: number;
}
export const pageWindow = (page: number): ListWindow => ({ skip: (page - 1) * PAGE_SIZE, size: PAGE_SIZE });

/**
 * GET client/website/{id}/request. The paths, each ≤ 4 DynamoDB requests with the session's (4.13, section 6):
 * no filter newest (META ∥ gsi1 Query; page N: STATS, BLOCK, Query), no filter oldest (the same ascending),
 * one filter newest/oldest (FSTATS, FBLOCK, headers), `priority` (five priority facets concatenated) and
 * `updated` (USTATS, UBLOCK, headers); `sort=reports` and `collapse=1` without filters or search through the
 * merge index (STATS, MSTATS, the page's BLOCKs and MBLOCKs, headers: 4 at any depth). Search, and combinations
 * (issue 37's with filters among them), read bounded windows.
 */
export async function listIssues(
  userId: string,
  projectId: string,
  query: ListQuery,
  action: ProjectAction = 'read',
  window: ListWindow = pageWindow(query.page),
): Promise<IssueListAnswer> {
  const list = listOfQuery(query);
  const page = query.page;
  const { skip, size } = window;
  const sort = query.sort ?? 'newest';
  const facets = filterFacets(list, query, userId);
  const search = query.search?.toLowerCase() || undefined;
  if ((isCollapsed(query) || sort === 'reports') && facets.length === 0 && !search && exactSort(sort))
    return exactList(userId, projectId, list, query, action, window);
  if (isCollapsed(query) || sort === 'reports')
    return mergedWindow(userId, projectId, list, facets, { ...query, search }, action, window);
  if (facets.length === 0 && search)
    return searchList(userId, projectId, list, { ...query, search }, action, window);
  if (facets.length > 1 || (facets.length === 1 && (search || sort === 'priority' || sort === 'updated')))
    return combination(userId, projectId, list, facets, { ...query, search }, action, window);
  if (facets.length === 1 || sort === 'priority') {
    const segments = facets.length === 1 ? facets : priorityOrder(list);
    const {
      items: [labels, ...fstats],
    } = await readProjectAs(userId, projectId, action, [
      labelsKey(projectId),
      ...segments.map((f) => fstatsKey(projectId, f)),
    ]);
    const live = liveLabelIds(labels);
    // A deleted label's facet is never read again: nothing has it any more (decision Tr-C4).
    if (query.label && !live.has(query.label)) return { requests: [], total_requests: 0, page };
    const totalRequests = fstats.reduce((s, f) => s + totalOf(f), 0);
    const numbers =
      skip >= totalRequests
        ? []
        : await facetPage(projectId, segments, fstats, skip, size, directionOf(sort));
    const headers = numbers.length ? await headersOf(projectId, numbers) : [];
    return { requests: headers.map((h) => row(h, live)), total_requests: totalRequests, page };
  }
  if (sort === 'updated') {
    const {
      project: meta,
      items: [labels, ustats],
    } = await readProjectAs(userId, projectId, action, [labelsKey(projectId), ustatsKey(projectId, list)]);
    const live = liveLabelIds(labels);
    const totalRequests = total(meta, list);
    const numbers =
      skip >= totalOf(ustats) ? [] : await updatedPage(projectId, list, ustats, skip, size, 'newest');
    const headers = numbers.length ? await headersOf(projectId, numbers) : [];
    return { requests: headers.map((h) => row(h, live)), total_requests: totalRequests, page };
  }
  const dir = directionOf(sort);
  const forward = dir === 'oldest';
  if (skip === 0) {
    const [
      {
        project: meta,
        items: [labels],
      },
      items,
    ] = await Promise.all([
      readProjectAs(userId, projectId, action, [labelsKey(projectId)]),
      queryList(projectId, list, { limit: size, forward }),
    ]);
    const live = liveLabelIds(labels);
    return { requests: items.map((h) => row(h, live)), total_requests: total(meta, list), page };
  }
  const {
    project: meta,
    items: [labels, stats],
  } = await readProjectAs(userId, projectId, action, [labelsKey(projectId), statsKey(projectId)]);
  const live = liveLabelIds(labels);
  const totalRequests = total(meta, list);
  if (skip >= totalRequests) return { requests: [], total_requests: totalRequests, page };
  const start = await pageStart(projectId, list, stats ?? {}, skip, dir);
  if (start === null) return { requests: [], total_requests: totalRequests, page };
  const items = await queryList(projectId, list, {
    limit: size,
    forward,
    bound: { op: forward ? '>=' : '<=', n: start },
  });
  return { requests: items.map((h) => row(h, live)), total_requests: totalRequests, page };
}

/** Search without filters (4.7): the newest 200 of the list, a searched number first; then the sort. */
async function searchList(
  userId: string,
  projectId: string,
  list: IssueList,
  query: ListQuery & { search: string },
  action: ProjectAction,
  { skip, size }: ListWindow,
): Promise<IssueListAnswer> {
  const n = searchedNumber(query.search);
  const keys: Key[] = [labelsKey(projectId), ...(n === null ? [] : [issueHeaderKey(projectId, n)])];
  // The Query runs beside the ownership read; its rows are used only once the project is the caller's.
  const [got, found] = await Promise.all([
    readProjectAs(userId, projectId, action, keys),
    queryList(projectId, list, { limit: SEARCH_WINDOW, filter: query.search }),
  ]);
  const [labels, exact] = got.items;
  const live = liveLabelIds(labels);
  const sorted = query.sort && query.sort !== 'newest' ? [...found].sort(compareBy(query.sort)) : found;
  const items =
    exact && listOfDeleted(exact.deleted) === list
      ? [exact, ...sorted.filter((i) => Number(i.number) !== n)]
      : sorted;
  return {
    requests: items.slice(skip, skip + size).map((h) => row(h, live)),
    total_requests: items.length,
    page: query.page,
    // Search looks at the newest 200 of the list only (4.7, D17): say so when there are more.
    ...(total(got.project, list) > SEARCH_WINDOW ? { searchWindow: SEARCH_WINDOW } : {}),
  };
}

/** Of a combination's facets (their FSTATS as read, in the same order), the one with the fewest issues. */
export function smallestFacet(facets: string[], fstats: (Item | undefined)[]) {
  const totals = fstats.map(totalOf);
  const i = totals.indexOf(Math.min(...totals));
  return { facet: facets[i] ?? '', stats: fstats[i], total: totals[i] ?? 0 };
}

/**
 * Filters combined (or a filter with the `priority`/`updated` sort or a search): the facet with the fewest
 * issues, its first 500 numbers (newest first; oldest first for `oldest`), their headers (5 BatchGetItems at
 * most), filtered and sorted in memory. Worst case 1 + 1 + 5 requests beside the session (4.13).
 */
async function combination(
  userId: string,
  projectId: string,
  list: IssueList,
  facets: string[],
  query: ListQuery,
  action: ProjectAction,
  { skip, size }: ListWindow,
): Promise<IssueListAnswer> {
  const sort = query.sort ?? 'newest';
  const {
    items: [labels, ...fstats],
  } = await readProjectAs(userId, projectId, action, [
    labelsKey(projectId),
    ...facets.map((f) => fstatsKey(projectId, f)),
  ]);
  const live = liveLabelIds(labels);
  if (query.label && !live.has(query.label)) return { requests: [], total_requests: 0, page: query.page };
  const smallest = smallestFacet(facets, fstats);
  const numbers = await facetPage(
    projectId,
    [smallest.facet],
    [smallest.stats],
    0,
    FILTER_WINDOW,
    directionOf(sort),
  );
  const headers = await headersOf(projectId, numbers);
  const found = headers
    .filter((h) => listOfDeleted(h.deleted) === list && matches(h, query, userId, live))
    .sort(compareBy(sort));
  return {
    requests: found.slice(skip, skip + size).map((h) => row(h, live)),
    total_requests: found.length,
    page: query.page,
    ...(smallest.total > FILTER_WINDOW ? { filterWindow: FILTER_WINDOW } : {}),
  };
}

export const isCollapsed = (q: ListQuery) => q.collapse === '1' || q.collapse === 'true';

/** The sorts the merge index answers exactly with `collapse=1` (and `reports` itself): the list's own orders. */
const exactSort = (sort: IssueListSort) => sort === 'reports' || sort === 'newest' || sort === 'oldest';

/** The merge index's order a query asks for (merge-index.ts): the primaries first or not, duplicates out or not. */
export const exactOrderOf = (query: ListQuery): ExactOrder => {
  const sort = query.sort ?? 'newest';
  return {
    reportsFirst: sort === 'reports',
    exclude: isCollapsed(query) ? ['d'] : [],
    dir: directionOf(sort),
  };
};

/**
 * Issue 37 without filters or search, exact at any size (docs/data-model.md 4.19 "Merge index"): `sort=reports`
 * (the primaries, most reports first, each count newest first; then the rest of the list newest first) and
 * `collapse=1` (the list less its duplicates, newest or oldest first), either or both. Session · BatchGetItem
 * (META, TEAMS, LABELS, STATS, MSTATS) · BatchGetItem of the page's MBLOCKs and BLOCKs · BatchGetItem of the
 * headers: 4 requests for page 1 and page N alike.
 */
async function exactList(
  userId: string,
  projectId: string,
  list: IssueList,
  query: ListQuery,
  action: ProjectAction,
  { skip, size }: ListWindow,
): Promise<IssueListAnswer> {
  const order = exactOrderOf(query);
  const {
    project: meta,
    items: [labels, stats, mstats],
  } = await readProjectAs(userId, projectId, action, [
    labelsKey(projectId),
    statsKey(projectId),
    mstatsKey(projectId, list),
  ]);
  const live = liveLabelIds(labels);
  const totalRequests = exactTotal(total(meta, list), mstats, order);
  const numbers =
    skip >= totalRequests ? [] : await exactPage(projectId, list, stats ?? {}, mstats, order, skip, size);
  const headers = numbers.length ? await headersOf(projectId, numbers) : [];
  return { requests: headers.map((h) => row(h, live)), total_requests: totalRequests, page: query.page };
}

/**
 * Issue 37 with filters or a search, or `collapse=1` with the `priority`/`updated` sort (the exact path above
 * covers the rest): `collapse=1` (duplicates left out: their primary's row counts them) and the `reports` sort (the
 * most reports first, then newest), over a bounded window like the combinations' (decision Mrg-3): the
 * newest 500 of the list (one gsi1 Query; with filters, the smallest facet's first 500 as `combination`
 * reads them), filtered and sorted in memory. `filterWindow: 500` says when the list held more; nothing is
 * scanned, and a page costs the same at any depth.
 */
async function mergedWindow(
  userId: string,
  projectId: string,
  list: IssueList,
  facets: string[],
  query: ListQuery,
  action: ProjectAction,
  { skip, size }: ListWindow,
): Promise<IssueListAnswer> {
  const sort = query.sort ?? 'newest';
  const dir = directionOf(sort);
  const {
    project: meta,
    items: [labels, ...fstats],
  } = await readProjectAs(userId, projectId, action, [
    labelsKey(projectId),
    ...facets.map((f) => fstatsKey(projectId, f)),
  ]);
  const live = liveLabelIds(labels);
  if (query.label && !live.has(query.label)) return { requests: [], total_requests: 0, page: query.page };
  let headers: Item[];
  let more: boolean;
  if (facets.length > 0) {
    const smallest = smallestFacet(facets, fstats);
    const numbers = await facetPage(projectId, [smallest.facet], [smallest.stats], 0, FILTER_WINDOW, dir);
    headers = await headersOf(projectId, numbers);
    more = smallest.total > FILTER_WINDOW;
  } else {
    headers = await queryList(projectId, list, { limit: FILTER_WINDOW, forward: dir === 'oldest' });
    more = total(meta, list) > headers.length;
  }
  const collapse = isCollapsed(query);
  const found = headers
    .filter(
      (h) =>
        listOfDeleted(h.deleted) === list &&
        matches(h, query, userId, live) &&
        !(collapse && duplicateOfHeader(h)),
    )
    .sort(compareBy(sort));
  return {
    requests: found.slice(skip, skip + size).map((h) => row(h, live)),
    total_requests: found.length,
    page: query.page,
    ...(more ? { filterWindow: FILTER_WINDOW } : {}),
  };
}
