/**
 * The stored shape of merging (issue 37; docs/data-model.md 4.19, docs/similar.md "Merging") and the merge
 * state an issue's detail answers (contracts/similar.ts `MergeState`). Read by the detail, the merge writes
 * (merge.ts) and the reporter loop (a duplicate's reporter follows the primary):
 *   header ISSUE#<n10>            `duplicateOf` (N) on a duplicate; `reports` (N, 1 + duplicates) on a
 *                                 primary, absent (read as 1) on an issue nothing was merged into
 *   ISSUE#<primary n10>#DUP#<n10> one item per duplicate, `number` only: the primary's list of duplicates,
 *                                 one Query; no copy of the reporter's address or device (a data request's
 *                                 erasure and the retention delete find everything under the issue itself)
 */
import type { DuplicateReport, MergeState } from '#contracts/similar';
import { isIssueStatus } from '#contracts/triage';
import { getItems, queryAll } from '#runtime/db';
import { projectPartition } from '../projects/project';
import { issueDetailKey, issueHeaderKey, n10 } from './issue';
import { triageFieldsOf } from './triage-fields';

type Item = Record<string, unknown>;

const dupPrefix = (primary: number) => `ISSUE#${n10(primary)}#DUP#`;

export const duplicateKey = (projectId: string, primary: number, duplicate: number) => ({
  pk: projectPartition(projectId),
  sk: `${dupPrefix(primary)}${n10(duplicate)}`,
});

/** The primary a header names, or null for an issue that is not a duplicate. */
export function duplicateOfHeader(h: Item | undefined): number | null {
  const v = h?.duplicateOf;
  return typeof v === 'number' || (typeof v === 'string' && v !== '') ? Number(v) : null;
}

/** The reports a header counts: 1 + the duplicates merged into it. */
export const reportsOfHeader = (h: Item | undefined): number => {
  const v = Number(h?.reports ?? 1);
  return Number.isFinite(v) && v >= 1 ? v : 1;
};

/** The numbers of the duplicates merged into `primary`, lowest first: one Query (≤ 500 small items). */
export async function duplicatesOf(projectId: string, primary: number): Promise<number[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': projectPartition(projectId), ':p': dupPrefix(primary) },
    ProjectionExpression: '#n',
    ExpressionAttributeNames: { '#n': 'number' },
    ConsistentRead: true,
  });
  return items.map((i) => Number(i.number)).filter((n) => Number.isInteger(n) && n > 0);
}

/**
 * A page address as the affected list shows it: scheme, host and path, without the query and fragment
 * (where tokens and personal values live, and which would split one page into many).
 */
export function pageOf(href: unknown): string | undefined {
  if (typeof href !== 'string' || href === '') return undefined;
  try {
    const u = new URL(href);
    return `${u.origin}${u.pathname}`;
  } catch {
    return undefined;
  }
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

function duplicateReport(n: number, h: Item, d: Item | undefined): DuplicateReport {
  const data = (d?.data ?? {}) as Item;
  const status = triageFieldsOf(h).status;
  const out: DuplicateReport = {
    number: n,
    title: String(h.title ?? ''),
    status: isIssueStatus(status) ? status : 'new',
    createdAt: String(h.createdAt ?? ''),
  };
  const fields = {
    reporterEmail: text(data.username),
    browser: text(data.browser),
    os: text(data.os),
    device: text(data.deviceType),
    pageUrl: text(data.href),
  };
  for (const [k, v] of Object.entries(fields)) if (v) Object.assign(out, { [k]: v });
  return out;
}

/** The parts of the detail items the duplicates list shows (the rest, logs and steps, stays unread). */
const listedProjection = {
  expression: 'pk, sk, title, createdAt, #s, deleted, #d.username, #d.browser, #d.os, #d.deviceType, #d.href',
  names: { '#s': 'status', '#d': 'data' },
};

/**
 * The merge state of issue `n` from its header and detail as read: a duplicate names its primary; a primary
 * lists its duplicates (their headers and details in BatchGetItems of 100, only the listed attributes) and
 * the browsers and pages affected, its own first. One Query and ⌈2d/100⌉ reads more for d duplicates.
 */
export async function mergeStateOf(projectId: string, n: number, h: Item, d: Item): Promise<MergeState> {
  const duplicateOf = duplicateOfHeader(h);
  const reports = reportsOfHeader(h);
  const own = (d.data ?? {}) as Item;
  const browsers = new Set<string>();
  const pages = new Set<string>();
  const note = (data: Item) => {
    const b = text(data.browser);
    if (b) browsers.add(b);
    const p = pageOf(data.href);
    if (p) pages.add(p);
  };
  note(own);
  const duplicates: DuplicateReport[] = [];
  if (reports > 1) {
    const numbers = await duplicatesOf(projectId, n);
    const keys = numbers.flatMap((m) => [issueHeaderKey(projectId, m), issueDetailKey(projectId, m)]);
    const read = await getItems(keys, { projection: listedProjection });
    numbers.forEach((m, i) => {
      const dh = read[2 * i];
      const dd = read[2 * i + 1];
      if (!dh) return;
      duplicates.push(duplicateReport(m, dh, dd));
      note((dd?.data ?? {}) as Item);
    });
  }
  return {
    ...(duplicateOf ? { duplicateOf } : {}),
    reports,
    duplicates,
    affected: { browsers: [...browsers], pages: [...pages] },
  };
}

/**
 * The header whose status issue `h`'s reporter follows: its primary's while it is a duplicate (one GetItem
 * more), its own otherwise, or when the primary is gone.
 */
export async function followedHeader(projectId: string, h: Item): Promise<Item> {
  const primary = duplicateOfHeader(h);
  if (!primary) return h;
  const [p] = await getItems([issueHeaderKey(projectId, primary)]);
  return p ?? h;
}
