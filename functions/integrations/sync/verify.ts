/**
 * The trackers' own schemes for proving a hook delivery came from them (../shared/api-specs/README.md
 * "Facts"), each checked on the raw body before anything parses it, every comparison in constant time:
 *   GitLab  `X-Gitlab-Token: <secret>` (the secret itself, no signature)
 *   Jira    `X-Hub-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>` (admin webhooks with a secret)
 *   GitHub  `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(secret, raw body)>`
 *   Linear  `Linear-Signature: <hex HMAC-SHA256(secret, raw body)>`, and the body's `webhookTimestamp` (ms)
 *           within 60 s of now
 * GitHub's and Linear's are here for their adapters (they join after their integrations land).
 */
import { createHmac } from 'node:crypto';
import { safeEqual } from '#runtime/crypto';

export type Verdict = 'ok' | 'forged' | 'stale';

const hmacHex = (secret: string, raw: string) =>
  createHmac('sha256', secret).update(raw, 'utf8').digest('hex');

/** GitLab: the token header equals the secret. */
export const verifyGitlabToken = (header: string | undefined, secret: string): Verdict =>
  header !== undefined && safeEqual(header, secret) ? 'ok' : 'forged';

/** Jira's `X-Hub-Signature` and GitHub's `X-Hub-Signature-256`: `sha256=<hex>` over the raw body. */
export function verifyHubSignature(header: string | undefined, secret: string, raw: string): Verdict {
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!m?.[1]) return 'forged';
  return safeEqual(m[1].toLowerCase(), hmacHex(secret, raw)) ? 'ok' : 'forged';
}

/** Linear's tolerance for `webhookTimestamp`, as its SDK's `LinearWebhookClient.verify` has it. */
export const LINEAR_TOLERANCE_MS = 60_000;

/**
 * Linear: the plain hex HMAC, then the body's `webhookTimestamp` within 60 s (a body without one is
 * refused, as the SDK refuses it). The timestamp is read only after the signature holds.
 */
export function verifyLinearSignature(
  header: string | undefined,
  secret: string,
  raw: string,
  nowMs: number,
): Verdict {
  const sig = header?.trim().toLowerCase() ?? '';
  if (!/^[0-9a-f]{64}$/.test(sig) || !safeEqual(sig, hmacHex(secret, raw))) return 'forged';
  let ts: unknown;
  try {
    ts = (JSON.parse(raw) as { webhookTimestamp?: unknown }).webhookTimestamp;
  } catch {
    return 'forged';
  }
  if (typeof ts !== 'number' || !Number.isFinite(ts)) return 'stale';
  return Math.abs(nowMs - ts) <= LINEAR_TOLERANCE_MS ? 'ok' : 'stale';
}

/** What a fake (or a test) signs with: the hex HMAC-SHA256 of the raw body. */
export const hubSignature = (secret: string, raw: string) => `sha256=${hmacHex(secret, raw)}`;

/**
 * Trello: `X-Trello-Webhook` is the base64 HMAC-SHA1, keyed by the app's secret, of the raw body followed
 * by the callback URL exactly as registered (README "Trello webhooks"). Trello sends no timestamp header:
 * the body's `action.date` (read only after the signature holds) must be within `TRELLO_TOLERANCE_MS`,
 * so a recorded delivery cannot be played back later; the action id dedupes the ones within it.
 */
export const TRELLO_TOLERANCE_MS = 60 * 60_000;

export const trelloSignature = (appSecret: string, raw: string, callbackUrl: string) =>
  createHmac('sha1', appSecret)
    .update(raw + callbackUrl, 'utf8')
    .digest('base64');

export function verifyTrelloSignature(
  header: string | undefined,
  appSecret: string,
  raw: string,
  callbackUrl: string,
  nowMs: number,
): Verdict {
  const sig = header?.trim() ?? '';
  if (!appSecret || !/^[A-Za-z0-9+/]{27}=$/.test(sig)) return 'forged';
  if (!safeEqual(sig, trelloSignature(appSecret, raw, callbackUrl))) return 'forged';
  let date: unknown;
  try {
    date = (JSON.parse(raw) as { action?: { date?: unknown } }).action?.date;
  } catch {
    // Signed but not JSON: the hook answers the malformed body (400) once it parses it.
    return 'ok';
  }
  const at = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  if (!Number.isFinite(at)) return 'ok';
  return Math.abs(nowMs - at) <= TRELLO_TOLERANCE_MS ? 'ok' : 'stale';
}
