/** Response shapes the dashboard reads (SPEC.md section 3); fields later issues need are added there. */
export interface Profile {
  username: string;
  firstName?: string;
  lastName?: string;
  /** A Google identity is linked to the account. */
  google?: boolean;
  /** False for Google-only accounts: they have no password to change. */
  hasPassword?: boolean;
}

export interface ProjectSummary {
  uuid: string;
  name: string;
  url: string;
  active?: 0 | 1;
}

export function displayName(profile: Profile): string {
  const name = [profile.firstName, profile.lastName].filter(Boolean).join(' ').trim();
  return name || profile.username;
}
