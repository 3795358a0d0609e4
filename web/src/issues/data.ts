/**
 * The issues feature's data (issues 19, 23): the lists, one issue, its timeline with comments, the project's
 * labels, the team's people, and every issue write, the board's too. The only module of issues/ and board/
 * that calls the API; `staleReads` says which cached reads each write leaves stale (web/src/api/swr.ts
 * applies it).
 */
import { useEffect, useMemo } from 'react';
import useSWRInfinite from 'swr/infinite';
import type { IssueListAnswer, IssueStateAnswer } from '#contracts/review';
import type { MergeAnswer, SimilarAnswer } from '#contracts/similar';
import type {
  BulkPatch,
  CommentVisibility,
  IssuePatch,
  IssueStatus,
  Label,
  TimelineEntry,
  TimelinePage,
} from '#contracts/triage';
import { api } from '../api';
import { type BodyOf, type CallInput, endpointPath, type ParamsOf } from '../api/endpoints';
import { pagedReloads, type Stale, type StaleReads, useEndpoint, writer } from '../api/swr';
import { paths } from '../paths';
import { toDashboardIfMissing } from '../projects/data';
import { projectPath, projectsPath } from '../projects/model';
import { useTeam } from '../teams/data';
import type { TeamPerson } from './detail-model';
import type { FilterQuery } from './filters';
import { isIssuePage, issuePath, issuesPrefix, type ListQuery, listCallOf } from './model';
import { assignableMembers } from './triage-model';

const labelsPath = (projectId: string | number) =>
  endpointPath('issues.listLabels', { params: { id: projectId } });
/** The timeline's first page: the address its paged read registers its reload under. */
const timelinePath = (projectId: string | number, n: string | number) =>
  endpointPath('issues.activity', { params: { id: projectId, ticketId: n } });
/** Every cached list and issue of the project (a paged timeline is not among them, SWR's filters skip it). */
const issueReads = (projectId: string | number) => (key: string) => key.startsWith(issuesPrefix(projectId));

/**
 * What each write leaves stale. A change of an issue's state leaves stale the issue, its timeline, the
 * project's lists and the counts on the project and sidebar; its callers differ in when each is fetched
 * (docs/decisions-web.md, "Issues' data module"), so the entry has one variant per kind of caller:
 * - `onScreen` (the detail's triage fields): the issue and timeline on screen reload before "saved" shows,
 *   the lists (not shown, their rows kept) and the counts afterwards. Reloaded rather than taken from the
 *   answer: the detail answer also carries the list neighbours.
 * - `moved` (closing or restoring once the screen has moved on, and the board's move, which shows the card
 *   in its new column itself): every list and issue is emptied, rows having moved between lists and
 *   neighbours changed, and only the ones on screen fetch again, without waiting; emptied only after
 *   leaving, so the issue screen does not blank out while it is still shown.
 */
const setStateVariants = {
  onScreen: ({ id, ticketId }: SetStateParams): Stale => ({
    reload: [issuePath(id, ticketId), timelinePath(id, ticketId)],
    later: [(key) => issueReads(id)(key) && key !== issuePath(id, ticketId), projectPath(id), projectsPath],
  }),
  moved: ({ id, ticketId }: SetStateParams): Stale => ({
    forget: [issueReads(id)],
    later: [issueReads(id), timelinePath(id, ticketId), projectPath(id), projectsPath],
  }),
};
type SetStateParams = ParamsOf<'issues.setState'>;
type SetStateCaller = keyof typeof setStateVariants;

const staleReads: StaleReads = {
  'issues.setState': (params, _answer, as) => setStateVariants[as as SetStateCaller](params),
  // Rows change, and closing moves them to the other list.
  'issues.bulkUpdate': ({ id }) => ({
    forget: [issueReads(id)],
    later: [issueReads(id), projectPath(id), projectsPath],
  }),
  'issues.createLabel': ({ id }) => ({ reload: [labelsPath(id)] }),
  'issues.updateLabel': ({ id }) => ({ reload: [labelsPath(id)] }),
  // A deleted label leaves every issue at once (the server drops it from answers).
  'issues.deleteLabel': ({ id }) => ({ reload: [labelsPath(id), issueReads(id)] }),
  // Issue 37: both issues change (the duplicate's banner, the primary's reports and timeline), and the
  // lists' counts; the issue on screen reloads before the notice shows.
  'issues.merge': ({ id, ticketId }, answer) => mergeStale(id, ticketId, answer),
  'issues.unmerge': ({ id, ticketId }, answer) => mergeStale(id, ticketId, answer),
  'issues.addComment': ({ id, ticketId }) => ({ reload: [timelinePath(id, ticketId)] }),
  'issues.editComment': ({ id, ticketId }) => ({ reload: [timelinePath(id, ticketId)] }),
  'issues.deleteComment': ({ id, ticketId }) => ({ reload: [timelinePath(id, ticketId)] }),
};
const write = writer(staleReads);

function mergeStale(id: string | number, ticketId: string | number, answer: MergeAnswer): Stale {
  const other = answer.primary.number;
  // Either issue may be the one on screen: a duplicate merged from its own page, or gathered from the
  // primary's ("Merge #3 into this issue"); both reload before the notice shows.
  return {
    reload: [
      issuePath(id, ticketId),
      timelinePath(id, ticketId),
      issuePath(id, other),
      timelinePath(id, other),
    ],
    later: [issueReads(id)],
  };
}

/**
 * One page of a list. The previous page stays on screen while the next loads (no flash of "loading"
 * between pages). A project that is gone or not the caller's goes to the dashboard; any other failure
 * to login (SPEC.md section 2).
 */
export function useIssueList(
  projectId: string | undefined,
  resolved: boolean,
  query: ListQuery,
  filters: FilterQuery = {},
) {
  const { data, isValidating } = useEndpoint(
    'issues.list',
    projectId ? listCallOf(projectId, resolved, query, filters) : null,
    { redirect: toDashboardIfMissing, keepPreviousData: true },
  );
  // The same route answers the sync lists when asked with `integration` (issue 11); this call never does.
  return { data: data && isIssuePage(data) ? data : undefined, isValidating };
}

/**
 * One page of one board column (the list endpoint with `status=`). Not an SWR read: the board keeps its
 * columns in a reducer, since a move changes two columns at once and must be undone exactly.
 */
export function loadBoardColumn(
  projectId: string,
  query: CallInput<'issues.list'>['query'],
): Promise<IssueListAnswer> {
  return api.load<IssueListAnswer>(endpointPath('issues.list', { params: { id: projectId }, query }));
}

/**
 * How often an open issue reloads while its page is visible (and on focus, SWR's default): a teammate's
 * triage change shows within seconds, so nobody edits a stale copy for long (decision Tr-C14).
 */
export const issueRefreshMs = 5000;

/** One issue. A failed load goes back to the site's issue list (SPEC.md section 2); no session, to login. */
export function useIssue(projectId: string | undefined, n: number | null) {
  return useEndpoint('issues.get', projectId && n ? { params: { id: projectId, ticketId: n } } : null, {
    redirect: (error) => (error.unauthorized || !projectId ? '/login' : paths.site(projectId)),
    refreshInterval: issueRefreshMs,
  });
}

/** How often an issue whose similar reports are still being computed asks again (ready: false). */
export const similarRefreshMs = 3000;

/**
 * Issue n's similar reports (docs/similar.md, contracts/similar.ts): up to five open issues, best first.
 * While the report is still being compared (`ready` false) it asks again every few seconds, then stops. A
 * failure goes nowhere: the issue page stays usable without suggestions.
 */
export function useSimilar(projectId: string | undefined, n: number | null) {
  return useEndpoint('issues.similar', projectId && n ? { params: { id: projectId, ticketId: n } } : null, {
    redirect: () => null,
    refreshInterval: (latest) =>
      (latest as SimilarAnswer | undefined)?.ready === false ? similarRefreshMs : 0,
  });
}

/** The same, once (for a caller that does not keep it in the cache). */
export function fetchSimilar(projectId: string, n: number): Promise<SimilarAnswer> {
  return api.call('issues.similar', { params: { id: projectId, ticketId: n } });
}

/** A change of one issue's state, by a caller that names its variant of the table's entry. */
function writeState(
  projectId: string,
  n: number,
  body: BodyOf<'issues.setState'>,
  caller: SetStateCaller,
  answered?: (answer: IssueStateAnswer) => void,
): Promise<unknown> {
  return write('issues.setState', { params: { id: projectId, ticketId: n }, body }, caller, answered);
}

/** Closes (`restore` false) or restores an issue, then calls `leave` (the screen goes back to its list). */
export async function setIssueState(
  projectId: string,
  n: number,
  restore: boolean,
  leave: (answer: IssueStateAnswer) => void,
): Promise<void> {
  await writeState(projectId, n, { restore }, 'moved', leave);
}

/** Sets triage fields of the issue on screen. */
export async function patchIssue(projectId: string, n: number, body: IssuePatch): Promise<void> {
  await writeState(projectId, n, body, 'onScreen');
}

/** The board's move of a card to another column; resolves once the server has taken it. */
export async function moveIssue(projectId: string, n: number, status: IssueStatus): Promise<void> {
  await writeState(projectId, n, { status }, 'moved');
}

/** PATCH …/requests: one change to the selected issues; answers the numbers it updated. */
export async function bulkUpdate(projectId: string, body: BulkPatch): Promise<number[]> {
  const { updated } = await write('issues.bulkUpdate', { params: { id: projectId }, body });
  return updated;
}

/**
 * The project's labels, undefined until loaded (the detail waits for them, so its panel never says "no
 * labels" for a moment; the list's and the board's `useLabels` in triage-hooks.ts sort them and answer []
 * meanwhile). A failed load leaves the labels empty and goes nowhere.
 */
export function useProjectLabels(projectId: string | undefined) {
  const { data, error } = useEndpoint('issues.listLabels', projectId ? { params: { id: projectId } } : null, {
    redirect: () => null,
  });
  return error ? [] : data?.labels;
}

export async function createLabel(projectId: string, label: Omit<Label, 'id'>): Promise<Label> {
  return (await write('issues.createLabel', { params: { id: projectId }, body: label })).label;
}

export async function updateLabel(
  projectId: string,
  labelId: string,
  change: Partial<Omit<Label, 'id'>>,
): Promise<void> {
  await write('issues.updateLabel', { params: { id: projectId, labelId }, body: change });
}

export async function deleteLabel(projectId: string, labelId: string): Promise<void> {
  await write('issues.deleteLabel', { params: { id: projectId, labelId } });
}

/**
 * The project team's people: `members` undefined until loaded (the detail waits for them: the assignee
 * choice and the mention completion), every member by user id (the rows' and cards' avatars, empty
 * meanwhile) and the ones an issue may be assigned to (not GUESTs). A failure leaves the screens usable
 * (names fall back to the actors' or "a former member"), so it goes nowhere.
 */
export function useTeamPeople(teamId: string | undefined) {
  const { data, error } = useTeam(teamId, { redirect: () => null });
  const members: TeamPerson[] | undefined = error ? [] : data?.members;
  return useMemo(
    () => ({
      members,
      people: new Map<string, TeamPerson>((members ?? []).map((m) => [m.userId, m])),
      assignable: assignableMembers(members ?? []),
    }),
    [members],
  );
}

/** The issue's timeline, oldest first, page by page ("Load more" asks for the next cursor). */
export function useTimeline(projectId: string, n: number) {
  const base = timelinePath(projectId, n);
  const result = useSWRInfinite<TimelinePage<TimelineEntry>>(
    (index, previous) => {
      if (index === 0) return base;
      if (!previous?.next) return null;
      return endpointPath('issues.activity', {
        params: { id: projectId, ticketId: n },
        query: { cursor: previous.next },
      });
    },
    // A teammate's change and comment appear as the issue's fields do (decision Tr-C14).
    { refreshInterval: issueRefreshMs },
  );
  const { mutate: reloadPages } = result;
  // A change or comment reloads every page loaded so far, so it appears where it belongs.
  useEffect(() => {
    pagedReloads.set(base, () => reloadPages());
    return () => {
      pagedReloads.delete(base);
    };
  }, [base, reloadPages]);
  const entries = useMemo(() => result.data?.flatMap((p) => p.entries) ?? [], [result.data]);
  const last = result.data?.[result.data.length - 1];
  return {
    entries,
    loaded: result.data !== undefined,
    failed: result.error !== undefined,
    more: last?.next != null,
    loadingMore: result.size > (result.data?.length ?? 0),
    loadMore: () => void result.setSize(result.size + 1),
  };
}

export async function addComment(
  projectId: string,
  n: number,
  body: string,
  visibility: CommentVisibility,
): Promise<void> {
  await write('issues.addComment', { params: { id: projectId, ticketId: n }, body: { body, visibility } });
}

export async function editComment(projectId: string, n: number, commentId: string, body: string) {
  await write('issues.editComment', { params: { id: projectId, ticketId: n, commentId }, body: { body } });
}

export async function deleteComment(projectId: string, n: number, commentId: string) {
  await write('issues.deleteComment', { params: { id: projectId, ticketId: n, commentId } });
}

/** POST …/merge: issue `n` becomes a duplicate of `into`. */
export function mergeIssue(projectId: string, n: number, into: number): Promise<MergeAnswer> {
  return write('issues.merge', { params: { id: projectId, ticketId: n }, body: { into } });
}

/** DELETE …/merge: issue `n` stands alone again. */
export function unmergeIssue(projectId: string, n: number): Promise<MergeAnswer> {
  return write('issues.unmerge', { params: { id: projectId, ticketId: n } });
}
