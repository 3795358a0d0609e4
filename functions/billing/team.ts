/**
 * The team a dashboard billing call works on (issue 22, docs/data-model.md 4.12 "Plan, payments, allowance,
 * quota move to the team"): the `teamId` it names, else the team in use (the switcher's cookie, else the
 * personal team; teams/member.ts `teamInUse`). One consistent BatchGetItem reads the caller's TEAMS (the
 * access fact), that TEAM and whatever else the call needs, keyed by a guess of the team (the named one,
 * else the cookie's, else the personal team, whose id is the user's): a wrong guess (a cookie of a team the
 * user left) costs one more read. A pre-team account is migrated on this first use (steps 1 and 3).
 */
import type { Key } from '#runtime/db';
import { getItems } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { toUser, userKey } from '../accounts/user';
import { authorizeTeam, membershipOf, type TeamAction } from '../projects/access';
import { type TeamsItem, teamInUse, teamsKey, toTeamsItem } from '../teams/member';
import { type Team, teamKey, teamPlan, teamsOf, toTeam } from '../teams/team';
import { migrateBilling } from './migrate';

/** Which team the call means: `requested` (its `teamId`) and the switcher's cookie. */
export interface TeamChoice {
  requested?: string | undefined;
  cookie?: string | undefined;
}

export interface TeamFacts {
  teamId: string;
  team: Team;
  teams: TeamsItem;
  /** The items of `extra(teamId)`, in order. */
  extra: (Record<string, unknown> | undefined)[];
}

/**
 * The team of the call, checked for `action` (404 outside the team, 403 for a role without it), read with
 * `extra(teamId)` in the same BatchGetItem. `parallel(teamId)` runs beside that read (a Query the answer
 * needs), its result discarded when the check fails or the guess was wrong.
 */
export async function teamFor<P = undefined>(
  userId: string,
  choice: TeamChoice,
  action: TeamAction,
  extra: (teamId: string) => Key[] = () => [],
  parallel?: (teamId: string) => Promise<P>,
): Promise<TeamFacts & { parallel: P | undefined }> {
  let guess = choice.requested ?? choice.cookie ?? userId;
  for (let attempt = 1; ; attempt++) {
    const [[teamsItem, teamItem, ...more], side] = await Promise.all([
      getItems([teamsKey(userId), teamKey(guess), ...extra(guess)]),
      parallel?.(guess),
    ]);
    const retry = () => {
      if (attempt >= 4) throw new Error(`team of ${userId} kept changing while read`);
    };
    if (!teamsItem) {
      // A pre-team account: its personal team first (step 1), then read again.
      await teamsOf(userId);
      retry();
      continue;
    }
    const teams = toTeamsItem(teamsItem);
    const teamId = teamInUse(teams, choice);
    if (teamId !== guess) {
      guess = teamId;
      retry();
      continue;
    }
    authorizeTeam(membershipOf(teams, teamId), action);
    // Members without their TEAM: a team being deleted is gone for its readers.
    if (!teamItem) throw new AppError('NOT_FOUND');
    const team = toTeam(teamItem);
    if (needsMigration(team) && (await migrateBilling(teamId))) {
      retry();
      continue;
    }
    return { teamId, team, teams, extra: more, parallel: side };
  }
}

/**
 * A personal team still waiting for migration step 1's copy (made before billing moved to TEAM) or step 3
 * (its billing items in USER#uid). `migrateBilling` answers false for any other team (no account has its
 * id), which is then read as it is.
 */
export function needsMigration(team: Team): boolean {
  return team.plan === undefined || team.billingMovedAt === undefined;
}

/** The TEAM of `teamId` (consistent), migrated first when it is a pre-team account's; null when absent. */
export async function readTeam(teamId: string): Promise<Team | null> {
  for (let attempt = 1; ; attempt++) {
    const [item] = await getItems([teamKey(teamId)]);
    const team = item ? toTeam(item) : null;
    if (team && !needsMigration(team)) return team;
    // No TEAM: a pre-team account's personal team (tid = uid) is made now; any other id stays as it is.
    if (attempt >= 3 || !(await migrateBilling(teamId))) return team;
  }
}

/**
 * The profile's view of the caller's team in use (GET client/profile, issue 22): one BatchGetItem of USER,
 * TEAMS and TEAM (any member reads its team's plan; the billing details only its OWNER).
 */
export async function profileOf(userId: string, choice: TeamChoice) {
  const { team, teams, teamId, extra } = await teamFor(userId, choice, 'team.read', () => [userKey(userId)]);
  if (!extra[0]) throw new AppError('UNAUTHORIZED');
  const { plan, planExpire } = teamPlan(team);
  const owner = teams.teams[teamId]?.r === 'OWNER';
  return {
    user: toUser(extra[0]),
    team: {
      plan,
      planExpire,
      projectCount: team.projectCount ?? 0,
      billing: owner
        ? { country: team.country ?? '', company: team.company ?? '', vat: team.vat ?? '' }
        : null,
    },
  };
}
