/**
 * Teams (issue 22, docs/data-model.md 4.12): the roles, and the schemas of the team calls. Shared with the
 * dashboard, so the names rule is the same on both sides.
 */
import * as z from 'zod';
import type { PlanName } from './plans';
import { nameText } from './schemas';

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
}
