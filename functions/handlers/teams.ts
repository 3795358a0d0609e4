/**
 * The signed-in client's teams (issue 22, docs/data-model.md 4.12): client/teams and client/team/{teamId}.
 * The entry point composes: it reads the facts through the teams domain, asks the one policy
 * (projects/access.ts) and hands the teams domain the policy's guard for writes (decision T6).
 */
import { effectivePlan, type PlanName, planSeats } from '#contracts/plans';
import {
  INVITATIONS_PENDING_MAX,
  type InvitationView,
  type Role,
  TEAMS_MAX,
  type TeamInvitationEntry,
  type TeamListEntry,
  type TeamMemberEntry,
} from '#contracts/teams';
import { getItems, isConditionFailure, retryRaces } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { type AuthedInput, type InputOf, type OpName, resourceHandler } from '#runtime/http';
import { sendMail } from '#runtime/mail';
import { rateLimit } from '#runtime/rate-limit';
import { sourceOf } from '#runtime/source';
import { nowMs } from '#runtime/time';
import { planSettings } from '../accounts/profile';
import { userKey } from '../accounts/user';
import { startFormerMember } from '../issues/data-requests';
import { unassignEverywhere } from '../issues/triage';
import {
  authorizeTeam,
  authorizeTeamTarget,
  invitationsLost,
  may,
  membershipOf,
  teamGuard,
  teamGuardCondition,
  tokensLost,
} from '../projects/access';
import { projectKey } from '../projects/project';
import { auditPut, memberActor, memberTarget } from '../teams/audit';
import {
  acceptInvitation,
  InvitationRaced,
  invitationAcceptsPerUser,
  invitationMail,
  invitationViewsPerSource,
  inviteIdOf,
  inviteKey,
  linkKey,
  linkRefusal,
  linkState,
  pendingInvitationCount,
  revokeInvitation,
  toInvite,
  tokenHashOf,
  toLink,
  writeInvitation,
} from '../teams/invitation';
import { teamsApi } from '../teams/manifest';
import { memberKey, teamOf, teamsKey, toTeamsItem } from '../teams/member';
import { changeMember, createTeam, memberOf, removeMember, transferOwnership } from '../teams/membership';
import {
  factsOf,
  readMembers,
  readTeamAndUsers,
  readTeamsWithOwners,
  renameTeam,
  type Team,
  teamKey,
  teamPlan,
  teamsOf,
} from '../teams/team';

/** How many tries (a read and a write each) a team write that keeps losing races gets before BUSY. */
const RACE_ATTEMPTS = 6;

type In<Op extends OpName<typeof teamsApi>> = InputOf<typeof teamsApi, Op>;

/**
 * Reads and writes again when a membership change lost its race with a token revoked meanwhile (the one
 * condition its transaction leaves unmapped: the token count must stay exact).
 */
const retryRaced = <T>(change: () => Promise<T>) => retryRaces(isConditionFailure, change, RACE_ATTEMPTS);

/** Reads and writes again when another invite, resend or revoke of the address won the write. */
const invitationRaced = (err: unknown) => err instanceof InvitationRaced;

/**
 * A team's plan: TEAM's own (every team since billing moved to TEAM), else, for a personal team made before
 * that and not yet given migration step 1's copy, its owner's USER item's.
 */
function planOf(team: Team, owner: Record<string, unknown> | undefined) {
  return teamPlan(
    typeof team.plan === 'string' ? team : ((owner ?? {}) as Pick<Team, 'plan' | 'planExpire'>),
  );
}

/** A guest's projects (their METAs as read) must exist and be this team's (decision T10). */
function requireTeamProjects(metas: (Record<string, unknown> | undefined)[], teamId: string): void {
  if (metas.some((meta) => !meta || teamOf(meta) !== teamId)) {
    throw new AppError('INVALID_PARAMETERS', { projects: 'INVALID_PARAMETERS' });
  }
}

/** The pending invitations of the team Query, for OWNER and ADMIN (expired ones wait for their TTL). */
function pendingInvitations(items: Record<string, unknown>[]): TeamInvitationEntry[] {
  const now = nowMs();
  return items
    .map(toInvite)
    .filter((i) => i.expiresAt > now)
    .map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      projects: i.projects ?? [],
      expires: new Date(i.expiresAt).toISOString(),
    }));
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
      plan: planOf(team, owner).plan,
      personal: teams.personal === team.id,
    }));
    return { msg: { teams: list } };
  },
  /** Session, the team partition's Query (the check), one BatchGetItem of TEAM and the members: 3 requests. */
  async get({ session, params }: In<'get'>) {
    let { members, invites } = await readMembers(params.teamId);
    let own = members.find((m) => m.userId === session.userId);
    if (!own && params.teamId === session.userId) {
      // A pre-team account asking for its own personal team: created on this first use.
      await teamsOf(session.userId);
      ({ members, invites } = await readMembers(params.teamId));
      own = members.find((m) => m.userId === session.userId);
    }
    const role = authorizeTeam(own ? { role: own.role, projects: own.projects } : null, 'team.read');
    const { team, users } = await readTeamAndUsers(
      params.teamId,
      members.map((m) => m.userId),
    );
    // Members without their TEAM: a team being deleted (a later increment) is gone for its readers.
    if (!team) throw new AppError('NOT_FOUND');
    const { plan, planExpire } = planOf(team, users.get(team.ownerId));
    // Seats are enforced on TEAM's own plan (teams/seats.ts: a TEAM without one is Free); until billing
    // moves the plan there, a personal team's answer shows its owner's plan with Free's seats.
    const stored = team as { plan?: PlanName; planExpire?: string | null };
    const seatPlan = effectivePlan(stored.plan ?? 'FREE_PLAN', stored.planExpire, nowMs());
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
            members: { used: team.memberCount, limit: planSeats[seatPlan].members },
            guests: { used: team.guestCount, limit: planSeats[seatPlan].guests },
          },
        },
        /** The caller's own role in the team. */
        role,
        members: members.map((m): TeamMemberEntry => {
          const user = users.get(m.userId);
          const names = {
            userId: m.userId,
            firstName: String(user?.firstName ?? ''),
            lastName: String(user?.lastName ?? ''),
          };
          // A guest sees who is in the team, not their addresses, roles or projects (4.12).
          if (role === 'GUEST') return names;
          return { ...names, username: String(user?.email ?? ''), role: m.role, projects: m.projects ?? [] };
        }),
        invitations: may(role, 'team.members') ? pendingInvitations(invites) : [],
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
  /** Session, one transaction (its TEAMS condition caps 50 teams): 2 requests (a pre-team account +2, once). */
  async create({ session, body }: In<'create'>): Promise<{ msg: { id: string } }> {
    let id = await createTeam(session.userId, body.name);
    if (!id) {
      // TEAMS missing (a pre-team account: made now) or holding 50 teams.
      const teams = await teamsOf(session.userId);
      if (Object.keys(teams.teams).length >= TEAMS_MAX) throw new AppError('TEAM_LIMIT');
      id = await createTeam(session.userId, body.name);
      if (!id) throw new AppError('TEAM_LIMIT');
    }
    return { msg: { id } };
  },
  /**
   * Session, one BatchGetItem (TEAMS, the inviter's USER, TEAM, the pending invitation, a guest's METAs),
   * the team's pending count (a new invitation only), the transaction with the team's, the inviter's and
   * the address's daily counts: 4 requests (+ SES; a resend 3). Inviting an address with a pending
   * invitation resends it.
   */
  async invite({ session, params, body, lang }: In<'invite'>): Promise<{ msg: { id: string } }> {
    const { teamId } = params;
    const id = inviteIdOf(teamId, body.email);
    const projects = body.role === 'GUEST' ? (body.projects ?? []) : [];
    // A burst of invites, resends and revokes of one address settles fast: read again and write.
    return retryRaces(
      invitationRaced,
      async () => {
        const { teams, items } = await factsOf(session.userId, [
          userKey(session.userId),
          teamKey(teamId),
          inviteKey(teamId, id),
          ...projects.map(projectKey),
        ]);
        const [user, team, invite, ...metas] = items;
        authorizeTeam(membershipOf(teams, teamId), 'team.members');
        if (!team) throw new AppError('NOT_FOUND');
        // Invitation mail goes out under Snag's name: only from an account whose address is proven (decision T15).
        if (user?.confirmed !== true) throw new AppError('CONFIRMATION_REQUIRED');
        requireTeamProjects(metas, teamId);
        // A resend replaces its pending invitation; a new one must fit under the team's pending cap.
        if (!invite && (await pendingInvitationCount(teamId)) >= INVITATIONS_PENDING_MAX) {
          throw new AppError('INVITATION_LIMIT');
        }
        const written = await writeInvitation(
          { teamId, email: body.email, role: body.role, projects, invitedBy: session.userId },
          invite ? toInvite(invite) : null,
          [
            ...teamGuard(session.userId, teamId, 'team.members'),
            auditPut(teamId, {
              kind: 'member.invited',
              actor: memberActor(session.userId, user),
              target: body.email,
              detail: { role: body.role, projects: projects.length, resent: Boolean(invite) },
            }),
          ],
        );
        const inviter = `${String(user?.firstName ?? '')} ${String(user?.lastName ?? '')}`.trim();
        await sendMail(
          invitationMail(lang, body.email, inviter, String(team.name), body.role, written.token),
        );
        return { msg: { id: written.id } };
      },
      RACE_ATTEMPTS,
    );
  },
  /** Session, one BatchGetItem (TEAMS, the invitation), the transaction: 3 requests. Gone is success. */
  async revoke({ session, params }: In<'revoke'>): Promise<{ msg: null }> {
    return retryRaces(
      invitationRaced,
      async () => {
        const { teams, items } = await factsOf(session.userId, [inviteKey(params.teamId, params.id)]);
        authorizeTeam(membershipOf(teams, params.teamId), 'team.members');
        const [invite] = items;
        if (!invite) return { msg: null };
        await revokeInvitation(
          params.teamId,
          toInvite(invite),
          teamGuard(session.userId, params.teamId, 'team.members'),
        );
        return { msg: null };
      },
      RACE_ATTEMPTS,
    );
  },
  /**
   * Session, one BatchGetItem (the caller's TEAMS, the target's MEMBER row, a guest's METAs), the
   * transaction: 3 requests (the target's TEAMS is written with a condition, not read).
   */
  async updateMember({
    session,
    params,
    body,
  }: In<'updateMember'>): Promise<{ msg: { userId: string; role: Role; projects: string[] } }> {
    const { teamId, userId } = params;
    const projects = body.role === 'GUEST' ? (body.projects ?? []) : [];
    const target = await retryRaced(async () => {
      // One BatchGetItem may not name a key twice: the target's USER only when it is someone else.
      const self = userId === session.userId;
      const { teams, items } = await factsOf(session.userId, [
        memberKey(teamId, userId),
        userKey(session.userId),
        ...(self ? [] : [userKey(userId)]),
        ...projects.map(projectKey),
      ]);
      const [row, actor, ...more] = items;
      const targetUser = self ? actor : more[0];
      const metas = self ? more : more.slice(1);
      authorizeTeam(membershipOf(teams, teamId), 'team.members');
      const target = memberOf(row);
      authorizeTeamTarget(session.userId, target, body.role);
      requireTeamProjects(metas, teamId);
      const tokens = await tokensLost(teamId, target, body.role);
      await changeMember(
        teamId,
        target,
        body.role,
        projects,
        teamGuard(session.userId, teamId, 'team.members'),
        tokens,
        [
          auditPut(teamId, {
            kind: 'member.role',
            actor: memberActor(session.userId, actor),
            target: memberTarget(targetUser, userId),
            detail: {
              from: target.role,
              to: body.role,
              projects: projects.length,
              tokensRevoked: tokens.length,
            },
          }),
        ],
      );
      return target;
    });
    await invitationsLost(teamId, target, body.role);
    // A GUEST may not triage, so cannot stay an assignee (issue 23, decision Tr-C5).
    if (body.role === 'GUEST' && target.role !== 'GUEST') await unassignEverywhere(teamId, userId);
    return { msg: { userId, role: body.role, projects } };
  },
  /**
   * Removal by an OWNER or ADMIN, or leaving (the caller's own id). Session, one BatchGetItem (the
   * caller's TEAMS, the target's MEMBER row and TEAMS), the transaction: 3 requests.
   */
  async removeMember({ session, params }: In<'removeMember'>): Promise<{ msg: null }> {
    const { teamId, userId } = params;
    const leaving = userId === session.userId;
    const target = await retryRaced(async () => {
      const { teams, items } = await factsOf(
        session.userId,
        leaving
          ? [memberKey(teamId, userId), userKey(userId)]
          : [memberKey(teamId, userId), userKey(userId), userKey(session.userId), teamsKey(userId)],
      );
      const own = membershipOf(teams, teamId);
      const [row, targetUser, actorUser, targetTeamsItem] = items;
      const target = memberOf(row);
      if (leaving) {
        if (own?.role === 'OWNER') throw new AppError('OWNER_CANNOT_LEAVE');
        authorizeTeam(own, 'team.leave');
        if (!target) throw new AppError('NOT_FOUND');
        const tokens = await tokensLost(teamId, target);
        const entry = auditPut(teamId, {
          kind: 'member.left',
          actor: memberActor(userId, targetUser),
          target: memberTarget(targetUser, userId),
          detail: { role: target.role, tokensRevoked: tokens.length },
        });
        await removeMember(teamId, target, teams, teamGuardCondition(teamId, 'team.leave'), tokens, [entry]);
        return target;
      }
      authorizeTeam(own, 'team.members');
      authorizeTeamTarget(session.userId, target);
      const targetTeams = targetTeamsItem ? toTeamsItem(targetTeamsItem) : null;
      const tokens = await tokensLost(teamId, target);
      const guard = [
        ...teamGuard(session.userId, teamId, 'team.members'),
        auditPut(teamId, {
          kind: 'member.removed',
          actor: memberActor(session.userId, actorUser),
          target: memberTarget(targetUser, userId),
          detail: { role: target.role, tokensRevoked: tokens.length },
        }),
      ];
      await removeMember(teamId, target, targetTeams, guard, tokens);
      return target;
    });
    await invitationsLost(teamId, target);
    // Issue 23: whoever leaves is nobody's assignee any more (decision Tr-C5; a GUEST never was one).
    if (target.role !== 'GUEST') await unassignEverywhere(teamId, userId);
    // Issue 35: their comments and changes stay, signed "former member" (decision DR-8), on the queue.
    await startFormerMember(teamId, userId);
    return { msg: null };
  },
  /**
   * Owner only: the target (an ADMIN or MEMBER) becomes OWNER, the caller ADMIN. Session, one BatchGetItem
   * (the caller's TEAMS, the target's MEMBER row), the transaction: 3 requests.
   */
  async transfer({ session, params, body }: In<'transfer'>): Promise<{ msg: null }> {
    const { teamId } = params;
    // One BatchGetItem may not name a key twice (a transfer to oneself is refused below).
    const self = body.userId === session.userId;
    const { teams, items } = await factsOf(session.userId, [
      memberKey(teamId, body.userId),
      userKey(session.userId),
      ...(self ? [] : [userKey(body.userId)]),
    ]);
    authorizeTeam(membershipOf(teams, teamId), 'team.transfer');
    const [row, actorUser, other] = items;
    const targetUser = self ? actorUser : other;
    const target = memberOf(row);
    if (
      !target ||
      target.userId === session.userId ||
      (target.role !== 'ADMIN' && target.role !== 'MEMBER')
    ) {
      throw new AppError('INVALID_PARAMETERS', { userId: 'INVALID_PARAMETERS' });
    }
    await transferOwnership(teamId, session.userId, target, teamGuardCondition(teamId, 'team.transfer'), [
      auditPut(teamId, {
        kind: 'member.transfer',
        actor: memberActor(session.userId, actorUser),
        target: memberTarget(targetUser, body.userId),
        detail: { from: target.role, to: 'OWNER' },
      }),
    ]);
    return { msg: null };
  },
  /**
   * Signed in, with the account the invitation names. Session, the account's count, one BatchGetItem (the
   * link, USER, TEAMS), the transaction (with the inviter's check): 4 requests.
   */
  async accept({ session, body }: In<'accept'>): Promise<{ msg: { teamId: string } }> {
    await rateLimit({ ...invitationAcceptsPerUser, key: session.userId });
    const hash = tokenHashOf(body.token);
    let [found, user, teamsItem] = await getItems([
      linkKey(hash),
      userKey(session.userId),
      teamsKey(session.userId),
    ]);
    if (!found) throw new AppError('INVITATION_INVALID');
    const link = toLink(found);
    const refusal = linkRefusal(link);
    if (refusal) throw new AppError(refusal);
    if (!user) throw new AppError('UNAUTHORIZED');
    if (String(user.email).toLowerCase() !== link.email) throw new AppError('INVITATION_WRONG_ACCOUNT');
    // A pre-team account gets its personal team first (the membership is added to its TEAMS).
    if (!teamsItem) teamsItem = { teams: (await teamsOf(session.userId)).teams };
    const teams = toTeamsItem(teamsItem);
    if (teams.teams[link.teamId]) throw new AppError('ALREADY_MEMBER');
    // Their own invitation, sent while they could invite: they are no member now, so it grants nothing.
    if (link.invitedBy === session.userId) throw new AppError('INVITATION_REVOKED');
    if (Object.keys(teams.teams).length >= TEAMS_MAX) throw new AppError('TEAM_LIMIT');
    // The inviter must still be allowed to invite, checked in the accept's own transaction.
    await acceptInvitation(hash, link, session.userId, [
      ...teamGuard(link.invitedBy, link.teamId, 'team.members'),
      // After the inviter's check (index 5 on): the entry is written with the membership or not at all.
      auditPut(link.teamId, {
        kind: 'member.joined',
        actor: memberActor(session.userId, user),
        target: link.email,
        detail: { role: link.role, projects: link.projects?.length ?? 0, invitedBy: link.invitedBy },
      }),
    ]);
    return { msg: { teamId: link.teamId } };
  },
  /**
   * Public: what the invitation page shows before sign-in. The source's count, the link, one BatchGetItem
   * (TEAM, the inviter's USER): 3 requests.
   */
  async view({ body, event }: In<'view'>): Promise<{ msg: InvitationView }> {
    await rateLimit({ ...invitationViewsPerSource, key: sourceOf(event) });
    const [found] = await getItems([linkKey(tokenHashOf(body.token))]);
    if (!found) throw new AppError('INVITATION_INVALID');
    const link = toLink(found);
    const [team, inviter] = await getItems([teamKey(link.teamId), userKey(link.invitedBy)]);
    // A team deleted with its owner's account revoked its links; one whose TEAM is gone says so too.
    const state = team
      ? linkState(link)
      : linkState({ ...link, state: link.state === 'used' ? 'used' : 'revoked' });
    return {
      msg: {
        team: { name: String(team?.name ?? '') },
        inviter: { firstName: String(inviter?.firstName ?? ''), lastName: String(inviter?.lastName ?? '') },
        role: link.role,
        email: link.email,
        state,
      },
    };
  },
};

export const handler = resourceHandler(teamsApi, operations);
