/**
 * The integration screens' calls (issue 11) through the typed client, with the project's cached answer
 * (which carries `msg.integrations`) kept in step after a save.
 */
import { mutate } from 'swr';
import type {
  IntegrationInput,
  IntegrationName,
  IntegrationsAnswer,
  IntegrationView,
} from '../../../functions/shared/integrations';
import { api } from '../api';
import { useEndpoint } from '../api/swr';
import type { ProjectDetail } from '../api/types';
import { projectPath } from '../projects/model';
import { paths } from '../routes/paths';
import type { ViewOf } from './model';

/** An option of a vendor's list: a project, an issue type, a channel. */
export interface Choice {
  id: string;
  name: string;
}

/** Saves one integration; answers the saved view and puts the new list into the cached project. */
export async function saveIntegration<N extends IntegrationName>(
  projectId: string,
  input:
    | Extract<IntegrationInput, { name: N }>
    | (Omit<Extract<IntegrationInput, { name: N }>, 'data'> & { data: unknown }),
): Promise<ViewOf<N>> {
  const { integrations } = await api.call('integrations.save', {
    params: { siteId: projectId },
    body: [input as IntegrationInput],
  });
  await mutate(projectPath(projectId), (cached?: ProjectDetail) => cached && { ...cached, integrations }, {
    revalidate: false,
  });
  return integrations.find((i: IntegrationView) => i.name === input.name) as ViewOf<N>;
}

/** GitLab and Jira: the projects (and Jira's issue types) the token can see; success authorises. */
export async function fetchVendorProjects(
  vendor: 'gitlab' | 'jira',
  projectId: string,
  credentials: { host: string; username: string; key: string },
): Promise<{ projects: Choice[]; issueTypes: Choice[] }> {
  const answer =
    vendor === 'gitlab'
      ? {
          projects: await api.call('integrationVendors.gitlabProjects', {
            body: { siteId: projectId, host: credentials.host, key: credentials.key },
          }),
          issueTypes: [],
        }
      : await api.call('integrationVendors.jiraProjects', {
          body: { siteId: projectId, ...credentials },
        });
  // The server saved the authorisation and the first project: show it.
  await mutate(projectPath(projectId));
  return answer;
}

/** Where the vendor sends the client back after its consent page (the same URL the exchange names). */
export function oauthRedirectUrl(vendor: 'slack' | 'asana', projectId: string): string {
  const path = vendor === 'asana' ? paths.asanaRedirect : paths.integrations(projectId, 'slack');
  return `${window.location.origin}${path}`;
}

/** The vendor's consent page for this project, with a signed state bound to this session. */
export async function startOAuth(vendor: 'slack' | 'asana', projectId: string): Promise<string> {
  const { url } = await api.call('integrationVendors.authorize', {
    params: { vendor, siteId: projectId },
    query: { redirectUrl: oauthRedirectUrl(vendor, projectId) },
  });
  return url;
}

export async function exchangeOAuthCode(
  vendor: 'slack' | 'asana',
  projectId: string,
  body: { code: string; state: string; redirectUrl: string },
): Promise<void> {
  await api.call(
    vendor === 'slack' ? 'integrationVendors.slackAuthenticate' : 'integrationVendors.asanaAuthenticate',
    {
      params: { siteId: projectId },
      body,
    },
  );
  await mutate(projectPath(projectId));
}

/** Slack's channels or Asana's projects; failures stay on the screen (no redirect). */
export function useVendorChannels(vendor: 'slack' | 'asana', projectId: string) {
  return useEndpoint(
    vendor === 'slack' ? 'integrationVendors.slackChannels' : 'integrationVendors.asanaChannels',
    { params: { siteId: projectId } },
    { redirect: (error) => (error.unauthorized ? '/login' : null) },
  );
}

export function useSyncList(projectId: string, name: IntegrationName) {
  return useEndpoint('issues.list', { params: { id: projectId }, query: { integration: name } });
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

export type { IntegrationsAnswer };
