/**
 * Setting a client's plan. Billing (a later issue) will call this after a payment; until then the local
 * stack's `POST /api/dev/plan` does, so plan-gated features can be tried and tested.
 */

import type { PlanName } from '#contracts/plans';
import { AppError } from '#runtime/errors';
import { DAY, nowMs } from '#runtime/time';
import { writePlan } from '../billing/store';
import { setOwnerPlanOnProjects } from '../projects/project';
import { findUserByEmail } from './user';

/** Sets the plan for `days` from now (Free never expires) on the user and on each of their projects. */
export async function setPlan(email: string, plan: PlanName, days: number) {
  const user = await findUserByEmail(email);
  if (!user) throw new AppError('NOT_FOUND');
  const planExpire = plan === 'FREE_PLAN' ? null : new Date(nowMs() + days * DAY).toISOString();
  // With the expiry index the reminder queries (functions/billing/store.ts).
  await writePlan(user.id, plan, planExpire);
  await setOwnerPlanOnProjects(user.id, plan, planExpire);
  return { username: user.email, plan, planExpire };
}
