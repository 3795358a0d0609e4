/** Response shapes the dashboard reads (SPEC.md section 3); fields later issues need are added there. */
import type { PlanName, PlanSettings } from '../../../functions/shared/plans';
import type { WidgetSettings } from '../../../functions/shared/schemas';

export interface Profile {
  username: string;
  firstName?: string;
  lastName?: string;
  /** A Google identity is linked to the account. */
  google?: boolean;
  /** False for Google-only accounts: they have no password to change. */
  hasPassword?: boolean;
  /** What the plan allows (SPEC.md section 6); `projects: null` is unlimited. */
  settings?: PlanSettings;
  plan?: PlanName;
  /** When the paid plan runs out (ISO date); null on Free. */
  plan_expire?: { date: string | null };
  country?: string;
  company?: string;
  vat?: string;
}

/** A project (website) as GET /client/website lists it. */
export interface ProjectSummary {
  uuid: string;
  name: string;
  url: string;
  /** The normalised host the widget matches (functions/shared/domains.ts). */
  domain: string;
  active: 0 | 1;
  /** Test mode. */
  activeParam: 0 | 1;
  /** Open issues. */
  total: number;
  resolved: number;
  /** Display name of the owner. */
  owner: string;
  createdAt: string;
  /** Beyond the plan's project allowance after a downgrade: takes no reports (docs/decisions.md D26). */
  paused?: boolean;
}

/** GET/PATCH /client/website/{id}. */
export interface ProjectDetail {
  website: ProjectSummary & {
    /** The stored settings. */
    data: WidgetSettings;
    /** The settings after the plan is applied: what the widget does. */
    effective: WidgetSettings;
  };
  integrations: unknown[];
}

export function displayName(profile: Profile): string {
  const name = [profile.firstName, profile.lastName].filter(Boolean).join(' ').trim();
  return name || profile.username;
}
