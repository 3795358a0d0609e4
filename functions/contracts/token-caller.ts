/**
 * What the HTTP pipeline needs to know of an API token (runtime/http.ts): its scopes, who a v1 call acts
 * as, and the per-token rate limit. Apart from tokens.ts (the token routes' schemas), so that the pipeline,
 * which every function carries, carries no schema it does not use.
 */

/**
 * What a token may do; a team token acts for its team as at most an ADMIN, never for billing, members or
 * tokens. `issues:create` files issues as the widget's intake does (same rules and limits, the plan's count).
 */
export const tokenScopes = [
  'projects:read',
  'issues:read',
  'issues:write',
  'comments:write',
  'issues:create',
] as const;
export type TokenScope = (typeof tokenScopes)[number];

/**
 * Who a v1 call acts as once the pipeline has checked its bearer token (runtime/http.ts): the token's id
 * (what logs show), its team, name and scopes, the principal id the domain calls take (`pat:<id>`), and
 * the display name of the member who made it, as it was then (null for a token made before it was kept):
 * its changes read "<creator> via API token <name>" (decision API-13).
 */
export interface TokenCaller {
  id: string;
  /**
   * `team`: a team's API token (`snag_pat_…`), acting as an ADMIN of that team, principal `pat:<id>`.
   * `extension`: a browser extension's connection (`snag_ext_…`, contracts/extension.ts), acting as the
   * member who connected it (principal: their user id), in every team and project as their own role allows.
   */
  kind: 'team' | 'extension';
  /** The team token's team; null for an extension, which has no team of its own (its member's are theirs). */
  teamId: string | null;
  name: string;
  creatorName: string | null;
  scopes: readonly TokenScope[];
  principal: string;
}

/**
 * Per-token rate limit of the public API (docs/api.md "Rate limits"): 300 calls in a fixed minute, about
 * what a script paging 100 issues a call or an MCP client working an issue list needs, and low enough that
 * one token cannot take a project's share of the table's capacity.
 */
export const API_RATE_LIMIT = { max: 300, windowMs: 60_000 } as const;
