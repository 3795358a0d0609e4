/**
 * A customer's website for widget tests: a tiny HTTP server on 127.0.0.1 (random port) serving the pages
 * a test registers. Chromium reaches it under made-up host names through `--host-resolver-rules`
 * (`customerBrowserArgs`), so the loader's host matching runs against real names
 * (http://shop.customer.test:<port>/, http://other.test:<port>/) on an origin other than the dashboard's.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from './browser';

/** Host names that resolve to the customer site. */
export const customerHosts = {
  /** The project's domain in tests. */
  domain: 'customer.test',
  /** A subdomain of it: matches the project. */
  shop: 'shop.customer.test',
  /** Another site: does not match (unless wildcard). */
  other: 'other.test',
} as const;

const resolverRules =
  '--host-resolver-rules=MAP customer.test 127.0.0.1, MAP *.customer.test 127.0.0.1, MAP other.test 127.0.0.1';

/** Chromium as test/support/browser.ts launches it, plus the customer host mapping and `extraArgs`. */
export function launchCustomerBrowser(
  extraArgs: string[] = [],
  options: Parameters<typeof launchBrowser>[1] = {},
): Promise<Browser> {
  return launchBrowser([resolverRules, ...extraArgs], options);
}

export interface CustomerSite {
  port: number;
  /** `http://<host>:<port><path>`. */
  url(host: string, path?: string): string;
  /** Serves `html` at `path` (any host). */
  page(path: string, html: string): void;
  /** Serves `body` at `path` as it is, with `headers` and `status` (200): a picture, a font, a redirect. */
  file(path: string, body: Uint8Array | string, headers: Record<string, string>, status?: number): void;
  /** The headers of each request that reached `path`, oldest first. */
  requests(path: string): IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startCustomerSite(): Promise<CustomerSite> {
  const pages = new Map<string, string>();
  const files = new Map<
    string,
    { body: Uint8Array | string; headers: Record<string, string>; status: number }
  >();
  const seen = new Map<string, IncomingHttpHeaders[]>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.set(path, [...(seen.get(path) ?? []), req.headers]);
    const html = pages.get(path);
    const file = files.get(path);
    if (file) {
      res.writeHead(file.status, file.headers).end(file.body);
      return;
    }
    if (path === '/favicon.ico') {
      res.writeHead(204).end(); // Browsers ask for it; a 404 would be a console error on every page.
      return;
    }
    if (html === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (host, path = '/') => `http://${host}:${port}${path}`,
    page: (path, html) => pages.set(path, html),
    file: (path, body, headers, status = 200) => files.set(path, { body, headers, status }),
    requests: (path) => seen.get(path) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A plain shop page around `snippet` (the install snippet), with optional extra head and body markup. */
export function customerPage({
  snippet,
  head = '',
  body = '',
  title = 'Customer shop',
}: {
  snippet: string;
  head?: string;
  body?: string;
  title?: string;
}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
body{margin:0;font:16px/1.5 Georgia,serif;color:#222;background:#faf7f2}
header{display:flex;justify-content:space-between;align-items:center;padding:18px 40px;background:#fff;border-bottom:1px solid #e8e2d8}
header b{font-size:22px}nav a{margin-left:22px;color:#444;text-decoration:none}
main{max-width:880px;margin:40px auto;padding:0 24px}
.hero{height:180px;border-radius:14px;background:linear-gradient(120deg,#f1d9c3,#e9c7d9);margin-bottom:28px}
.grid{display:grid;grid-template-columns:repeat(3,1fr);gap:18px;margin-top:24px}
.grid div{height:120px;border-radius:12px;background:#fff;border:1px solid #eee3d6}
</style>
${head}</head>
<body>
<header><b>Acme Shop</b><nav><a href="#">Products</a><a href="#">About</a><a href="#" id="first-link">Contact</a></nav></header>
<main><div class="hero"></div><h1>Handmade ceramics</h1>
<p>Every piece is thrown by hand in our small studio. Browse the collection below.</p>
<div class="grid"><div></div><div></div><div></div></div>${body}</main>
${snippet}
</body></html>`;
}

export interface CustomerVisit {
  page: Page;
  /** Uncaught errors and console errors on the customer page. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Opens a customer page in a fresh context (its own HTTP cache: the loader is cached for 60 s, so each
 * visit sees the project's current settings) and waits for the load event (async scripts have run).
 */
export async function visitCustomerPage(
  browser: Browser,
  url: string,
  options: BrowserContextOptions & { timeoutMs?: number } = {},
): Promise<CustomerVisit> {
  const { timeoutMs = 10_000, ...contextOptions } = options;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...contextOptions });
  const page = await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors, close: () => context.close() };
}
