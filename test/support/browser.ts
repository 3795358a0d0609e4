/**
 * Browser end-to-end support: Debian's Chromium driven by playwright-core, the local stack serving the
 * built dashboard (dist/web), and small helpers the e2e files share.
 *
 * The e2e suite tests the build, not the sources: run `npm run build` first (`npm run test:e2e` does not
 * build). Screenshots are taken only when SNAG_E2E_SHOTS names a directory (e.g. /tmp/snag-shots).
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Download,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { ApiClient } from './api-client';
import { startTestStack, type TestStack } from './local-stack';
import { browserLaunchOptions, SHARED_BROWSER_WS } from './shared-browser';

export { chromiumPath } from './shared-browser';

import { setUpTestStack } from './stack-fixture';
import { cheapCostsEnv, signedIn } from './users';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const distDir = resolve(root, 'dist');

/** The dashboard's default VITE_MARKETING_URL: where logout and profile deletion lead. */
export const marketingUrl = 'https://snag.example.com';

/** Fails with instructions when the dashboard build is missing. */
export function requireBuild(dir = distDir): void {
  const index = join(dir, 'web', 'index.html');
  if (!existsSync(index)) {
    throw new Error(
      `${index} is missing: the e2e suite tests the built dashboard. Run \`npm run build\` first.`,
    );
  }
}

/**
 * The e2e stack's settings over `cheapCostsEnv` (the flows are under test, not the costs): a key of its
 * own and quiet handlers; callers may override any of these.
 */
const e2eEnv = { ALTCHA_HMAC_KEY: 'e2e-test-altcha-key-0123456789', LOG_LEVEL: 'silent' };

/** The local stack with the dashboard, on a free port, for scripts outside vitest (test/bench). */
export async function startE2eStack(
  env: Record<string, string> = {},
  { vendorFakes = false } = {},
): Promise<TestStack> {
  requireBuild();
  Object.assign(process.env, cheapCostsEnv, e2eEnv, env);
  return startTestStack({ distDir, vendorFakes });
}

/** An e2e file's local stack serving the built dashboard (`setUpTestStack`: started before its tests). */
export function setUpE2eStack(env: Record<string, string> = {}, { vendorFakes = false } = {}): TestStack {
  return setUpTestStack(() => {
    requireBuild();
    return { env: { ...e2eEnv, ...env }, distDir, vendorFakes };
  });
}

/** Debian Chromium, launched for this file alone (`browserLaunchOptions` says how). */
export async function launchBrowser(
  extraArgs: string[] = [],
  options: { scrollbars?: boolean } = {},
): Promise<Browser> {
  return chromium.launch(browserLaunchOptions(extraArgs, options));
}

export interface PageOptions {
  /** Browser locale; the dashboard picks German for any de* locale. */
  locale?: string;
  /** Pre-accept the cookie notice (default), so screens are tested without it. */
  acceptCookies?: boolean;
  viewport?: { width: number; height: number };
  /** Origins besides the stack's that the page may reach (the S3 stand-in that downloads redirect to). */
  allowOrigins?: string[];
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors seen so far (failed loads are in `failedResponses`). */
  errors: string[];
  /** Answers of 400 and above from the local stack, as "<status> <METHOD> <path>". */
  failedResponses: string[];
  /** Top-level navigations to the marketing site (stubbed: never leaves the machine). */
  marketingVisits: string[];
}

/**
 * A fresh context (own cookies and storage) with one page at `baseUrl`. Everything outside the local
 * stack (and `allowOrigins`) is stubbed: the marketing site answers with a small page, any other host is
 * refused.
 */
export async function openPage(browser: Browser, baseUrl: string, opts: PageOptions = {}): Promise<TestPage> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    locale: opts.locale ?? 'en-US',
    viewport: opts.viewport ?? { width: 1280, height: 860 },
  });
  if (opts.acceptCookies ?? true) {
    // Init scripts run in every frame, sandboxed ones included, where storage throws.
    await context.addInitScript(() => {
      try {
        localStorage.setItem('snag.cookies.accepted', 'true');
      } catch {}
    });
  }
  const marketingVisits: string[] = [];
  const local = new URL(baseUrl).origin;
  const allowed = new Set([local, ...(opts.allowOrigins ?? []).map((o) => new URL(o).origin)]);
  await context.route(
    (url) => !allowed.has(url.origin),
    async (route) => {
      const url = route.request().url();
      if (url.startsWith(marketingUrl)) {
        if (route.request().isNavigationRequest()) marketingVisits.push(url);
        await route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: '<!doctype html><title>Snag marketing (stub)</title><h1>Snag marketing stub</h1>',
        });
      } else {
        await route.abort('blockedbyclient');
      }
    },
  );
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) {
      errors.push(`console: ${msg.text()}`);
    }
  });
  const failedResponses: string[] = [];
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (res.status() >= 400 && url.origin === local) {
      failedResponses.push(`${res.status()} ${res.request().method()} ${url.pathname}`);
    }
  });
  return { context, page, errors, failedResponses, marketingVisits };
}

/**
 * Requests in flight on a page, for waits that end once the network has been quiet for a while
 * (Playwright's networkidle waits a fixed 500 ms on every load). `quietFor` is how long nothing has been
 * in flight (0 while something is); `moved` restarts that count at a navigation inside the app, which the
 * old screen's last answer may precede by seconds.
 */
export function trackRequests(page: Page): { quietFor: () => number; moved: () => void } {
  let inFlight = 0;
  let lastChange = Date.now();
  const change = (d: number) => {
    inFlight += d;
    lastChange = Date.now();
  };
  page.on('request', () => change(1));
  page.on('requestfinished', () => change(-1));
  page.on('requestfailed', () => change(-1));
  return { quietFor: () => (inFlight > 0 ? 0 : Date.now() - lastChange), moved: () => change(0) };
}

/**
 * Goes to `path` inside the loaded dashboard as its own links do (the router follows the history), for
 * tests that walk many screens: a `page.goto` fetches, parses and starts the whole bundle again, about
 * half a second to a second of a loaded machine per screen. Use a real load (`page.goto`) for the first
 * screen and whenever what the dashboard reads as it starts changed (the session's cookies, the stored
 * language or cookie choice). The state is the router's own shape, so it counts the entry as a push.
 * The old screen stays until the new one renders: wait for the new one (`trackRequests`), not for `main`.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    const idx = ((history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    history.pushState({ usr: null, key: `inapp${idx}`, idx }, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
  }, path);
}

/** A finished download's content as text, read through Playwright's stream (works on a connected browser). */
export async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Waits for a save's toast and for it to go, so the next save shows a fresh one (not the last one's). */
export async function toastCame(page: Page, text: string) {
  const toast = page.getByText(text, { exact: true });
  await toast.waitFor();
  await toast.waitFor({ state: 'detached', timeout: 10_000 });
}

/** Waits for the page's address to have `pathname` (and, when given, exactly `search`). */
export async function waitForPath(page: Page, pathname: string, search?: string, timeout = 15_000) {
  await page.waitForURL(
    (url) => url.pathname === pathname && (search === undefined || url.search === search),
    { timeout },
  );
}

/** Waits until `locator` is enabled (Mantine buttons carry the disabled attribute while disabled). */
export async function waitEnabled(locator: Locator, timeout = 30_000): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout });
  const deadline = Date.now() + timeout;
  while (await locator.isDisabled()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${locator} to be enabled`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * What the issue page's replay frame shows now: its document's text, read from the dashboard (the frame is
 * same-origin and runs no script); empty while there is no frame.
 */
export const replayFrameText = (page: Page): Promise<string> =>
  page.evaluate(
    () =>
      document.querySelector<HTMLIFrameElement>('[data-testid="replay-frame"]')?.contentDocument?.body
        ?.textContent ?? '',
  );

/** Saves a full-page screenshot as `<SNAG_E2E_SHOTS>/<name>.png`; a no-op without SNAG_E2E_SHOTS. */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SNAG_E2E_SHOTS;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  // Let transitions (toasts, modals) settle so the picture shows the resting state.
  await page.waitForTimeout(350);
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/**
 * The usual setup of an e2e file: a local stack serving the built dashboard, one Chromium, and tabs that
 * are closed with it. Call at the top level of the file; read `stack`/`browser` inside tests.
 *
 * The Chromium is the run's shared one (test/support/shared-browser.ts, a connection rather than a
 * launch) unless `browserArgs` asks for one of its own. A connected browser works as a launched one but
 * for `download.path()`, which Playwright refuses remotely: read a download with `downloadText`.
 */
export function setUpBrowserSuite(opts: { browserArgs?: string[]; vendorFakes?: boolean } = {}) {
  const suite = {
    stack: setUpE2eStack({}, { vendorFakes: opts.vendorFakes === true }),
    browser: undefined as unknown as Browser,
    tabs: [] as TestPage[],
    /** A new tab (its own browser context) on the stack's origin, which may also reach its S3 stand-in. */
    async newTab(pageOptions: PageOptions = {}): Promise<TestPage> {
      const tab = await openPage(suite.browser, suite.stack.url, {
        allowOrigins: [suite.stack.endpoints.s3],
        ...pageOptions,
      });
      suite.tabs.push(tab);
      return tab;
    },
  };
  beforeAll(async () => {
    // The run's Chromium (test/support/shared-browser.ts) unless this file needs arguments of its own.
    const shared = process.env[SHARED_BROWSER_WS];
    suite.browser =
      shared && !opts.browserArgs ? await chromium.connect(shared) : await launchBrowser(opts.browserArgs);
  });
  afterAll(async () => {
    for (const tab of suite.tabs) await tab.context.close();
    await suite.browser?.close();
  });
  return suite;
}

/**
 * A new confirmed client, signed in through the API, and a tab of `suite` carrying its cookies (the
 * session and its readable hint), for screens whose tests need an account but not the account screens.
 */
export async function signedInTab(
  suite: ReturnType<typeof setUpBrowserSuite>,
  pageOptions: PageOptions = {},
): Promise<{ api: ApiClient; email: string; tab: TestPage; page: Page }> {
  const { client: api, email } = await signedIn(suite.stack.url);
  const tab = await suite.newTab(pageOptions);
  await tab.context.addCookies(
    [...api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  return { api, email, tab, page: tab.page };
}
