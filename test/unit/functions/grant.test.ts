/** A plan grant (functions/billing/grant.ts): the user's plan first, then its copy on each of their projects. */
import { DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { grantPlan } from '../../../functions/billing/grant';

const ddb = mockClient(DynamoDBDocumentClient);
afterEach(() => ddb.reset());

describe('grantPlan', () => {
  it('writes the plan with its expiry index, then copies it onto every project of the owner, seats in order', async () => {
    const expire = '2027-03-04T05:06:07.000Z';
    ddb.on(QueryCommand).resolves({
      Items: [
        { pk: 'PROJECT#a', sk: 'META', seat: 1 },
        { pk: 'PROJECT#b', sk: 'META', seat: 5 },
      ],
    });
    ddb.on(UpdateCommand).resolves({});
    await grantPlan('u1', 'BUSINESS_PLAN', expire);

    const calls = ddb.calls().map((c) => c.args[0].input as Record<string, unknown>);
    const [team, query, ...projects] = calls;
    // The team's item first (issue 22): plan, expiry and the expiry index the reminders query.
    expect(team).toMatchObject({
      Key: { pk: 'TEAM#u1', sk: 'TEAM' },
      ExpressionAttributeValues: {
        ':p': 'BUSINESS_PLAN',
        ':e': expire,
        ':g': 'EXPIRE#2027-03-04',
        ':gs': 'TEAM#u1',
      },
    });
    expect(query).toMatchObject({ IndexName: 'gsi1', ExpressionAttributeValues: { ':o': 'OWNER#u1' } });
    expect(projects.map((p) => p.Key)).toEqual([
      { pk: 'PROJECT#a', sk: 'META' },
      { pk: 'PROJECT#b', sk: 'META' },
    ]);
    for (const [i, p] of projects.entries()) {
      // Only onto rows still the team's: its own, or a pre-team project of the owner whose id it has.
      expect(p.ConditionExpression).toContain(
        'teamId = :team OR (attribute_not_exists(teamId) AND ownerId = :team)',
      );
      expect(Object.values(p.ExpressionAttributeValues as object)).toEqual(
        expect.arrayContaining(['BUSINESS_PLAN', expire, i + 1]),
      );
    }
  });

  it('grants Free without an expiry and removes the expiry index', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(UpdateCommand).resolves({});
    await grantPlan('u2', 'FREE_PLAN', null);
    const [user] = ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(user?.UpdateExpression).toContain('REMOVE gsi1pk, gsi1sk');
    expect(user?.ExpressionAttributeValues).toMatchObject({ ':p': 'FREE_PLAN', ':e': null });
  });

  it('after a payment, whose transaction wrote the plan, only copies it onto the projects', async () => {
    ddb.on(QueryCommand).resolves({ Items: [{ pk: 'PROJECT#a', sk: 'META', seat: 1 }] });
    ddb.on(UpdateCommand).resolves({});
    await grantPlan('u3', 'BASIC_PLAN', '2027-01-01T00:00:00.000Z', { written: true });
    expect(ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input.Key)).toEqual([
      { pk: 'PROJECT#a', sk: 'META' },
    ]);
  });
});
