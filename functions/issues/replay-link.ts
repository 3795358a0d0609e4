/**
 * The signed link to an issue's replay that a tracker, a chat message or a webhook carries (docs/replay.md):
 * whoever holds it may watch that one recording until it expires, without signing in to Snag, as a
 * signed screenshot link shows that one image. The token:
 *
 *   <siteId>.<replay id>.<expires>.<signature>
 *
 * - siteId: the project's uuid; replay id: the stored recording's uuid (its name is `<id>.gz`);
 * - expires: epoch seconds (the deliverer's link lifetime);
 * - signature: HMAC-SHA256 (base64url) over `replay-v1.<siteId>.<id>.<expires>`, keyed with a key derived
 *   from ALTCHA_HMAC_KEY by HKDF under its own label, so no other signature of Snag's can stand in for it.
 *
 * It names nothing a visitor wrote and reveals nothing but the two ids; the recording is read from the
 * project's own prefix, so a token can never reach another project's objects.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { safeEqual } from '#runtime/crypto';
import { getSecrets } from '#runtime/secrets';
import { epochSeconds, nowMs } from '#runtime/time';

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const tokenPattern = new RegExp(`^(${uuid})\\.(${uuid})\\.([1-9][0-9]{0,11})\\.([A-Za-z0-9_-]{43})$`);
const namePattern = new RegExp(`^(${uuid})\\.gz$`);

/** What a valid token opens: the project and the recording's stored name. */
export interface ReplayRef {
  projectId: string;
  name: string;
}

async function linkKey(): Promise<Buffer> {
  const { ALTCHA_HMAC_KEY } = await getSecrets();
  return Buffer.from(hkdfSync('sha256', ALTCHA_HMAC_KEY, 'snag', 'replay-link-v1', 32));
}

const sign = (key: Buffer, projectId: string, id: string, expires: number) =>
  createHmac('sha256', key).update(`replay-v1.${projectId}.${id}.${expires}`).digest('base64url');

/** A token for `ref` that stops working at `expiresAtMs`. */
export async function replayLinkToken(ref: ReplayRef, expiresAtMs: number): Promise<string> {
  const id = namePattern.exec(ref.name)?.[1];
  if (!id) throw new Error(`not a replay's stored name: ${ref.name}`);
  const expires = epochSeconds(expiresAtMs);
  return `${ref.projectId}.${id}.${expires}.${sign(await linkKey(), ref.projectId, id, expires)}`;
}

/** The recording a token opens, or null when it is malformed, forged or expired. */
export async function readReplayLinkToken(token: string, now = nowMs()): Promise<ReplayRef | null> {
  const m = tokenPattern.exec(token);
  if (!m) return null;
  const [, projectId = '', id = '', expiresText = '', signature = ''] = m;
  const expires = Number(expiresText);
  if (expires <= epochSeconds(now)) return null;
  if (!safeEqual(signature, sign(await linkKey(), projectId, id, expires))) return null;
  return { projectId, name: `${id}.gz` };
}
