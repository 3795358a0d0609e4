/**
 * Issue review (issue 8; docs/data-model.md 4.5-4.7, 4.9): the open and resolved lists with page N at the
 * cost of page 1, search over the newest 200, one issue with prev/next, close and restore, and downloads
 * as short-lived presigned S3 redirects. Access is the policy's (projects/access.ts): another client's
 * project, or a malformed id, is NOT_FOUND.
 */
import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { limits } from '#contracts/limits';
import { integrationNames } from '#contracts/messages';
import type {
  IntegrationStatusFields,
  IssueAnswer,
  IssueListAnswer,
  IssueRow,
  IssueStateAnswer,
  SnapshotView,
  SnapshotViewAnswer,
} from '#contracts/review';
import { cleanText } from '#contracts/text';
import { db } from '#runtime/aws/dynamo';
import { s3, s3Sdk } from '#runtime/aws/s3';
import { bucketName } from '#runtime/config';
import { tableName } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { nowMs } from '#runtime/time';
import { authorize, projectFor } from '../projects/access';
import { projectKey } from '../projects/project';
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
import { snapshotViewKey, storedKey } from './object-keys';
import { scrollAnchorId, snapshotMeta, snapshotViewDocument } from './snapshot-view';
import { encodeOriginalName } from './uploads';

export const PAGE_SIZE = limits.issuesPerPage;
export const SEARCH_WINDOW = 200;

type Item = Record<string, unknown>;

/** Consistent BatchGetItem of a few small keys of one project, by sort key. */
async function batchGet(keys: { pk: string; sk: string }[]): Promise<Map<string, Item>> {
  const out = await db().send(
    new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys, ConsistentRead: true } } }),
  );
  if (Object.keys(out.UnprocessedKeys ?? {}).length > 0)
    throw new Error('BatchGetItem left keys unprocessed');
  return new Map((out.Responses?.[tableName()] ?? []).map((i) => [String(i.sk), i]));
}

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
      header
        ? batchGet([projectKey(projectId), header])
        : projectFor(userId, projectId, 'read').then((m) => new Map([['META', m]])),
      queryList(projectId, list, { limit: SEARCH_WINDOW, filter: search }),
    ]);
    const meta = authorize(userId, got.get('META'), 'read');
    const exact = header ? got.get(header.sk) : undefined;
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
    const [meta, items] = await Promise.all([
      projectFor(userId, projectId, 'read'),
      queryList(projectId, list, { limit: PAGE_SIZE }),
    ]);
    return { requests: items.map(row), total_requests: total(meta, list), page };
  }
  const got = await batchGet([projectKey(projectId), statsKey(projectId)]);
  const meta = authorize(userId, got.get('META'), 'read');
  const totalRequests = total(meta, list);
  if (skip >= totalRequests) return { requests: [], total_requests: totalRequests, page };
  const start = await pageStart(projectId, list, got.get('STATS') ?? {}, skip);
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
export async function getIssue(userId: string, projectId: string, n: number): Promise<IssueAnswer> {
  const header = issueHeaderKey(projectId, n);
  const detail = issueDetailKey(projectId, n);
  const got = await batchGet([projectKey(projectId), header, detail]);
  authorize(userId, got.get('META'), 'read');
  const h = got.get(header.sk);
  const d = got.get(detail.sk);
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
): Promise<IssueStateAnswer> {
  const header = issueHeaderKey(projectId, n);
  const got = await batchGet([projectKey(projectId), header]);
  authorize(userId, got.get('META'), 'triage');
  const h = got.get(header.sk);
  if (!h) throw new AppError('NOT_FOUND');
  const target: IssueList = restore ? 'open' : 'resolved';
  if (listOfDeleted(h.deleted) !== target) {
    await moveIssue(projectId, n, target, new Date(nowMs()).toISOString());
  }
  return { number: n, deleted: target === 'resolved' ? 1 : 0 };
}

/** Download names: an object name the intake made (uuid.ext); anything else names nothing (4.9). */
export const downloadNamePattern = /^[0-9a-f-]{36}\.[a-z0-9]{2,5}$/;
export const DOWNLOAD_EXPIRY_SECONDS = 300;

/** Types a browser may show inline from the bucket's origin; everything else is a download. */
const inlineTypes: Record<string, string> = { png: 'image/png', webm: 'video/webm', mp4: 'video/mp4' };

/** `Content-Disposition` per RFC 6266: an ASCII fallback and `filename*` for the exact name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\;]/g, '_') || 'download';
  return `${kind}; filename="${ascii}"; filename*=${encodeOriginalName(name)}`;
}

/** Extensions a stored type's own may also be written as. */
const sameExtension: Record<string, string[]> = { jpg: ['jpeg'], mp3: ['mpeg'] };

/**
 * The name a download is offered under (issue 19): the visitor's original name cleaned of control, format and
 * bidi characters (contracts/text.ts; names stored before the rule covered visitors may hold them) and of path
 * separators, ending in the extension of the stored, validated type: `evil.html` stored as text/plain
 * downloads as `evil.html.txt`, `x.svg` stored as a PNG as `x.svg.png`.
 */
export function downloadName(original: string | undefined, storedName: string): string {
  const ext = storedName.slice(storedName.lastIndexOf('.') + 1);
  const base = cleanText(original ?? '', { max: 200 })
    .replace(/[/\\]/g, '_')
    .replace(/^\.+/, '');
  if (!base) return storedName;
  const own = base.includes('.') ? base.slice(base.lastIndexOf('.') + 1).toLowerCase() : '';
  return own === ext || sameExtension[ext]?.includes(own) ? base : `${base}.${ext}`;
}

function decodeExtValue(value: string | undefined): string | undefined {
  if (!value?.startsWith("UTF-8''")) return undefined;
  try {
    return decodeURIComponent(value.slice(7));
  } catch {
    return undefined;
  }
}

/**
 * A presigned GET for a project's stored file or screenshot, after the ownership check: `attachment` under
 * the original name for files and snapshots, `inline` only for png/webm/mp4 screenshots without `download`.
 * The answer's type is the object's only where it is one of those; otherwise `application/octet-stream`.
 */
export async function downloadUrl(
  userId: string,
  projectId: string,
  kind: 'file' | 'screenshot',
  name: string,
  download: boolean,
): Promise<string> {
  if (!downloadNamePattern.test(name)) throw new AppError('NOT_FOUND');
  await projectFor(userId, projectId, 'read');
  return presignStored(projectId, kind, name, download);
}

/**
 * A short-lived presigned GET of a stored object, with its original name. The caller has proved the right
 * to it: ownership (the dashboard's downloads) or a signed delivery link (functions/integrations/links.ts).
 */
export async function presignStored(
  projectId: string,
  kind: 'file' | 'screenshot',
  name: string,
  download: boolean,
): Promise<string> {
  if (!downloadNamePattern.test(name)) throw new AppError('NOT_FOUND');
  const Key = storedKey(projectId, kind, name);
  const Bucket = bucketName();
  const [{ GetObjectCommand, HeadObjectCommand }, client] = await Promise.all([s3Sdk(), s3()]);
  let original: string | undefined;
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
    original = decodeExtValue(head.Metadata?.['original-name']);
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || status === 403) throw new AppError('NOT_FOUND');
    throw err;
  }
  const ext = name.slice(name.lastIndexOf('.') + 1);
  const inline = kind === 'screenshot' && !download && ext in inlineTypes;
  const disposition = contentDisposition(inline ? 'inline' : 'attachment', downloadName(original, name));
  const type =
    kind === 'screenshot' ? (inlineTypes[ext] ?? 'application/octet-stream') : 'application/octet-stream';
  const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
  return getSignedUrl(
    client,
    new GetObjectCommand({
      Bucket,
      Key,
      ResponseContentDisposition: disposition,
      ResponseContentType: type,
    }),
    { expiresIn: DOWNLOAD_EXPIRY_SECONDS },
  );
}

const viewMetaHeader = 'snapshot-view';

/**
 * The page snapshot `name` of the caller's project as a document to show in a sandboxed frame: a short-lived
 * presigned GET, served inline as HTML from the bucket's origin (never the dashboard's), of a copy that
 * carries a script-free policy and a scroll anchor. The copy is made on the first view (one GetObject and
 * one PutObject of at most 5 MB) and found by a HeadObject afterwards. Anything but a stored snapshot of
 * this project is NOT_FOUND.
 */
export async function snapshotView(
  userId: string,
  projectId: string,
  name: string,
): Promise<SnapshotViewAnswer> {
  if (!downloadNamePattern.test(name) || !name.endsWith('.html')) throw new AppError('NOT_FOUND');
  await projectFor(userId, projectId, 'read');
  const Bucket = bucketName();
  const Key = snapshotViewKey(projectId, name);
  const [{ GetObjectCommand, HeadObjectCommand, PutObjectCommand }, client] = await Promise.all([
    s3Sdk(),
    s3(),
  ]);
  const status = (err: unknown) =>
    (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  let view: SnapshotView | null;
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
    view = parseViewHeader(head.Metadata?.[viewMetaHeader]);
  } catch (err) {
    if (status(err) !== 404 && status(err) !== 403) throw err;
    let html: string;
    try {
      const original = await client.send(
        new GetObjectCommand({ Bucket, Key: storedKey(projectId, 'snapshot', name) }),
      );
      html = (await original.Body?.transformToString('utf-8')) ?? '';
    } catch (e) {
      if (status(e) === 404 || status(e) === 403 || (e as { name?: string }).name === 'NoSuchKey')
        throw new AppError('NOT_FOUND');
      throw e;
    }
    view = snapshotMeta(html);
    await client.send(
      new PutObjectCommand({
        Bucket,
        Key,
        Body: snapshotViewDocument(html, view),
        ContentType: 'text/html; charset=utf-8',
        Metadata: { [viewMetaHeader]: view ? JSON.stringify(view) : 'none' },
      }),
    );
  }
  const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
  const url = await getSignedUrl(
    client,
    new GetObjectCommand({
      Bucket,
      Key,
      ResponseContentType: 'text/html; charset=utf-8',
      ResponseContentDisposition: 'inline',
      ResponseCacheControl: 'private, no-store',
    }),
    { expiresIn: DOWNLOAD_EXPIRY_SECONDS },
  );
  return { url, anchor: scrollAnchorId, view };
}

function parseViewHeader(value: string | undefined): SnapshotView | null {
  if (!value || value === 'none') return null;
  try {
    const v = JSON.parse(value) as SnapshotView;
    return typeof v.width === 'number' && typeof v.scrollY === 'number' ? v : null;
  } catch {
    return null;
  }
}
