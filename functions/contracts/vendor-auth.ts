/**
 * The vendor authorisation calls (issue 11, SPEC.md section 7), shared by the dashboard and the API: the
 * token vendors list their projects (GitHub: repositories, Linear: teams) with the entered credentials
 * (and authorise on success); Slack and Asana authorise through OAuth (docs/decisions.md "OAuth state")
 * and list channels or projects.
 */
import * as z from 'zod';
import {
  type integrationCatalogue,
  type OAuthVendor,
  oauthRedirectSegment,
  oauthVendors,
  type TokenVendor,
  tokenVendors,
  vendorNames,
} from './integration-catalogue';
import { vendorKeyText } from './integrations';
import { projectIdParam } from './schemas';

/** A host as typed: empty (GitLab: gitlab.com), `gitlab.example.com` or an http(s) address. */
const host = z.string().trim().max(500);
/** A token as typed, or the masked value the dashboard read (then the stored token is used). */
const token = vendorKeyText.min(1);

/**
 * The body of each token vendor's list call, `POST client/integration/{vendor}/{list}` (the catalogue's
 * `list`), chosen by its `{vendor}`: each lists with the credentials and, on success, authorises the
 * project's integration. The route's own schema (`vendorListBody`) reads what every one of them shares,
 * the project; the operation reads the vendor's (functions/handlers/vendors.ts).
 */
export const vendorListBodies = {
  /** `gitlab/projects`: the projects (an empty host is gitlab.com). */
  gitlab: z.object({ siteId: projectIdParam, host: host.default(''), key: token }),
  /** `jira/projects`: the projects and the issue types of `projectId` (else the chosen or first project). */
  jira: z.object({
    siteId: projectIdParam,
    host: host.min(1),
    username: z.string().trim().min(1).max(100),
    key: token,
    projectId: z.string().trim().max(200).optional(),
  }),
  /** `github/repos`: the repositories the token reaches (the API address is Snag's setting, so no host). */
  github: z.object({ siteId: projectIdParam, key: token }),
  /** `linear/teams`: checks the API key (`viewer`) and lists its teams. */
  linear: z.object({ siteId: projectIdParam, key: token }),
  /** `clickup/lists`: every list of every workspace the token reaches, as `Workspace / Space / Folder / List`. */
  clickup: z.object({ siteId: projectIdParam, key: token }),
  /** `azure/projects`: the organisation's projects and the work item types of `projectId` (else the chosen or first). */
  azure: z.object({
    siteId: projectIdParam,
    host: host.min(1),
    key: token,
    projectId: z.string().trim().max(200).optional(),
  }),
  /**
   * `trello/boards`: the boards the token's member sees and the lists of `boardId` (else the chosen or
   * first board); the app secret is stored with them (it signs the webhook deliveries).
   */
  trello: z.object({
    siteId: projectIdParam,
    key: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[0-9a-z]+$/i),
    token,
    secret: token,
    boardId: z.string().trim().max(200).optional(),
  }),
} as const satisfies { [V in TokenVendor]: z.ZodObject };
export type VendorListBody<V extends TokenVendor> = z.infer<(typeof vendorListBodies)[V]>;
/** What every token vendor's list body holds: the project it authorises (the access check reads it). */
export const vendorListBody = z.looseObject({ siteId: projectIdParam });

/**
 * Each token vendor's list, the last segment of its list call's address (`gitlab/projects`): the
 * catalogue's `list`, written out (and held equal to it) so that the route's params schema, which every
 * Lambda's routes carry, does not carry the catalogue's rows.
 */
export const tokenVendorLists = {
  gitlab: 'projects',
  jira: 'projects',
  github: 'repos',
  linear: 'teams',
  clickup: 'lists',
  azure: 'projects',
  trello: 'boards',
} as const satisfies { [V in TokenVendor]: (typeof integrationCatalogue)[V]['list'] };

/**
 * `{vendor}/{list}` of the list calls: a token vendor and its own list. Anything else (an OAuth vendor,
 * another vendor's list) is NOT_FOUND, as an unknown path is.
 */
export const vendorListParams = z
  .object({ vendor: z.enum(tokenVendors), list: z.string() })
  .refine(({ vendor, list }) => tokenVendorLists[vendor] === list);

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

/** `POST client/integration/trello/boards` answers `msg: TrelloBoardsAnswer`: the chosen board's lists. */
export interface TrelloBoardsAnswer {
  boards: VendorOption[];
  lists: VendorOption[];
}

/** What a token vendor's list call answers: the options, Jira's with the chosen project's issue types. */
export type VendorListAnswer<V extends TokenVendor> = V extends 'jira' | 'azure'
  ? JiraProjectsAnswer
  : V extends 'trello'
    ? TrelloBoardsAnswer
    : VendorOption[];

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
