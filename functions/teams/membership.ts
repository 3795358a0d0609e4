/**
 * The writes that change who is in a team (docs/data-model.md 4.12 "Transactions"): create a team, change
 * a member's role or a guest's projects, remove or leave, transfer ownership. Each is one transaction over
 * both membership sides (so they never disagree), TEAM's seat counters where they change, and the policy's
 * guard, which the entry point passes in (teams never decide, decision T6).
 */
import { randomUUID } from 'node:crypto';
import type { AssignableRole, Role } from '#contracts/teams';
import { TEAMS_MAX } from '#contracts/teams';
import { isConditionFailure, type TransactItems, tableName, transactWrite } from '#runtime/db';
import { nowMs } from '#runtime/time';
import { type Member, memberKey, type TeamsEntry, type TeamsItem, teamsKey, toMember } from './member';
import { seatCondition, seatCounter, seatOf } from './seats';
import { type Team, teamBillingDefaults, teamKey } from './team';
import { tokenRevocations } from './token';

/** The policy's guard as a condition on an item the write updates itself (its names use `#tid` = the team). */
export interface GuardCondition {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * Creates a team owned by `userId` (random id): TEAM, the OWNER's MEMBER row and the entry in their TEAMS,
 * which must exist (a pre-team account gets it first: the caller retries after `teamsOf`) and hold fewer
 * than 50 teams (TEAM_LIMIT). Answers the new id, or null when TEAMS is missing.
 */
export async function createTeam(userId: string, name: string): Promise<string | null> {
  const id = randomUUID();
  const now = nowMs();
  const team: Team = {
    id,
    name,
    ownerId: userId,
    memberCount: 1,
    guestCount: 0,
    createdAt: now,
    // A new team starts on Free with counters 0; its plan is its own (the billing calls pay for it).
    ...teamBillingDefaults(now),
  };
  try {
    await transactWrite(
      [
        {
          Put: {
            TableName: tableName(),
            Item: { ...teamKey(id), ...team },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...memberKey(id, userId), userId, role: 'OWNER', joinedAt: now },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: teamsKey(userId),
            UpdateExpression: 'SET teams.#tid = :m',
            ConditionExpression: 'attribute_exists(pk) AND size(teams) < :max',
            ExpressionAttributeNames: { '#tid': id },
            ExpressionAttributeValues: { ':m': { r: 'OWNER' }, ':max': TEAMS_MAX },
          },
        },
      ],
      () => undefined,
    );
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
  return id;
}

/** The user side's entry for a role. */
export const teamsEntry = (role: Role, projects?: string[]): TeamsEntry =>
  role === 'GUEST' ? { r: role, p: projects ?? [] } : { r: role };

/**
 * Gives `target` (as read: its MEMBER row) the role `role` (and a guest's `projects`): both sides, and the
 * seat counters when the kind changes (member ↔ guest), with the new kind's seat condition. `revoke`: the
 * target's API tokens the new role may not keep, deleted in the same transaction (TEAM's count with them);
 * `audit`, the log's entry of the change (teams/audit.ts `auditPut`).
 */
export async function changeMember(
  teamId: string,
  target: Member,
  role: AssignableRole,
  projects: string[] | undefined,
  guard: TransactItems,
  revoke: string[] = [],
  audit: TransactItems = [],
): Promise<void> {
  const from = seatOf(target.role);
  const to = seatOf(role);
  const memberUpdate =
    role === 'GUEST' ? 'SET #role = :role, projects = :p' : 'SET #role = :role REMOVE projects';
  const items: TransactItems = [
    {
      Update: {
        TableName: tableName(),
        Key: memberKey(teamId, target.userId),
        UpdateExpression: memberUpdate,
        ConditionExpression: '#role = :read AND #role <> :owner',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: {
          ':role': role,
          ':read': target.role,
          ':owner': 'OWNER',
          ...(role === 'GUEST' ? { ':p': projects ?? [] } : {}),
        },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: teamsKey(target.userId),
        UpdateExpression: 'SET teams.#tid = :m',
        ConditionExpression: 'attribute_exists(teams.#tid)',
        ExpressionAttributeNames: { '#tid': teamId },
        ExpressionAttributeValues: { ':m': teamsEntry(role, projects) },
      },
    },
    ...guard,
  ];
  const tokens = tokenCountUpdate(revoke.length);
  if (from !== to) {
    const seat = seatCondition(to);
    items.push({
      Update: {
        TableName: tableName(),
        Key: teamKey(teamId),
        UpdateExpression: `ADD #seatCount :one, #oldCount :minus${tokens.add}`,
        ConditionExpression: seat.expression,
        ExpressionAttributeNames: { ...seat.names, '#oldCount': seatCounter(from) },
        ExpressionAttributeValues: { ...seat.values, ':one': 1, ':minus': -1, ...tokens.values },
      },
    });
  } else if (revoke.length) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: teamKey(teamId),
        UpdateExpression: `ADD${tokens.add.slice(1)}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: tokens.values,
      },
    });
  }
  const seatIndex = 2 + guard.length;
  // The audit entry (teams/audit.ts) after every mapped index: written with the change or not at all.
  items.push(...audit);
  const firstToken = items.length;
  items.push(...tokenRevocations(teamId, revoke));
  await transactWrite(items, (failed) => {
    // A token revoked meanwhile: undefined, so the raw failure reaches the caller, which reads again.
    if (failed.some((i) => i >= firstToken)) return undefined;
    if (failed.includes(0) || failed.includes(1)) return 'NOT_FOUND';
    if (failed.includes(seatIndex) && from !== to) return 'SEAT_LIMIT';
    if (failed.includes(seatIndex)) return 'NOT_FOUND';
    return 'FORBIDDEN';
  });
}

/** The `ADD` clause (with its leading comma) and values that lower TEAM's token count by `n`. */
function tokenCountUpdate(n: number) {
  return n
    ? { add: ', tokenCount :revoked', values: { ':revoked': -n } as Record<string, unknown> }
    : { add: '', values: {} as Record<string, unknown> };
}

/**
 * Removes `target` (as read) from the team, or lets them leave (`guard` empty: their own MEMBER row's
 * condition is the check): both sides, the seat counter, and `personal` when it named this team. The
 * team's projects, issues and payments stay with the team; the target's API tokens (`revoke`) go in the
 * same transaction, and `audit`, the log's entry of it (teams/audit.ts `auditPut`).
 */
export async function removeMember(
  teamId: string,
  target: Member,
  targetTeams: TeamsItem | null,
  guard: TransactItems | GuardCondition,
  revoke: string[] = [],
  audit: TransactItems = [],
): Promise<void> {
  const tokens = tokenCountUpdate(revoke.length);
  const wasPersonal = targetTeams?.personal === teamId;
  // Leaving: the guard is a condition on the leaver's own TEAMS, which this transaction updates.
  const own = Array.isArray(guard) ? null : guard;
  const items: TransactItems = [
    {
      Delete: {
        TableName: tableName(),
        Key: memberKey(teamId, target.userId),
        ConditionExpression: '#role = :read AND #role <> :owner',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':read': target.role, ':owner': 'OWNER' },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: teamsKey(target.userId),
        UpdateExpression: wasPersonal ? 'REMOVE teams.#tid, personal' : 'REMOVE teams.#tid',
        ...(own
          ? {
              ConditionExpression: own.expression,
              ExpressionAttributeNames: { ...own.names, '#tid': teamId },
              ExpressionAttributeValues: own.values,
            }
          : { ExpressionAttributeNames: { '#tid': teamId } }),
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: teamKey(teamId),
        UpdateExpression: `ADD #count :minus${tokens.add}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#count': seatCounter(seatOf(target.role)) },
        ExpressionAttributeValues: { ':minus': -1, ...tokens.values },
      },
    },
    ...(Array.isArray(guard) ? guard : []),
    // The audit entry (teams/audit.ts): written with the removal or not at all.
    ...audit,
  ];
  const firstToken = items.length;
  items.push(...tokenRevocations(teamId, revoke));
  await transactWrite(items, (failed) => {
    // A token revoked meanwhile: undefined, so the raw failure reaches the caller, which reads again.
    if (failed.some((i) => i >= firstToken)) return undefined;
    return failed.includes(0) || failed.includes(2) ? 'NOT_FOUND' : 'FORBIDDEN';
  });
}

/**
 * Makes `newOwner` (an ADMIN or MEMBER, as read) the OWNER and the old owner an ADMIN: TEAM's `ownerId`,
 * both MEMBER rows and both TEAMS entries. `guard` is the policy's condition on the old owner's TEAMS,
 * which this transaction updates itself (an item appears once per transaction). Seats do not change.
 * `audit`: the log's entry of it (teams/audit.ts `auditPut`).
 */
export async function transferOwnership(
  teamId: string,
  oldOwner: string,
  newOwner: Member,
  guard: GuardCondition,
  audit: TransactItems = [],
): Promise<void> {
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: teamKey(teamId),
          UpdateExpression: 'SET ownerId = :new',
          ConditionExpression: 'ownerId = :old',
          ExpressionAttributeValues: { ':new': newOwner.userId, ':old': oldOwner },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: memberKey(teamId, oldOwner),
          UpdateExpression: 'SET #role = :admin',
          ConditionExpression: '#role = :owner',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':admin': 'ADMIN', ':owner': 'OWNER' },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: memberKey(teamId, newOwner.userId),
          UpdateExpression: 'SET #role = :owner',
          ConditionExpression: '#role IN (:admin, :member)',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':owner': 'OWNER', ':admin': 'ADMIN', ':member': 'MEMBER' },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: teamsKey(oldOwner),
          UpdateExpression: 'SET teams.#tid.r = :admin',
          ConditionExpression: guard.expression,
          ExpressionAttributeNames: guard.names,
          ExpressionAttributeValues: { ...guard.values, ':admin': 'ADMIN' },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: teamsKey(newOwner.userId),
          UpdateExpression: 'SET teams.#tid = :m',
          ConditionExpression: 'teams.#tid.r IN (:admin, :member)',
          ExpressionAttributeNames: { '#tid': teamId },
          ExpressionAttributeValues: { ':m': { r: 'OWNER' }, ':admin': 'ADMIN', ':member': 'MEMBER' },
        },
      },
      // The audit entry of the transfer (teams/audit.ts), in its own transaction.
      ...audit,
    ],
    (failed) => (failed.includes(2) || failed.includes(4) ? 'INVALID_PARAMETERS' : 'FORBIDDEN'),
  );
}

/** A MEMBER row of a batch read; null when absent. */
export const memberOf = (item: Record<string, unknown> | undefined): Member | null =>
  item ? toMember(item) : null;
