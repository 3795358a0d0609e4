/**
 * Team personas for the dashboard's browser tests (issue 22), written straight into DynamoDB Local: a
 * further team owned by a user, and a membership, both sides at once (TEAM#tid/MEMBER#uid and the
 * USER#uid/TEAMS map, as functions/teams/member.ts describes) with the TEAM counters, so the screens see
 * what the invitation and accept calls would have made.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PlanName } from '#contracts/plans';
import type { Role } from '#contracts/teams';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { findUserIdByEmail } from '../../functions/accounts/user';

export async function userIdOf(email: string): Promise<string> {
  const id = await findUserIdByEmail(email.toLowerCase());
  if (!id) throw new Error(`no user ${email}`);
  return id;
}

/** Both sides of a membership, and the team's seat counter. */
export async function addMembership(teamId: string, userId: string, role: Role, projects?: string[]) {
  const entry = projects ? { r: role, p: projects } : { r: role };
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        pk: `TEAM#${teamId}`,
        sk: `MEMBER#${userId}`,
        userId,
        role,
        joinedAt: Date.now(),
        ...(projects ? { projects } : {}),
      },
    }),
  );
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `USER#${userId}`, sk: 'TEAMS' },
      UpdateExpression: 'SET teams.#tid = :entry',
      ExpressionAttributeNames: { '#tid': teamId },
      ExpressionAttributeValues: { ':entry': entry },
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
  if (role === 'OWNER') return;
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `TEAM#${teamId}`, sk: 'TEAM' },
      UpdateExpression: 'ADD #count :one',
      ExpressionAttributeNames: { '#count': role === 'GUEST' ? 'guestCount' : 'memberCount' },
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}

/** A further team owned by `ownerId` (what "Create team" makes); its id. */
export async function addTeam(ownerId: string, name: string): Promise<string> {
  const id = randomUUID();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        pk: `TEAM#${id}`,
        sk: 'TEAM',
        id,
        name,
        ownerId,
        memberCount: 1,
        guestCount: 0,
        createdAt: Date.now(),
      },
    }),
  );
  await addMembership(id, ownerId, 'OWNER');
  return id;
}

/** The team's own plan (TEAM `plan`, `planExpire`), as a payment for the team leaves it. */
export async function setTeamPlan(teamId: string, plan: PlanName, days: number): Promise<void> {
  const planExpire = new Date(Date.now() + days * 86_400_000).toISOString();
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `TEAM#${teamId}`, sk: 'TEAM' },
      UpdateExpression: 'SET #plan = :plan, planExpire = :expire',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': plan, ':expire': planExpire },
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}
