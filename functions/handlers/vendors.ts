/**
 * The vendor authorisation calls (issue 11; functions/integrations/vendor-auth.ts): GitLab and Jira
 * project lists, Slack and Asana OAuth (authorise URL, code exchange, channel or project list).
 */

import { projectIdParam } from '#contracts/schemas';
import type { GitlabProjectsBody, JiraProjectsBody, OAuthExchangeBody } from '#contracts/vendor-auth';
import { AppError } from '#runtime/errors';
import { type AuthedInput, resourceHandler } from '#runtime/http';
import type { OAuthVendor } from '../integrations/oauth-state';
import * as auth from '../integrations/vendor-auth';

/** A malformed id cannot name a project: the same 404 as someone else's. */
function siteId(params: Record<string, string>): string {
  const parsed = projectIdParam.safeParse(params.siteId);
  if (!parsed.success) throw new AppError('NOT_FOUND');
  return parsed.data;
}

const oauth = (vendor: OAuthVendor) => ({
  async authorize({ session, params }: AuthedInput) {
    return { msg: await auth.oauthAuthorize(session.userId, session.id, vendor, siteId(params)) };
  },
  async authentication({ session, params, body, log }: AuthedInput<OAuthExchangeBody>) {
    return { msg: await auth.oauthExchange(session.userId, session.id, vendor, siteId(params), body, log) };
  },
  async channels({ session, params, log }: AuthedInput) {
    return { msg: await auth.oauthChannels(session.userId, vendor, siteId(params), log) };
  },
});

const reset = (vendor: 'gitlab' | 'jira' | 'slack' | 'asana') =>
  async function resetOp({ session, params }: AuthedInput) {
    return { msg: await auth.resetVendor(session.userId, vendor, siteId(params)) };
  };

const slack = oauth('slack');
const asana = oauth('asana');

export const operations = {
  async gitlabProjects({ session, body, log }: AuthedInput<GitlabProjectsBody>) {
    return { msg: await auth.gitlabProjects(session.userId, body, log) };
  },
  async jiraProjects({ session, body, log }: AuthedInput<JiraProjectsBody>) {
    return { msg: await auth.jiraProjects(session.userId, body, log) };
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
};

export const handler = resourceHandler('vendors', operations);
