/**
 * API tokens (issue 25, docs/api.md): what the dashboard's token screen, the token routes and the v1
 * pipeline agree on. A token is `snag_pat_<id><secret>`: the 12-character id names its item (so a
 * lookup is one GetItem, and the id is what lists and logs show), the 43-character secret is 256 random
 * bits; only the SHA-256 of the whole token is stored.
 */
import * as z from 'zod';
import { nameText } from './schemas';
import { teamIdParam } from './teams';
import { tokenScopes } from './token-caller';

// The pipeline's part of the token contract, here too for the token routes and the dashboard.
export { API_RATE_LIMIT, type TokenCaller, type TokenScope, tokenScopes } from './token-caller';

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
  /** The creator's user id: removing or demoting them below ADMIN revokes the token. */
  createdBy: z.string(),
  /** The creator's display name as it was when the token was made; null on tokens made before it was kept. */
  creatorName: z.string().nullable(),
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
