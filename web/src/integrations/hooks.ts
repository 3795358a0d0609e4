/**
 * The integration screens' calls (issue 11) through the typed client, with the project's cached answer
 * (which carries `msg.integrations`) kept in step after a save.
 */

import { mutate } from 'swr';
import type { OAuthVendor, VendorName } from '#contracts/integration-catalogue';
import type { IntegrationName, IntegrationsAnswer } from '#contracts/integrations';
import { oauthRedirectPath } from '#contracts/vendor-auth';
import { type ApiError, api } from '../api';
import type { BodyOf } from '../api/endpoints';
import { useEndpoint } from '../api/swr';
import type { ProjectDetail } from '../api/types';
import { isIssuePage } from '../issues/model';
import { projectPath } from '../projects/model';
import type { ViewOf } from './model';

/** An option of a vendor's list: a project, an issue type, a channel. */
export interface Choice {
  id: string;
  name: string;
}

/** One integration as the save takes it (the schema's input: defaulted fields may be left out). */
export type IntegrationChange = BodyOf<'integrations.save'>[number];

/** Saves one integration; answers the saved view and puts the new list into the cached project. */
export async function saveIntegration<N extends IntegrationName>(
  projectId: string,
  input: IntegrationChange & { name: N },
): Promise<ViewOf<N>> {
  const { integrations } = await api.call('integrations.save', {
    params: { siteId: projectId },
    body: [input],
  });
  await mutate(projectPath(projectId), (cached?: ProjectDetail) => cached && { ...cached, integrations }, {
    revalidate: false,
  });
  return integrations.find((i): i is ViewOf<N> => i.name === input.name) as ViewOf<N>;
}

/**
 * GitLab, Jira and Linear: the projects (Linear: teams) (and Jira's issue types, of `jiraProject` or else the chosen or first
 * project) the token can see. Success authorises: the server has saved the integration with the first
 * project chosen, so the cached project reloads, and its saved view (token masked) is answered too.
 */
export async function fetchVendorProjects<N extends 'gitlab' | 'jira' | 'linear'>(
  vendor: N,
  projectId: string,
  credentials: { host: string; username: string; key: string },
  jiraProject?: string,
): Promise<{ projects: Choice[]; issueTypes: Choice[]; view: ViewOf<N> | undefined }> {
  const answer =
    vendor === 'gitlab'
      ? {
          projects: await api.call('vendors.gitlabProjects', {
            body: { siteId: projectId, host: credentials.host, key: credentials.key },
          }),
          issueTypes: [],
        }
      : vendor === 'linear'
        ? {
            projects: await api.call('vendors.linearTeams', {
              body: { siteId: projectId, key: credentials.key },
            }),
            issueTypes: [],
          }
        : await api.call('vendors.jiraProjects', {
            body: { siteId: projectId, ...credentials, ...(jiraProject ? { projectId: jiraProject } : {}) },
          });
  const fresh: ProjectDetail | undefined = await mutate(projectPath(projectId));
  const view = fresh?.integrations.find((i): i is ViewOf<N> => i.name === vendor);
  return { ...answer, view };
}

/**
 * GitHub: the repositories the token reaches (Authorize). Success authorises, as GitLab's list does: the
 * server saved the token with the first repository chosen, so the cached project reloads.
 */
export async function fetchGithubRepos(
  projectId: string,
  key: string,
): Promise<{ repos: Choice[]; view: ViewOf<'github'> | undefined }> {
  const repos = await api.call('vendors.githubRepos', { body: { siteId: projectId, key } });
  const fresh: ProjectDetail | undefined = await mutate(projectPath(projectId));
  const view = fresh?.integrations.find((i): i is ViewOf<'github'> => i.name === 'github');
  return { repos, view };
}

/**
 * Where the vendor sends the client back: a fixed dashboard page per vendor, which forwards to the site.
 * The exchange must name it exactly as the authorize call did, so that answer is kept for the return.
 */
const redirectKey = (vendor: OAuthVendor) => `snag.oauth.${vendor}.redirect`;
const oauthRedirectUrl = (vendor: OAuthVendor) =>
  sessionStorage.getItem(redirectKey(vendor)) ?? `${window.location.origin}${oauthRedirectPath(vendor)}`;

/** The vendor's consent page for this project, with a signed state bound to this session. */
export async function startOAuth(vendor: OAuthVendor, projectId: string): Promise<string> {
  const { url, redirectUrl } = await api.call('vendors.oauthAuthorize', {
    params: { vendor, siteId: projectId },
  });
  sessionStorage.setItem(redirectKey(vendor), redirectUrl);
  return url;
}

export async function exchangeOAuthCode(
  vendor: OAuthVendor,
  projectId: string,
  body: { code: string; state: string },
): Promise<void> {
  await api.call('vendors.oauthAuthentication', {
    params: { vendor, siteId: projectId },
    body: { ...body, redirectUrl: oauthRedirectUrl(vendor) },
  });
  await mutate(projectPath(projectId));
}

/**
 * Reset (SPEC.md section 4): back to unauthorised with active 0, the tokens and the choice cleared on
 * the server. Answers the saved view and updates the cached project.
 */
export async function resetAuthorization<N extends VendorName>(
  vendor: N,
  projectId: string,
): Promise<ViewOf<N>> {
  const { integrations } = await api.call('vendors.reset', { params: { vendor, siteId: projectId } });
  await mutate(projectPath(projectId), (cached?: ProjectDetail) => cached && { ...cached, integrations }, {
    revalidate: false,
  });
  return integrations.find((i): i is ViewOf<N> => i.name === vendor) as ViewOf<N>;
}

/** An OAuth vendor's channels or projects; a failure stays on the screen (no redirect). */
export function useVendorChannels(vendor: OAuthVendor, projectId: string) {
  const stay = { redirect: (error: ApiError) => (error.unauthorized ? '/login' : null) };
  return useEndpoint('vendors.oauthChannels', { params: { vendor, siteId: projectId } }, stay);
}

/** The new and failed tickets of one integration (the issue list's route, asked with `integration`). */
export function useSyncList(projectId: string, name: IntegrationName) {
  const { data } = useEndpoint('issues.list', { params: { id: projectId }, query: { integration: name } });
  return { data: data && !isIssuePage(data) ? data : undefined };
}

export async function syncTickets(
  projectId: string,
  name: IntegrationName,
  tickets: number[],
): Promise<void> {
  await api.call('integrations.sync', {
    params: { siteUuid: projectId },
    body: { tickets: tickets.map(String), type: name },
  });
}

export type { IntegrationsAnswer, OAuthVendor };
