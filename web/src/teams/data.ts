/**
 * The teams feature's data: the caller's teams, the team in use and switching it, the team's members,
 * invitations, API tokens (issue 25) and audit log (issue 35). The only module of teams/ that calls the API; `staleReads` says
 * which cached reads each of its writes leaves stale (web/src/api/swr.ts applies it).
 */
import { useEffect, useMemo } from 'react';
import { type Answer, type BodyOf, endpointPath } from '../api/endpoints';
import { type LoadOptions, reload, type StaleReads, toLogin, useEndpoint, writer } from '../api/swr';
import { currentTeamOf, readTeamCookie, sortTeams, teamCookie } from './model';

export type TeamEntry = Answer<'teams.list'>['teams'][number];
export type TeamDetail = Answer<'teams.get'>;
export type TokenEntry = Answer<'tokens.list'>['tokens'][number];
export type NewToken = Answer<'tokens.create'>;
export type AuditPage = Answer<'audit.list'>;
export type AuditRow = AuditPage['entries'][number];
/** The audit log's filters and page as the screen holds them (undefined: not set). */
export interface AuditFilter {
  kind?: AuditRow['kind'] | undefined;
  actor?: string | undefined;
  cursor?: string | undefined;
}

export const teamsPath = endpointPath('teams.list');
export const teamPath = (teamId: string | number) => endpointPath('teams.get', { params: { teamId } });
const tokensPath = (teamId: string | number) => endpointPath('tokens.list', { params: { teamId } });

/**
 * What each write leaves stale. The team's answer holds its name, members, guests and invitations, the list
 * (the switcher) each team's name and the caller's role there. No write answers the whole new state of a
 * read, so each is fetched again.
 */
const staleReads: StaleReads = {
  'teams.rename': ({ teamId }) => ({ reload: [teamPath(teamId), teamsPath] }),
  'teams.transfer': ({ teamId }) => ({ reload: [teamPath(teamId), teamsPath] }),
  'teams.invite': ({ teamId }) => ({ reload: [teamPath(teamId)] }),
  'teams.revoke': ({ teamId }) => ({ reload: [teamPath(teamId)] }),
  'teams.updateMember': ({ teamId }) => ({ reload: [teamPath(teamId)] }),
  'teams.removeMember': ({ teamId }) => ({ reload: [teamPath(teamId)] }),
  'tokens.create': ({ teamId }) => ({ reload: [tokensPath(teamId)] }),
  'tokens.revoke': ({ teamId }) => ({ reload: [tokensPath(teamId)] }),
};
const write = writer(staleReads);

/** The caller's teams and roles; `load` false: no request (ProfileLayout without a session hint). */
export function useTeams(load = true) {
  return useEndpoint('teams.list', load ? {} : null, { redirect: toLogin });
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
  await reload((key) => key !== teamsPath);
}

/** The switcher's choice: the cookie names the team, then the team's data reloads. */
export async function switchTeam(teamId: string): Promise<void> {
  writeTeamCookie(teamId);
  await reload(teamsPath);
  await reloadTeamScoped();
}

/** PATCH the team's name; the team and the list (switcher) show it. */
export async function renameTeam(teamId: string, name: string): Promise<void> {
  await write('teams.rename', { params: { teamId }, body: { name } });
}

/** POST client/teams: the new team (owned by the caller) becomes the team in use. */
export async function createTeam(name: string): Promise<string> {
  const { id } = await write('teams.create', { body: { name } });
  await switchTeam(id);
  return id;
}

/** Invite (or, for an address already invited, send a new link); the pending list reloads. */
export async function invite(teamId: string, body: BodyOf<'teams.invite'>): Promise<void> {
  await write('teams.invite', { params: { teamId }, body });
}

export async function revokeInvitation(teamId: string, id: string): Promise<void> {
  await write('teams.revoke', { params: { teamId, id } });
}

/** A member's new role, or a guest's projects (the whole list). */
export async function changeMember(
  teamId: string,
  userId: string,
  body: BodyOf<'teams.updateMember'>,
): Promise<void> {
  await write('teams.updateMember', { params: { teamId, userId }, body });
}

export async function removeMember(teamId: string, userId: string): Promise<void> {
  await write('teams.removeMember', { params: { teamId, userId } });
}

/** Leaving (removing oneself): the team is gone from the list, so another one becomes the team in use. */
export async function leaveTeam(teamId: string, ownUserId: string): Promise<void> {
  await write('teams.removeMember', { params: { teamId, userId: ownUserId } });
  await reload(teamsPath);
  await reloadTeamScoped();
}

/** The caller (OWNER) hands the team over and stays as ADMIN: the list's role and the team reload. */
export async function transferOwnership(teamId: string, userId: string): Promise<void> {
  await write('teams.transfer', { params: { teamId }, body: { userId } });
}

/** The team: its name, members (with their roles where the caller may see them), guests and invitations. */
export function useTeam(teamId: string | undefined, options?: LoadOptions) {
  return useEndpoint('teams.get', teamId ? { params: { teamId } } : null, options);
}

/** One page of the team's audit log (issue 35), newest first; the previous page stays while the next loads. */
export function useAudit(teamId: string | null, filter: AuditFilter) {
  return useEndpoint('audit.list', teamId ? { params: { teamId }, query: filter } : null, {
    keepPreviousData: true,
  });
}

/**
 * The address of the log's CSV under the same filters (from the newest entry on), in the dashboard's
 * language: a plain link, so the browser downloads the file with the session cookie.
 */
export function auditCsvHref(teamId: string, { kind, actor }: AuditFilter, lang: 'en' | 'de'): string {
  const path = `/api${endpointPath('audit.csv', { params: { teamId }, query: { kind, actor } })}`;
  return lang === 'de' ? `${path}${path.includes('?') ? '&' : '?'}lng=de` : path;
}

export function useTokens(teamId: string | null) {
  return useEndpoint('tokens.list', teamId ? { params: { teamId } } : null);
}

/** Creates a token; the list reloads. The answer holds the token itself: the only time it is shown. */
export async function createToken(teamId: string, body: BodyOf<'tokens.create'>): Promise<NewToken> {
  return write('tokens.create', { params: { teamId }, body });
}

/** The list again: a member's removal or demotion revokes their tokens on the server. */
export async function reloadTokens(teamId: string): Promise<void> {
  await reload(tokensPath(teamId));
}

export async function revokeToken(teamId: string, id: string): Promise<void> {
  await write('tokens.revoke', { params: { teamId, id } });
}

/** Requests about a person's data (docs/privacy.md): the reporter's issues in the team's projects. */
export async function findPersonData(teamId: string, email: string) {
  return write('privacy.lookup', { params: { teamId }, body: { email } });
}

/** Starts the export of a reporter's data; its progress is `personExportStatus`. */
export async function startPersonExport(teamId: string, email: string) {
  return write('privacy.startExport', { params: { teamId }, body: { email } });
}

/** An export's progress, and once done its signed, short-lived link. */
export async function personExportStatus(teamId: string, id: string) {
  return write('privacy.exportStatus', { params: { teamId, id } });
}

/** Erases a reporter's data; `confirm` is the address typed again. */
export async function erasePersonData(teamId: string, email: string, confirm: string) {
  return write('privacy.erase', { params: { teamId }, body: { email, confirm } });
}
