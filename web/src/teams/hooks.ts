/** The caller's teams, the team in use, and switching teams, with the SWR cache kept in step. */
import { useEffect, useMemo } from 'react';
import { mutate } from 'swr';
import { api } from '../api';
import { type Answer, type BodyOf, endpointPath } from '../api/endpoints';
import { toLogin, useEndpoint } from '../api/swr';
import { currentTeamOf, readTeamCookie, sortTeams, teamCookie } from './model';

export type TeamEntry = Answer<'teams.list'>['teams'][number];
export type TeamDetail = Answer<'teams.get'>;

export const teamsPath = endpointPath('teams.list');
export const teamPath = (teamId: string) => endpointPath('teams.get', { params: { teamId } });

export function useTeams() {
  return useEndpoint('teams.list', {}, { redirect: toLogin });
}

function writeTeamCookie(teamId: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and missing in Firefox and Safari before 2025; this write is one line.
  document.cookie = teamCookie(teamId, window.location.protocol === 'https:');
}

/**
 * The team in use and the caller's role there (null while loading). A missing or stale cookie is
 * replaced by the pick, so the server's default team (`teamInUse`) is the same one from then on; the
 * team-scoped answers loaded before are reloaded for it.
 */
export function useCurrentTeam() {
  const { data } = useTeams();
  const teams = useMemo(() => sortTeams(data?.teams ?? []), [data]);
  const cookie = typeof document === 'undefined' ? null : readTeamCookie(document.cookie);
  const team = currentTeamOf(teams, cookie);
  useEffect(() => {
    if (team && team.id !== cookie) {
      writeTeamCookie(team.id);
      void reloadTeamScoped();
    }
  }, [team, cookie]);
  return { teams, team, role: team?.role ?? null, loaded: data !== undefined };
}

/** Every cached answer except the teams list reloads: projects, profile (the plan), billing, the team. */
async function reloadTeamScoped(): Promise<void> {
  await mutate((key) => typeof key === 'string' && key !== teamsPath);
}

/** The switcher's choice: the cookie names the team, then the team's data reloads. */
export async function switchTeam(teamId: string): Promise<void> {
  writeTeamCookie(teamId);
  await mutate(teamsPath);
  await reloadTeamScoped();
}

/** PATCH the team's name; the team and the list (switcher) show it. */
export async function renameTeam(teamId: string, name: string): Promise<void> {
  await api.call('teams.rename', { params: { teamId }, body: { name } });
  await Promise.all([mutate(teamPath(teamId)), mutate(teamsPath)]);
}

/** POST client/teams: the new team (owned by the caller) becomes the team in use. */
export async function createTeam(name: string): Promise<string> {
  const { id } = await api.call('teams.create', { body: { name } });
  await switchTeam(id);
  return id;
}

/** Invite (or, for an address already invited, send a new link); the pending list reloads. */
export async function invite(teamId: string, body: BodyOf<'teams.invite'>): Promise<void> {
  await api.call('teams.invite', { params: { teamId }, body });
  await mutate(teamPath(teamId));
}

export async function revokeInvitation(teamId: string, id: string): Promise<void> {
  await api.call('teams.revoke', { params: { teamId, id } });
  await mutate(teamPath(teamId));
}

/** A member's new role, or a guest's projects (the whole list). */
export async function changeMember(
  teamId: string,
  userId: string,
  body: BodyOf<'teams.updateMember'>,
): Promise<void> {
  await api.call('teams.updateMember', { params: { teamId, userId }, body });
  await mutate(teamPath(teamId));
}

export async function removeMember(teamId: string, userId: string): Promise<void> {
  await api.call('teams.removeMember', { params: { teamId, userId } });
  await mutate(teamPath(teamId));
}

/** Leaving (removing oneself): the team is gone from the list, so another one becomes the team in use. */
export async function leaveTeam(teamId: string, ownUserId: string): Promise<void> {
  await api.call('teams.removeMember', { params: { teamId, userId: ownUserId } });
  await mutate(teamsPath);
  await reloadTeamScoped();
}

/** The caller (OWNER) hands the team over and stays as ADMIN: the list's role and the team reload. */
export async function transferOwnership(teamId: string, userId: string): Promise<void> {
  await api.call('teams.transfer', { params: { teamId }, body: { userId } });
  await Promise.all([mutate(teamPath(teamId)), mutate(teamsPath)]);
}
