/**
 * The issue entity (docs/data-model.md 4.5, 4.6): every item an issue writes lives in its project's
 * partition PROJECT#<pid>, and this module owns their keys.
 *   ISSUE#<n10>            header (list row), in gsi1 under PROJECT#<pid>#OPEN|RESOLVED by number
 *   ISSUE#<n10>#DETAIL     everything else (description, device data, files, statuses)
 *   STATS                  open_<b6> / resolved_<b6>: issues per block of 1,024 numbers
 *   BLOCK#<b6>             openOffsets / resolvedOffsets: number sets of (n-1) mod 1024
 *   SYNC#<name>#<n10>      marker while an integration's status is new (0) or failed (3)
 *   UPLOAD#<uuid>          single-use guard of an upload key, with a TTL past the pending objects' expiry
 *   RESOLVEDAT#<n10>       while the issue is in the resolved list: in gsi1 under PROJECT#<pid>#RESOLVEDAT by
 *                          `<resolvedAt>#<n10>`, so retention finds the issues resolved before a day without
 *                          reading the others (docs/retention.md)
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeviceData, LogEntry, ScreenshotType, Step } from '#contracts/intake';
import { type IntegrationName, integrationNames } from '#contracts/integration-names';
import type { IssueReplayAnswer } from '#contracts/review';
import type { Actor, FiledVia } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { isConditionFailure, retryConflicts, tableName, type transactWrite } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { projectKey, projectPartition, type WriteGuard } from '../projects/project';

export const BLOCK_SIZE = 1024;

export const n10 = (n: number) => String(n).padStart(10, '0');
export const blockOf = (n: number) => ({ b: Math.floor((n - 1) / BLOCK_SIZE), off: (n - 1) % BLOCK_SIZE });
const b6 = (b: number) => String(b).padStart(6, '0');

const partition = projectPartition;
export const issueHeaderKey = (projectId: string, n: number) => ({
  pk: partition(projectId),
  sk: `ISSUE#${n10(n)}`,
});
/** An issue's header among the items of its project's partition (`ISSUE#<n10>`, not its detail or the items under it). */
export const isIssueHeader = (item: { sk?: unknown }) => /^ISSUE#\d{10}$/.test(String(item.sk));
export const issueDetailKey = (projectId: string, n: number) => ({
  pk: partition(projectId),
  sk: `ISSUE#${n10(n)}#DETAIL`,
});
export const statsKey = (projectId: string) => ({ pk: partition(projectId), sk: 'STATS' });
export const blockKey = (projectId: string, b: number) => ({
  pk: partition(projectId),
  sk: `BLOCK#${b6(b)}`,
});
export const syncKey = (projectId: string, name: IntegrationName, n: number) => ({
  pk: partition(projectId),
  sk: `SYNC#${name}#${n10(n)}`,
});
export const uploadGuardKey = (projectId: string, uploadId: string) => ({
  pk: partition(projectId),
  sk: `UPLOAD#${uploadId}`,
});
/** The retention index's entry of issue `n` (docs/retention.md): present while it is resolved. */
export const resolvedAtKey = (projectId: string, n: number) => ({
  pk: partition(projectId),
  sk: `RESOLVEDAT#${n10(n)}`,
});
/** The retention index's gsi1 partition: one project's resolved issues by the time they were resolved. */
export const resolvedAtPartition = (projectId: string) => `PROJECT#${projectId}#RESOLVEDAT`;
export const resolvedAtSortKey = (resolvedAt: string, n: number) => `${resolvedAt}#${n10(n)}`;

/** The Put of issue `n`'s retention index entry, resolved at `resolvedAt` (ISO); `purging` while its deletion runs. */
export function resolvedAtPut(
  projectId: string,
  n: number,
  resolvedAt: string,
  extra: { purging?: true } = {},
) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...resolvedAtKey(projectId, n),
        gsi1pk: resolvedAtPartition(projectId),
        gsi1sk: resolvedAtSortKey(resolvedAt, n),
        number: n,
        resolvedAt,
        ...extra,
      },
    },
  };
}

/** Per-block counters of STATS: top-level numbers, so the first ADD creates them (4.5). */
export const statsAttribute = (list: 'open' | 'resolved', b: number) => `${list}_${b6(b)}`;
/** The list a header is in, as its gsi1 partition. */
export const listPartition = (projectId: string, list: 'OPEN' | 'RESOLVED') => `PROJECT#${projectId}#${list}`;

/**
 * The next issue number of an active project and its first place in the `updated` order (4.13):
 * `ADD seq :1, useq :1` on META, one request. NOT_FOUND when the project is gone or switched off. A create
 * that fails later leaves a harmless gap (D13).
 */
export async function allocateIssue(projectId: string): Promise<{ number: number; u: number }> {
  try {
    const out = await retryConflicts(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: projectKey(projectId),
          UpdateExpression: 'ADD seq :one, useq :one',
          ConditionExpression: 'attribute_exists(pk) AND active = :one',
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    return { number: Number(out.Attributes?.seq), u: Number(out.Attributes?.useq) };
  } catch (err) {
    if (isConditionFailure(err)) throw new AppError('NOT_FOUND');
    throw err;
  }
}

/** The next issue number (`allocateIssue` without its `u`: createIssue then reads one itself). */
export async function allocateNumber(projectId: string): Promise<number> {
  return (await allocateIssue(projectId)).number;
}

export interface IssueFile {
  name: string;
  original_name: string;
  size: number;
  type: string;
}

export interface IssueScreenshot {
  name: string;
  type: ScreenshotType;
  /** Final name of the page snapshot taken with it; empty without one. */
  html: string;
  size: number;
}

/** An issue's session replay as stored: the object's final name, its size and what it covers (docs/replay.md). */
export type IssueReplay = IssueReplayAnswer;

export interface NewIssue {
  projectId: string;
  /** The project's team (`teamOf(META)`): its TEAM counts the storage quota (issue 22). */
  teamId: string;
  number: number;
  createdAt: string;
  title: string;
  msg: string;
  /** SPEC.md section 3 `data`: the reporter, the page and the device. */
  data: DeviceData & { username: string; href: string; customFields: { name: string; value: string }[] };
  files: IssueFile[];
  screenshots: IssueScreenshot[];
  logs: LogEntry[];
  /** The visitor's last actions, oldest first. */
  steps: Step[];
  replay: IssueReplay | null;
  /** When the visitor sent it, on their clock (the steps' and logs' clock); absent from older widgets. */
  sentAt?: number;
  /** Per-integration status; 0 (new) writes the integration's sync marker too (4.8). The intake writes 0 for all. */
  st: Record<IntegrationName, number>;
  /** Sum of the stored objects' sizes. */
  bytes: number;
  /** Upload ids used, each guarded once. */
  uploadIds: string[];
  /** Its place in the `updated` order (`allocateIssue`); createIssue allocates one when absent. */
  u?: number;
  /**
   * Who filed it, for its `created` activity (issue 34): the member through the browser extension, or an
   * API token; absent for the widget's visitor (the unnamed reporter).
   */
  actor?: Actor;
  /** How it came in when not through the widget (issue 34), kept on the detail for the issue page. */
  filedVia?: FiledVia;
}

/**
 * The quota condition on the team's `storageBytes` for `bytes` more, or 'exceeded' when they cannot fit
 * even in an empty account. `quota` null is unlimited: usage is still counted, with no ceiling.
 */
export function quotaCondition(
  quota: number | null,
  bytes: number,
): { expression: string; values: Record<string, number> } | 'exceeded' {
  if (quota === null) return { expression: 'attribute_exists(pk)', values: {} };
  if (bytes > quota) return 'exceeded';
  return {
    expression: 'attribute_exists(pk) AND (attribute_not_exists(storageBytes) OR storageBytes <= :room)',
    values: { ':room': quota - bytes },
  };
}

/** The most of the search text a header carries, so 200 headers stay under one 1 MB Query page (4.7). */
export const SEARCH_TEXT_MAX = 3300;

/**
 * The header's search text `q` (4.7, issue 19): lowercase title, reporter email, page address, custom field
 * values and description, one per line. The short fields come first, each bounded, so a long description
 * cannot push them out of the cap. The number is not in it: a number search reads the header directly.
 */
export function searchText(issue: Pick<NewIssue, 'title' | 'msg' | 'data'>): string {
  const { username, href, customFields } = issue.data;
  return [
    issue.title,
    username,
    href?.slice(0, 300),
    ...(customFields ?? []).map((f) => f.value.slice(0, 200)),
    issue.msg,
  ]
    .filter(Boolean)
    .join('\n')
    .toLowerCase()
    .slice(0, SEARCH_TEXT_MAX);
}

/**
 * Writes a new issue in one transaction (4.6): header, detail, the project's counters, STATS, BLOCK, the
 * team's storage (quota as a condition), sync markers and the upload guards. Refusals: a used upload →
 * INVALID_UPLOAD; the quota → QUOTA_EXCEEDED; the project gone → NOT_FOUND.
 */
/**
 * The two items of a new open issue: the header (the indexed list row) and the detail. The one place their
 * shape is written; the create transaction and the tests' bulk seed both use it.
 */
export function newIssueItems(issue: NewIssue) {
  const { projectId: pid, number: n } = issue;
  const header = {
    ...issueHeaderKey(pid, n),
    gsi1pk: listPartition(pid, 'OPEN'),
    gsi1sk: n10(n),
    number: n,
    deleted: 0,
    createdAt: issue.createdAt,
    title: issue.title,
    preview: issue.msg.slice(0, 200),
    q: searchText(issue),
    totalFiles: issue.files.length,
    totalScreenshots: issue.screenshots.length,
    // Triage (4.13): a report starts new, without priority, assignee, labels or due date.
    status: 'new',
    priority: 'none',
    labels: [],
    updatedAt: issue.createdAt,
    ...(issue.u !== undefined ? { u: issue.u } : {}),
  };
  const detail = {
    ...issueDetailKey(pid, n),
    number: n,
    msg: issue.msg,
    data: issue.data,
    files: issue.files,
    screenshots: issue.screenshots,
    logs: issue.logs,
    steps: issue.steps,
    ...(issue.replay ? { replay: issue.replay } : {}),
    ...(issue.sentAt !== undefined ? { sentAt: issue.sentAt } : {}),
    ...(issue.filedVia ? { filedVia: issue.filedVia } : {}),
    st: issue.st,
    bytes: issue.bytes,
  };
  return { header, detail };
}

type Item = Record<string, unknown>;

/** What every reader names an issue by: its number, title and date (mails, deliveries, sync markers). */
export interface IssueHead {
  number: number;
  title: string;
  createdAt: string;
}

/**
 * An issue as read back from its two items: the inverse of `newIssueItems`, with what the deliveries wrote
 * on the detail since (each integration's status, a permanent failure's reason, the created item's
 * address as stored). Items written by older versions may lack fields: the data's are optional, the lists
 * empty, the statuses 0.
 */
export interface StoredIssue extends IssueHead {
  msg: string;
  data: Partial<NewIssue['data']>;
  files: IssueFile[];
  screenshots: IssueScreenshot[];
  logs: LogEntry[];
  steps: Step[];
  replay: IssueReplay | null;
  /** When the visitor sent it, on the steps' clock; null for reports of older widgets. */
  sentAt: number | null;
  /** How it came in (issue 34); null or absent for the widget's reports. */
  filedVia?: FiledVia | null;
  st: Record<IntegrationName, number>;
  reasons: Partial<Record<IntegrationName, string>>;
  /** As written (`url_<name>`); a reader shows it only through `deliveredUrl`. */
  urls: Partial<Record<IntegrationName, unknown>>;
}

/** The head of issue `n` from its header item. */
export const issueHeadOf = (n: number, header: Item): IssueHead => ({
  number: n,
  title: String(header.title ?? ''),
  createdAt: String(header.createdAt ?? ''),
});

/** Integration `name`'s delivery status on an issue's detail: 0 new (or never written), 1 sending, 2 passed, 3 failed. */
export const deliveryStatusOf = (detail: Item, name: IntegrationName): number =>
  Number(((detail.st ?? {}) as Item)[name] ?? 0);

/** Issue `n` from its header and detail items (the one place their shape is read). */
export function storedIssueOf(n: number, header: Item, detail: Item): StoredIssue {
  const issue: StoredIssue = {
    ...issueHeadOf(n, header),
    msg: String(detail.msg ?? ''),
    data: (detail.data ?? {}) as StoredIssue['data'],
    files: (detail.files ?? []) as IssueFile[],
    screenshots: (detail.screenshots ?? []) as IssueScreenshot[],
    logs: (detail.logs ?? []) as LogEntry[],
    steps: (detail.steps ?? []) as Step[],
    replay: (detail.replay ?? null) as IssueReplay | null,
    sentAt: typeof detail.sentAt === 'number' ? detail.sentAt : null,
    ...(detail.filedVia ? { filedVia: detail.filedVia as FiledVia } : {}),
    st: {} as StoredIssue['st'],
    reasons: {},
    urls: {},
  };
  for (const name of integrationNames) {
    issue.st[name] = deliveryStatusOf(detail, name);
    const reason = detail[`reason_${name}`];
    if (typeof reason === 'string') issue.reasons[name] = reason;
    const url = detail[`url_${name}`];
    if (url !== undefined) issue.urls[name] = url;
  }
  return issue;
}

/** The two lists an issue can be in (4.5); `deleted` 1 is the resolved list. */
export type IssueList = 'open' | 'resolved';
export const listOfDeleted = (deleted: unknown): IssueList => (Number(deleted) === 1 ? 'resolved' : 'open');
export const listName = (list: IssueList) => (list === 'open' ? 'OPEN' : 'RESOLVED');
export const offsetsAttribute = (list: IssueList) => (list === 'open' ? 'openOffsets' : 'resolvedOffsets');

/** The block numbers and counts of one list in a STATS item (`open_000003: 17` → [3, 17]), newest block first. */
export function blockCounts(stats: Record<string, unknown>, list: IssueList): [number, number][] {
  const prefix = `${list}_`;
  return Object.entries(stats)
    .filter(([k]) => k.startsWith(prefix) && /^\d{6}$/.test(k.slice(prefix.length)))
    .map(([k, v]): [number, number] => [Number(k.slice(prefix.length)), Number(v)])
    .sort((a, b) => b[0] - a[0]);
}

/**
 * The list half of moving issue `n` from one list to the other (4.6): META's counters (with the caller's
 * guard), STATS and BLOCK, and the retention index's entry (resolved at `at`). The header's own change (`deleted`, `gsi1pk`, `resolvedAt`) is the caller's, in
 * the same transaction (issues/triage.ts, with the facet index's actions), so the counters cannot drift.
 */
export function listMoveActions(
  projectId: string,
  n: number,
  to: IssueList,
  at: string,
  guard?: WriteGuard,
): Parameters<typeof transactWrite>[0] {
  const from: IssueList = to === 'open' ? 'resolved' : 'open';
  const { b, off } = blockOf(n);
  const T = tableName();
  return [
    {
      Update: {
        TableName: T,
        Key: projectKey(projectId),
        UpdateExpression: 'ADD #from :minus, #to :one',
        // With the caller's guard (projects/access.ts accessGuard): the project still in their team.
        ConditionExpression: guard ? `attribute_exists(pk) AND ${guard.expression}` : 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#from': `${from}Count`, '#to': `${to}Count` },
        ExpressionAttributeValues: { ':minus': -1, ':one': 1, ...guard?.values },
      },
    },
    {
      Update: {
        TableName: T,
        Key: statsKey(projectId),
        UpdateExpression: 'ADD #from :minus, #to :one',
        ExpressionAttributeNames: { '#from': statsAttribute(from, b), '#to': statsAttribute(to, b) },
        ExpressionAttributeValues: { ':minus': -1, ':one': 1 },
      },
    },
    {
      Update: {
        TableName: T,
        Key: blockKey(projectId, b),
        UpdateExpression: 'DELETE #from :off ADD #to :off',
        ExpressionAttributeNames: { '#from': offsetsAttribute(from), '#to': offsetsAttribute(to) },
        ExpressionAttributeValues: { ':off': new Set([off]) },
      },
    },
    // The retention index moves with the list, so it holds exactly the resolved issues and their time.
    to === 'resolved'
      ? resolvedAtPut(projectId, n, at)
      : { Delete: { TableName: T, Key: resolvedAtKey(projectId, n) } },
  ];
}
