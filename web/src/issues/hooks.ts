/** Loading issues and closing or restoring them, with the SWR caches of lists, project and sidebar kept right. */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import useSWR, { mutate } from 'swr';
import type { IssueAnswer, IssueListAnswer, IssueStateAnswer } from '../../../functions/shared/review';
import { ApiError, api } from '../api';
import { projectPath, projectsPath } from '../projects/model';
import { paths } from '../routes/paths';
import { issueListPath, issuePath, issuesPrefix, type ListQuery } from './model';

/**
 * One page of a list. The previous page stays on screen while the next loads (no flash of "loading"
 * between pages). A project that is gone or not the caller's goes to the dashboard; any other failure
 * to login (SPEC.md section 2).
 */
export function useIssueList(projectId: string | undefined, resolved: boolean, query: ListQuery) {
  const navigate = useNavigate();
  const result = useSWR<IssueListAnswer, ApiError>(
    projectId ? issueListPath(projectId, resolved, query) : null,
    { keepPreviousData: true },
  );
  const { error } = result;
  useEffect(() => {
    if (!error) return;
    const notFound = error instanceof ApiError && error.status === 404;
    navigate(notFound ? paths.profile : '/login', { replace: true });
  }, [error, navigate]);
  return result;
}

/** One issue. A failed load goes back to the site's issue list (SPEC.md section 2); no session, to login. */
export function useIssue(projectId: string | undefined, n: number | null) {
  const navigate = useNavigate();
  const result = useSWR<IssueAnswer, ApiError>(projectId && n ? issuePath(projectId, n) : null);
  const { error } = result;
  useEffect(() => {
    if (!error || !projectId) return;
    navigate(error instanceof ApiError && error.unauthorized ? '/login' : paths.site(projectId), {
      replace: true,
    });
  }, [error, navigate, projectId]);
  return result;
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
  const answer = await api.patch<IssueStateAnswer>(issuePath(projectId, n), { restore });
  leave(answer);
  const prefix = issuesPrefix(projectId);
  await mutate((key) => typeof key === 'string' && key.startsWith(prefix), undefined, { revalidate: true });
  void mutate(projectPath(projectId));
  void mutate(projectsPath);
}
