/** Response shapes the dashboard reads (SPEC.md section 3); fields later issues need are added there. */
export interface Profile {
  username: string;
  firstName?: string;
  lastName?: string;
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
