/**
 * Billing on the team (issue 22, docs/data-model.md 4.12): a new team's billing fields, a team's effective
 * plan, and migration step 1's copy and USER update (conditioned on every copied field as read).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { personalTeamWrites, teamCopyOf, teamPlan, userMovedUpdate } from '../../../functions/teams/team';

afterEach(() => vi.useRealTimers());

describe('the team carries the plan', () => {
  it('starts a personal team on Free with counters 0 and nothing to move', () => {
    const [team] = personalTeamWrites({ id: 'u1', firstName: 'Ada' }, 'en');
    expect(team?.Put?.Item).toMatchObject({
      plan: 'FREE_PLAN',
      planExpire: null,
      projectCount: 0,
      storageBytes: 0,
      billingMovedAt: expect.any(Number),
    });
    expect(team?.Put?.Item).not.toHaveProperty('gsi1pk');
  });

  it("reads a team's effective plan: a lapsed paid plan is Free, a missing one Free", () => {
    vi.useFakeTimers({ now: Date.parse('2026-06-01T00:00:00Z') });
    expect(teamPlan({ plan: 'BASIC_PLAN', planExpire: '2026-07-01T00:00:00.000Z' })).toEqual({
      plan: 'BASIC_PLAN',
      planExpire: '2026-07-01T00:00:00.000Z',
    });
    expect(teamPlan({ plan: 'BASIC_PLAN', planExpire: '2026-05-01T00:00:00.000Z' }).plan).toBe('FREE_PLAN');
    expect(teamPlan({})).toEqual({ plan: 'FREE_PLAN', planExpire: null });
  });
});

describe('migration step 1', () => {
  const user = {
    id: 'u1',
    firstName: 'Grace',
    plan: 'BASIC_PLAN',
    planExpire: '2026-07-01T00:00:00.000Z',
    country: 'DE',
    company: 'Muster GmbH',
    vat: '',
    projectCount: 2,
    storageBytes: 1500,
  };

  it('copies the plan, billing details and counters, and moves the expiry index to TEAM#uid', () => {
    expect(teamCopyOf(user)).toEqual({
      plan: 'BASIC_PLAN',
      planExpire: '2026-07-01T00:00:00.000Z',
      country: 'DE',
      company: 'Muster GmbH',
      vat: '',
      projectCount: 2,
      storageBytes: 1500,
      gsi1pk: 'EXPIRE#2026-07-01',
      gsi1sk: 'TEAM#u1',
    });
    // An account that never paid: Free, no expiry index.
    expect(teamCopyOf({ id: 'u2', plan: 'FREE_PLAN', planExpire: null })).not.toHaveProperty('gsi1pk');
  });

  it('updates USER only while unmigrated and every copied field is still what was read', () => {
    const update = userMovedUpdate(user);
    expect(update.UpdateExpression).toBe('SET teamId = :tid REMOVE gsi1pk, gsi1sk');
    const condition = update.ConditionExpression;
    expect(condition).toContain('attribute_not_exists(teamId)');
    const names = update.ExpressionAttributeNames;
    const alias = (field: string) => Object.keys(names).find((k) => names[k] === field)!;
    // Present fields must be equal, absent ones still absent (a payment of the old code cancels it).
    expect(condition).toContain(`${alias('plan')} = `);
    expect(condition).toContain(`${alias('storageBytes')} = `);
    expect(condition).toContain(`attribute_not_exists(${alias('remindedFor')})`);
    expect(condition).toContain(`attribute_not_exists(${alias('lang')})`);
  });
});
