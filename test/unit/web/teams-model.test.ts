/**
 * The dashboard's team rules (web/src/teams/model.ts, issue 22): what each role is shown, held to the
 * server's one policy (functions/projects/access.ts) so a hidden control and a refused call stay the same
 * set; the team in use as the server picks it; the switcher's cookie.
 */
import { describe, expect, it } from 'vitest';
import { TEAM_COOKIE } from '#contracts/cookies';
import { roles } from '#contracts/teams';
import { may, type TeamAction } from '../../../functions/projects/access';
import {
  can,
  currentTeamOf,
  type Right,
  readTeamCookie,
  rights,
  sortTeams,
  teamCookie,
} from '../../../web/src/teams/model';

/** The dashboard's rights that are team actions of the policy, one to one. */
const teamActionOf: Partial<Record<Right, TeamAction>> = {
  rename: 'team.rename',
  members: 'team.members',
  leave: 'team.leave',
  projects: 'team.projects',
  billing: 'team.billing',
  transfer: 'team.transfer',
  tokens: 'team.tokens',
  audit: 'team.audit',
};

describe('what each role is shown', () => {
  it('shows a team control exactly to the roles the server allows it', () => {
    for (const [right, action] of Object.entries(teamActionOf) as [Right, TeamAction][]) {
      for (const role of roles)
        expect([right, role, can(role, right)]).toEqual([right, role, may(role, action)]);
    }
  });

  it('keeps configuration, widget, integrations, billing and team management from a MEMBER', () => {
    for (const right of ['settings', 'integrations', 'billing', 'members', 'rename', 'projects'] as const) {
      expect(can('MEMBER', right)).toBe(false);
    }
    expect(can('MEMBER', 'triage')).toBe(true);
    expect(can('MEMBER', 'team')).toBe(true);
  });

  it('leaves a GUEST the review screens only (no triage, no team screen)', () => {
    const granted = (Object.keys(rights) as Right[]).filter((right) => can('GUEST', right));
    expect(granted).toEqual(['leave']);
  });

  it('gives the OWNER everything but leaving, and shows nothing before the role is known', () => {
    const owner = (Object.keys(rights) as Right[]).filter((right) => !can('OWNER', right));
    expect(owner).toEqual(['leave']);
    expect(can(null, 'team')).toBe(false);
    expect(can(undefined, 'triage')).toBe(false);
  });
});

describe('the team in use', () => {
  const teams = [
    { id: 'a', personal: false },
    { id: 'b', personal: true },
    { id: 'c', personal: false },
  ];
  it('is the cookie’s team when it is one of the caller’s', () => {
    expect(currentTeamOf(teams, 'c')?.id).toBe('c');
  });
  it('is the personal team without a cookie, or with one naming a team the caller left', () => {
    expect(currentTeamOf(teams, null)?.id).toBe('b');
    expect(currentTeamOf(teams, 'gone')?.id).toBe('b');
  });
  it('is the first team without a personal one (transferred and left), and none without teams', () => {
    expect(currentTeamOf([teams[0]!, teams[2]!], null)?.id).toBe('a');
    expect(currentTeamOf([], 'a')).toBeNull();
  });
});

describe('the switcher’s order', () => {
  it('puts the personal team first, then the others by name', () => {
    const list = [
      { id: '3', name: 'Zeta', personal: false },
      { id: '2', name: 'Ada’s team', personal: true },
      { id: '1', name: 'Agency', personal: false },
    ];
    expect(sortTeams(list).map((t) => t.id)).toEqual(['2', '1', '3']);
    expect(list[0]!.id).toBe('3');
  });
});

describe('the switcher’s cookie', () => {
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
  it('is readable, site-wide, SameSite=Lax, and Secure on https only', () => {
    expect(teamCookie(id, true)).toBe(`${TEAM_COOKIE}=${id}; Path=/; SameSite=Lax; Max-Age=31536000; Secure`);
    expect(teamCookie(id, false)).not.toContain('Secure');
    expect(teamCookie(id, false)).not.toContain('HttpOnly');
  });
  it('is read back from document.cookie among others', () => {
    expect(readTeamCookie(`snag_signed_in=1; ${TEAM_COOKIE}=${id}; x=y`)).toBe(id);
    expect(readTeamCookie('snag_signed_in=1')).toBeNull();
    expect(readTeamCookie(`${TEAM_COOKIE}=`)).toBeNull();
  });
});
