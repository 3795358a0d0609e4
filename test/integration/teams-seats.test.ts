/**
 * `seatCondition` (teams/seats.ts) run by DynamoDB Local against TEAM items over the cases of
 * `effectivePlan` (paid, Free, lapsed, no expiry, null expiry, a date-only expiry, no plan at all): the
 * condition must agree with the plan table read in JavaScript, since it is what enforces seats.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { effectivePlan, type PlanName, planSeats } from '#contracts/plans';
import { db } from '#runtime/aws/dynamo';
import { isConditionFailure, tableName } from '#runtime/db';
import { type SeatKind, seatCondition } from '../../functions/teams/seats';
import { setUpTestStack } from '../support/stack-fixture';

setUpTestStack();

const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const day = 86_400_000;
/** planExpire as stored: absent, null, full ISO timestamps and date-only strings either side of now. */
const expiries: Record<string, string | null | undefined> = {
  absent: undefined,
  null: null,
  'in an hour': iso(now + 3_600_000),
  'an hour ago': iso(now - 3_600_000),
  'tomorrow (date only)': iso(now + day).slice(0, 10),
  'today (date only: its midnight has passed)': iso(now).slice(0, 10),
};
const storedPlans: (PlanName | undefined)[] = [undefined, 'FREE_PLAN', 'BASIC_PLAN', 'BUSINESS_PLAN'];

/** Whether DynamoDB lets a write conditioned on `seatCondition(kind)` through on this TEAM. */
async function admits(fields: Record<string, unknown>, kind: SeatKind): Promise<boolean> {
  const key = { pk: `TEAM#seats-${Math.random()}`, sk: 'TEAM' };
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...key, ...fields } }));
  const seat = seatCondition(kind, now);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET probed = :one',
        ConditionExpression: seat.expression,
        ExpressionAttributeNames: seat.names,
        ExpressionAttributeValues: { ...seat.values, ':one': 1 },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** The rule in JavaScript: the effective plan's seats (null: unlimited) above the count. */
function expected(
  plan: PlanName | undefined,
  expire: string | null | undefined,
  count: number,
  kind: SeatKind,
) {
  const effective = effectivePlan(plan ?? 'FREE_PLAN', expire, now);
  const limit = kind === 'member' ? planSeats[effective].members : planSeats[effective].guests;
  return limit === null || count < limit;
}

describe('seatCondition agrees with effectivePlan and planSeats', () => {
  for (const plan of storedPlans) {
    for (const [label, expire] of Object.entries(expiries)) {
      it(`${plan ?? 'no plan'}, expiry ${label}`, async () => {
        const cases: [SeatKind, number][] = [
          ['member', 0],
          ['member', 1],
          ['member', 4],
          ['member', 5],
          ['member', 12],
          ['guest', 2],
          ['guest', 3],
          ['guest', 40],
        ];
        for (const [kind, count] of cases) {
          const fields: Record<string, unknown> = {
            memberCount: kind === 'member' ? count : 1,
            guestCount: kind === 'guest' ? count : 0,
            ...(plan ? { plan } : {}),
            ...(expire !== undefined ? { planExpire: expire } : {}),
          };
          expect([kind, count, await admits(fields, kind)]).toEqual([
            kind,
            count,
            expected(plan, expire, count, kind),
          ]);
        }
      });
    }
  }

  it('spelled out: Free 1 + 3, Starter 5 + unlimited, Business unlimited; a lapsed Starter is Free', async () => {
    const future = iso(now + day);
    expect(await admits({ memberCount: 1, guestCount: 0, plan: 'FREE_PLAN' }, 'member')).toBe(false);
    expect(await admits({ memberCount: 1, guestCount: 2, plan: 'FREE_PLAN' }, 'guest')).toBe(true);
    expect(await admits({ memberCount: 1, guestCount: 3, plan: 'FREE_PLAN' }, 'guest')).toBe(false);
    expect(
      await admits({ memberCount: 4, guestCount: 0, plan: 'BASIC_PLAN', planExpire: future }, 'member'),
    ).toBe(true);
    expect(
      await admits({ memberCount: 5, guestCount: 0, plan: 'BASIC_PLAN', planExpire: future }, 'member'),
    ).toBe(false);
    expect(
      await admits({ memberCount: 1, guestCount: 99, plan: 'BASIC_PLAN', planExpire: future }, 'guest'),
    ).toBe(true);
    expect(
      await admits({ memberCount: 99, guestCount: 99, plan: 'BUSINESS_PLAN', planExpire: null }, 'member'),
    ).toBe(true);
    const lapsed = { plan: 'BASIC_PLAN', planExpire: iso(now - day) };
    expect(await admits({ memberCount: 3, guestCount: 0, ...lapsed }, 'member')).toBe(false);
    expect(await admits({ memberCount: 1, guestCount: 3, ...lapsed }, 'guest')).toBe(false);
  });

  it('refuses a team being deleted', async () => {
    expect(
      await admits({ memberCount: 0, guestCount: 0, plan: 'BUSINESS_PLAN', deleting: 1 }, 'member'),
    ).toBe(false);
  });
});
