/**
 * The issue screens' pure rules (issue 8): API paths, the list's page and search in the address, the
 * integration rows to show, which attachments can be viewed, and the sandboxed snapshot document. Kept
 * free of React so unit tests cover them directly.
 */

import type { LogEntry } from '../../../functions/shared/intake';
import type { SyncListAnswer } from '../../../functions/shared/integrations';
import { limits, ticketStatus } from '../../../functions/shared/limits';
import type { IssueAnswer, IssueListAnswer } from '../../../functions/shared/review';
import { issueListQuerySchema } from '../../../functions/shared/schemas';
import { endpointPath } from '../api/endpoints';
import { type IntegrationName, integrationNames, paths } from '../routes/paths';

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

/** The list call: the search is trimmed as the server trims it, so equal searches share one cache entry. */
export function listCallOf(projectId: string, resolved: boolean, { page, search }: ListQuery) {
  return {
    params: { id: projectId },
    query: { page, search: search.trim(), resolved: resolved ? '1' : undefined },
  };
}

export const issueListPath = (projectId: string, resolved: boolean, query: ListQuery): string =>
  endpointPath('issues.list', listCallOf(projectId, resolved, query));

/** `GET client/website/{id}/request` answers a page of issues, or with `integration` a sync list (issue 11). */
export const isIssuePage = (answer: IssueListAnswer | SyncListAnswer): answer is IssueListAnswer =>
  Array.isArray(answer.requests);

/** Every list and issue call of a project starts with this (cache invalidation after close/restore). */
export const issuesPrefix = (projectId: string) => endpointPath('issues.list', { params: { id: projectId } });

export const issuePath = (projectId: string, n: number) =>
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

/** SPEC.md section 2: one row per integration, hidden at status 0 (not configured). */
export function integrationRows(
  issue: IssueAnswer,
): { name: IntegrationName; status: StatusName; reason?: string }[] {
  return integrationNames.flatMap((name) => {
    const status = statusNames[issue[`${name}_status`]];
    const reason = status === 'failed' ? issue[`${name}_reason`] : undefined;
    return status ? [{ name, status, ...(reason ? { reason } : {}) }] : [];
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

/**
 * The policy every snapshot runs under, on top of the frame's empty sandbox (no scripts, no same-origin,
 * no forms, no popups): nothing executes, nothing is sent anywhere but style and image fetches.
 */
export const snapshotPolicy = [
  "default-src 'none'",
  "script-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "connect-src 'none'",
  'img-src data: https: http:',
  "style-src 'unsafe-inline' https: http:",
  'font-src data: https: http:',
].join('; ');

/**
 * The snapshot as a srcdoc document. The policy comes first, so the parser puts it in the head before
 * anything of the visitor's page, and a snapshot's own policy can only narrow it further.
 */
export function snapshotDocument(html: string): string {
  return `<meta http-equiv="Content-Security-Policy" content="${snapshotPolicy}"><meta name="referrer" content="no-referrer">${html}`;
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
