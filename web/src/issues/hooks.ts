/** Loading issues and closing or restoring them, with the SWR caches of lists, project and sidebar kept right. */
import { mutate } from 'swr';
import type { IssueStateAnswer } from '#contracts/review';
import { api } from '../api';
import { useEndpoint } from '../api/swr';
import { paths } from '../paths';
import { toDashboardIfMissing } from '../projects/data';
import { projectPath, projectsPath } from '../projects/model';
import type { FilterQuery } from './filters';
import { isIssuePage, issuesPrefix, type ListQuery, listCallOf } from './model';

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

/**
 * Closes (`restore` false) or restores an issue, then calls `leave` (the screen goes back to its list).
 * Every cached list and issue of the project is stale afterwards (rows move between lists, neighbours
 * change), as are the counts on the project and sidebar: they are dropped after leaving, so the issue
 * screen does not blank out while it is still shown.
 */
export async function setIssueState(
  projectId: string,
  n: number,
  restore: boolean,
  leave: (answer: IssueStateAnswer) => void,
): Promise<void> {
  const answer = await api.call('issues.setState', {
    params: { id: projectId, ticketId: n },
    body: { restore },
  });
  leave(answer);
  const prefix = issuesPrefix(projectId);
  await mutate((key) => typeof key === 'string' && key.startsWith(prefix), undefined, { revalidate: true });
  void mutate(projectPath(projectId));
  void mutate(projectsPath);
}
