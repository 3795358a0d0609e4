/**
 * The vendor authorisation calls (issue 11, SPEC.md section 7), shared by the dashboard and the API:
 * GitLab and Jira list projects with the entered credentials (and authorise on success); Slack and Asana
 * authorise through OAuth (docs/decisions.md "OAuth state") and list channels or projects.
 */
import * as z from 'zod';
import { type OAuthVendor, oauthRedirectSegment, oauthVendors, vendorNames } from './integration-catalogue';
import { vendorKeyText } from './integrations';
import { projectIdParam } from './schemas';

/** A host as typed: empty (GitLab: gitlab.com), `gitlab.example.com` or an http(s) address. */
const host = z.string().trim().max(500);
/** A token as typed, or the masked value the dashboard read (then the stored token is used). */
const token = vendorKeyText.min(1);

/** `POST client/integration/gitlab/projects`: lists the projects and, on success, authorises the project's GitLab. */
export const gitlabProjectsSchema = z.object({
  siteId: projectIdParam,
  host: host.default(''),
  key: token,
});
export type GitlabProjectsBody = z.infer<typeof gitlabProjectsSchema>;

/**
 * `POST client/integration/github/repos`: lists the repositories the token reaches and, on success,
 * authorises the project's GitHub (the API address is Snag's setting, so no host).
 */
export const githubReposSchema = z.object({ siteId: projectIdParam, key: token });
export type GithubReposBody = z.infer<typeof githubReposSchema>;
/** `POST client/integration/linear/teams`: checks the API key (`viewer`), lists its teams and, on success, authorises. */
export const linearTeamsSchema = z.object({ siteId: projectIdParam, key: token });
export type LinearTeamsBody = z.infer<typeof linearTeamsSchema>;

/** `POST client/integration/jira/projects`: projects and the issue types of `projectId` (else the chosen or first project). */
export const jiraProjectsSchema = z.object({
  siteId: projectIdParam,
  host: host.min(1),
  username: z.string().trim().min(1).max(100),
  key: token,
  projectId: z.string().trim().max(200).optional(),
});
export type JiraProjectsBody = z.infer<typeof jiraProjectsSchema>;

/** `POST client/integration/{vendor}/authentication/{siteId}` (an OAuth vendor): the code and state the redirect brought back. */
export const oauthExchangeSchema = z.object({
  code: z.string().trim().min(1).max(1000),
  redirectUrl: z.string().trim().max(2000),
  state: z.string().trim().min(1).max(500),
});
export type OAuthExchangeBody = z.infer<typeof oauthExchangeSchema>;

/** An item of every list these calls answer. */
export interface VendorOption {
  id: string;
  name: string;
}

/** `POST client/integration/jira/projects` answers `msg: JiraProjectsAnswer`. */
export interface JiraProjectsAnswer {
  projects: VendorOption[];
  issueTypes: VendorOption[];
}

/** `GET client/integration/{vendor}/authorize/{siteId}` (an OAuth vendor) answers where to send the browser. */
export interface OAuthAuthorizeAnswer {
  /** The vendor's consent page (with client_id, scopes, redirect_uri and state). */
  url: string;
  /** `<siteId>.<nonce>.<expires>.<signature>`: the site id is the part before the first dot. */
  state: string;
  /** The redirect_uri: `<app>/profile/<vendor>_redirect` (`oauthRedirectPath`). */
  redirectUrl: string;
}

/** The fixed dashboard path an OAuth vendor redirects to; it forwards to `/profile/integrations/<site>/<vendor>`. */
export const oauthRedirectPath = (vendor: OAuthVendor) => `/profile/${oauthRedirectSegment(vendor)}` as const;

/** `{vendor}` of the OAuth calls: a name outside these is NOT_FOUND, as an unknown path is. */
export const oauthSiteParams = z.object({ vendor: z.enum(oauthVendors), siteId: projectIdParam });
/** `{vendor}` of `DELETE client/integration/{vendor}/authentication/{siteId}` (reset): every vendor. */
export const vendorSiteParams = z.object({ vendor: z.enum(vendorNames), siteId: projectIdParam });

export { siteIdOfOAuthState } from './integration-names';
