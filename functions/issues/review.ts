/**
 * Issue review (issue 8; docs/data-model.md 4.5-4.7, 4.9): the open and resolved lists with page N at the
 * cost of page 1, search over the newest 200, one issue with prev/next, close and restore (the stored
 * objects: downloads.ts). Access is the policy's (projects/access.ts): another client's project, or a
 * malformed id, is NOT_FOUND.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { limits } from '#contracts/limits';
import { integrationNames } from '#contracts/messages';
import type {
  IntegrationStatusFields,
  IssueAnswer,
  IssueListAnswer,
  IssueRow,
  IssueStateAnswer,
} from '#contracts/review';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { nowMs } from '#runtime/time';
import { accessGuard, type ProjectAction, readProjectAs } from '../projects/access';
import { teamOf } from '../teams/member';
import {
  BLOCK_SIZE,
  blockCounts,
  blockKey,
  type IssueList,
  issueDetailKey,
  issueHeaderKey,
  listName,
  listOfDeleted,
  listPartition,
  moveIssue,
  n10,
  offsetsAttribute,
  statsKey,
} from './issue';
import { triageFieldsOf } from './triage-fields';

export const PAGE_SIZE = limits.issuesPerPage;
export const SEARCH_WINDOW = 200;

type Item = Record<string, unknown>;

function queryList(
  projectId: string,
  list: IssueList,
  opts: { limit: number; forward?: boolean; bound?: { op: '<' | '<=' | '>'; n: number }; filter?: string },
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

function row(h: Item): IssueRow {
  return {
    number: Number(h.number),
    title: String(h.title ?? ''),
    preview: String(h.preview ?? '').slice(0, 200),
    date_created: { date: String(h.createdAt) },
    total_files: Number(h.totalFiles ?? 0),
    total_screenshots: Number(h.totalScreenshots ?? 0),
    ...triageFieldsOf(h),
  };
}

export interface ListQuery {
  page: number;
  search?: string | undefined;
  resolved?: string | undefined;
}

const isResolved = (q: { resolved?: string | undefined }) => q.resolved === '1' || q.resolved === 'true';

/**
 * The number of the newest issue on page `page` of `list`, from STATS and one BLOCK (4.5), or null when
 * the page is past the end.
 */
async function pageStart(
  projectId: string,
  list: IssueList,
  stats: Item,
  skip: number,
): Promise<number | null> {
  let newer = 0;
  for (const [b, count] of blockCounts(stats, list)) {
    if (count <= 0) continue;
    if (newer + count > skip) {
      const j = skip - newer;
      const out = await db().send(
        new GetCommand({
          TableName: tableName(),
          Key: blockKey(projectId, b),
          ProjectionExpression: '#o',
          ExpressionAttributeNames: { '#o': offsetsAttribute(list) },
          ConsistentRead: true,
        }),
      );
      const offsets = [...((out.Item?.[offsetsAttribute(list)] as Set<number> | undefined) ?? [])]
        .map(Number)
        .sort((x, y) => y - x);
      // A commit between the two reads can shift the page by a row (D14); never past the block.
      const off = offsets[Math.min(j, offsets.length - 1)];
      if (off === undefined) return (b + 1) * BLOCK_SIZE;
      return b * BLOCK_SIZE + off + 1;
    }
    newer += count;
  }
  return null;
}

export async function listIssues(
  userId: string,
  projectId: string,
  query: ListQuery,
  action: ProjectAction = 'read',
): Promise<IssueListAnswer> {
  const list: IssueList = isResolved(query) ? 'resolved' : 'open';
  const page = query.page;
  const skip = (page - 1) * PAGE_SIZE;
  const search = query.search?.toLowerCase();
  if (search) {
    // A number ("42", "#42") is also read directly, in the batch with the ownership read (4.7): the issue
    // of that number comes first when it is in this list, whatever its age, beside the text matches.
    const n = searchedNumber(search);
    const header = n === null ? null : issueHeaderKey(projectId, n);
    // The Query runs beside the ownership read; its rows are used only once the project is the caller's.
    const [got, found] = await Promise.all([
      readProjectAs(userId, projectId, action, header ? [header] : []),
      queryList(projectId, list, { limit: SEARCH_WINDOW, filter: search }),
    ]);
    const meta = got.project;
    const exact = got.items[0];
    const items =
      exact && listOfDeleted(exact.deleted) === list
        ? [exact, ...found.filter((i) => Number(i.number) !== n)]
        : found;
    return {
      requests: items.slice(skip, skip + PAGE_SIZE).map(row),
      total_requests: items.length,
      page,
      // Search looks at the newest 200 of the list only (4.7, D17): say so when there are more.
      ...(total(meta, list) > SEARCH_WINDOW ? { searchWindow: SEARCH_WINDOW } : {}),
    };
  }
  if (page === 1) {
    const [{ project: meta }, items] = await Promise.all([
      readProjectAs(userId, projectId, action),
      queryList(projectId, list, { limit: PAGE_SIZE }),
    ]);
    return { requests: items.map(row), total_requests: total(meta, list), page };
  }
  const {
    project: meta,
    items: [stats],
  } = await readProjectAs(userId, projectId, action, [statsKey(projectId)]);
  const totalRequests = total(meta, list);
  if (skip >= totalRequests) return { requests: [], total_requests: totalRequests, page };
  const start = await pageStart(projectId, list, stats ?? {}, skip);
  if (start === null) return { requests: [], total_requests: totalRequests, page };
  const items = await queryList(projectId, list, { limit: PAGE_SIZE, bound: { op: '<=', n: start } });
  return { requests: items.map(row), total_requests: totalRequests, page };
}

const total = (meta: Item, list: IssueList) => Number(meta[`${list}Count`] ?? 0);

/** The issue number a search names: digits, optionally after '#' ("42", "#42"); null for anything else. */
export function searchedNumber(search: string): number | null {
  const m = /^#?\s*([1-9][0-9]{0,9})$/.exec(search.trim());
  return m ? Number(m[1]) : null;
}

/** One issue with SPEC.md section 3's fields, and its neighbours by number within its list (4.7). */
export async function getIssue(
  userId: string,
  projectId: string,
  n: number,
  action: ProjectAction = 'read',
): Promise<IssueAnswer> {
  const {
    items: [h, d],
  } = await readProjectAs(userId, projectId, action, [
    issueHeaderKey(projectId, n),
    issueDetailKey(projectId, n),
  ]);
  if (!h || !d) throw new AppError('NOT_FOUND');
  const list = listOfDeleted(h.deleted);
  const [prev, next] = await Promise.all([
    queryList(projectId, list, { limit: 1, bound: { op: '<', n } }),
    queryList(projectId, list, { limit: 1, forward: true, bound: { op: '>', n } }),
  ]);
  const st = (d.st ?? {}) as Record<string, unknown>;
  const files = (d.files ?? []) as Item[];
  const screenshots = (d.screenshots ?? []) as Item[];
  return {
    number: n,
    prev_number: prev[0] ? Number(prev[0].number) : null,
    next_number: next[0] ? Number(next[0].number) : null,
    date_created: { date: String(h.createdAt) },
    deleted: list === 'resolved' ? 1 : 0,
    total_files: files.length,
    total_screenshots: screenshots.length,
    files: files.map((f) => ({
      name: String(f.name),
      original_name: String(f.original_name),
      size: Number(f.size ?? 0),
      type: String(f.type),
    })),
    screenshots: screenshots.map((s) => ({
      name: String(s.name),
      type: s.type as IssueAnswer['screenshots'][number]['type'],
      html: String(s.html ?? ''),
      size: Number(s.size ?? 0),
    })),
    data: { title: String(h.title ?? ''), msg: String(d.msg ?? ''), ...(d.data as Item) },
    ...triageFieldsOf(h),
    ...(Object.fromEntries(
      integrationNames.map((name) => [`${name}_status`, Number(st[name] ?? 0)]),
    ) as unknown as IntegrationStatusFields),
    // Why a permanent failure failed (issue 11), for the status table.
    ...Object.fromEntries(
      integrationNames.flatMap((name) =>
        typeof d[`reason_${name}`] === 'string' ? [[`${name}_reason`, d[`reason_${name}`]]] : [],
      ),
    ),
    logs: (d.logs ?? []) as IssueAnswer['logs'],
  };
}

/** Close (`restore` false) or restore an issue; already in that state is success with nothing changed. */
export async function setIssueState(
  userId: string,
  projectId: string,
  n: number,
  restore: boolean,
  action: ProjectAction = 'triage',
): Promise<IssueStateAnswer> {
  const {
    project,
    caller,
    items: [h],
  } = await readProjectAs(userId, projectId, action, [issueHeaderKey(projectId, n)]);
  if (!h) throw new AppError('NOT_FOUND');
  const target: IssueList = restore ? 'open' : 'resolved';
  if (listOfDeleted(h.deleted) !== target) {
    // Guarded: a member removed since the read above is refused here too (4.12, decision T4).
    const guard = accessGuard(caller, teamOf(project as { teamId?: unknown }), action, projectId);
    await moveIssue(projectId, n, target, new Date(nowMs()).toISOString(), guard);
  }
  return { number: n, deleted: target === 'resolved' ? 1 : 0 };
}
