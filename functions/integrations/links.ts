/**
 * Links to an issue's screenshots and files in deliveries (email, webhooks, vendor descriptions) that
 * truly last (docs/decisions.md "Links in deliveries"): an S3 presigned URL signed by a Lambda role dies
 * with the role's session (hours), so a delivery carries a Snag link instead,
 * `<APP_ORIGIN>/api/files/<token>`, where the token is an HMAC-signed statement "project, kind, object,
 * expiry". `GET /api/files/{token}` checks it and answers a short-lived (5 min) redirect to S3.
 * The key is derived from the secrets' ALTCHA_HMAC_KEY (HMAC with a fixed label), so no new secret is
 * needed; rotating that key ends every link.
 */
import { createHmac } from 'node:crypto';
import { GITHUB_LINK_DAYS } from '#contracts/integrations';
import { getConfig } from '#runtime/config';
import { safeEqual } from '#runtime/crypto';
import { getSecrets } from '#runtime/secrets';
import { DAY, nowMs } from '#runtime/time';
import { issuePageUrl } from '../issues/page-url';
import { replayLinkToken } from '../issues/replay-link';

/**
 * How long a delivery's links last, in days: the issue asked for at least 7. Every text that states the
 * lifetime (the mail, the GitLab and Slack messages) reads it from here, so none promises another number.
 */
export const FILE_LINK_DAYS = 8;
export const FILE_LINK_LIFETIME_MS = FILE_LINK_DAYS * DAY;

export interface FileLinkClaim {
  /** Project id. */
  p: string;
  k: 'file' | 'screenshot';
  /** Stored object name. */
  n: string;
  /** Expiry, epoch seconds. */
  e: number;
}

async function linkKey(): Promise<Buffer> {
  const { ALTCHA_HMAC_KEY } = await getSecrets();
  return createHmac('sha256', ALTCHA_HMAC_KEY).update('snag:file-links:v1').digest();
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

export async function fileLinkToken(
  claim: Omit<FileLinkClaim, 'e'>,
  now = nowMs(),
  lifetimeMs = FILE_LINK_LIFETIME_MS,
): Promise<string> {
  const payload = Buffer.from(
    JSON.stringify({ ...claim, e: Math.floor((now + lifetimeMs) / 1000) }),
  ).toString('base64url');
  return `${payload}.${sign(await linkKey(), payload)}`;
}

/** A link that lasts `lifetimeMs` (deliveries' default; GitHub's issues keep theirs longer, see below). */
export async function fileLink(
  claim: Omit<FileLinkClaim, 'e'>,
  lifetimeMs = FILE_LINK_LIFETIME_MS,
): Promise<string> {
  return `${getConfig().APP_ORIGIN}/api/files/${await fileLinkToken(claim, nowMs(), lifetimeMs)}`;
}

/**
 * How long the links in a GitHub issue last, in days (docs/decisions.md "GitHub: screenshots as signed
 * links"): GitHub cannot take an image through its API, so the issue shows Snag's link through GitHub's
 * Camo proxy, and an expired link is a broken image in a ticket that lives for months. A year covers a
 * ticket's working life; the signature still names one object of one project, and rotating the key ends
 * every link.
 */
export { GITHUB_LINK_DAYS };
export const GITHUB_LINK_LIFETIME_MS = GITHUB_LINK_DAYS * DAY;

/** The claim of a valid, unexpired token, or null. */
export async function verifyFileLink(token: string, now = nowMs()): Promise<FileLinkClaim | null> {
  if (token.length > 1000) return null;
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined) return null;
  if (!safeEqual(mac, sign(await linkKey(), payload))) return null;
  try {
    const claim = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as FileLinkClaim;
    if (typeof claim.p !== 'string' || typeof claim.n !== 'string') return null;
    if (claim.k !== 'file' && claim.k !== 'screenshot') return null;
    if (typeof claim.e !== 'number' || claim.e * 1000 <= now) return null;
    return claim;
  } catch {
    return null;
  }
}

/** A signed link to an issue's replay: the dashboard's public page and the recording's bytes behind it. */
export interface ReplayLink {
  /** `<APP_ORIGIN>/replay/<token>`: the player, no sign-in. */
  url: string;
  /** `<APP_ORIGIN>/api/replay/<token>`: the gzip of rrweb's events the page plays. */
  dataUrl: string;
  /** When both stop working, epoch ms (whole seconds: the token's own precision). */
  expiresAt: number;
}

/**
 * The link to a replay that lasts `lifetimeMs`: the token is the replay's own (issues/replay-link.ts, its
 * own key and its own route), so a file link can never open a recording nor a replay link a file.
 */
export async function replayLink(
  projectId: string,
  name: string,
  lifetimeMs = FILE_LINK_LIFETIME_MS,
): Promise<ReplayLink> {
  const expiresAt = Math.floor((nowMs() + lifetimeMs) / 1000) * 1000;
  const token = await replayLinkToken({ projectId, name }, expiresAt);
  const origin = getConfig().APP_ORIGIN;
  return { url: `${origin}/replay/${token}`, dataUrl: `${origin}/api/replay/${token}`, expiresAt };
}

/** The dashboard's page of an issue (one rule with the CSV export's link column). */
export const issueLink = issuePageUrl;
