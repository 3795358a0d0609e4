/**
 * Team personas for the billing tests (issue 22): a membership written directly, both sides as
 * `functions/teams/member.ts` describes them (the team's `MEMBER#uid` row and the user's `TEAMS` map) with
 * the team's seat counter, as the members increment's accept will write them. No invitation flow needed.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TEAM_COOKIE } from '#contracts/cookies';
import type { Role } from '#contracts/teams';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import type { ApiClient } from './api-client';

export async function addMember(
  teamId: string,
  userId: string,
  role: Exclude<Role, 'OWNER'>,
  projects?: string[],
) {
  const guest = role === 'GUEST';
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        pk: `TEAM#${teamId}`,
        sk: `MEMBER#${userId}`,
        userId,
        role,
        ...(guest ? { projects: projects ?? [] } : {}),
        joinedAt: Date.now(),
      },
    }),
  );
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `USER#${userId}`, sk: 'TEAMS' },
      UpdateExpression: 'SET teams.#tid = :m',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#tid': teamId },
      ExpressionAttributeValues: { ':m': guest ? { r: role, p: projects ?? [] } : { r: role } },
    }),
  );
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `TEAM#${teamId}`, sk: 'TEAM' },
      UpdateExpression: `ADD ${guest ? 'guestCount' : 'memberCount'} :one`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}

/** Switches `client` to `teamId` as the dashboard's team switcher does (its cookie); none: back to personal. */
export function switchTeam(client: ApiClient, teamId?: string) {
  if (teamId) client.cookies.set(TEAM_COOKIE, teamId);
  else client.cookies.delete(TEAM_COOKIE);
}
