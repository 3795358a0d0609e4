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
 * `tokens`: the team's API tokens (issue 25); `audit`: the team's audit log (issue 35); `team`: the team screen at all (a GUEST's team is its projects: it sees no member list).
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
  tokens: ['OWNER', 'ADMIN'],
  audit: ['OWNER', 'ADMIN'],
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
  personal: boolean;
}

/**
 * The team in use exactly as the server picks it (teams/member.ts `teamInUse`): the cookie's when it
 * names one of the caller's teams (a stale one is ignored), else the personal team, else the first.
 */
export function currentTeamOf<T extends TeamEntry>(teams: readonly T[], cookie: string | null): T | null {
  return teams.find((t) => t.id === cookie) ?? teams.find((t) => t.personal) ?? teams[0] ?? null;
}

/** The switcher's order: the personal team first, then by name (the API's order is the storage's). */
export function sortTeams<T extends TeamEntry & { name: string }>(teams: readonly T[]): T[] {
  return [...teams].sort(
    (a, b) =>
      Number(b.personal) - Number(a.personal) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
  );
}

/** The team screen's order of people: by role (OWNER first), then by name. */
export function byRole<T extends { role?: Role | undefined; firstName: string; lastName: string }>(
  a: T,
  b: T,
): number {
  const rank = (m: T) => (m.role ? roleOrder.indexOf(m.role) : roleOrder.length);
  return rank(a) - rank(b) || `${a.firstName} ${a.lastName}`.localeCompare(`${b.firstName} ${b.lastName}`);
}
const roleOrder: readonly Role[] = ['OWNER', 'ADMIN', 'MEMBER', 'GUEST'];
