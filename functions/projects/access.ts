/**
 * Who may do what to a project or a team: the one place that decides (DESIGN.md section 10, docs/data-model.md
 * 4.12 "Roles and actions"). Every project- or team-scoped operation hands the action its route declares
 * (`input.access`) here; nothing else compares a membership with an action.
 *
 * A project belongs to a team (`teamOf(META)`); the caller's memberships are their `USER#uid/TEAMS` item,
 * read strongly consistently in the same BatchGetItem as META, so a removed member is refused at once. No
 * membership of the project's team, or a GUEST asking for a project outside its list: NOT_FOUND, the same
 * answer as for no project at all, so an id reveals nothing (decision T5). A role that lacks the action:
 * FORBIDDEN.
 */
import { type ProjectAction, projectActions, type TeamAction, teamActions } from '#contracts/access';
import type { Role } from '#contracts/teams';
import { getItems, type Key, type TransactItems, tableName } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { revokeInvitationsBy } from '../teams/invitation';
import { type TeamsItem, teamOf, toTeamsItem } from '../teams/member';
import { teamsOf } from '../teams/team';
import { type ApiToken, isLive, principalKey, tokenIdOfPrincipal, tokensBy, toToken } from '../teams/token';
import { projectKey, type WriteGuard } from './project';

export { type ProjectAction, projectActions, type TeamAction, teamActions };

/** Which roles may do each project action (4.12's table); a GUEST only on the projects in its list. */
const projectRules: Record<ProjectAction, readonly Role[]> = {
  read: ['OWNER', 'ADMIN', 'MEMBER', 'GUEST'],
  triage: ['OWNER', 'ADMIN', 'MEMBER'],
  settings: ['OWNER', 'ADMIN'],
  integrations: ['OWNER', 'ADMIN'],
  delete: ['OWNER', 'ADMIN'],
  labels: ['OWNER', 'ADMIN'],
  comment: ['OWNER', 'ADMIN', 'MEMBER', 'GUEST'],
  internal: ['OWNER', 'ADMIN', 'MEMBER'],
  moderate: ['OWNER', 'ADMIN'],
  // Filing an issue as oneself (issue 34): a GUEST files issues (DESIGN section 10), so every role may.
  report: ['OWNER', 'ADMIN', 'MEMBER', 'GUEST'],
};

/**
 * Who asks: the session's user and their memberships (`USER#uid/TEAMS` as read; null before teams), or an
 * API token (issue 25): `userId` is its principal `pat:<id>`, `teams` its item's map (its team as ADMIN),
 * `token` what its activity names: its id and name, and its creator's name ("Ada via API token CI").
 */
export interface Caller {
  userId: string;
  teams: TeamsItem | null;
  token?: Pick<ApiToken, 'id' | 'name' | 'creatorName'>;
}

/** What the policy reads of a stored project (META): its team (or, before teams, its owner). */
export interface AccessFacts {
  teamId?: unknown;
  ownerId?: unknown;
  id?: unknown;
}

/**
 * The project (as read, stored item or entity) with the caller's role in its team, if the caller may do
 * `action` on it: NOT_FOUND without a membership (or for a GUEST, outside its projects), FORBIDDEN for a
 * role without the right.
 */
export function authorize<T extends AccessFacts>(
  caller: Caller,
  project: T | null | undefined,
  action: ProjectAction,
): T & { role: Role } {
  const teamId = project ? teamOf(project) : '';
  // A project with neither team nor owner belongs to nobody (never to a membership keyed '').
  if (!project || !teamId) throw new AppError('NOT_FOUND');
  const member = membershipOf(caller.teams, teamId);
  if (!member) throw new AppError('NOT_FOUND');
  if (member.role === 'GUEST' && !member.projects?.includes(String(project.id ?? '')))
    throw new AppError('NOT_FOUND');
  if (!may(member.role, action)) throw new AppError('FORBIDDEN');
  return { ...project, role: member.role };
}

/**
 * The caller with the memberships a batch read (`teamsItem`, undefined when absent). An account made before
 * teams has no TEAMS item: its personal team is created first (a lazy migration, once per account:
 * `teamsOf`), and the check runs on what that wrote.
 */
export async function callerOf(
  userId: string,
  teamsItem: Record<string, unknown> | undefined,
): Promise<Caller> {
  if (tokenIdOfPrincipal(userId) !== null) {
    // A token revoked or expired since the pipeline let it in has no memberships (and is never migrated).
    if (!teamsItem) return { userId, teams: null };
    const token = toToken(teamsItem);
    if (!isLive(token)) return { userId, teams: null };
    const { id, name, creatorName } = token;
    return { userId, teams: toTeamsItem(teamsItem), token: { id, name, creatorName } };
  }
  if (teamsItem) return { userId, teams: toTeamsItem(teamsItem) };
  return { userId, teams: await teamsOf(userId) };
}

/**
 * The access check of a project-scoped call (4.12, ≤ 3 requests): META, the caller's TEAMS and the call's
 * own `keys` in ONE consistent BatchGetItem, then the policy. Answers the project (with the caller's role),
 * the caller (for the write's `accessGuard`) and the other items in the order of `keys`.
 */
export async function readProjectAs(
  userId: string,
  projectId: string,
  action: ProjectAction,
  keys: Key[] = [],
): Promise<{
  project: Record<string, unknown> & { role: Role };
  caller: Caller;
  items: (Record<string, unknown> | undefined)[];
}> {
  const [meta, teams, ...items] = await getItems([projectKey(projectId), principalKey(userId), ...keys]);
  const caller = await callerOf(userId, teams);
  return { project: authorize(caller, meta, action), caller, items };
}

/**
 * The project's stored META item (with the caller's role) if `userId` may do `action` on it: META and TEAMS
 * in one consistent BatchGetItem. Calls that need more than META pass their keys to `readProjectAs`.
 */
export async function projectFor(
  userId: string,
  projectId: string,
  action: ProjectAction,
): Promise<Record<string, unknown> & { role: Role }> {
  return (await readProjectAs(userId, projectId, action)).project;
}

/** The condition on the caller's TEAMS that holds while their role in `teamId` is one of `allowed`. */
function membershipCondition(teamId: string, allowed: readonly Role[], projectId?: string) {
  const values: Record<string, unknown> = Object.fromEntries(allowed.map((role, i) => [`:r${i}`, role]));
  let expression = `teams.#tid.r IN (${Object.keys(values).join(', ')})`;
  if (projectId !== undefined && allowed.includes('GUEST')) {
    // A GUEST only for the projects in its list (decision T5).
    expression += ' AND (teams.#tid.r <> :guest OR contains(teams.#tid.p, :pid))';
    values[':guest'] = 'GUEST';
    values[':pid'] = projectId;
  }
  return { expression, names: { '#tid': teamId } as Record<string, string>, values };
}

/** The ConditionCheck on the caller's TEAMS that holds while their role in `teamId` allows `action`. */
function membershipCheck(userId: string, teamId: string, allowed: readonly Role[], projectId?: string) {
  const { expression, names, values } = membershipCondition(teamId, allowed, projectId);
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: principalKey(userId),
      ConditionExpression: expression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * The write-time check of a project action (4.12, decision T4), for a write to the project's META: its
 * condition keeps the project in the team the check was made for (`teamId`, or before teams its owner), and
 * `checks` (a ConditionCheck on the caller's TEAMS, in the same TransactWriteItems: still 1 request) holds
 * only while the caller's role there still allows `action`. A member removed or demoted between the read and
 * the write is refused (NOT_FOUND, the writers' answer when the guard fails).
 */
export function accessGuard(
  caller: Caller,
  teamId: string,
  action: ProjectAction,
  projectId?: string,
): WriteGuard {
  return {
    expression: '(teamId = :tid OR (attribute_not_exists(teamId) AND ownerId = :tid))',
    values: { ':tid': teamId },
    checks: [membershipCheck(caller.userId, teamId, projectRules[action], projectId)],
  };
}

/** Which roles may do each team action (4.12's table; the teams issue's later increments use the rest). */
const teamRules: Record<TeamAction, readonly Role[]> = {
  'team.read': ['OWNER', 'ADMIN', 'MEMBER', 'GUEST'],
  'team.rename': ['OWNER', 'ADMIN'],
  'team.members': ['OWNER', 'ADMIN'],
  'team.leave': ['ADMIN', 'MEMBER', 'GUEST'],
  'team.projects': ['OWNER', 'ADMIN'],
  'team.billing': ['OWNER'],
  'team.transfer': ['OWNER'],
  'team.tokens': ['OWNER', 'ADMIN'],
  // Who changed access is itself access-relevant: those who can change it read it (issue 35).
  'team.audit': ['OWNER', 'ADMIN'],
};

/** Whether `role` may do `action` (for role-aware answers and the dashboard; a GUEST's list aside). */
export function may(role: Role, action: ProjectAction | TeamAction): boolean {
  const rules = action in teamRules ? teamRules[action as TeamAction] : projectRules[action as ProjectAction];
  return rules.includes(role);
}

/**
 * What a member going from `from` to `to` (undefined: removed, or leaving) loses: a right their role had
 * and the new one lacks. Their API tokens need `team.tokens`, their pending invitations `team.members`;
 * the membership change revokes them (4.12 "Change role", "Remove / leave").
 */
export const loses = (from: Role, to: Role | undefined, action: TeamAction): boolean =>
  may(from, action) && !(to && may(to, action));

/** The ids of `target`'s API tokens in `teamId` that a change to `to` revokes (a gsi1 Query when any may). */
export async function tokensLost(
  teamId: string,
  target: { userId: string; role: Role },
  to?: Role,
): Promise<string[]> {
  if (!loses(target.role, to, 'team.tokens')) return [];
  return (await tokensBy(teamId, target.userId)).map((t) => t.id);
}

/**
 * Withdraws `target`'s pending invitations of `teamId` once a change to `to` took the right to invite
 * (after it, so a failure leaves the invitations to the accept's own check of the inviter's rights).
 */
export async function invitationsLost(
  teamId: string,
  target: { userId: string; role: Role },
  to?: Role,
): Promise<void> {
  if (loses(target.role, to, 'team.members')) await revokeInvitationsBy(teamId, target.userId);
}

/** A caller's membership of one team, from whichever side the call read (TEAMS map or MEMBER row). */
export interface Membership {
  role: Role;
  projects?: string[];
}

/** The caller's membership of `teamId` in their `USER#uid/TEAMS` item; null when they are not in it. */
export function membershipOf(teams: TeamsItem | null, teamId: string): Membership | null {
  const entry = teams?.teams[teamId];
  if (!entry) return null;
  return entry.p ? { role: entry.r, projects: entry.p } : { role: entry.r };
}

/**
 * An API token's membership of `teamId` (issue 25): its own team as ADMIN, none other. Scopes narrow it
 * further in the pipeline; the team actions of billing, members and tokens have no token route at all.
 */
export function tokenMembership(token: { teamId: string | null }, teamId: string): Membership | null {
  return token.teamId !== null && token.teamId === teamId ? { role: 'ADMIN' } : null;
}

/**
 * The caller's role if their membership allows `action`: no membership is NOT_FOUND (a team id reveals
 * nothing to outsiders), a role without the right is FORBIDDEN.
 */
export function authorizeTeam(member: Membership | null, action: TeamAction): Role {
  if (!member) throw new AppError('NOT_FOUND');
  if (!may(member.role, action)) throw new AppError('FORBIDDEN');
  return member.role;
}

/**
 * The write-time check of a team action: a ConditionCheck on the caller's `USER#uid/TEAMS` that holds
 * only while their role in `teamId` still allows `action`, so a member removed or demoted between the
 * read and the write is refused too (4.12, decision T4).
 */
export function teamGuard(userId: string, teamId: string, action: TeamAction): TransactItems {
  return [membershipCheck(userId, teamId, teamRules[action])];
}

// Members increment (issue 22): the guard's condition for writes that change the caller's own TEAMS item
// (a transfer, which cannot also ConditionCheck that item), and the target rules of team.members.

/** `teamGuard`'s condition on the caller's `USER#uid/TEAMS`, for an Update of that item itself. */
export function teamGuardCondition(teamId: string, action: TeamAction) {
  return membershipCondition(teamId, teamRules[action]);
}

/**
 * The target rules of `team.members` (4.12 "Roles and actions"), after `authorizeTeam(caller, 'team.members')`:
 * a target that is not a member is NOT_FOUND; nobody changes or removes the OWNER or changes their own role
 * (leaving is the way down), and no role change makes an OWNER (only a transfer does): FORBIDDEN.
 */
export function authorizeTeamTarget<T extends { userId: string; role: Role }>(
  callerId: string,
  target: T | null,
  newRole?: Role,
): asserts target is T {
  if (!target) throw new AppError('NOT_FOUND');
  if (target.userId === callerId || target.role === 'OWNER' || newRole === 'OWNER') {
    throw new AppError('FORBIDDEN');
  }
}
