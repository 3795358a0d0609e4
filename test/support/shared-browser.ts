/**
 * Vitest global setup of the e2e project: one Chromium for the whole run, which the e2e files' browser
 * suites (test/support/browser.ts `setUpBrowserSuite`) connect to instead of launching one each. A launch
 * and its close cost 1.5 to 3 s of a loaded 2-CPU machine, per file; a connection well under one. Each
 * file still works in browser contexts of its own (own cookies, storage and cache), which it closes.
 *
 * The server's address reaches the files through the environment, as the shared DynamoDB's does. A file
 * that needs Chromium started with arguments of its own (`browserArgs`, the customer-site host mapping,
 * the extension) launches its own, as before.
 */
import { existsSync } from 'node:fs';
import { chromium, type LaunchOptions } from 'playwright-core';

export const SHARED_BROWSER_WS = 'SNAG_TEST_BROWSER_WS';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian Chromium, headless, with nothing that phones home; `extraArgs` are appended (e.g. host mapping).
 * `scrollbars: true` keeps the scrollbars a desktop visitor sees (Playwright hides them when headless).
 */
export function browserLaunchOptions(extraArgs: string[] = [], { scrollbars = false } = {}): LaunchOptions {
  if (!existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath} (set CHROMIUM_PATH)`);
  return {
    executablePath: chromiumPath,
    ignoreDefaultArgs: scrollbars ? ['--hide-scrollbars'] : undefined,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  };
}

export default async function setup() {
  const server = await chromium.launchServer(browserLaunchOptions());
  process.env[SHARED_BROWSER_WS] = server.wsEndpoint();
  return async () => {
    delete process.env[SHARED_BROWSER_WS];
    await server.close();
  };
}
