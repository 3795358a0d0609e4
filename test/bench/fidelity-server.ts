/**
 * The fidelity suite's web server: each page's package folder under `/pkg/<package>/`, with the install
 * snippet (`<script async src="/api/website/<id>/code">`) added before `</body>` of every HTML page, and
 * the widget as the local stack serves it: the built loader wrapped with a project configuration (as
 * `functions/projects/loader.ts` `renderLoader` does) and the built app files (dist/widget). No stack is
 * needed: the screenshot is taken in the page, before any call to the API.
 * Listens on 127.0.0.1, on the first free port from `firstPort`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WidgetConfig } from '#contracts/widget-config';
import { type FidelityPage, packageDir } from './fidelity-pages';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const widgetDir = resolve(root, 'dist', 'widget');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.otf': 'font/otf',
};

export const contentType = (path: string): string =>
  TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';

const PROJECT_ID = '00000000-0000-4000-8000-00000000f1de';

export interface FidelityServer {
  origin: string;
  /** The address of a page of the suite, with the view's query. */
  url(page: FidelityPage, query?: string): string;
  close(): Promise<void>;
}

/** A project configuration as `widgetConfig` makes it: launcher on, screenshots on, straight to the form. */
function config(host: string, api: string): WidgetConfig {
  return {
    id: PROJECT_ID,
    host,
    wildcard: false,
    testMode: false,
    hideOnMobile: false,
    language: 'en',
    color: '#4F4EAE',
    scheme: 'white',
    text: 'Feedback',
    position: 'rightBottom',
    screenshot: true,
    upload: false,
    video: false,
    welcomeScreen: false,
    branding: true,
    customFields: [],
    texts: {},
    api,
  };
}

/** A file inside `dir`, or null (no escaping the folder). */
function fileIn(dir: string, path: string): string | null {
  const file = normalize(join(dir, decodeURIComponent(path)));
  if (!file.startsWith(dir)) return null;
  return existsSync(file) && statSync(file).isFile() ? file : null;
}

/** `widget`: settings over the default configuration (the replay bench turns `replay` on). */
export async function startFidelityServer(
  pages: FidelityPage[],
  host: string,
  firstPort = 4700,
  widget: Partial<WidgetConfig> = {},
): Promise<FidelityServer> {
  if (!existsSync(join(widgetDir, 'loader.js')))
    throw new Error(`${widgetDir}/loader.js is missing: run \`npx tsx widget/build.ts\` first`);
  let origin = '';
  const snippet = `<script async src="/api/website/${PROJECT_ID}/code"></script>`;
  const overrides = new Map<string, { type: string; body: () => string }>();
  for (const p of pages)
    for (const [path, o] of Object.entries(p.overrides ?? {})) overrides.set(`/pkg/${p.pkg}/${path}`, o);

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // Fonts with CORS, as the CDNs and most hosts serve them: a replay (another origin) may then use them.
    const send = (type: string, body: string | Buffer) =>
      res
        .writeHead(200, {
          'content-type': type,
          'cache-control': 'no-cache',
          ...(type.startsWith('font/') ? { 'access-control-allow-origin': '*' } : {}),
        })
        .end(body);
    if (path === `/api/website/${PROJECT_ID}/code`) {
      const loader = readFileSync(join(widgetDir, 'loader.js'), 'utf8');
      const json = JSON.stringify({ ...config(host, origin), ...widget }).replace(/</g, '\\u003c');
      return send(
        contentType('.js'),
        `/* Snag widget */(function(__SNAG_CONFIG__){${loader}\n})(${json});\n`,
      );
    }
    if (path.startsWith('/widget/')) {
      const file = fileIn(widgetDir, path.slice('/widget/'.length));
      if (file) return send(contentType(file), readFileSync(file));
    }
    const override = overrides.get(path);
    if (override) return send(override.type, override.body());
    const m = /^\/pkg\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
    if (m) {
      const file = fileIn(packageDir(m[1]!), m[2]!);
      if (file) {
        if (!file.endsWith('.html')) return send(contentType(file), readFileSync(file));
        const html = readFileSync(file, 'utf8');
        const at = html.toLowerCase().lastIndexOf('</body>');
        return send(
          contentType(file),
          at < 0 ? html + snippet : `${html.slice(0, at)}${snippet}\n${html.slice(at)}`,
        );
      }
    }
    // Pages ask for things their package does not ship (favicons, their dev server's files): a plain 404.
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });

  let port = firstPort;
  for (;;) {
    try {
      await new Promise<void>((ok, fail) => {
        server.once('error', fail);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', fail);
          ok();
        });
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port >= firstPort + 99) throw error;
      port++;
    }
  }
  origin = `http://${host}:${port}`;
  return {
    origin,
    url: (page, query) => `${origin}/pkg/${page.pkg}/${page.path}${query ? `?${query}` : ''}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
