/**
 * The browser extension's connection (docs/extension.md): what the extension, the dashboard's connect page
 * and the API agree on. The extension never holds the session cookie: it holds a token of its own, made by
 * an authorisation-code exchange with PKCE (RFC 7636, S256), so the code the connect page hands over is
 * worthless to anyone without the verifier the extension kept.
 *
 * 1. The extension makes `verifier` (43–128 base64url characters) and `state`, and opens
 *    `{server}/connect/extension?challenge=<base64url(sha256(verifier))>&state=<state>&browser=<name>`.
 * 2. The signed-in member approves there: `POST /api/client/extension/connect` {challenge, browser} answers a
 *    one-time `code` (5 minutes), and the page goes to `{server}/connect/extension/done?code=…&state=…`
 *    (`?error=denied&state=…` when they cancel). The page says the browser may close the tab.
 * 3. The extension (host permission for the server's origin, asked when the address is set) sees that
 *    address in its tab, checks `state`, and calls `POST /api/extension/token` {code, verifier}: the token.
 * 4. It calls the v1 API with `Authorization: Bearer snag_ext_…`. A revoked or expired token is 401 with
 *    `WWW-Authenticate: Bearer realm="snag", error="invalid_token"`: the extension asks to connect again.
 */
import * as z from 'zod';

export const EXTENSION_TOKEN_PREFIX = 'snag_ext_';
/** `snag_ext_<12-character id><43-character secret>`, base64url; only the SHA-256 of the whole is stored. */
export const extensionTokenPattern = /^snag_ext_([A-Za-z0-9_-]{12})[A-Za-z0-9_-]{43}$/;
/** What an extension's token may do: read the member's projects and issues, and file issues. Fixed. */
export const extensionScopes = ['projects:read', 'issues:read', 'issues:create'] as const;
/** A connection lasts 90 days from its approval; then the extension asks to connect again. */
export const EXTENSION_TOKEN_DAYS = 90;
/** Connections per member: a browser each, with room for a few; the oldest must be revoked past it. */
export const EXTENSION_TOKENS_MAX = 10;
/** The one-time code's lifetime, from approval to exchange. */
export const EXTENSION_CODE_SECONDS = 300;

const base64url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/);

/** The browser as the extension names itself (shown in the list of connections): "Chrome", "Firefox", … */
export const extensionBrowser = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[\p{L}\p{N} ._()-]+$/u);

/** The connect page's query: what the extension opened it with. */
export const extensionConnectQuery = z.object({
  challenge: base64url(43, 43),
  state: base64url(16, 128),
  browser: extensionBrowser.optional(),
});

/** `POST /api/client/extension/connect` (session): the member approves; the answer is the one-time code. */
export const extensionConnectBody = z.strictObject({
  challenge: base64url(43, 43),
  browser: extensionBrowser.default('Browser'),
});
export interface ExtensionConnectAnswer {
  code: string;
}

/** `POST /api/extension/token` (public, no cookies): the code and the verifier it was made for. */
export const extensionTokenBody = z.strictObject({
  code: base64url(32, 64),
  verifier: base64url(43, 128),
});
export interface ExtensionTokenAnswer {
  token: string;
  expiresAt: string;
  /** Who it acts as, for the popup's "Connected as …". */
  user: { name: string; email: string };
}

/**
 * One connection as Profile → Browser extension lists it (`GET /api/client/profile/extensions`; revoked by
 * `DELETE /api/client/profile/extensions/{id}`), never its secret.
 */
export interface ExtensionConnection {
  id: string;
  browser: string;
  created: string;
  lastUsed: string | null;
  expires: string;
}

/** `DELETE /api/client/profile/extensions/{id}`: a connection's id, the 12 characters its token carries. */
export const extensionConnectionParams = z.object({ id: base64url(12, 12) });
