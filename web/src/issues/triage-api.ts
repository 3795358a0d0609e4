/**
 * The issue detail's calls (issue 23): triage fields, the project's labels, the timeline with comments, the
 * team's people, the caller's notification settings. One module, so the screens and parts never name a
 * route themselves, and every change keeps the SWR caches it affects right.
 */
import { useEffect, useMemo } from 'react';
import { mutate } from 'swr';
import useSWRInfinite from 'swr/infinite';
import type { CommentVisibility, IssuePatch, Label, TimelineEntry, TimelinePage } from '#contracts/triage';
import { api } from '../api';
import { endpointPath } from '../api/endpoints';
import { useEndpoint } from '../api/swr';
import { teamPath } from '../teams/data';
import type { Role } from '../teams/model';
import type { Person } from './detail-model';
import { issueRefreshMs } from './hooks';
import { issuePath, issuesPrefix } from './model';

const labelsPath = (projectId: string) => endpointPath('issues.listLabels', { params: { id: projectId } });

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
  const answer = await api.call('issues.createLabel', { params: { id: projectId }, body: label });
  await mutate(labelsPath(projectId));
  return answer.label;
}

export async function updateLabel(
  projectId: string,
  labelId: string,
  change: Partial<Omit<Label, 'id'>>,
): Promise<void> {
  await api.call('issues.updateLabel', { params: { id: projectId, labelId }, body: change });
  await mutate(labelsPath(projectId));
}

/** A deleted label leaves every issue at once (the server drops it from answers): issues reload. */
export async function deleteLabel(projectId: string, labelId: string): Promise<void> {
  await api.call('issues.deleteLabel', { params: { id: projectId, labelId } });
  await mutate(labelsPath(projectId));
  await mutate((key) => typeof key === 'string' && key.startsWith(issuesPrefix(projectId)));
}

/** A member of the project's team, with the role when the caller may see it (not for a GUEST). */
export type TeamPerson = Person & { role?: Role; username?: string };

/**
 * The project team's members, undefined until loaded: the assignee choice and the mention completion (the
 * list's `useTeamPeople` in triage-hooks.ts answers them by id and empty meanwhile).
 */
export function useTeamMembers(teamId: string | undefined): TeamPerson[] | undefined {
  const { data, error } = useEndpoint('teams.get', teamId ? { params: { teamId } } : null, {
    redirect: () => null,
  });
  // Without the team (never expected for a role that reads the project) names fall back to the actors'.
  return error ? [] : data?.members;
}

/** The caller's user id in a team, from the people it lists (null when it cannot tell). */
export function selfIn(
  people: readonly TeamPerson[] | undefined,
  me: { username: string; firstName: string; lastName: string } | undefined,
): string | null {
  if (!people || !me) return null;
  const byEmail = people.find((p) => p.username && p.username === me.username);
  if (byEmail) return byEmail.userId;
  // A GUEST sees names only: its own entry is the one with its name, when that is unambiguous.
  const named = people.filter((p) => p.firstName === me.firstName && p.lastName === me.lastName);
  return named.length === 1 ? (named[0]?.userId ?? null) : null;
}

/**
 * Sets triage fields; the issue on screen, its timeline and the project's lists (whose rows show the
 * fields) reload.
 */
export async function patchIssue(projectId: string, n: number, body: IssuePatch): Promise<void> {
  await api.call('issues.setState', { params: { id: projectId, ticketId: n }, body });
  // Reloaded rather than taken from the answer: the detail answer also carries the list neighbours.
  await Promise.all([mutate(issuePath(projectId, n)), reloadTimeline(projectId, n)]);
  void mutate(
    (key) =>
      typeof key === 'string' && key.startsWith(issuesPrefix(projectId)) && key !== issuePath(projectId, n),
  );
}

const timelinePrefix = (projectId: string, n: number) =>
  endpointPath('issues.activity', { params: { id: projectId, ticketId: n } });

/**
 * The loaded timelines' reloads, by their first page's address. SWR's key filters skip infinite keys, so
 * a change reaches the timeline on screen through this instead; its bound `mutate` reloads every page
 * loaded so far, so a new comment or change appears where it belongs.
 */
const timelineReloads = new Map<string, () => Promise<unknown>>();

/** The issue's timeline, oldest first, page by page ("Load more" asks for the next cursor). */
export function useTimeline(projectId: string, n: number) {
  const base = timelinePrefix(projectId, n);
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
  const { mutate: reload } = result;
  useEffect(() => {
    timelineReloads.set(base, () => reload());
    return () => {
      timelineReloads.delete(base);
    };
  }, [base, reload]);
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

async function reloadTimeline(projectId: string, n: number): Promise<void> {
  await timelineReloads.get(timelinePrefix(projectId, n))?.();
}

export async function addComment(
  projectId: string,
  n: number,
  body: string,
  visibility: CommentVisibility,
): Promise<void> {
  await api.call('issues.addComment', { params: { id: projectId, ticketId: n }, body: { body, visibility } });
  await reloadTimeline(projectId, n);
}

export async function editComment(projectId: string, n: number, commentId: string, body: string) {
  await api.call('issues.editComment', { params: { id: projectId, ticketId: n, commentId }, body: { body } });
  await reloadTimeline(projectId, n);
}

export async function deleteComment(projectId: string, n: number, commentId: string) {
  await api.call('issues.deleteComment', { params: { id: projectId, ticketId: n, commentId } });
  await reloadTimeline(projectId, n);
}

export { teamPath };
