/**
 * The one way a plan comes into force (an operator's Business grant, a card payment, the local
 * `POST /api/dev/plan`): the team's plan with its expiry index on `TEAM#<tid>`, then the copy on each of
 * its projects that the public widget calls read (docs/data-model.md 4.10, 4.12). A payment writes the
 * team's plan in its own conditional transaction with the payment record (billing/service.ts) and then
 * grants with `written`, so only the copy is left to do; a repeated Stripe delivery grants the same way to
 * repair a copy that failed.
 */
import type { PlanName } from '#contracts/plans';
import { setOwnerPlanOnProjects } from '../projects/project';
import { writePlan } from './store';

export async function grantPlan(
  teamId: string,
  plan: PlanName,
  planExpire: string | null,
  options: { written?: boolean } = {},
): Promise<void> {
  if (!options.written) await writePlan(teamId, plan, planExpire);
  await setOwnerPlanOnProjects(teamId, plan, planExpire);
}
