/**
 * API tokens (issue 25, docs/api.md): what the dashboard's token screen, the token routes and the v1
 * pipeline agree on. A token is `snag_pat_<id><secret>`: the 12-character id names its item (so a
 * lookup is one GetItem, and the id is what lists and logs show), the 43-character secret is 256 random
 * bits; only the SHA-256 of the whole token is stored.
 */
import * as z from 'zod';
import { nameText } from './schemas';
import { teamIdParam } from './teams';

/** What a token may do; it acts for its team as at most an ADMIN, never for billing, members or tokens. */
export const tokenScopes = ['projects:read', 'issues:read', 'issues:write', 'comments:write'] as const;
export type TokenScope = (typeof tokenScopes)[number];

export const TOKEN_PREFIX = 'snag_pat_';
export const TOKEN_ID_LENGTH = 12;
/** The whole token: prefix, id and secret, base64url. */
export const tokenPattern = /^snag_pat_([A-Za-z0-9_-]{12})[A-Za-z0-9_-]{43}$/;
/** Tokens per team: bounds the list (one Query page) and what a leaked admin session can mint. */
export const TOKENS_MAX = 20;
export const TOKEN_NAME_MAX = 60;
export const TOKEN_EXPIRY_DAYS_MAX = 365;

export const tokenIdParam = z.string().regex(/^[A-Za-z0-9_-]{12}$/);
export const tokenParams = z.object({ teamId: teamIdParam, id: tokenIdParam });

/** `POST client/team/{teamId}/tokens`. No expiry: the token lives until it is revoked. */
export const tokenCreateSchema = z.strictObject({
  name: nameText(TOKEN_NAME_MAX),
  scopes: z
    .array(z.enum(tokenScopes))
    .min(1)
    .max(tokenScopes.length)
    .refine((s) => new Set(s).size === s.length, 'INVALID_PARAMETERS'),
  expiresInDays: z.number().int().min(1).max(TOKEN_EXPIRY_DAYS_MAX).optional(),
});
export type TokenCreate = z.output<typeof tokenCreateSchema>;

/** One token as the list shows it (never its secret). */
export const tokenEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(tokenScopes)),
  /** `snag_pat_<id>`: how the holder recognises the token without the secret. */
  prefix: z.string(),
  created: z.iso.datetime(),
  lastUsed: z.iso.datetime().nullable(),
  expires: z.iso.datetime().nullable(),
});
export type TokenEntry = z.output<typeof tokenEntrySchema>;

/** The answer of a create: the entry and the token itself, shown this once. */
export interface TokenCreated {
  entry: TokenEntry;
  token: string;
}

/**
 * Who a v1 call acts as once the pipeline has checked its bearer token (runtime/http.ts): the token's id
 * (what logs show), its team, name and scopes, the principal id the domain calls take (`pat:<id>`), and
 * the display name of the member who made it, as it was then (null for a token made before it was kept):
 * its changes read "<creator> via API token <name>" (decision API-13).
 */
export interface TokenCaller {
  id: string;
  teamId: string;
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
