/**
 * The issue screens' pure rules (issue 8): API paths, the list's page and search in the address, the
 * integration rows to show, which attachments can be viewed, and the sandboxed snapshot document. Kept
 * free of React so unit tests cover them directly.
 */

import type { LogEntry } from '#contracts/intake';
import { deliveryLinkOf } from '#contracts/integration-catalogue';
import { deliveredUrl, type SyncListAnswer } from '#contracts/integrations';
import { limits, ticketStatus } from '#contracts/limits';
import type { IssueAnswer, IssueListAnswer, SnapshotView } from '#contracts/review';
import { issueListQuerySchema } from '#contracts/schemas';
import { endpointPath } from '../api/endpoints';
import { type IntegrationName, integrationNames, paths } from '../paths';
import type { FilterQuery } from './filters';

const enc = encodeURIComponent;

export interface ListQuery {
  page: number;
  /** Empty when not searching. */
  search: string;
}

/**
 * The page and search an address asks for; anything malformed, or a page the API would refuse
 * (issueListQuerySchema), reads as page 1 without a search. Digits only: the schema coerces, so "1e3" would
 * otherwise pass as 1000.
 */
export function listQueryOf(params: URLSearchParams): ListQuery {
  const raw = params.get('page') ?? '';
  const parsed = issueListQuerySchema.shape.page.safeParse(raw);
  const page = /^[0-9]+$/.test(raw) && parsed.success ? parsed.data : 1;
  const search = (params.get('search') ?? '').slice(0, limits.issueSearchMax);
  return { page, search };
}

/** The address query for a list state; defaults are left out so the plain list has a plain address. */
export function listSearchParams({ page, search }: ListQuery): URLSearchParams {
  const params = new URLSearchParams();
  const term = search.trim();
  if (term) params.set('search', term);
  if (page > 1) params.set('page', String(page));
  return params;
}

/**
 * The list call: the search is trimmed as the server trims it, so equal searches share one cache entry;
 * `filters` are the view's triage filters as query values (`filterQuery` of ./filters.ts).
 */
export function listCallOf(
  projectId: string,
  resolved: boolean,
  { page, search }: ListQuery,
  filters: FilterQuery = {},
) {
  return {
    params: { id: projectId },
    query: { page, search: search.trim(), resolved: resolved ? '1' : undefined, ...filters },
  };
}

export const issueListPath = (
  projectId: string,
  resolved: boolean,
  query: ListQuery,
  filters: FilterQuery = {},
): string => endpointPath('issues.list', listCallOf(projectId, resolved, query, filters));

/**
 * The CSV export of a view (GET …/requests.csv): the list's search, filters, sort and grouping of duplicates
 * (`collapse`), every page, so the file holds the rows in the order the list shows them. A plain
 * address, so a link downloads it with the session cookie (the API answers with a short-lived file address).
 */
export function csvExportPath(
  projectId: string,
  resolved: boolean,
  search: string,
  filters: FilterQuery = {},
) {
  const query = new URLSearchParams();
  if (search.trim()) query.set('search', search.trim());
  if (resolved) query.set('resolved', '1');
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  const q = query.toString();
  return `/api/client/website/${enc(projectId)}/requests.csv${q ? `?${q}` : ''}`;
}

/** `GET client/website/{id}/request` answers a page of issues, or with `integration` a sync list (issue 11). */
export const isIssuePage = (answer: IssueListAnswer | SyncListAnswer): answer is IssueListAnswer =>
  Array.isArray(answer.requests);

/** Every list and issue call of a project starts with this (cache invalidation after close/restore). */
export const issuesPrefix = (projectId: string | number) =>
  endpointPath('issues.list', { params: { id: projectId } });

export const issuePath = (projectId: string | number, n: string | number) =>
  endpointPath('issues.get', { params: { id: projectId, ticketId: n } });

export const pageCount = (total: number) => Math.max(1, Math.ceil(total / limits.issuesPerPage));

/** The list screen an issue belongs to, for "back" when the user did not come from a list. */
export const listPathOf = (projectId: string, deleted: 0 | 1) =>
  deleted ? paths.resolved(projectId) : paths.site(projectId);

/**
 * A download through the API (which checks ownership and redirects to a short-lived S3 address): the
 * browser's own request carries the session, so <img>, <video> and links can use it directly.
 */
export function downloadUrl(
  kind: 'file' | 'screenshot',
  projectId: string,
  name: string,
  download = false,
): string {
  return `/api/client/download/${kind}/${enc(projectId)}/${enc(name)}${download ? '?download=1' : ''}`;
}

export type StatusName = 'inProgress' | 'passed' | 'failed';

const statusNames: Record<number, StatusName> = {
  [ticketStatus.inProgress]: 'inProgress',
  [ticketStatus.passed]: 'passed',
  [ticketStatus.failed]: 'failed',
};

/**
 * SPEC.md section 2: one row per integration, hidden at status 0 (not configured), with the link to the
 * item the delivery created (tracker issue, task, Slack message) when the answer has one: http(s) only,
 * checked here as well, since the address came from a vendor.
 */
export function integrationRows(
  issue: IssueAnswer,
): { name: IntegrationName; status: StatusName | 'posted'; reason?: string; url?: string }[] {
  return integrationNames.flatMap((name) => {
    const delivered = statusNames[issue[`${name}_status`]];
    // A destination that answers no id (the catalogue's `deliveryLink: 'none'`, a Teams Workflows
    // webhook's 202) was posted to: there is nothing to open, so the row says so instead of "Delivered".
    const status =
      delivered === 'passed' && deliveryLinkOf(name) === 'none' ? ('posted' as const) : delivered;
    const reason = status === 'failed' ? issue[`${name}_reason`] : undefined;
    const url = status === 'posted' ? undefined : deliveredUrl(issue[`${name}_url`]);
    return status ? [{ name, status, ...(reason ? { reason } : {}), ...(url ? { url } : {}) }] : [];
  });
}

/**
 * How an attachment can be viewed in the dashboard: images in the viewer, text as text (never rendered:
 * an HTML file shows its source). Anything else is download only.
 */
export function viewerFor(type: string): 'image' | 'text' | null {
  if (['image/png', 'image/jpeg', 'image/gif', 'image/webp'].includes(type)) return 'image';
  if (['text/plain', 'text/csv', 'application/json', 'text/html'].includes(type)) return 'text';
  return null;
}

/** The snapshot call (issue 19): a viewable copy on the uploads bucket's origin, and where the visitor was. */
export const snapshotPath = (projectId: string, name: string) =>
  endpointPath('issues.snapshot', { params: { siteId: projectId, name } });

/**
 * The snapshot frame's size and scale: the visitor's window (so the page lays out as it did for them),
 * scaled down to fit the space there is, never up. A snapshot without the widget's record fills the space.
 */
export function snapshotFrameBox(
  view: SnapshotView | null,
  space: { width: number; height: number },
): { width: number; height: number; scale: number } {
  if (!view) return { width: Math.floor(space.width), height: Math.floor(space.height), scale: 1 };
  const scale = Math.min(1, space.width / view.width, space.height / view.height);
  return { width: view.width, height: view.height, scale: scale > 0 ? scale : 1 };
}

/** Key presses the shortcuts ignore: typing in a field, or a press with a modifier (browser shortcuts). */
export function isShortcutIgnored(event: {
  target: EventTarget | null;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}): boolean {
  if (event.altKey || event.ctrlKey || event.metaKey) return true;
  const el = event.target as { tagName?: string; isContentEditable?: boolean } | null;
  if (!el) return false;
  return el.isContentEditable === true || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName ?? '');
}

/** 1536 → "1.5 KB": sizes in the attachment list. */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

/** A log entry's time of day in the user's locale, with seconds (entries are seconds apart). */
export const logTime = (entry: LogEntry, locale: string) =>
  new Date(entry.t).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Created dates in the user's locale. */
export const formatDate = (iso: string, locale: string) =>
  new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The description preview under a row's title. A report without its own title is titled with the
 * description's first line, so that line is not repeated.
 */
export function previewAfterTitle(title: string, preview: string): string {
  const rest = preview.startsWith(title) ? preview.slice(title.length) : preview;
  return rest.trim();
}

/**
 * The history state an issue screen is opened with: the list it was opened from (for "back"), and after a
 * Resolve or Reopen the issue that just moved, so the next screen offers Undo (issue 19).
 */
export interface FromList {
  from: string;
  undo?: UndoState;
}

export interface UndoState {
  number: number;
  /** The state the issue is in now: true when it was just resolved (Undo reopens it). */
  resolved: boolean;
}

/** The list (or board) the user came from when it is one of this project's, else the issue's own list. */
export function backTarget(state: unknown, projectId: string, deleted: 0 | 1): string {
  const from = (state as Partial<FromList> | null)?.from;
  const lists = [paths.site(projectId), paths.resolved(projectId), paths.board(projectId)];
  if (typeof from === 'string' && lists.some((l) => from === l || from.startsWith(`${l}?`))) return from;
  return listPathOf(projectId, deleted);
}

export function undoOf(state: unknown): UndoState | null {
  const undo = (state as Partial<FromList> | null)?.undo;
  return undo && typeof undo.number === 'number' && typeof undo.resolved === 'boolean' ? undo : null;
}

/**
 * Previous and Next in the list's own order (issue 19). Lists show the newest first, so Next is the issue
 * below (the next lower number, the API's `prev_number`) and Previous the one above (`next_number`).
 */
export function listNeighbours(issue: Pick<IssueAnswer, 'prev_number' | 'next_number'>): {
  previous: number | null;
  next: number | null;
} {
  return { previous: issue.next_number, next: issue.prev_number };
}

/**
 * Where the screen goes once an issue has left its list (Resolve, or Reopen on the resolved list): the next
 * issue of the list, else the previous one, else the list itself (null). Working down a list is then one
 * key per issue.
 */
export function afterLeaving(issue: Pick<IssueAnswer, 'prev_number' | 'next_number'>): number | null {
  const { previous, next } = listNeighbours(issue);
  return next ?? previous;
}

/**
 * A heading's one line: a visitor without a title of their own is titled with the description's first
 * line, up to 200 characters, so the heading shows its first line only, cut at a word near `max`.
 */
export function oneLineTitle(title: string, max = 72): string {
  const line = (title.split(/\r?\n/)[0] ?? '').replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
