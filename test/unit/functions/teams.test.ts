/**
 * Teams, first increment (issue 22, docs/data-model.md 4.12): the team-scoped half of the one access policy
 * (functions/projects/access.ts), the personal team's name and writes, the team schemas, and FORBIDDEN.
 */
import { describe, expect, it } from 'vitest';
import { errorCatalogue, errorMessage } from '#contracts/errors';
import { roles, teamUpdateSchema } from '#contracts/teams';
import { AppError } from '#runtime/errors';
import { authorizeTeam, may, membershipOf, teamActions, teamGuard } from '../../../functions/projects/access';
import { teamInUse, teamOf } from '../../../functions/teams/member';
import { personalTeamName, personalTeamWrites } from '../../../functions/teams/team';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  }
  return 'allowed';
};

describe('team access (4.12 "Roles and actions")', () => {
  // Written from 4.12's table, not computed by the policy.
  const expected: Record<string, string> = {
    'team.read': 'OWNER ADMIN MEMBER GUEST',
    'team.rename': 'OWNER ADMIN',
    'team.members': 'OWNER ADMIN',
    'team.leave': 'ADMIN MEMBER GUEST',
    'team.projects': 'OWNER ADMIN',
    'team.billing': 'OWNER',
    'team.transfer': 'OWNER',
    'team.tokens': 'OWNER ADMIN',
    'team.audit': 'OWNER ADMIN',
  };
  it.each(teamActions)('allows %s to exactly the roles of the table', (action) => {
    expect(roles.filter((r) => may(r, action)).join(' ')).toBe(expected[action]);
  });

  it('answers no membership with NOT_FOUND and a role without the right with FORBIDDEN', () => {
    expect(code(() => authorizeTeam(null, 'team.read'))).toBe('NOT_FOUND');
    expect(code(() => authorizeTeam({ role: 'MEMBER' }, 'team.rename'))).toBe('FORBIDDEN');
    expect(code(() => authorizeTeam({ role: 'GUEST', projects: ['p'] }, 'team.rename'))).toBe('FORBIDDEN');
    expect(authorizeTeam({ role: 'ADMIN' }, 'team.rename')).toBe('ADMIN');
    expect(authorizeTeam({ role: 'GUEST', projects: ['p'] }, 'team.read')).toBe('GUEST');
  });

  it('reads the membership from the user side', () => {
    const teams = {
      teams: { t1: { r: 'OWNER' as const }, t2: { r: 'GUEST' as const, p: ['p1'] } },
      personal: 't1',
    };
    expect(membershipOf(teams, 't1')).toEqual({ role: 'OWNER' });
    expect(membershipOf(teams, 't2')).toEqual({ role: 'GUEST', projects: ['p1'] });
    expect(membershipOf(teams, 't3')).toBeNull();
    expect(membershipOf(null, 't1')).toBeNull();
  });

  it('guards a write on the caller’s TEAMS holding an allowed role in that team', () => {
    const [check] = teamGuard('u1', 't1', 'team.rename');
    expect(check?.ConditionCheck).toMatchObject({
      Key: { pk: 'USER#u1', sk: 'TEAMS' },
      ConditionExpression: 'teams.#tid.r IN (:r0, :r1)',
      ExpressionAttributeNames: { '#tid': 't1' },
      ExpressionAttributeValues: { ':r0': 'OWNER', ':r1': 'ADMIN' },
    });
  });
});

describe('the personal team', () => {
  it('is named in the account’s language', () => {
    expect(personalTeamName('Ada', 'en')).toBe("Ada's team");
    expect(personalTeamName('Ada', 'de')).toBe('Team von Ada');
    expect(personalTeamName('x'.repeat(80), 'de')).toHaveLength(60);
    expect(teamUpdateSchema.safeParse({ name: personalTeamName('Ä'.repeat(50), 'en') }).success).toBe(true);
  });

  it('is three writes, each only while absent, with the team id the user id', () => {
    const writes = personalTeamWrites({ id: 'u1', firstName: 'Ada' }, 'en');
    expect(writes.map((w) => [w.Put?.Item?.pk, w.Put?.Item?.sk, w.Put?.ConditionExpression])).toEqual([
      ['TEAM#u1', 'TEAM', 'attribute_not_exists(pk)'],
      ['TEAM#u1', 'MEMBER#u1', 'attribute_not_exists(pk)'],
      ['USER#u1', 'TEAMS', 'attribute_not_exists(pk)'],
    ]);
    expect(writes[0]?.Put?.Item).toMatchObject({
      id: 'u1',
      ownerId: 'u1',
      name: "Ada's team",
      memberCount: 1,
    });
    expect(writes[1]?.Put?.Item).toMatchObject({ userId: 'u1', role: 'OWNER' });
    expect(writes[2]?.Put?.Item).toMatchObject({ teams: { u1: { r: 'OWNER' } }, personal: 'u1' });
  });
});

describe('team schemas', () => {
  it.each([[''], ['  '], ['x'.repeat(61)], ['a\u200Bb\u202E'], [7]])('refuses the name %j', (name) => {
    expect(teamUpdateSchema.safeParse({ name }).success).toBe(false);
  });
  it('trims and NFC-normalises a name of up to 60 characters', () => {
    expect(teamUpdateSchema.parse({ name: ' Cafe\u0301 ' })).toEqual({ name: 'Café' });
    expect(teamUpdateSchema.parse({ name: 'y'.repeat(60) }).name).toHaveLength(60);
  });
});

describe('FORBIDDEN', () => {
  it('is a 403 with an English and a German message', () => {
    expect(errorCatalogue.FORBIDDEN.status).toBe(403);
    expect(errorMessage('FORBIDDEN', 'en')).toBe('Your role in this team does not allow this');
    expect(errorMessage('FORBIDDEN', 'de')).toBe('Ihre Rolle in diesem Team erlaubt das nicht');
  });
});

describe('which team', () => {
  const teams = { teams: { me: { r: 'OWNER' as const }, agency: { r: 'MEMBER' as const } }, personal: 'me' };

  it('finds a project’s team in teamId, and a pre-team project’s in its owner', () => {
    expect(teamOf({ teamId: 'agency', ownerId: 'me' })).toBe('agency');
    expect(teamOf({ ownerId: 'me' })).toBe('me');
    expect(teamOf({})).toBe('');
  });

  it('works in the named team, else the switcher’s cookie, else the personal team', () => {
    expect(teamInUse(teams, { requested: 'other', cookie: 'agency' })).toBe('other');
    expect(teamInUse(teams, { cookie: 'agency' })).toBe('agency');
    expect(teamInUse(teams, {})).toBe('me');
    // A cookie naming a team the user left is stale, not a request: the personal team answers.
    expect(teamInUse(teams, { cookie: 'left' })).toBe('me');
    expect(teamInUse({ teams: { agency: { r: 'GUEST', p: ['p1'] } } }, {})).toBe('agency');
  });
});
