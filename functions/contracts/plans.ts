/**
 * The one plan table (SPEC.md sections 6 and 9). The server enforces these; the dashboard only mirrors
 * them through the profile's `settings`.
 */
export const planNames = ['FREE_PLAN', 'BASIC_PLAN', 'BUSINESS_PLAN'] as const;
export type PlanName = (typeof planNames)[number];

export interface PlanSettings {
  integrations: boolean;
  attachments: boolean;
  videos: boolean;
  /** Session replay (steps and the logs' timeline are on every plan). */
  replays: boolean;
  brandingRemoval: boolean;
  /** Allowed project count; null means unlimited. */
  projects: number | null;
  /** Storage quota in bytes for all of the owner's uploads (docs/decisions.md); null means unlimited. */
  storageBytes: number | null;
}

const MB = 1024 * 1024;

export const plans: Record<PlanName, PlanSettings> = {
  FREE_PLAN: {
    integrations: false,
    attachments: false,
    videos: false,
    replays: false,
    brandingRemoval: false,
    projects: 1,
    storageBytes: 100 * MB,
  },
  BASIC_PLAN: {
    integrations: true,
    attachments: true,
    videos: true,
    replays: true,
    brandingRemoval: false,
    projects: 3,
    storageBytes: 1024 * MB,
  },
  BUSINESS_PLAN: {
    integrations: true,
    attachments: true,
    videos: true,
    replays: true,
    brandingRemoval: true,
    projects: null,
    storageBytes: null,
  },
};

/**
 * Seats per plan (issue 22, docs/data-model.md 4.12 "Seats"): `members` counts the OWNER, ADMINs and
 * MEMBERs, `guests` the GUESTs; null means unlimited. A lapsed plan counts as Free for every new seat and
 * keeps the members it has (teams/seats.ts).
 */
export interface PlanSeats {
  members: number | null;
  guests: number | null;
}
export const planSeats: Record<PlanName, PlanSeats> = {
  FREE_PLAN: { members: 1, guests: 3 },
  BASIC_PLAN: { members: 5, guests: null },
  BUSINESS_PLAN: { members: null, guests: null },
};

/** Starter (BASIC_PLAN) card prices in euro by period in months; the amount sent is cents. */
export const starterPricesEur = { 1: 10, 3: 30, 6: 60, 12: 100 } as const;
export const businessPeriodsMonths = [1, 3, 6, 12] as const;

export function canCreateProject(plan: PlanName, currentCount: number): boolean {
  const allowed = plans[plan].projects;
  return allowed === null || currentCount < allowed;
}

/**
 * The plan that applies now (decision D24): a paid plan whose `planExpire` (ISO date) has passed counts as
 * FREE_PLAN. A paid plan without an expiry does not lapse. Every reader of a plan goes through this.
 */
export function effectivePlan(plan: PlanName, planExpire: string | null | undefined, now: number): PlanName {
  if (plan === 'FREE_PLAN' || !planExpire) return plan;
  const until = Date.parse(planExpire);
  return Number.isNaN(until) || until <= now ? 'FREE_PLAN' : plan;
}
