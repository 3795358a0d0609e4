/**
 * Memberships (docs/data-model.md 4.12): the team side `TEAM#<tid>/MEMBER#<uid>` and the user side
 * `USER#<uid>/TEAMS`, a map of team → role (and a guest's projects). Both sides change in one transaction,
 * so they never disagree; the user side is the access fact every team- or project-scoped call reads, by
 * the session's user id alone.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '#contracts/teams';
import { db } from '#runtime/aws/dynamo';
import { getItems, type Key, tableName } from '#runtime/db';

export const memberKey = (teamId: string, userId: string) => ({
  pk: `TEAM#${teamId}`,
  sk: `MEMBER#${userId}`,
});
export const teamsKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'TEAMS' });

/** One team in the user side's map: `r` the role, `p` a guest's projects. */
export interface TeamsEntry {
  r: Role;
  p?: string[];
}

/** `USER#<uid>/TEAMS` as read. */
export interface TeamsItem {
  teams: Record<string, TeamsEntry>;
  /** The user's personal team (its id is the user's id while they have it). */
  personal?: string;
}

/** A membership as the team side stores it. */
export interface Member {
  userId: string;
  role: Role;
  projects?: string[];
  joinedAt: number;
  invitedBy?: string;
}

export function toMember(item: Record<string, unknown>): Member {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as unknown as Member;
}

export function toTeamsItem(item: Record<string, unknown>): TeamsItem {
  const teams = (item.teams ?? {}) as Record<string, TeamsEntry>;
  return typeof item.personal === 'string' ? { teams, personal: item.personal } : { teams };
}

/** The user side, strongly consistent (a removed member must lose access at once); null before teams. */
export async function readTeams(userId: string): Promise<TeamsItem | null> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: teamsKey(userId), ConsistentRead: true }),
  );
  return out.Item ? toTeamsItem(out.Item) : null;
}

/**
 * The team a stored project belongs to: its `teamId`, or for a project written before teams its owner's
 * personal team, whose id is the owner's user id (decision T2), so pre-team projects need no rewrite.
 */
export function teamOf(project: { teamId?: unknown; ownerId?: unknown }): string {
  if (typeof project.teamId === 'string') return project.teamId;
  return typeof project.ownerId === 'string' ? project.ownerId : '';
}

/**
 * The team in use (decision T8): the team the call names, else the switcher's cookie, else the personal
 * team, else the first of the user's teams. A named team or cookie the user is not in is passed on as named
 * when it came from the call (the policy then answers 404), and ignored when it came from the cookie (a
 * stale cookie of a team the user left must not break the dashboard).
 */
export function teamInUse(
  teams: TeamsItem,
  choice: { requested?: string | undefined; cookie?: string | undefined },
): string {
  if (choice.requested) return choice.requested;
  if (choice.cookie && teams.teams[choice.cookie]) return choice.cookie;
  if (teams.personal && teams.teams[teams.personal]) return teams.personal;
  return Object.keys(teams.teams)[0] ?? '';
}

/**
 * The access facts of a call and what else it reads, in one consistent BatchGetItem: the caller's
 * `USER#uid/TEAMS` and `keys` (at most 99), in the order of `keys`.
 */
export async function readAccessFacts(userId: string, keys: Key[]) {
  const [teams, ...items] = await getItems([teamsKey(userId), ...keys]);
  return { teams: teams ? toTeamsItem(teams) : null, items };
}
