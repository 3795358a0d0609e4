/**
 * CloudFront's edge compression, played by the local stack, so that the bytes a developer sees on the wire
 * are the bytes customers get (docs/decisions.md "Local compression as CloudFront's"). In AWS the
 * dashboard, `/widget/*` and the loader behaviours compress (lib/stacks/web.ts; test/cdk/app.test.ts checks
 * it); the rest of `/api/*` goes through the CachingDisabled policy and is sent as the API answers it.
 *
 * CloudFront's rules (Developer Guide, "Serve compressed files"): Brotli when the viewer accepts it, else
 * Gzip; only the media types of its list; only bodies of 1,000 to 10,000,000 bytes; never a response
 * that already has a Content-Encoding; nothing for HTTP/1.0; a strong ETag becomes weak.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { HttpReply } from './api-result';

/** CloudFront's list of compressed types ("File types that CloudFront compresses"), without parameters. */
export const compressibleTypes: ReadonlySet<string> = new Set([
  'application/dash+xml',
  'application/eot',
  'application/font',
  'application/font-sfnt',
  'application/javascript',
  'application/json',
  'application/opentype',
  'application/otf',
  'application/pkcs7-mime',
  'application/protobuf',
  'application/rss+xml',
  'application/truetype',
  'application/ttf',
  'application/vnd.apple.mpegurl',
  'application/vnd.mapbox-vector-tile',
  'application/vnd.ms-fontobject',
  'application/wasm',
  'application/xhtml+xml',
  'application/xml',
  'application/x-font-opentype',
  'application/x-font-truetype',
  'application/x-font-ttf',
  'application/x-httpd-cgi',
  'application/x-javascript',
  'application/x-mpegurl',
  'application/x-opentype',
  'application/x-otf',
  'application/x-perl',
  'application/x-ttf',
  'font/eot',
  'font/opentype',
  'font/otf',
  'font/ttf',
  'image/svg+xml',
  'text/css',
  'text/csv',
  'text/html',
  'text/javascript',
  'text/js',
  'text/plain',
  'text/richtext',
  'text/tab-separated-values',
  'text/xml',
  'text/x-component',
  'text/x-java-source',
  'text/x-script',
  'vnd.apple.mpegurl',
]);

/** CloudFront compresses bodies of this many bytes, bounds included. */
export const compressibleSize = { min: 1_000, max: 10_000_000 } as const;

/** API routes whose CloudFront behaviour compresses: the loader's (lib/stacks/web.ts `loaderPath`). */
export const compressedApiPaths: readonly string[] = ['/api/website/{id}/code'];

export type Encoding = 'br' | 'gzip';

/**
 * The encoding a viewer gets: Brotli when its Accept-Encoding lists `br`, else Gzip when it lists `gzip`,
 * else none. CloudFront keeps only those two names (it normalises the header), so a `q=0` refuses one and
 * other weights do not reorder them; `*` counts for neither.
 */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  httpVersion = '1.1',
): Encoding | undefined {
  if (!acceptEncoding || httpVersion === '1.0') return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

/** Bodies already compressed, by content hash: the dashboard's bundles are asked for again and again. */
const cache = new Map<string, Buffer>();
const cacheLimitBytes = 64 * 1024 * 1024;
let cachedBytes = 0;

/**
 * Gzip at zlib's default level and Brotli at quality 5: on-the-fly settings (CloudFront does not publish
 * its levels), cheap enough to run per request, within a few per cent of the maximum on the loader.
 */
function encode(body: Buffer, encoding: Encoding): Buffer {
  const key = `${encoding}:${createHash('sha256').update(body).digest('base64')}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const out =
    encoding === 'br'
      ? brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 5,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        })
      : gzipSync(body);
  cache.set(key, out);
  cachedBytes += out.length;
  for (const [oldest, value] of cache) {
    if (cachedBytes <= cacheLimitBytes) break;
    cache.delete(oldest);
    cachedBytes -= value.length;
  }
  return out;
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

/** Whether CloudFront would compress this answer for a viewer that asks (type, size, not yet encoded). */
export function isCompressible(headers: HttpReply['headers'], size: number): boolean {
  if (headers['content-encoding'] !== undefined) return false;
  const type = (single(headers['content-type']) ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return compressibleTypes.has(type) && size >= compressibleSize.min && size <= compressibleSize.max;
}

/**
 * The answer as CloudFront sends it to this viewer. Headers are lower-case (as `HttpReply`'s are); the
 * caller sets Content-Length from the body it gets back. A compressible answer carries
 * `Vary: Accept-Encoding` whether or not this viewer got it compressed, so no cache mixes the two.
 */
export function compressReply(
  reply: HttpReply,
  viewer: { acceptEncoding?: string | string[] | undefined; httpVersion?: string },
): HttpReply {
  if (!isCompressible(reply.headers, reply.body.length)) return reply;
  const vary = single(reply.headers.vary);
  const headers: HttpReply['headers'] = {
    ...reply.headers,
    vary: vary && !/\baccept-encoding\b/i.test(vary) ? `${vary}, Accept-Encoding` : vary || 'Accept-Encoding',
  };
  const encoding = chooseEncoding(single(viewer.acceptEncoding), viewer.httpVersion);
  if (!encoding) return { ...reply, headers };
  const etag = single(headers.etag);
  if (etag !== undefined) {
    if (etag.startsWith('"')) headers.etag = `W/${etag}`;
    else if (!etag.startsWith('W/')) delete headers.etag;
  }
  delete headers['content-length'];
  return {
    ...reply,
    headers: { ...headers, 'content-encoding': encoding },
    body: encode(reply.body, encoding),
  };
}
