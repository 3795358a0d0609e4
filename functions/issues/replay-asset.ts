/**
 * The replay player's images and fonts (docs/replay.md "Sandbox"), as webmail shows remote pictures: the
 * server fetches the address the recording names and answers the bytes from the dashboard's own origin,
 * so the reader's browser (their IP, the moment they watch) never reaches a host a visitor chose, and the
 * dashboard's Content-Security-Policy stays as narrow as it is.
 *
 * - Every hop goes through the outbound guard (runtime/outbound.ts: https only, no private, loopback,
 *   link-local or metadata address after DNS, the socket pinned to the checked address), GET only, no
 *   cookie or credential of anyone's, at most `redirects` redirects, each checked as the first call.
 * - The answer is served only when it is a picture (png, jpeg, gif, webp, avif, svg) or a web font (woff2,
 *   woff, ttf, otf) by its content type AND its first bytes, at most `maxBytes`; it goes out under the type
 *   its bytes prove, never the host's word alone. An svg is a document: it leaves with a policy that runs
 *   nothing and as an attachment, so opened on its own it is a download (in an <img> it never runs script).
 * - Counted per signed-in reader (`replayAssetRateLimit`), so the route is no open proxy at volume; from a
 *   signed link (the public player), per source and only while the link opens its recording.
 */
import type { ProjectAction } from '#contracts/access';
import { AppError } from '#runtime/errors';
import { checkTarget, OutboundRefused, pinnedConnect } from '#runtime/outbound';
import { rateLimit } from '#runtime/rate-limit';
import { projectFor } from '../projects/access';
import { readReplayLinkToken } from './replay-link';

export const replayAssetLimits = {
  /** A hero image or a font family's file; more is not a page's asset. */
  maxBytes: 5 * 1024 * 1024,
  /** All hops together, under the function's own timeout. */
  timeoutMs: 8_000,
  /** A CDN's canonical address and one more: enough for real pages, no chain to walk. */
  redirects: 3,
} as const;

/**
 * Per reader: a page of a hundred pictures watched a few times an hour passes (the browser keeps each
 * answer an hour); a script using the route as a proxy is stopped.
 */
export const replayAssetRateLimit = { action: 'replay-asset', max: 600, windowMs: 10 * 60_000 } as const;

export interface ReplayAsset {
  bytes: Uint8Array;
  contentType: string;
  /** An svg: a document, answered with a policy that runs nothing and as an attachment. */
  document: boolean;
}

type Family = 'image' | 'font';

const startsWith = (bytes: Uint8Array, text: string, at = 0) =>
  bytes.length >= at + text.length && [...text].every((ch, i) => bytes[at + i] === ch.charCodeAt(0));

/** The type a file's first bytes prove, with its family; null for anything else. */
export function sniffAsset(bytes: Uint8Array): { type: string; family: Family } | null {
  const image = (type: string) => ({ type, family: 'image' as const });
  const font = (type: string) => ({ type, family: 'font' as const });
  if (startsWith(bytes, '\x89PNG\r\n\x1a\n')) return image('image/png');
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return image('image/jpeg');
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return image('image/gif');
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return image('image/webp');
  if (startsWith(bytes, 'ftyp', 4) && (startsWith(bytes, 'avif', 8) || startsWith(bytes, 'avis', 8)))
    return image('image/avif');
  if (startsWith(bytes, 'wOF2')) return font('font/woff2');
  if (startsWith(bytes, 'wOFF')) return font('font/woff');
  if (startsWith(bytes, 'OTTO')) return font('font/otf');
  if (startsWith(bytes, '\x00\x01\x00\x00') || startsWith(bytes, 'true')) return font('font/ttf');
  // An svg is text: an XML declaration, comments or a doctype may come first, then the <svg element.
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 1024));
  if (/^\ufeff?\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*|<!doctype[^>]*>\s*)*<svg[\s>]/i.test(head))
    return image('image/svg+xml');
  return null;
}

/**
 * Which family a host's content type claims. Fonts are often served as plain binary (CDNs, object
 * stores), so that type may claim a font; the bytes then decide which. HTML, scripts and the rest claim
 * nothing.
 */
function claimedFamily(contentType: string | null): Family | null {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (/^image\/(?:png|jpe?g|pjpeg|gif|webp|avif|svg\+xml)$/.test(type)) return 'image';
  if (
    /^(?:font\/(?:woff2?|ttf|otf|sfnt|collection)|application\/(?:x-)?font-(?:woff2?|ttf|otf|sfnt|truetype|opentype)|application\/vnd\.ms-opentype|application\/octet-stream)$/.test(
      type,
    )
  )
    return 'font';
  return null;
}

/** One hop: GET through the guard; a refused address is ASSET_REFUSED, any other failure ASSET_UNAVAILABLE. */
async function hop(url: URL, signal: AbortSignal): Promise<Response> {
  let checked: Awaited<ReturnType<typeof checkTarget>>;
  try {
    checked = await checkTarget(url);
  } catch (err) {
    if (err instanceof OutboundRefused && err.permanent) throw new AppError('ASSET_REFUSED');
    throw new AppError('ASSET_UNAVAILABLE');
  }
  try {
    return await pinnedConnect(
      { ...checked, timeoutMs: replayAssetLimits.timeoutMs, maxBytes: replayAssetLimits.maxBytes },
      // Our own few headers only: nothing of the reader (cookie, language, address) goes to the host.
      {
        method: 'GET',
        headers: { accept: 'image/avif,image/webp,image/*,font/*;q=0.9,*/*;q=0.1', 'user-agent': 'Snag' },
        signal,
      },
    );
  } catch {
    throw new AppError('ASSET_UNAVAILABLE');
  }
}

/** Fetches `target` (redirects followed through the guard) and proves it a picture or a font. */
export async function fetchAsset(target: string): Promise<ReplayAsset> {
  const signal = AbortSignal.timeout(replayAssetLimits.timeoutMs);
  let url = new URL(target);
  for (let redirects = 0; ; redirects++) {
    const res = await hop(url, signal);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      if (redirects >= replayAssetLimits.redirects) throw new AppError('ASSET_UNAVAILABLE');
      // A location that is no address is no asset either.
      url =
        URL.parse(location, url) ??
        (() => {
          throw new AppError('ASSET_UNAVAILABLE');
        })();
      continue;
    }
    if (res.status !== 200) throw new AppError('ASSET_UNAVAILABLE');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const claimed = claimedFamily(res.headers.get('content-type'));
    const proved = sniffAsset(bytes);
    if (!claimed || !proved || proved.family !== claimed) throw new AppError('ASSET_UNAVAILABLE');
    return { bytes, contentType: proved.type, document: proved.type === 'image/svg+xml' };
  }
}

/** GET client/replay-asset/{siteId}?url=: for a reader the policy lets `action` the project, counted. */
export async function replayAssetOfProject(
  userId: string,
  projectId: string,
  url: string,
  action: ProjectAction = 'read',
): Promise<ReplayAsset> {
  await projectFor(userId, projectId, action);
  await rateLimit({ ...replayAssetRateLimit, key: userId });
  return fetchAsset(url);
}

/**
 * GET replay/{token}/asset?url=: the same for the public player of a signed link. The link is the only
 * credential, so it must still open its recording (not expired, not forged: else NOT_FOUND), and the
 * caller's source counts first, as for the recording itself.
 */
export async function replayAssetOfLink(token: string, url: string, source: string): Promise<ReplayAsset> {
  await rateLimit({ ...replayAssetRateLimit, key: `src:${source}` });
  if (!(await readReplayLinkToken(token))) throw new AppError('NOT_FOUND');
  return fetchAsset(url);
}
