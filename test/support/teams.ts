/**
 * Team personas for tests (issue 22): a user made a member of a team with a role, or removed, by writing
 * both membership sides and the TEAM counters directly, in one transaction, the way the members calls do
 * (docs/data-model.md 4.12 "Transactions": Accept, Remove). Tests of the access policy need the members
 * without going through invitations, which the members increment builds and tests on its own.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TEAM_COOKIE } from '#contracts/cookies';
import type { PlanName } from '#contracts/plans';
import type { Role } from '#contracts/teams';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { memberKey, teamsKey } from '../../functions/teams/member';
import { teamBillingDefaults, teamKey } from '../../functions/teams/team';
import type { ApiClient } from './api-client';

/** The TEAM counter a role counts in: GUESTs their own, everyone else a member seat. */
const counterOf = (role: Role) => (role === 'GUEST' ? 'guestCount' : 'memberCount');

/**
 * Makes `userId` a `role` of `teamId` (a GUEST on `projects`): MEMBER#uid, the user's TEAMS entry and the
 * TEAM counter. The user must have a TEAMS item (every account registered since teams does).
 */
export async function addToTeam(teamId: string, userId: string, role: Role, projects?: string[]) {
  if (role === 'OWNER') throw new Error('a team has one OWNER: make it by registration or transfer');
  const entry = role === 'GUEST' ? { r: role, p: projects ?? [] } : { r: role };
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...memberKey(teamId, userId),
              userId,
              role,
              ...(role === 'GUEST' ? { projects: projects ?? [] } : {}),
              joinedAt: Date.now(),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: teamsKey(userId),
            UpdateExpression: 'SET teams.#tid = :m',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#tid': teamId },
            ExpressionAttributeValues: { ':m': entry },
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: teamKey(teamId),
            UpdateExpression: 'ADD #c :one',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#c': counterOf(role) },
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
      ],
    }),
  );
}

/** Removes `userId` from `teamId` (both sides and the counter), as an admin's removal does. */
export async function removeFromTeam(teamId: string, userId: string) {
  const member = await db().send(
    new GetCommand({ TableName: tableName(), Key: memberKey(teamId, userId), ConsistentRead: true }),
  );
  const role = member.Item?.role as Role | undefined;
  if (!role) throw new Error(`${userId} is not in team ${teamId}`);
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: memberKey(teamId, userId) } },
        {
          Update: {
            TableName: tableName(),
            Key: teamsKey(userId),
            UpdateExpression: 'REMOVE teams.#tid',
            ExpressionAttributeNames: { '#tid': teamId },
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: teamKey(teamId),
            UpdateExpression: 'ADD #c :minus',
            ExpressionAttributeNames: { '#c': counterOf(role) },
            ExpressionAttributeValues: { ':minus': -1 },
          },
        },
      ],
    }),
  );
}

/** Adds `projectId` to a GUEST's projects (both sides), as a role change with a new project list does. */
export async function addGuestProject(teamId: string, userId: string, projectId: string) {
  const append = 'SET #p = list_append(#p, :pid)';
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: memberKey(teamId, userId),
            UpdateExpression: append,
            ConditionExpression: '#role = :guest',
            ExpressionAttributeNames: { '#p': 'projects', '#role': 'role' },
            ExpressionAttributeValues: { ':pid': [projectId], ':guest': 'GUEST' },
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: teamsKey(userId),
            UpdateExpression: 'SET teams.#tid.#p = list_append(teams.#tid.#p, :pid)',
            ConditionExpression: 'teams.#tid.r = :guest',
            ExpressionAttributeNames: { '#tid': teamId, '#p': 'p' },
            ExpressionAttributeValues: { ':pid': [projectId], ':guest': 'GUEST' },
          },
        },
      ],
    }),
  );
}

/** A further team owned by `ownerId`, as "Create team" makes it (TEAM, the OWNER's MEMBER row, TEAMS entry); its id. */
export async function addTeam(ownerId: string, name: string): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...teamKey(id),
              id,
              name,
              ownerId,
              memberCount: 1,
              guestCount: 0,
              createdAt: now,
              ...teamBillingDefaults(now),
            },
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...memberKey(id, ownerId), userId: ownerId, role: 'OWNER', joinedAt: now },
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: teamsKey(ownerId),
            UpdateExpression: 'SET teams.#tid = :m',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#tid': id },
            ExpressionAttributeValues: { ':m': { r: 'OWNER' } },
          },
        },
      ],
    }),
  );
  return id;
}

/** Sets the team's own plan on TEAM (`planExpire` an ISO date or null), as a payment for the team leaves it. */
export async function setTeamPlan(teamId: string, plan: PlanName, planExpire: string | null) {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: teamKey(teamId),
      UpdateExpression: 'SET #plan = :plan, planExpire = :expire',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': plan, ':expire': planExpire },
    }),
  );
}

/** An ISO date `days` from now (negative: past). */
export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Switches `client` to `teamId` as the dashboard's team switcher does (its cookie); none: back to personal. */
export function switchTeam(client: ApiClient, teamId?: string) {
  if (teamId) client.cookies.set(TEAM_COOKIE, teamId);
  else client.cookies.delete(TEAM_COOKIE);
}
