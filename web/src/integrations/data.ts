/**
 * The integrations feature's data: saving an integration, the vendors' authorisation (token lists, OAuth,
 * reset), the sync list and the trackers' inbound hook. The only module of integrations/ that calls the
 * API; `staleReads` says which cached reads each of its writes leaves stale (web/src/api/swr.ts applies
 * it). The project's cached answer carries `msg.integrations`, so it is what most writes change.
 */
import type { OAuthVendor, TokenVendor, VendorName } from '#contracts/integration-catalogue';
import type { IntegrationName, IntegrationsAnswer } from '#contracts/integrations';
import type { HookAnswer, TrackerVendor } from '#contracts/sync';
import {
  oauthRedirectPath,
  tokenVendorLists,
  type VendorListAnswer,
  type VendorListBody,
} from '#contracts/vendor-auth';
import type { ApiError } from '../api';
import { type BodyOf, endpointPath } from '../api/endpoints';
import { cachedValue, type Stale, type StaleReads, useEndpoint, writer } from '../api/swr';
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

const hookPath = (vendor: TrackerVendor, siteId: string | number) =>
  endpointPath('hooks.show', { params: { vendor, siteId } });

/** The saved integrations an answer carries go into the cached project, without fetching it. */
const withIntegrations = (
  siteId: string | number,
  { integrations }: { integrations: IntegrationsAnswer },
): Stale => ({
  put: [[projectPath(String(siteId)), (cached?: ProjectDetail) => cached && { ...cached, integrations }]],
});

/** A revealed or new secret is shown once, by the screen; the cached hook keeps the rest of the answer. */
const hookWithoutSecret = (vendor: TrackerVendor, siteId: string | number, hook: HookAnswer): Stale => ({
  put: [[hookPath(vendor, siteId), { ...hook, secret: undefined }]],
});

/** A token vendor's list authorises on the server (it saves the first choice): the project reloads. */
const authorisedBy = (body: { siteId: string }) => ({ reload: [projectPath(body.siteId)] });

/**
 * What each write leaves stale. A save and a reset answer the project's integrations, which replace the
 * cached ones; a token vendor's list and an OAuth exchange saved on the server, so the project reloads.
 * The hook's calls answer the hook: a reveal or regenerate shows the secret once (the screen keeps it),
 * the cache keeps the hook without it.
 */
const staleReads: StaleReads = {
  'integrations.save': ({ siteId }, answer) => withIntegrations(siteId, answer),
  'vendors.reset': ({ siteId }, answer) => withIntegrations(siteId, answer),
  'vendors.list': (_p, _a, _as, body) => authorisedBy(body),
  'vendors.oauthAuthentication': ({ siteId }) => ({ reload: [projectPath(String(siteId))] }),
  'hooks.reveal': ({ vendor, siteId }, hook) => hookWithoutSecret(vendor as TrackerVendor, siteId, hook),
  'hooks.regenerate': ({ vendor, siteId }, hook) => hookWithoutSecret(vendor as TrackerVendor, siteId, hook),
  'hooks.register': ({ vendor, siteId }, hook) => ({
    put: [[hookPath(vendor as TrackerVendor, siteId), hook]],
  }),
};
const write = writer(staleReads);

/** The saved view of one integration in the cached project (after the write's reload). */
async function cachedView<N extends IntegrationName>(projectId: string, name: N) {
  const fresh = await cachedValue<ProjectDetail>(projectPath(projectId));
  return fresh?.integrations.find((i): i is ViewOf<N> => i.name === name);
}

/** Saves one integration; answers the saved view (the cached project shows the new list). */
export async function saveIntegration<N extends IntegrationName>(
  projectId: string,
  input: IntegrationChange & { name: N },
): Promise<ViewOf<N>> {
  const { integrations } = await write('integrations.save', {
    params: { siteId: projectId },
    body: [input],
  });
  return integrations.find((i): i is ViewOf<N> => i.name === input.name) as ViewOf<N>;
}

/** A token vendor's list call, at its own address (`gitlab/projects`) with its own body and answer. */
function listChoices<V extends TokenVendor>(vendor: V, body: VendorListBody<V>) {
  const params = { vendor, list: tokenVendorLists[vendor] };
  return write('vendors.list', { params, body }) as Promise<VendorListAnswer<V>>;
}

/**
 * GitLab, Jira and Linear: the projects (Linear: teams) (and Jira's issue types, of `jiraProject` or else
 * the chosen or first project) the token can see. Success authorises: the server has saved the integration
 * with the first project chosen, so the cached project reloads, and its saved view (token masked) is
 * answered too.
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
          projects: await listChoices('gitlab', {
            siteId: projectId,
            host: credentials.host,
            key: credentials.key,
          }),
          issueTypes: [],
        }
      : vendor === 'linear'
        ? {
            projects: await listChoices('linear', { siteId: projectId, key: credentials.key }),
            issueTypes: [],
          }
        : await listChoices('jira', {
            siteId: projectId,
            ...credentials,
            ...(jiraProject ? { projectId: jiraProject } : {}),
          });
  return { ...answer, view: await cachedView(projectId, vendor) };
}

/**
 * GitHub: the repositories the token reaches (Authorize). Success authorises, as GitLab's list does: the
 * server saved the token with the first repository chosen, so the cached project reloads.
 */
export async function fetchGithubRepos(
  projectId: string,
  key: string,
): Promise<{ repos: Choice[]; view: ViewOf<'github'> | undefined }> {
  const repos = await listChoices('github', { siteId: projectId, key });
  return { repos, view: await cachedView(projectId, 'github') };
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
  const { url, redirectUrl } = await write('vendors.oauthAuthorize', {
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
  await write('vendors.oauthAuthentication', {
    params: { vendor, siteId: projectId },
    body: { ...body, redirectUrl: oauthRedirectUrl(vendor) },
  });
}

/**
 * Reset (SPEC.md section 4): back to unauthorised with active 0, the tokens and the choice cleared on
 * the server. Answers the saved view (the cached project shows it).
 */
export async function resetAuthorization<N extends VendorName>(
  vendor: N,
  projectId: string,
): Promise<ViewOf<N>> {
  const { integrations } = await write('vendors.reset', { params: { vendor, siteId: projectId } });
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
  await write('integrations.sync', {
    params: { siteUuid: projectId },
    body: { tickets: tickets.map(String), type: name },
  });
}

/** A tracker's inbound hook: its URL (no secret), as the server keeps it. */
export const useHook = (vendor: TrackerVendor, projectId: string) =>
  useEndpoint('hooks.show', { params: { vendor, siteId: projectId } });

const hookCalls = {
  reveal: 'hooks.reveal',
  regenerate: 'hooks.regenerate',
  register: 'hooks.register',
} as const;

/** Reveal (the secret, once), regenerate (a new secret, once) or register the hook with the tracker. */
export function hookCall(
  action: keyof typeof hookCalls,
  vendor: TrackerVendor,
  projectId: string,
): Promise<HookAnswer> {
  return write(hookCalls[action], { params: { vendor, siteId: projectId } });
}

/**
 * Trello: the member's boards and the lists of `boardId` (else the chosen or first board) with the typed
 * key, token and secret. Success authorises, as the other token vendors' lists: the saved view comes too.
 */
export async function fetchTrelloBoards(
  projectId: string,
  credentials: { key: string; token: string; secret: string },
  boardId?: string,
): Promise<{ boards: Choice[]; lists: Choice[]; view: ViewOf<'trello'> | undefined }> {
  const answer = await listChoices('trello', {
    siteId: projectId,
    ...credentials,
    ...(boardId ? { boardId } : {}),
  });
  return { ...answer, view: await cachedView(projectId, 'trello') };
}

export type { IntegrationsAnswer, OAuthVendor };

/**
 * ClickUp: every list the token reaches, named by its path (Authorize). Success authorises, as GitHub's
 * list does: the server saved the token with the first list chosen, so the cached project reloads.
 */
export async function fetchClickupLists(
  projectId: string,
  key: string,
): Promise<{ lists: Choice[]; view: ViewOf<'clickup'> | undefined }> {
  const lists = await listChoices('clickup', { siteId: projectId, key });
  return { lists, view: await cachedView(projectId, 'clickup') };
}

/**
 * Azure DevOps: the organisation's projects and the work item types of `project` (else the chosen or first
 * one) with the organisation URL and PAT. Success authorises, as Jira's list does, so the cached project
 * reloads and its saved view (token masked) is answered too.
 */
export async function fetchAzureChoices(
  projectId: string,
  credentials: { host: string; key: string },
  project?: string,
): Promise<{ projects: Choice[]; issueTypes: Choice[]; view: ViewOf<'azure'> | undefined }> {
  const answer = await listChoices('azure', {
    siteId: projectId,
    ...credentials,
    ...(project ? { projectId: project } : {}),
  });
  return { ...answer, view: await cachedView(projectId, 'azure') };
}
