/**
 * Issue review (issue 8; docs/data-model.md 4.7, 4.9): one issue with prev/next (the lists: list.ts; close
 * and restore with the other triage changes: triage.ts; the stored objects: downloads.ts). Access is the
 * policy's (projects/access.ts): another client's project, or a malformed id, is NOT_FOUND.
 */
import { deliveredUrl } from '#contracts/integrations';
import { integrationNames } from '#contracts/messages';
import type { IntegrationStatusFields, IssueAnswer } from '#contracts/review';
import { AppError } from '#runtime/errors';
import { type ProjectAction, readProjectAs } from '../projects/access';
import { issueDetailKey, issueHeaderKey, listOfDeleted, storedIssueOf } from './issue';
import { labelsKey, liveLabelIds } from './labels';
import { queryList } from './list';
import { mergeStateOf } from './merge-state';
import { triageFieldsOf } from './triage-fields';

export { PAGE_SIZE, SEARCH_WINDOW, searchedNumber } from './list';

type Item = Record<string, unknown>;

/** One issue with SPEC.md section 3's fields, and its neighbours by number within its list (4.7). */
export async function getIssue(
  userId: string,
  projectId: string,
  n: number,
  action: ProjectAction = 'read',
): Promise<IssueAnswer> {
  const {
    items: [h, d, labels],
  } = await readProjectAs(userId, projectId, action, [
    issueHeaderKey(projectId, n),
    issueDetailKey(projectId, n),
    labelsKey(projectId),
  ]);
  if (!h || !d) throw new AppError('NOT_FOUND');
  return issueAnswer(projectId, n, h, d, liveLabelIds(labels));
}

/** The answer of GET …/request/{ticketId} (and of a triage PATCH) from the header and detail as read. */
export async function issueAnswer(
  projectId: string,
  n: number,
  h: Item,
  d: Item,
  live: ReadonlySet<string>,
): Promise<IssueAnswer> {
  const list = listOfDeleted(h.deleted);
  const [prev, next, merge] = await Promise.all([
    queryList(projectId, list, { limit: 1, bound: { op: '<', n } }),
    queryList(projectId, list, { limit: 1, forward: true, bound: { op: '>', n } }),
    mergeStateOf(projectId, n, h, d),
  ]);
  const issue = storedIssueOf(n, h, d);
  return {
    number: n,
    prev_number: prev[0] ? Number(prev[0].number) : null,
    next_number: next[0] ? Number(next[0].number) : null,
    date_created: { date: String(h.createdAt) },
    deleted: list === 'resolved' ? 1 : 0,
    total_files: issue.files.length,
    total_screenshots: issue.screenshots.length,
    steps: issue.steps,
    replay: issue.replay,
    sent_at: issue.sentAt,
    filedVia: issue.filedVia ?? null,
    files: issue.files.map((f) => ({
      name: String(f.name),
      original_name: String(f.original_name),
      size: Number(f.size ?? 0),
      type: String(f.type),
    })),
    screenshots: issue.screenshots.map((s) => ({
      name: String(s.name),
      type: s.type,
      html: String(s.html ?? ''),
      size: Number(s.size ?? 0),
    })),
    data: { title: issue.title, msg: issue.msg, ...issue.data },
    ...triageFieldsOf(h, live),
    ...(Object.fromEntries(
      integrationNames.map((name) => [`${name}_status`, issue.st[name]]),
    ) as unknown as IntegrationStatusFields),
    // Why a permanent failure failed (issue 11), for the status table.
    ...Object.fromEntries(Object.entries(issue.reasons).map(([name, reason]) => [`${name}_reason`, reason])),
    // Where the delivery went: the created item's page (integrations/delivery-state.ts writes
    // `url_<name>`), for the status table's link; checked again, so only an http(s) link ever leaves.
    ...Object.fromEntries(
      integrationNames.flatMap((name) => {
        const url = deliveredUrl(issue.urls[name]);
        return url ? [[`${name}_url`, url]] : [];
      }),
    ),
    logs: issue.logs,
    ...merge,
  };
}
