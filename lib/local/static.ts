/**
 * The CloudFront part: the dashboard from dist/web with the SPA fallback, and /widget/* from dist/widget.
 * Content-hashed files are cached for a year, everything else is revalidated; text is compressed as
 * CloudFront compresses it (./compress.ts). A missing build is not an error: the API still works, and the
 * page says how to build.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, relative, resolve, sep } from 'node:path';
import { compressReply, isCompressible } from './compress';
import { send } from './http-reply';

export interface StaticOptions {
  /** dist/web: the dashboard. */
  webDir: string;
  /** dist/widget: the widget bundles, served under /widget/. */
  widgetDir: string;
  /** The dashboard's Content-Security-Policy (lib/web-headers.ts), as CloudFront sends it; read per request. */
  csp?: () => string | undefined;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
};

/**
 * Vite's and esbuild's content hashes: `app.3f9a1c2b.js`, `index-BxY_12ab.js`. A hash has a digit or a
 * capital, which tells it from a plain word such as `-settings.js`.
 */
const hashPart = /[.-]([A-Za-z0-9_-]{8,})\.[a-z0-9]+$/;

export function cacheControl(file: string): string {
  if (file.endsWith('.html')) return 'no-cache';
  const hash = hashPart.exec(file)?.[1];
  return hash && /[0-9A-Z]/.test(hash) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** The file under `root` that `urlPath` names, or undefined when it would leave `root`. */
export function safeJoin(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const file = resolve(root, `.${decoded.startsWith('/') ? '' : '/'}${decoded}`);
  const rel = relative(root, file);
  if (rel.startsWith('..') || rel.split(sep).includes('..')) return undefined;
  return file;
}

async function isFile(path: string): Promise<number | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}

const notFound = (res: ServerResponse, head: boolean) =>
  send(
    res,
    404,
    { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' },
    'Not found\n',
    head,
  );

async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  size: number,
  head: boolean,
  extra: Record<string, string> = {},
) {
  const type = contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const headers = {
    'content-type': type,
    'cache-control': cacheControl(file),
    'x-content-type-options': 'nosniff',
    ...extra,
  };
  // What CloudFront would compress is read whole (at most 10 MB) and compressed; the rest is streamed.
  if (isCompressible(headers, size)) {
    const reply = compressReply(
      { statusCode: 200, headers, body: await readFile(file) },
      { acceptEncoding: req.headers['accept-encoding'], httpVersion: req.httpVersion },
    );
    send(res, reply.statusCode, reply.headers, reply.body, head);
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': String(size) });
  if (head) {
    res.end();
    return;
  }
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

const notBuilt = `<!doctype html><meta charset="utf-8"><title>Snag</title>
<p>The dashboard is not built. Run <code>npm run build</code> (or <code>npm start</code> without SNAG_SKIP_BUILD).</p>`;

export function createStaticHandler(opts: StaticOptions) {
  const webRoot = resolve(opts.webDir);
  const widgetRoot = resolve(opts.widgetDir);
  // CloudFront's dashboard behaviour sends these with every response (lib/stacks/web.ts).
  const dashboardHeaders = (): Record<string, string> => {
    const csp = opts.csp?.();
    return csp
      ? {
          'content-security-policy': csp,
          'x-frame-options': 'DENY',
          'referrer-policy': 'strict-origin-when-cross-origin',
        }
      : {};
  };
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    req.resume();
    if (method !== 'GET' && method !== 'HEAD') {
      send(
        res,
        405,
        { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
        'Method not allowed\n',
      );
      return;
    }
    const head = method === 'HEAD';
    const path = (req.url ?? '/').split('?')[0] ?? '/';

    if (path === '/widget' || path.startsWith('/widget/')) {
      const file = safeJoin(widgetRoot, path.slice('/widget'.length));
      const size = file ? await isFile(file) : undefined;
      if (file && size !== undefined) await sendFile(req, res, file, size, head);
      else notFound(res, head);
      return;
    }

    const file = safeJoin(webRoot, path);
    if (!file) {
      notFound(res, head);
      return;
    }
    const size = await isFile(file);
    if (size !== undefined) {
      await sendFile(req, res, file, size, head, dashboardHeaders());
      return;
    }
    // Client routes (no extension) get the SPA; a missing asset is a plain 404, not HTML. A replay link's
    // page is a client route though its token holds dots (as CloudFront's rewrite, lib/stacks/web.ts).
    if (extname(path) !== '' && !path.startsWith('/replay/')) {
      notFound(res, head);
      return;
    }
    const index = resolve(webRoot, 'index.html');
    const indexSize = await isFile(index);
    if (indexSize !== undefined) await sendFile(req, res, index, indexSize, head, dashboardHeaders());
    else
      send(
        res,
        404,
        { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
        notBuilt,
        head,
      );
  };
}
