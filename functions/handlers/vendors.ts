/**
 * The vendor authorisation calls (issue 11; functions/integrations/vendor-auth.ts): GitLab and Jira
 * project lists, GitHub's repositories and Linear's teams (issue 24), Slack and Asana OAuth (authorise URL, code exchange, channel or project list).
 */

import type {
  GithubReposBody,
  GitlabProjectsBody,
  JiraProjectsBody,
  LinearTeamsBody,
  OAuthExchangeBody,
} from '#contracts/vendor-auth';
import { type AuthedInput, resourceHandler } from '#runtime/http';
import { vendorsApi } from '../integrations/manifest';
import type { OAuthVendor } from '../integrations/oauth-state';
import * as auth from '../integrations/vendor-auth';

/** A call about one project's integration: the pipeline has parsed its `{siteId}` (vendorsApi's params). */
type SiteInput<B = unknown> = AuthedInput<B, unknown, { siteId: string }>;

const oauth = (vendor: OAuthVendor) => ({
  async authorize({ session, params }: SiteInput) {
    return { msg: await auth.oauthAuthorize(session.userId, session.id, vendor, params.siteId) };
  },
  async authentication({ session, params, body, log }: SiteInput<OAuthExchangeBody>) {
    return { msg: await auth.oauthExchange(session.userId, session.id, vendor, params.siteId, body, log) };
  },
  async channels({ session, params, log }: SiteInput) {
    return { msg: await auth.oauthChannels(session.userId, vendor, params.siteId, log) };
  },
});

const reset = (vendor: 'gitlab' | 'jira' | 'slack' | 'asana' | 'github' | 'linear') =>
  async function resetOp({ session, params }: SiteInput) {
    return { msg: await auth.resetVendor(session.userId, vendor, params.siteId) };
  };

const slack = oauth('slack');
const asana = oauth('asana');

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
  slackAuthorize: slack.authorize,
  slackAuthentication: slack.authentication,
  slackChannels: slack.channels,
  asanaAuthorize: asana.authorize,
  asanaAuthentication: asana.authentication,
  asanaChannels: asana.channels,
  gitlabReset: reset('gitlab'),
  jiraReset: reset('jira'),
  slackReset: reset('slack'),
  asanaReset: reset('asana'),
  githubReset: reset('github'),
  linearReset: reset('linear'),
};

export const handler = resourceHandler(vendorsApi, operations);
