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

export function displayName(profile: Profile): string {
  const name = [profile.firstName, profile.lastName].filter(Boolean).join(' ').trim();
  return name || profile.username;
}
