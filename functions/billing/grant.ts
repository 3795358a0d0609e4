/**
 * A plan granted outright (an operator's Business grant, the local `POST /api/dev/plan`): the user's plan
 * with its expiry index, then the copy on each of their projects that the public widget calls read
 * (docs/data-model.md 4.10). A payment writes the user's plan in its own transaction and copies it with
 * `setOwnerPlanOnProjects` after it (billing/service.ts), since its plan write is conditional.
 */
import type { PlanName } from '#contracts/plans';
import { setOwnerPlanOnProjects } from '../projects/project';
import { writePlan } from './store';

export async function grantPlan(userId: string, plan: PlanName, planExpire: string | null): Promise<void> {
  await writePlan(userId, plan, planExpire);
  await setOwnerPlanOnProjects(userId, plan, planExpire);
}
