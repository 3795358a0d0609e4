/**
 * The part of the integrations' contracts that the dashboard's first load and every Lambda's shared schemas
 * need: the names (of the integrations, in `msg.integrations` order; of the vendors by how they authorise,
 * the OAuth vendors' return pages being in the route table; of the trackers, which the queue messages
 * name), and the site id an OAuth state starts with. Free of imports, so that zod, the
 * schemas and the catalogue's rows stay in the lazy chunks of the screens that use them (DESIGN.md budget:
 * 200 KB of initial JS). integration-catalogue.ts holds these names equal to its rows (a name without its
 * row, or an `oauth` row not listed here, does not compile).
 * functions/contracts/integrations.ts, functions/contracts/vendor-auth.ts and functions/contracts/messages.ts
 * re-export these.
 */
export const integrationNames = [
  'email',
  'gitlab',
  'jira',
  'slack',
  'asana',
  'github',
  'linear',
  'webhooks',
  'clickup',
  'teams',
  'discord',
  'azure',
  'trello',
] as const;
export type IntegrationName = (typeof integrationNames)[number];

/** The vendors authorised through OAuth (functions/integrations/oauth-state.ts): the catalogue's `oauth` rows. */
export const oauthVendors = ['slack', 'asana'] as const;
export type OAuthVendor = (typeof oauthVendors)[number];
/** The vendors authorised by a typed token (their list call authorises): the catalogue's `token` rows. */
export const tokenVendors = ['gitlab', 'jira', 'github', 'linear', 'clickup', 'azure', 'trello'] as const;
export type TokenVendor = (typeof tokenVendors)[number];
/** Whether a name is one of `list` (a vendor's path parameter, a stored name). */
export const isOneOf = <N extends string>(list: readonly N[], name: string): name is N =>
  (list as readonly string[]).includes(name);
export type VendorName = TokenVendor | OAuthVendor;
/**
 * The vendors (a token or OAuth), each with its reset call, in `integrationNames` order: the two lists above,
 * read, not written a third time (a zod enum's non-empty tuple).
 */
export const vendorNames = /* @__PURE__ */ integrationNames.filter(
  (n) => isOneOf<string>(tokenVendors, n) || isOneOf<string>(oauthVendors, n),
) as unknown as readonly [VendorName, ...VendorName[]];
/** The integrations that sync both ways (an adapter each, functions/integrations/sync/adapters.ts): the `tracker` rows. */
export const trackerVendors = ['gitlab', 'jira', 'github', 'linear', 'clickup', 'azure', 'trello'] as const;
export type TrackerVendor = (typeof trackerVendors)[number];
/** The dashboard page (under /profile) an OAuth vendor sends the browser back to; one fixed address each. */
export const oauthRedirectSegment = (vendor: OAuthVendor) => `${vendor}_redirect` as const;

/**
 * The site id a returned OAuth state names (the dashboard's redirect pages use it): the state is
 * `<siteId>.<nonce>.<expires>.<signature>` (functions/integrations/oauth-state.ts).
 */
export const siteIdOfOAuthState = (state: string) => state.split('.', 1)[0] ?? '';
