/**
 * The part of the integrations' contracts that the dashboard's first load needs (its route table): the
 * names (of the integrations, in `msg.integrations` order, and of the OAuth vendors, whose return pages are
 * in the route table), and the site id an OAuth state starts with. Free of imports, so that zod, the
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
] as const;
export type IntegrationName = (typeof integrationNames)[number];

/** The vendors authorised through OAuth (functions/integrations/oauth-state.ts): the catalogue's `oauth` rows. */
export const oauthVendors = ['slack', 'asana'] as const;
export type OAuthVendor = (typeof oauthVendors)[number];
/** The dashboard page (under /profile) an OAuth vendor sends the browser back to; one fixed address each. */
export const oauthRedirectSegment = (vendor: OAuthVendor) => `${vendor}_redirect` as const;

/**
 * The site id a returned OAuth state names (the dashboard's redirect pages use it): the state is
 * `<siteId>.<nonce>.<expires>.<signature>` (functions/integrations/oauth-state.ts).
 */
export const siteIdOfOAuthState = (state: string) => state.split('.', 1)[0] ?? '';
