/**
 * Who may do what to a project: the one place that decides (DESIGN.md section 10). Every project-scoped
 * operation names its action and asks here; nothing else compares a project's owner with the caller.
 * Today every action is the owner's alone; the teams issue gives members roles in `rules`. Whoever may
 * not gets NOT_FOUND, the same answer as for no project at all, so an id reveals nothing about another
 * client's projects.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '#contracts/teams';
import { db } from '#runtime/aws/dynamo';
import { type TransactItems, tableName } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { type TeamsItem, teamsKey } from '../teams/member';
import { projectKey } from './project';

/**
 * read: the project, its issues, files and sync lists · triage: resolve and reopen issues, send them to
 * integrations again (Sync) · settings: the project's own settings · integrations: set up and authorise
 * integrations · delete: the project with everything it owns.
 */
export const projectActions = ['read', 'triage', 'settings', 'integrations', 'delete'] as const;
export type ProjectAction = (typeof projectActions)[number];

/** Who may do each action. */
const rules: Record<ProjectAction, 'owner'> = {
  read: 'owner',
  triage: 'owner',
  settings: 'owner',
  integrations: 'owner',
  delete: 'owner',
};

/** What the policy reads of a stored project (META): its owner. */
export interface AccessFacts {
  ownerId?: unknown;
}

export function mayDo(userId: string, project: AccessFacts, action: ProjectAction): boolean {
  return rules[action] === 'owner' && typeof project.ownerId === 'string' && project.ownerId === userId;
}

/** The project (as read, stored item or entity) if `userId` may do `action` on it; NOT_FOUND otherwise. */
export function authorize<T extends AccessFacts>(
  userId: string,
  project: T | null | undefined,
  action: ProjectAction,
): T {
  if (!project || !mayDo(userId, project, action)) throw new AppError('NOT_FOUND');
  return project;
}

/**
 * The project's stored META item (one consistent GetItem) if `userId` may do `action` on it. Calls that
 * need more than META read it in their own batch and call `authorize` on it (DESIGN.md section 7).
 */
export async function projectFor(
  userId: string,
  projectId: string,
  action: ProjectAction,
): Promise<Record<string, unknown>> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: projectKey(projectId), ConsistentRead: true }),
  );
  return authorize(userId, out.Item, action);
}

/** A DynamoDB condition on the project's META item; `values` go into ExpressionAttributeValues. */
export interface AccessCondition {
  expression: string;
  values: Record<string, unknown>;
}

/**
 * The condition that makes a write to META its own check (no read before it): it holds only while
 * `userId` may do `action`. A failed condition is the caller's NOT_FOUND.
 */
export function accessCondition(userId: string, _action: ProjectAction): AccessCondition {
  return { expression: 'ownerId = :uid', values: { ':uid': userId } };
}

/**
 * Team-scoped actions (docs/data-model.md 4.12 "Roles and actions"): team.read the team and its members ·
 * team.rename · team.members invite, re-role and remove others · team.leave · team.projects create
 * projects in the team · team.billing · team.transfer ownership.
 */
export const teamActions = [
  'team.read',
  'team.rename',
  'team.members',
  'team.leave',
  'team.projects',
  'team.billing',
  'team.transfer',
] as const;
export type TeamAction = (typeof teamActions)[number];

/** Which roles may do each team action (4.12's table; the teams issue's later increments use the rest). */
const teamRules: Record<TeamAction, readonly Role[]> = {
  'team.read': ['OWNER', 'ADMIN', 'MEMBER', 'GUEST'],
  'team.rename': ['OWNER', 'ADMIN'],
  'team.members': ['OWNER', 'ADMIN'],
  'team.leave': ['ADMIN', 'MEMBER', 'GUEST'],
  'team.projects': ['OWNER', 'ADMIN'],
  'team.billing': ['OWNER'],
  'team.transfer': ['OWNER'],
};

export function may(role: Role, action: TeamAction): boolean {
  return teamRules[action].includes(role);
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
  const { expression, names, values } = teamGuardCondition(teamId, action);
  return [
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: teamsKey(userId),
        ConditionExpression: expression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
}

// Members increment (issue 22): the guard's condition for writes that change the caller's own TEAMS item
// (a transfer, which cannot also ConditionCheck that item), and the target rules of team.members.

/** `teamGuard`'s condition on the caller's `USER#uid/TEAMS`, for an Update of that item itself. */
export function teamGuardCondition(teamId: string, action: TeamAction) {
  const allowed = teamRules[action];
  const values: Record<string, unknown> = Object.fromEntries(allowed.map((role, i) => [`:r${i}`, role]));
  return {
    expression: `teams.#tid.r IN (${Object.keys(values).join(', ')})`,
    names: { '#tid': teamId } as Record<string, string>,
    values,
  };
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
