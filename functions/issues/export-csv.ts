/**
 * The issue export (issue 23; docs/api.md "CSV export", docs/data-model.md 4.13): GET
 * client/website/{id}/requests.csv writes the list the query names (open or resolved, its filters and sort)
 * as a CSV object under the bucket's exports prefix and answers a 302 to a short-lived presigned download.
 *
 * Memory stays bounded whatever the list's size: the numbers come in order from the rank index a block
 * group at a time, each 50 issues are one BatchGetItem of their header and detail (100 keys, projected to
 * the exported attributes), and the CSV goes to S3 as a multipart upload (runtime/s3-writer.ts), so the
 * function holds a few batches and at most two 5 MiB parts. Never a Scan. Limits: `exportLimits.maxRows`
 * issues, and the function's time (refused with EXPORT_TOO_LARGE rather than a cut-off file).
 *
 * What it holds is what the list shows anyone with `read` (a GUEST included): no internal comments, no
 * integration internals; keep it so (decision Tr-X4).
 */
import { randomUUID } from 'node:crypto';
import type { Lang } from '#contracts/errors';
import { bucketPrefixes } from '#contracts/manifest';
import { type ExportQuery, exportLimits, type IssueStatus, type Priority } from '#contracts/triage';
import { s3, s3Sdk } from '#runtime/aws/s3';
import { bucketName } from '#runtime/config';
import { getItems } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { s3ObjectWriter } from '#runtime/s3-writer';
import { nowMs } from '#runtime/time';
import { userKey } from '../accounts/user';
import { type ProjectAction, readProjectAs } from '../projects/access';
import { memberActor, recordAudit } from '../teams/audit';
import { teamOf } from '../teams/member';
import { type CsvValue, csvRow, UTF8_BOM } from './csv';
import { contentDisposition, DOWNLOAD_EXPIRY_SECONDS } from './downloads';
import { exportOrder, orderKeys } from './export-order';
import { type IssueList, issueDetailKey, issueHeaderKey, statsKey } from './issue';
import { labelsKey, labelsOf, liveLabelIds } from './labels';
import { issuePageUrl } from './page-url';
import { triageFieldsOf } from './triage-fields';

type Item = Record<string, unknown>;

/** Issues per BatchGetItem: their header and detail are 100 keys, DynamoDB's most per request. */
export const EXPORT_BATCH = 50;
/** Batch reads in flight while the rows before them are written: overlap without unbounded memory. */
const READ_AHEAD = 3;
/**
 * What the export may take of the function's time (its timeout is 28 s, under API Gateway's 30 s): past it
 * the export is refused instead of answering a truncated file.
 */
export const EXPORT_DEADLINE_MS = 24_000;

const fixedColumns = {
  en: [
    'Number',
    'Title',
    'Status',
    'Priority',
    'Assignee',
    'Labels',
    'Due date',
    'Created',
    'Updated',
    'Files',
    'Screenshots',
    'Reporter',
    'Page URL',
    'Browser',
    'Operating system',
    'Device type',
    'Screen resolution',
  ],
  de: [
    'Nummer',
    'Titel',
    'Status',
    'Priorität',
    'Zuständig',
    'Labels',
    'Fällig am',
    'Erstellt',
    'Aktualisiert',
    'Dateien',
    'Screenshots',
    'Melder',
    'Seiten-URL',
    'Browser',
    'Betriebssystem',
    'Gerätetyp',
    'Bildschirmauflösung',
  ],
} as const satisfies Record<Lang, readonly string[]>;
// Columns are only ever added at the end, so a spreadsheet or script that reads the file by position keeps working.
const tailColumns = {
  en: ['Other fields', 'Link', 'Status name', 'Priority name', 'Description'],
  de: ['Weitere Felder', 'Link', 'Statusname', 'Prioritätsname', 'Beschreibung'],
} as const satisfies Record<Lang, readonly string[]>;

/**
 * Status and priority as the dashboard names them (web/src/i18n `triage.status`, `triage.priority`), beside
 * the stable codes, so a reader of the file need not know the codes.
 */
const statusNames = {
  en: {
    new: 'New',
    in_progress: 'In progress',
    in_review: 'In review',
    resolved: 'Resolved',
    closed: 'Closed',
  },
  de: {
    new: 'Neu',
    in_progress: 'In Arbeit',
    in_review: 'In Prüfung',
    resolved: 'Erledigt',
    closed: 'Geschlossen',
  },
} as const satisfies Record<Lang, Record<IssueStatus, string>>;
const priorityNames = {
  en: { none: 'No priority', low: 'Low', medium: 'Medium', high: 'High', urgent: 'Urgent' },
  de: { none: 'Keine Priorität', low: 'Niedrig', medium: 'Mittel', high: 'Hoch', urgent: 'Dringend' },
} as const satisfies Record<Lang, Record<Priority, string>>;

/** The header row: the fixed columns, one per custom field of the project (in its order), the rest. */
export function exportColumns(customFields: readonly string[], lang: Lang): string[] {
  return [...fixedColumns[lang], ...customFields, ...tailColumns[lang]];
}

/** What a row needs besides its issue's items. */
export interface RowContext {
  projectId: string;
  customFields: readonly string[];
  labelNames: ReadonlyMap<string, string>;
  /** The project's live label ids (a deleted label's id is left out of the rows). */
  live: ReadonlySet<string>;
  userNames: ReadonlyMap<string, string>;
  /** The language of the status and priority names. */
  lang: Lang;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const joined = (...parts: unknown[]) => parts.map(text).filter(Boolean).join(' ');

/** One issue's cells, in `exportColumns` order. A missing detail (never expected) leaves its cells empty. */
export function exportRow(header: Item, detail: Item | undefined, ctx: RowContext): CsvValue[] {
  const n = Number(header.number);
  const t = triageFieldsOf(header, ctx.live);
  const data = (detail?.data ?? {}) as Item;
  const given = Array.isArray(data.customFields) ? (data.customFields as Item[]) : [];
  const byName = new Map(given.map((f) => [text(f.name), text(f.value)]));
  const configured = new Set(ctx.customFields);
  // Fields the visitor's page sent that the project no longer asks for: kept, in one column.
  const other = given
    .filter((f) => !configured.has(text(f.name)))
    .map((f) => `${text(f.name)}: ${text(f.value)}`)
    .join('\n');
  return [
    n,
    text(header.title),
    t.status,
    t.priority,
    t.assignee ? (ctx.userNames.get(t.assignee) ?? '') : '',
    t.labels.map((id) => ctx.labelNames.get(id) ?? '').join(', '),
    t.dueDate ?? '',
    text(header.createdAt),
    t.updatedAt,
    Number(header.totalFiles ?? 0),
    Number(header.totalScreenshots ?? 0),
    text(data.username),
    text(data.href),
    joined(data.browser, data.browserVersion),
    joined(data.os, data.osVersion),
    text(data.deviceType),
    text(data.screenResolution),
    ...ctx.customFields.map((name) => byName.get(name) ?? ''),
    other,
    issuePageUrl(ctx.projectId, n),
    statusNames[ctx.lang][t.status],
    priorityNames[ctx.lang][t.priority],
    // The whole description, line breaks kept: the file is where a team reads reports outside Snag.
    text(detail?.msg),
  ];
}

/** The file's name: the project's, the list and the day (UTC), safe for any file system. */
export function exportFileName(projectName: string, list: IssueList, at: Date): string {
  const base =
    projectName
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
      .replace(/^[.\s]+|[.\s]+$/g, '')
      .slice(0, 80) || 'snag';
  return `${base}-${list}-${at.toISOString().slice(0, 10)}.csv`;
}

/** The attributes a row reads of a header and a detail (not the search text or logs). */
const rowAttributes = [
  'pk',
  'sk',
  'number',
  'title',
  'deleted',
  'status',
  'priority',
  'assignee',
  'labels',
  'dueDate',
  'createdAt',
  'updatedAt',
  'totalFiles',
  'totalScreenshots',
  'data',
  'msg',
];
const rowNames = Object.fromEntries(rowAttributes.map((a, i) => [`#a${i}`, a]));
const rowProjection = Object.keys(rowNames).join(', ');

/** Headers and details of up to 50 issues, in the order given; numbers without a header are left out. */
async function readIssues(projectId: string, numbers: number[]): Promise<[Item, Item | undefined][]> {
  const keys = numbers.flatMap((n) => [issueHeaderKey(projectId, n), issueDetailKey(projectId, n)]);
  const items = await getItems(keys, {
    eventual: true,
    projection: { expression: rowProjection, names: rowNames },
  });
  return numbers.flatMap((_n, i): [Item, Item | undefined][] => {
    const h = items[2 * i];
    return h ? [[h, items[2 * i + 1]]] : [];
  });
}

/** Members' names by user id, read once per export for the assignees it meets (a few per project). */
async function addUserNames(names: Map<string, string>, userIds: Iterable<string>) {
  const missing = [...new Set(userIds)].filter((id) => !names.has(id));
  const users = await getItems(missing.map(userKey), {
    eventual: true,
    projection: { expression: 'pk, sk, firstName, lastName' },
  });
  for (const [i, id] of missing.entries())
    names.set(id, users[i] ? joined(users[i]?.firstName, users[i]?.lastName) : '');
}

/** Re-batches an ordered stream of number groups into groups of `size`. */
async function* inBatches(source: AsyncIterable<number[]>, size: number): AsyncGenerator<number[]> {
  let batch: number[] = [];
  for await (const group of source) {
    for (const n of group) {
      batch.push(n);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Writes the export of the list `query` names and answers a presigned download of it (5 minutes). The
 * access check (META + the caller's TEAMS) reads the labels and the index counts the order needs in the
 * same BatchGetItem (export-order.ts).
 */
export async function exportIssues(
  userId: string,
  projectId: string,
  query: ExportQuery,
  lang: Lang,
  action: ProjectAction = 'read',
  deadlineMs = EXPORT_DEADLINE_MS,
): Promise<string> {
  const started = nowMs();
  const indexKeys = orderKeys(projectId, query, userId);
  const {
    project,
    items: [labelsItem, stats, user, ...indexItems],
  } = await readProjectAs(userId, projectId, action, [
    labelsKey(projectId),
    statsKey(projectId),
    userKey(userId),
    ...indexKeys,
  ]);
  const live = liveLabelIds(labelsItem);
  const read = new Map(indexKeys.map((k, i) => [k.sk, indexItems[i]]));
  const order = await exportOrder(projectId, query, userId, project, stats, read, live);
  if (order.bound > exportLimits.maxRows) throw new AppError('EXPORT_TOO_LARGE');

  const customFields = (((project.data as Item | undefined)?.customFields ?? []) as Item[]).map((f) =>
    text(f.name),
  );
  const ctx: RowContext = {
    projectId,
    customFields,
    labelNames: new Map(labelsOf(labelsItem).map((l) => [l.id, l.name])),
    live,
    userNames: new Map(),
    lang,
  };
  const at = new Date(started);
  const key = `${bucketPrefixes.exports}${projectId}/${randomUUID()}.csv`;
  const out = s3ObjectWriter(key, { contentType: 'text/csv; charset=utf-8' });
  await out.write(UTF8_BOM + csvRow(exportColumns(customFields, lang)));

  const reads: Promise<[Item, Item | undefined][]>[] = [];
  const batches = inBatches(order.numbers, EXPORT_BATCH);
  const refill = async () => {
    while (reads.length < READ_AHEAD) {
      const next = await batches.next();
      if (next.done) return;
      const read = readIssues(projectId, next.value);
      read.catch(() => undefined);
      reads.push(read);
    }
  };
  let rows = 0;
  await refill();
  while (reads.length > 0) {
    const issues = (await (reads.shift() as Promise<[Item, Item | undefined][]>)).filter(([h]) =>
      order.keep(h),
    );
    await refill();
    await addUserNames(
      ctx.userNames as Map<string, string>,
      issues.flatMap(([h]) => (typeof h.assignee === 'string' && h.assignee ? [h.assignee] : [])),
    );
    let chunk = '';
    for (const [h, d] of issues) chunk += csvRow(exportRow(h, d, ctx));
    rows += issues.length;
    if (rows > exportLimits.maxRows || nowMs() - started > deadlineMs) throw new AppError('EXPORT_TOO_LARGE');
    await out.write(chunk);
  }
  await out.close();
  // The team's audit log (teams/audit.ts): who took the project's issues out, and how many. Right after
  // the file is written: the export is an S3 object, not a table write that could share a transaction.
  await recordAudit(teamOf(project as { teamId?: unknown }), {
    kind: 'export.csv',
    actor: memberActor(userId, user),
    projectId,
    target: text(project.name),
    detail: { rows, list: order.list },
  });

  const [{ GetObjectCommand }, client] = await Promise.all([s3Sdk(), s3()]);
  const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
  return getSignedUrl(
    client,
    new GetObjectCommand({
      Bucket: bucketName(),
      Key: key,
      ResponseContentType: 'text/csv; charset=utf-8',
      ResponseContentDisposition: contentDisposition(
        'attachment',
        exportFileName(text(project.name), order.list, at),
      ),
      ResponseCacheControl: 'private, no-store',
    }),
    { expiresIn: DOWNLOAD_EXPIRY_SECONDS },
  );
}
