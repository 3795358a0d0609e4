/**
 * Teams (issue 22, docs/data-model.md 4.12): the roles, and the schemas of the team calls. Shared with the
 * dashboard, so the names rule is the same on both sides.
 */
import * as z from 'zod';
import type { PlanName } from './plans';
import { emailField, invitationTokenField, nameText, projectIdParam } from './schemas';

/** OWNER (exactly one per team), ADMIN, MEMBER, GUEST (only its projects). */
export const roles = ['OWNER', 'ADMIN', 'MEMBER', 'GUEST'] as const;
export type Role = (typeof roles)[number];

/** A team's name: the names rule, at most 60 characters. */
export const TEAM_NAME_MAX = 60;
export const teamNameText = nameText(TEAM_NAME_MAX);

/** A team id: a personal team's is its user's id, the others' a random UUID. */
export const teamIdParam = z.uuid();
export const teamParams = z.object({ teamId: teamIdParam });

/** `PATCH client/team/{teamId}`. */
export const teamUpdateSchema = z.strictObject({ name: teamNameText });

/** One of the caller's teams in `GET client/teams`. */
export interface TeamListEntry {
  id: string;
  name: string;
  role: Role;
  /** The team's effective plan. */
  plan: PlanName;
  /**
   * The caller's personal team: the server's team in use without a cookie (`teamInUse`), which the
   * dashboard's switcher must show as current then.
   */
  personal: boolean;
}

/** The roles an invitation or a role change may give: OWNER only ever comes from a transfer. */
export const assignableRoles = ['ADMIN', 'MEMBER', 'GUEST'] as const;
export type AssignableRole = (typeof assignableRoles)[number];

/** Caps (decision T10): teams per user (bounds the TEAMS item every call reads), projects per guest, invitations per team and day. */
export const TEAMS_MAX = 50;
export const GUEST_PROJECTS_MAX = 25;
export const INVITATIONS_PER_DAY = 50;
/**
 * Invitation mail is Snag's mail identity carrying a sender's words (decision T15): at most this many
 * invitations per inviting account and day, per invited address and day (all teams together), and pending
 * per team (INVITATION_LIMIT, whose message names these numbers).
 */
export const INVITATIONS_PER_ACCOUNT_PER_DAY = 20;
export const INVITATIONS_PER_ADDRESS_PER_DAY = 3;
export const INVITATIONS_PENDING_MAX = 50;
/** An invitation link is valid this long. */
export const INVITATION_VALID_DAYS = 7;

/** `POST client/teams`. */
export const teamCreateSchema = z.strictObject({ name: teamNameText });

/**
 * A role with its projects: a GUEST names 1–25 distinct projects (of this team: the server checks their
 * METAs), the other roles none.
 */
const roleWithProjects = {
  role: z.enum(assignableRoles),
  projects: z.array(projectIdParam).max(GUEST_PROJECTS_MAX).optional(),
};
function guestProjectsRule(
  v: { role: AssignableRole; projects?: string[] | undefined },
  ctx: z.RefinementCtx,
) {
  const count = v.projects?.length ?? 0;
  if (v.role === 'GUEST' && count === 0) {
    ctx.addIssue({ code: 'custom', path: ['projects'], message: 'INVALID_PARAMETERS' });
  } else if (v.role !== 'GUEST' && count > 0) {
    ctx.addIssue({ code: 'custom', path: ['projects'], message: 'INVALID_PARAMETERS' });
  } else if (new Set(v.projects).size !== count) {
    ctx.addIssue({ code: 'custom', path: ['projects'], message: 'INVALID_PARAMETERS' });
  }
}

/** `POST client/team/{teamId}/invitations`; inviting an address with a pending invitation resends it. */
export const invitationSchema = z
  .strictObject({ email: emailField, ...roleWithProjects })
  .superRefine(guestProjectsRule);

/** An invitation's id: the first 32 hex of sha256(teamId + newline + email) (decision T9). */
export const invitationParams = z.object({ teamId: teamIdParam, id: z.string().regex(/^[0-9a-f]{32}$/) });

/** `POST invitation/view` and `POST client/invitation/accept`: the link's token, in the body (never logged in a path). */
export const invitationTokenSchema = z.strictObject({ token: invitationTokenField });

/** `PATCH|DELETE client/team/{teamId}/members/{userId}`. */
export const memberParams = z.object({ teamId: teamIdParam, userId: z.uuid() });

/** `PATCH client/team/{teamId}/members/{userId}`: the new role (and a guest's projects, the whole list). */
export const memberUpdateSchema = z.strictObject(roleWithProjects).superRefine(guestProjectsRule);

/** `POST client/team/{teamId}/transfer`: the new owner, an ADMIN or MEMBER of the team. */
export const transferSchema = z.strictObject({ userId: z.uuid() });

/**
 * A member in `GET client/team/{teamId}`. A GUEST caller sees only names (and the id, as a list key):
 * `username` (the email), `role` and `projects` are absent for them.
 */
export interface TeamMemberEntry {
  userId: string;
  firstName: string;
  lastName: string;
  username?: string;
  role?: Role;
  projects?: string[];
}

/** A pending invitation in `GET client/team/{teamId}` (OWNER and ADMIN only). */
export interface TeamInvitationEntry {
  id: string;
  email: string;
  role: AssignableRole;
  projects: string[];
  /** When the current link stops working, ISO 8601 UTC. */
  expires: string;
}

/** What an invitation link says (`POST invitation/view`): `replaced` links read as revoked. */
export const invitationStates = ['pending', 'used', 'revoked', 'expired'] as const;
export type InvitationState = (typeof invitationStates)[number];

export interface InvitationView {
  team: { name: string };
  inviter: { firstName: string; lastName: string };
  role: AssignableRole;
  /** The invited address: the page signs in or registers with it. */
  email: string;
  state: InvitationState;
}
