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
  brandingRemoval: boolean;
  /** Allowed project count; null means unlimited. */
  projects: number | null;
}

export const plans: Record<PlanName, PlanSettings> = {
  FREE_PLAN: { integrations: false, attachments: false, videos: false, brandingRemoval: false, projects: 1 },
  BASIC_PLAN: { integrations: true, attachments: true, videos: true, brandingRemoval: false, projects: 3 },
  BUSINESS_PLAN: {
    integrations: true,
    attachments: true,
    videos: true,
    brandingRemoval: true,
    projects: null,
  },
};

/** Starter (BASIC_PLAN) card prices in euro by period in months; the amount sent is cents. */
export const starterPricesEur = { 1: 10, 3: 30, 6: 60, 12: 100 } as const;
export const businessPeriodsMonths = [1, 3, 6, 12] as const;

export function canCreateProject(plan: PlanName, currentCount: number): boolean {
  const allowed = plans[plan].projects;
  return allowed === null || currentCount < allowed;
}
