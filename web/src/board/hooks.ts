/**
 * Stand-ins until the list increment's `issues/triage-hooks.ts` lands (same names and answers, so the board
 * switches by its import): the team's people and the project's labels.
 */
import { useMemo } from 'react';
import type { Label } from '#contracts/triage';
import { useEndpoint } from '../api/swr';
import { assignableMembers, type Person } from '../issues/triage-model';

const stay = () => null;

export function useTeamPeople(teamId: string | undefined) {
  const { data } = useEndpoint('teams.get', teamId ? { params: { teamId } } : null, { redirect: stay });
  return useMemo(() => {
    const members = data?.members ?? [];
    return {
      members,
      people: new Map<string, Person>(members.map((m) => [m.userId, m])),
      assignable: assignableMembers(members),
    };
  }, [data]);
}

export function useLabels(projectId: string | undefined): Label[] {
  const { data } = useEndpoint('issues.listLabels', projectId ? { params: { id: projectId } } : null, {
    redirect: stay,
  });
  return useMemo(() => [...(data?.labels ?? [])].sort((a, b) => a.name.localeCompare(b.name)), [data]);
}
