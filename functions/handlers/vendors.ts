/**
 * The vendor authorisation calls (issue 11; functions/integrations/vendor-auth.ts): GitLab and Jira
 * project lists, GitHub's repositories and Linear's teams (issue 24); for every OAuth vendor of the
 * catalogue the OAuth calls (authorise URL, code exchange, channel or project list), and every vendor's reset.
 */

import type { OAuthVendor, VendorName } from '#contracts/integration-catalogue';
import type {
  GithubReposBody,
  GitlabProjectsBody,
  JiraProjectsBody,
  LinearTeamsBody,
  OAuthExchangeBody,
} from '#contracts/vendor-auth';
import { type AuthedInput, resourceHandler } from '#runtime/http';
import { vendorsApi } from '../integrations/manifest';
import * as auth from '../integrations/vendor-auth';

/** A call about one project's vendor: the pipeline has parsed its `{vendor}` and `{siteId}`. */
type VendorInput<V, B = unknown> = AuthedInput<B, unknown, { vendor: V; siteId: string }>;

export const operations = {
  async gitlabProjects({ session, body, log }: AuthedInput<GitlabProjectsBody>) {
    return { msg: await auth.gitlabProjects(session.userId, body, log) };
  },
  async githubRepos({ session, body, log }: AuthedInput<GithubReposBody>) {
    return { msg: await auth.githubRepos(session.userId, body, log) };
  },
  async jiraProjects({ session, body, log }: AuthedInput<JiraProjectsBody>) {
    return { msg: await auth.jiraProjects(session.userId, body, log) };
  },
  async linearTeams({ session, body, log }: AuthedInput<LinearTeamsBody>) {
    return { msg: await auth.linearTeams(session.userId, body, log) };
  },
  async oauthAuthorize({ session, params }: VendorInput<OAuthVendor>) {
    return { msg: await auth.oauthAuthorize(session.userId, session.id, params.vendor, params.siteId) };
  },
  async oauthAuthentication({ session, params, body, log }: VendorInput<OAuthVendor, OAuthExchangeBody>) {
    const { vendor, siteId } = params;
    return { msg: await auth.oauthExchange(session.userId, session.id, vendor, siteId, body, log) };
  },
  async oauthChannels({ session, params, log }: VendorInput<OAuthVendor>) {
    return { msg: await auth.oauthChannels(session.userId, params.vendor, params.siteId, log) };
  },
  async reset({ session, params }: VendorInput<VendorName>) {
    return { msg: await auth.resetVendor(session.userId, params.vendor, params.siteId) };
  },
};

export const handler = resourceHandler(vendorsApi, operations);
