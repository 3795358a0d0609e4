/**
 * The team the dashboard works in, and what the caller's role there lets the dashboard show (issue 22,
 * docs/data-model.md 4.12 "Roles and actions"). Free of React, so unit tests cover it directly.
 *
 * The server decides every call (projects/access.ts); this only hides what would be refused. A unit test
 * (test/unit/web/teams-model.test.ts) holds the team half of the table to the server's `may`, so the two
 * cannot drift.
 */
import { TEAM_COOKIE } from '#contracts/cookies';
import type { Role } from '#contracts/teams';

export type { Role };

/**
 * What the dashboard shows by role. `settings`: project configuration, the widget and project deletion;
 * `integrations`; `triage`: resolve, reopen and Sync; `billing`; `projects`: create projects in the team;
 * `members`: invite, re-role, remove; `rename`: the team's name; `transfer`: ownership; `leave`: the team;
 * `team`: the team screen at all (a GUEST's team is its projects: it sees no member list).
 */
export const rights = {
  settings: ['OWNER', 'ADMIN'],
  integrations: ['OWNER', 'ADMIN'],
  triage: ['OWNER', 'ADMIN', 'MEMBER'],
  billing: ['OWNER'],
  projects: ['OWNER', 'ADMIN'],
  members: ['OWNER', 'ADMIN'],
  rename: ['OWNER', 'ADMIN'],
  transfer: ['OWNER'],
  leave: ['ADMIN', 'MEMBER', 'GUEST'],
  team: ['OWNER', 'ADMIN', 'MEMBER'],
} as const satisfies Record<string, readonly Role[]>;
export type Right = keyof typeof rights;

/** Whether `role` may use `right`. No role known yet (still loading) shows nothing that needs one. */
export function can(role: Role | null | undefined, right: Right): boolean {
  return role != null && (rights[right] as readonly Role[]).includes(role);
}

/** The `snag_team` cookie's team id, or null. */
export function readTeamCookie(cookie: string): string | null {
  for (const pair of cookie.split(';')) {
    const [name, ...rest] = pair.trim().split('=');
    if (name === TEAM_COOKIE) return decodeURIComponent(rest.join('=')) || null;
  }
  return null;
}

/** The cookie the switcher writes (decision T8: readable, SameSite=Lax, the whole site, a year). */
export function teamCookie(teamId: string, secure: boolean): string {
  const attributes = [
    'Path=/',
    'SameSite=Lax',
    `Max-Age=${365 * 24 * 60 * 60}`,
    ...(secure ? ['Secure'] : []),
  ];
  return [`${TEAM_COOKIE}=${encodeURIComponent(teamId)}`, ...attributes].join('; ');
}

interface TeamEntry {
  id: string;
  role: Role;
}

/**
 * The team in use as the server picks it (teams/member.ts `teamInUse`): the cookie's when it names one of
 * the caller's teams; else the personal team, which the list does not mark, so the team the caller owns
 * (a personal team is owned by its user; after a transfer, any owned team), else the first. The dashboard
 * writes its pick to the cookie, so both sides agree from then on.
 */
export function currentTeamOf<T extends TeamEntry>(teams: readonly T[], cookie: string | null): T | null {
  return teams.find((t) => t.id === cookie) ?? teams.find((t) => t.role === 'OWNER') ?? teams[0] ?? null;
}
