/**
 * The signed-in client's teams (issue 22, docs/data-model.md 4.12): client/teams and client/team/{teamId}.
 * The entry point composes: it reads the facts through the teams domain, asks the one policy
 * (projects/access.ts) and hands the teams domain the policy's guard for writes (decision T6).
 */
import { effectivePlan, type PlanName, planSeats } from '#contracts/plans';
import type {
  InvitationView,
  Role,
  TeamInvitationEntry,
  TeamListEntry,
  TeamMemberEntry,
} from '#contracts/teams';
import { AppError } from '#runtime/errors';
import { type AuthedInput, type InputOf, type OpName, resourceHandler } from '#runtime/http';
import { nowMs } from '#runtime/time';
import { planSettings } from '../accounts/profile';
import { authorizeTeam, membershipOf, teamGuard } from '../projects/access';
import { teamsApi } from '../teams/manifest';
import { readMembers, readTeamAndUsers, readTeamsWithOwners, renameTeam, teamsOf } from '../teams/team';

type In<Op extends OpName<typeof teamsApi>> = InputOf<typeof teamsApi, Op>;

/** A team's plan in this increment: its owner's (USER item), as the profile answers it today. */
function planOf(owner: Record<string, unknown> | undefined): { plan: PlanName; planExpire: string | null } {
  const planExpire = typeof owner?.planExpire === 'string' ? owner.planExpire : null;
  const stored = (owner?.plan ?? 'FREE_PLAN') as PlanName;
  return { plan: effectivePlan(stored, planExpire, nowMs()), planExpire };
}

export const operations = {
  /** Session, TEAMS, one BatchGetItem of the teams and their owners: 3 requests. */
  async list({ session }: AuthedInput) {
    const teams = await teamsOf(session.userId);
    const found = await readTeamsWithOwners(Object.keys(teams.teams));
    const list: TeamListEntry[] = found.map(({ team, owner }) => ({
      id: team.id,
      name: team.name,
      role: teams.teams[team.id]?.r ?? 'GUEST',
      plan: planOf(owner).plan,
      personal: teams.personal === team.id,
    }));
    return { msg: { teams: list } };
  },
  /** Session, the team partition's Query (the check), one BatchGetItem of TEAM and the members: 3 requests. */
  async get({ session, params }: In<'get'>) {
    let { members } = await readMembers(params.teamId);
    let own = members.find((m) => m.userId === session.userId);
    if (!own && params.teamId === session.userId) {
      // A pre-team account asking for its own personal team: created on this first use.
      await teamsOf(session.userId);
      ({ members } = await readMembers(params.teamId));
      own = members.find((m) => m.userId === session.userId);
    }
    const role = authorizeTeam(own ? { role: own.role, projects: own.projects } : null, 'team.read');
    const { team, users } = await readTeamAndUsers(
      params.teamId,
      members.map((m) => m.userId),
    );
    // Members without their TEAM: a team being deleted (a later increment) is gone for its readers.
    if (!team) throw new AppError('NOT_FOUND');
    const { plan, planExpire } = planOf(users.get(team.ownerId));
    return {
      msg: {
        team: {
          id: params.teamId,
          name: team.name,
          plan,
          plan_expire: { date: planExpire },
          settings: planSettings(plan),
          /** Seats used (the TEAM counters) and the effective plan's limits (null: unlimited). */
          seats: {
            members: { used: team.memberCount, limit: planSeats[plan].members },
            guests: { used: team.guestCount, limit: planSeats[plan].guests },
          },
        },
        /** The caller's own role in the team. */
        role,
        members: members.map((m): TeamMemberEntry => {
          const user = users.get(m.userId);
          return {
            userId: m.userId,
            username: String(user?.email ?? ''),
            firstName: String(user?.firstName ?? ''),
            lastName: String(user?.lastName ?? ''),
            role: m.role,
            projects: m.projects ?? [],
          };
        }),
        invitations: [] as TeamInvitationEntry[],
      },
    };
  },
  /** Session, TEAMS (the check), one transaction of the rename and the policy's guard: 3 requests. */
  async rename({ session, params, body }: In<'rename'>) {
    const teams = await teamsOf(session.userId);
    authorizeTeam(membershipOf(teams, params.teamId), 'team.rename');
    await renameTeam(params.teamId, body.name, teamGuard(session.userId, params.teamId, 'team.rename'));
    return { msg: { id: params.teamId, name: body.name } };
  },
  async create(_input: In<'create'>): Promise<{ msg: { id: string } }> {
    throw new AppError('SYSTEM_ERROR');
  },
  async invite(_input: In<'invite'>): Promise<{ msg: { id: string } }> {
    throw new AppError('SYSTEM_ERROR');
  },
  async revoke(_input: In<'revoke'>): Promise<{ msg: null }> {
    throw new AppError('SYSTEM_ERROR');
  },
  async updateMember(
    _input: In<'updateMember'>,
  ): Promise<{ msg: { userId: string; role: Role; projects: string[] } }> {
    throw new AppError('SYSTEM_ERROR');
  },
  async removeMember(_input: In<'removeMember'>): Promise<{ msg: null }> {
    throw new AppError('SYSTEM_ERROR');
  },
  async transfer(_input: In<'transfer'>): Promise<{ msg: null }> {
    throw new AppError('SYSTEM_ERROR');
  },
  async accept(_input: In<'accept'>): Promise<{ msg: { teamId: string } }> {
    throw new AppError('SYSTEM_ERROR');
  },
  async view(_input: In<'view'>): Promise<{ msg: InvitationView }> {
    throw new AppError('SYSTEM_ERROR');
  },
};

export const handler = resourceHandler(teamsApi, operations);
