/**
 * The part of the integrations' contracts that the dashboard's first load needs (its route table): the
 * names, and the site id an OAuth state starts with. Free of imports (but the import-free catalogue), so that zod and the schemas stay in
 * the lazy chunks of the screens that use them (DESIGN.md budget: 200 KB of initial JS); the names come
 * from the import-free catalogue (integration-catalogue.ts).
 * functions/contracts/integrations.ts, functions/contracts/vendor-auth.ts and functions/contracts/messages.ts
 * re-export these.
 */
export {
  type IntegrationName,
  integrationNames,
  type OAuthVendor,
  oauthRedirectSegment,
  oauthVendors,
} from './integration-catalogue';

/**
 * The site id a returned OAuth state names (the dashboard's redirect pages use it): the state is
 * `<siteId>.<nonce>.<expires>.<signature>` (functions/integrations/oauth-state.ts).
 */
export const siteIdOfOAuthState = (state: string) => state.split('.', 1)[0] ?? '';
