/**
 * The vendor authorisation flows behind functions/handlers/vendors.ts (issue 11, SPEC.md sections 4 and 7):
 * - GitHub: the token's repositories from GITHUB_API_URL (Snag's setting, plain fetch); success
 *   authorises as GitLab's does.
 * - GitLab / Jira: list with the entered credentials through the SSRF-guarded client; success authorises
 *   at once (authorized 1, token saved, the chosen project kept when still listed, else the first).
 * - Linear: the API key checked (`viewer`) and its teams listed on Linear's fixed endpoint; success
 *   authorises as GitLab's does (the chosen team kept when still listed, else the first).
 * - Slack / Asana: an authorise URL with a signed state (oauth-state.ts), the code exchange (state checked
 *   and used up, tokens stored server-side only), and the channel or project list (Asana refreshes first).
 * Every call is owner-scoped (someone else's project is NOT_FOUND) and plan-gated
 * (INTEGRATION_NOT_AVAILABLE); a refused state is AUTHORIZATION_FAILED, vendor failures are mapped by
 * `authorisationErrorCode`.
 */

import type { ErrorCode } from '#contracts/errors';
import { integrationCatalogue, type TokenVendor, type VendorName } from '#contracts/integration-catalogue';
import {
  type JiraProjectsAnswer,
  type OAuthAuthorizeAnswer,
  type OAuthExchangeBody,
  oauthRedirectPath,
  type TrelloBoardsAnswer,
  type VendorListAnswer,
  type VendorListBody,
  type VendorOption,
} from '#contracts/vendor-auth';
import { getConfig } from '#runtime/config';
import { AppError } from '#runtime/errors';
import type { Logger } from '#runtime/log';
import { outboundFetch } from '#runtime/outbound';
import { getSecrets } from '#runtime/secrets';
import { nowMs } from '#runtime/time';
import { planOfProject } from '../projects/project';
import { azureProjects } from './azure-list';
import {
  allowedByPlan,
  authorizeIntegration,
  defaultIntegration,
  type IntegrationRecord,
  type OAuthTokens,
  readOwnedIntegrations,
  sentSecret,
} from './integration';
import { checkState, consumeState, issueState, type OAuthVendor } from './oauth-state';
import { dropRegistration } from './sync/registration';
import * as asana from './vendors/asana';
import { asanaConfig, withAsanaToken } from './vendors/asana';
import * as clickup from './vendors/clickup';
import * as github from './vendors/github';
import * as gitlab from './vendors/gitlab';
import {
  type GuardedFetch,
  guardedHttp,
  type Http,
  isVendorError,
  isVendorOutage,
  type VendorError,
} from './vendors/http';
import * as jira from './vendors/jira';
import * as linear from './vendors/linear';
import * as slack from './vendors/slack';
import * as trello from './vendors/trello';

const plainHttp: Http = (url, init) => fetch(url, init);
/** User hosts (GitLab, Jira) only through the guard. */
const userHostHttp = (): Http => guardedHttp(outboundFetch() as GuardedFetch);

/** The owned project's integration of `name`, after the plan gate. */
async function owned<N extends VendorName>(userId: string, siteId: string, name: N) {
  const { project, integrations } = await readOwnedIntegrations(siteId, userId, 'integrations');
  if (!allowedByPlan(name, planOfProject(project))) throw new AppError('INTEGRATION_NOT_AVAILABLE');
  return { project, current: (integrations[name] ?? defaultIntegration(name)) as IntegrationRecord<N> };
}

/**
 * A vendor failure as the client should read it (docs/decisions.md "Vendor authorisation errors"): a
 * GitLab or Jira token refused (401/403), or a Linear key Linear calls an authentication error, is TOKEN_REFUSED, the vendor out of order (5xx, timeout, no
 * connection) VENDOR_UNAVAILABLE (502), anything else the client gave that the vendor or the guard
 * refused (host, project, OAuth code) AUTHORIZATION_FAILED; the last two are 4xx, so a mistyped token
 * does not feed the API's 5xx alarms.
 */
export function authorisationErrorCode(err: VendorError): ErrorCode {
  const status = err.details.status;
  const tokenVendor =
    err.vendor === 'gitlab' ||
    err.vendor === 'jira' ||
    err.vendor === 'github' ||
    err.vendor === 'clickup' ||
    err.vendor === 'azure' ||
    err.vendor === 'trello';
  // A 403 that is a rate limit is not permanent (http.ts statusError): the vendor's, not the token's.
  if (tokenVendor && err.permanent && (status === 401 || status === 403)) return 'TOKEN_REFUSED';
  if (err.vendor === 'linear' && err.details.code === 'AUTHENTICATION_ERROR') return 'TOKEN_REFUSED';
  return isVendorOutage(err) ? 'VENDOR_UNAVAILABLE' : 'AUTHORIZATION_FAILED';
}

/** Vendor failures (and the guard's refusals) in the client's terms, logged without secrets. */
async function authorising<T>(log: Logger, vendor: VendorName, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    // Snag's own faults (the table, a bug) stay what they are: a logged 500.
    if (!isVendorError(err)) throw err;
    log.warn('vendor authorisation failed', { vendor, reason: err.reason, ...err.details });
    throw new AppError(authorisationErrorCode(err), undefined, { cause: err });
  }
}

/** The chosen id when it is still listed, else the first. */
const keepOrFirst = (chosen: string, options: VendorOption[]) =>
  options.some((o) => o.id === chosen) ? chosen : (options[0]?.id ?? '');

async function gitlabProjects(
  userId: string,
  body: VendorListBody<'gitlab'>,
  log: Logger,
): Promise<VendorOption[]> {
  const { current } = await owned(userId, body.siteId, 'gitlab');
  // A masked token means the stored one, only for the host it was saved for.
  const key = sentSecret('gitlab', current.data, body, 'key', 'key');
  return authorising(log, 'gitlab', async () => {
    const auth = { base: gitlab.gitlabBase(body.host, getConfig().GITLAB_URL), token: key };
    const projects = await gitlab.listProjects(userHostHttp(), auth);
    await authorizeIntegration(body.siteId, userId, 'gitlab', {
      authorized: 1,
      data: { host: body.host, key, id: keepOrFirst(current.data.id, projects) },
    });
    return projects;
  });
}

async function githubRepos(
  userId: string,
  body: VendorListBody<'github'>,
  log: Logger,
): Promise<VendorOption[]> {
  const { current } = await owned(userId, body.siteId, 'github');
  const key = sentSecret('github', current.data, body, 'key', 'key');
  // The masked value with nothing stored behind it (a reset in another tab): there is no token to try.
  if (!key) throw new AppError('INVALID_PARAMETERS', { key: 'SECRET_REQUIRED' });
  return authorising(log, 'github', async () => {
    const repos = await github.listRepos(plainHttp, github.githubAuth(getConfig().GITHUB_API_URL, key));
    await authorizeIntegration(body.siteId, userId, 'github', {
      authorized: 1,
      data: { key, id: keepOrFirst(current.data.id, repos) },
    });
    return repos;
  });
}

async function linearTeams(
  userId: string,
  body: VendorListBody<'linear'>,
  log: Logger,
): Promise<VendorOption[]> {
  const { current } = await owned(userId, body.siteId, 'linear');
  const key = sentSecret('linear', current.data, body, 'key', 'key');
  return authorising(log, 'linear', async () => {
    const auth = { url: getConfig().LINEAR_API_URL, key };
    // The key's user first: a key that reaches no team is still a good key, and a refused one says so.
    await linear.viewer(plainHttp, auth);
    const teams = await linear.listTeams(plainHttp, auth);
    const id = keepOrFirst(current.data.id, teams);
    await authorizeIntegration(body.siteId, userId, 'linear', {
      authorized: 1,
      data: { key, id, name: teams.find((t) => t.id === id)?.name ?? '' },
    });
    return teams;
  });
}

async function jiraProjects(
  userId: string,
  body: VendorListBody<'jira'>,
  log: Logger,
): Promise<JiraProjectsAnswer> {
  const { current } = await owned(userId, body.siteId, 'jira');
  const key = sentSecret('jira', current.data, body, 'key', 'key');
  return authorising(log, 'jira', async () => {
    const auth = { base: jira.jiraBase(body.host), username: body.username, token: key };
    const http = userHostHttp();
    const projects = await jira.listProjects(http, auth);
    const projectId = keepOrFirst(body.projectId ?? current.data.id, projects);
    const issueTypes = projectId ? await jira.listIssueTypes(http, auth, projectId) : [];
    await authorizeIntegration(body.siteId, userId, 'jira', {
      authorized: 1,
      data: {
        host: body.host,
        username: body.username,
        key,
        id: projectId,
        issueId: keepOrFirst(current.data.issueId, issueTypes),
      },
    });
    return { projects, issueTypes };
  });
}

/** ClickUp: every list the token reaches (workspace → space → folder → list), on ClickUp's fixed API. */
async function clickupLists(
  userId: string,
  body: VendorListBody<'clickup'>,
  log: Logger,
): Promise<VendorOption[]> {
  const { current } = await owned(userId, body.siteId, 'clickup');
  const key = sentSecret('clickup', current.data, body, 'key', 'key');
  if (!key) throw new AppError('INVALID_PARAMETERS', { key: 'SECRET_REQUIRED' });
  return authorising(log, 'clickup', async () => {
    const lists = await clickup.listLists(plainHttp, clickup.clickupAuth(getConfig().CLICKUP_API_URL, key));
    const id = keepOrFirst(current.data.id, lists);
    await authorizeIntegration(body.siteId, userId, 'clickup', {
      authorized: 1,
      data: { key, id, name: lists.find((l) => l.id === id)?.name ?? '' },
    });
    return lists;
  });
}

/**
 * Trello: the member's boards and the lists of `boardId` (else the chosen or first board); success stores
 * the key, the token and the app secret with the board and, where still listed, the chosen lists (the
 * first list for new cards, none for done until the client picks one).
 */
async function trelloBoards(
  userId: string,
  body: VendorListBody<'trello'>,
  log: Logger,
): Promise<TrelloBoardsAnswer> {
  const { current } = await owned(userId, body.siteId, 'trello');
  // Masked values mean the stored ones, only for the API key they were saved with.
  const token = sentSecret('trello', current.data, body, 'token', 'token');
  const secret = sentSecret('trello', current.data, body, 'secret', 'secret');
  if (!token || !secret) throw new AppError('INVALID_PARAMETERS', { token: 'SECRET_REQUIRED' });
  return authorising(log, 'trello', async () => {
    const auth = { base: getConfig().TRELLO_API_URL, key: body.key, token };
    const http = userHostHttp();
    const boards = await trello.listBoards(http, auth);
    const board = keepOrFirst(body.boardId ?? current.data.board, boards);
    const lists = board ? await trello.listLists(http, auth, board) : [];
    const sameBoard = board === current.data.board;
    await authorizeIntegration(body.siteId, userId, 'trello', {
      authorized: 1,
      data: {
        key: body.key,
        token,
        secret,
        board,
        boardName: boards.find((b) => b.id === board)?.name ?? '',
        list: keepOrFirst(sameBoard ? current.data.list : '', lists),
        doneList: sameBoard && lists.some((l) => l.id === current.data.doneList) ? current.data.doneList : '',
      },
    });
    return { boards, lists };
  });
}

type Lister<V extends TokenVendor> = (
  userId: string,
  body: VendorListBody<V>,
  log: Logger,
) => Promise<VendorListAnswer<V>>;

/**
 * Each token vendor's list call (the catalogue's `list`), keyed by `TokenVendor` and typed exhaustive: it
 * checks the credentials, lists the choices and, on success, authorises the project's integration.
 */
const listers: { [V in TokenVendor]: Lister<V> } = {
  gitlab: gitlabProjects,
  jira: jiraProjects,
  github: githubRepos,
  linear: linearTeams,
  clickup: clickupLists,
  azure: (userId, body, log) =>
    azureProjects(
      userId,
      body,
      async (siteId) => (await owned(userId, siteId, 'azure')).current,
      (work) => authorising(log, 'azure', work),
    ),
  trello: trelloBoards,
};

/** A token vendor's list with the body its `{vendor}` chose (the route's `vendorListBodies`). */
export function listVendorChoices<V extends TokenVendor>(
  userId: string,
  vendor: V,
  body: VendorListBody<V>,
  log: Logger,
): Promise<VendorListAnswer<V>> {
  return (listers[vendor] as Lister<V>)(userId, body, log);
}

/**
 * What each OAuth vendor of the catalogue does in the one flow below (authorise, exchange, list): keyed by
 * `OAuthVendor` and typed exhaustive, so a new OAuth vendor is its entry here and its client in vendors/.
 */
interface OAuthAuthoriser {
  /** The OAuth app's id (config) and secret (secrets); unset: the integration is not available here. */
  client(): Promise<{ id: string | undefined; secret: string | undefined }>;
  authorizeUrl(clientId: string, redirectUrl: string, state: string): string;
  exchange(client: { id: string; secret: string }, code: string, redirectUrl: string): Promise<OAuthTokens>;
  /** The choices (channels, projects) with the stored tokens. */
  list(siteId: string, oauth: OAuthTokens): Promise<VendorOption[]>;
}

const oauthAuthorisers: { [V in OAuthVendor]: OAuthAuthoriser } = {
  slack: {
    client: async () => ({
      id: getConfig().SLACK_CLIENT_ID,
      secret: (await getSecrets()).SLACK_CLIENT_SECRET,
    }),
    authorizeUrl: (clientId, redirectUrl, state) =>
      slack.authorizeUrl(getConfig().SLACK_AUTHORIZE_URL, clientId, redirectUrl, state),
    async exchange(client, code, redirectUrl) {
      const api = { apiUrl: getConfig().SLACK_API_URL };
      const out = await slack.exchangeCode(plainHttp, api, client, code, redirectUrl);
      return { accessToken: out.accessToken, ...(out.team ? { extra: { team: out.team } } : {}) };
    },
    list: (_siteId, oauth) =>
      slack.listChannels(plainHttp, { apiUrl: getConfig().SLACK_API_URL }, oauth.accessToken),
  },
  asana: {
    client: async () => ({
      id: getConfig().ASANA_CLIENT_ID,
      secret: (await getSecrets()).ASANA_CLIENT_SECRET,
    }),
    authorizeUrl: (clientId, redirectUrl, state) =>
      asana.authorizeUrl(asanaConfig(), clientId, redirectUrl, state),
    exchange: (client, code, redirectUrl) =>
      asana.exchangeCode(plainHttp, asanaConfig(), client, code, redirectUrl, nowMs()),
    list: (siteId, oauth) =>
      withAsanaToken(siteId, oauth, (token) => asana.listProjects(plainHttp, asanaConfig(), token)),
  },
};

/** The OAuth app's credentials; without them the integration is not available on this stage. */
async function oauthClient(vendor: OAuthVendor) {
  const { id, secret } = await oauthAuthorisers[vendor].client();
  if (!id || !secret) throw new AppError('INTEGRATION_NOT_AVAILABLE');
  return { id, secret };
}

export const oauthRedirectUrl = (vendor: OAuthVendor) =>
  `${getConfig().APP_ORIGIN}${oauthRedirectPath(vendor)}`;

export async function oauthAuthorize(
  userId: string,
  sessionId: string,
  vendor: OAuthVendor,
  siteId: string,
): Promise<OAuthAuthorizeAnswer> {
  await owned(userId, siteId, vendor);
  const client = await oauthClient(vendor);
  const state = await issueState(vendor, siteId, sessionId);
  const redirectUrl = oauthRedirectUrl(vendor);
  const url = oauthAuthorisers[vendor].authorizeUrl(client.id, redirectUrl, state);
  return { url, state, redirectUrl };
}

export async function oauthExchange(
  userId: string,
  sessionId: string,
  vendor: OAuthVendor,
  siteId: string,
  body: OAuthExchangeBody,
  log: Logger,
) {
  await owned(userId, siteId, vendor);
  const client = await oauthClient(vendor);
  const checked = await checkState(vendor, body.state, siteId, sessionId);
  const redirectUrl = oauthRedirectUrl(vendor);
  if (!checked.ok || body.redirectUrl !== redirectUrl) {
    log.warn('oauth state refused', { vendor, why: checked.ok ? 'redirect-url' : checked.why });
    throw new AppError('AUTHORIZATION_FAILED');
  }
  if (!(await consumeState(checked.nonce, checked.expires))) {
    log.warn('oauth state refused', { vendor, why: 'replayed' });
    throw new AppError('AUTHORIZATION_FAILED');
  }
  return authorising(log, vendor, async () => {
    const oauth = await oauthAuthorisers[vendor].exchange(client, body.code, redirectUrl);
    const integrations = await authorizeIntegration(siteId, userId, vendor, { authorized: 1, oauth });
    return { integrations };
  });
}

/** An OAuth vendor's channels or projects, for the integration's choice. */
export async function oauthChannels(userId: string, vendor: OAuthVendor, siteId: string, log: Logger) {
  const { current } = await owned(userId, siteId, vendor);
  const oauth = current.oauth;
  if (current.authorized !== 1 || !oauth?.accessToken) throw new AppError('AUTHORIZATION_FAILED');
  return authorising(log, vendor, () => oauthAuthorisers[vendor].list(siteId, oauth));
}

/**
 * Reset: back to unauthorised with active 0, the token (or the OAuth tokens) and the choice cleared.
 * Owner-scoped but not plan-gated, so a client whose plan lapsed can still remove the tokens.
 */
export async function resetVendor(userId: string, vendor: VendorName, siteId: string, log: Logger) {
  // A tracker's hook registered at the vendor goes first, while the token that can delete it is stored.
  if (integrationCatalogue[vendor].tracker) {
    const { integrations: now } = await readOwnedIntegrations(siteId, userId, 'integrations');
    await dropRegistration(siteId, vendor, now[vendor] ?? defaultIntegration(vendor), log);
  }
  const integrations = await authorizeIntegration(siteId, userId, vendor, {
    authorized: 0,
    active: 0,
    oauth: null,
    // What the catalogue's `reset` names: the token or the choice (SPEC section 4).
    data: integrationCatalogue[vendor].reset,
  });
  return { integrations };
}
