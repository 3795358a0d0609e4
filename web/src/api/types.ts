/**
 * Names for the answers the dashboard reads most. They are the handlers' own answer types, through the
 * typed client (web/src/api/endpoints.ts): never written out here, so they cannot drift from the API.
 */
import type { Answer } from './endpoints';

/** The signed-in profile, as GET /client/profile answers it. */
export type Profile = Answer<'profile.get'>;

/** A project (website) as GET /client/website lists it. */
export type ProjectSummary = Answer<'projects.list'>['websites'][number];

/** GET/PATCH /client/website/{id}. */
export type ProjectDetail = Answer<'projects.get'>;

/**
 * The project with its widget settings (`data`, `effective`), as every role but a GUEST reads it: the
 * settings screens' own (a GUEST never reaches them, DESIGN section 10).
 */
export type ProjectSettings = ProjectDetail['website'] &
  Required<Pick<ProjectDetail['website'], 'data' | 'effective'>>;

const hasSettings = (website: ProjectDetail['website']): website is ProjectSettings =>
  website.data !== undefined && website.effective !== undefined;

/** The project with its settings, or null for an answer without them (a GUEST's). */
export const settingsOf = (website: ProjectDetail['website']): ProjectSettings | null =>
  hasSettings(website) ? website : null;

export function displayName(profile: Profile): string {
  const name = [profile.firstName, profile.lastName].filter(Boolean).join(' ').trim();
  return name || profile.username;
}
