/**
 * The browser extension in Chromium for browser tests (test/e2e/extension.test.ts): the built unpacked
 * extension loaded into a persistent profile, headless, and the two things a test cannot click in the
 * browser's own UI done the way the browser does them:
 * - the toolbar button: the DevTools protocol's `Extensions.triggerAction` on the page's tab (the same
 *   popup and the same `activeTab` grant as a click; needs `--enable-unsafe-extension-debugging`);
 * - the site-access prompt: granted beforehand through chrome://extensions (its `developerPrivate` call, the
 *   "On specific sites" setting), after which the extension's own `permissions.request` resolves at once.
 * The popup is no Playwright page (Playwright does not attach to extension popups): it is driven through
 * the protocol's target messages, with `userGesture` as a click would have.
 * The keyboard shortcut needs no stand-in: `pressShortcut` types it into the page as a keyboard does, and
 * Chromium's own shortcut handling runs the extension's command.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type BrowserContext, type CDPSession, chromium, type Page, type Worker } from 'playwright-core';
import { chromiumPath, distDir } from './browser';

export const extensionDir = (browser: 'chrome' | 'firefox') => join(distDir, 'extension', browser);

/** Builds the extension for both browsers (unpacked and zipped), once per test file that needs it. */
export async function buildExtension(): Promise<void> {
  await promisify(execFile)('npm', ['run', '--silent', 'build:extension'], {
    cwd: resolve(distDir, '..'),
    maxBuffer: 16 * 1024 * 1024,
  });
}

export interface ExtensionBrowser {
  context: BrowserContext;
  /** The extension's background worker. */
  worker: Worker;
  id: string;
  close(): Promise<void>;
}

/** Chromium with the built Chromium extension, headless, in a fresh profile. */
export async function launchWithExtension(extraArgs: string[] = []): Promise<ExtensionBrowser> {
  const dir = extensionDir('chrome');
  const profile = await mkdtemp(join(tmpdir(), 'snag-ext-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    args: [
      '--headless=new',
      `--disable-extensions-except=${dir}`,
      `--load-extension=${dir}`,
      '--enable-unsafe-extension-debugging',
      '--no-first-run',
      '--disable-sync',
      '--disable-background-networking',
      '--disable-component-update',
      ...extraArgs,
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  return {
    context,
    worker,
    id: new URL(worker.url()).host,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Grants the extension `pattern` (an optional host permission) as chrome://extensions' site access does. */
export async function grantSiteAccess(ext: ExtensionBrowser, pattern: string): Promise<void> {
  const page = await ext.context.newPage();
  await page.goto('chrome://extensions/');
  await page.evaluate(
    ([id, host]) =>
      (
        globalThis as unknown as {
          chrome: { developerPrivate: { addHostPermission(id: string, host: string): Promise<void> } };
        }
      ).chrome.developerPrivate.addHostPermission(id!, host!),
    [ext.id, pattern],
  );
  await page.close();
}

/**
 * Presses the extension's shortcut (Alt+Shift+S) on `page` as a keyboard does: the DevTools protocol's raw
 * key events enter the page, which leaves them unhandled, and Chromium's own shortcut handling runs the
 * extension's command (measured on Chromium 150 headless: `commands.onCommand` fires with the tab).
 * Playwright's `keyboard.press` sends its keys as typed characters, which never reach the shortcuts.
 */
export async function pressShortcut(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  const alt = 1;
  const shift = 8;
  for (const type of ['rawKeyDown', 'keyUp'] as const)
    await session.send('Input.dispatchKeyEvent', {
      type,
      modifiers: alt | shift,
      key: 'S',
      code: 'KeyS',
      windowsVirtualKeyCode: 83,
      nativeVirtualKeyCode: 83,
    });
  await session.detach();
}

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

async function targets(session: CDPSession): Promise<TargetInfo[]> {
  const answer = (await session.send('Target.getTargets', { filter: [{}] } as never)) as unknown as {
    targetInfos: TargetInfo[];
  };
  return answer.targetInfos;
}

export interface Popup {
  /** Evaluates `expression` in the popup (awaiting a promise) and returns its value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Waits until `expression` is truthy in the popup. */
  waitFor(expression: string, timeoutMs?: number): Promise<void>;
  /** A PNG of the popup. */
  screenshot(): Promise<Buffer>;
}

/**
 * Clicks the extension's toolbar button for the tab showing `url` (exactly) and returns its popup.
 */
export async function openPopup(ext: ExtensionBrowser, url: string): Promise<Popup> {
  const browser = ext.context.browser();
  if (!browser) throw new Error('no browser for the context');
  const session = await browser.newBrowserCDPSession();
  const tab = (await targets(session)).find((t) => t.type === 'tab' && t.url === url);
  if (!tab) throw new Error(`no tab shows ${url}`);
  const popupUrl = `chrome-extension://${ext.id}/popup.html`;
  const stale = new Set((await targets(session)).filter((t) => t.url === popupUrl).map((t) => t.targetId));
  await session.send('Extensions.triggerAction' as never, { id: ext.id, targetId: tab.targetId } as never);
  let popup: TargetInfo | undefined;
  for (let i = 0; i < 100 && !popup; i++) {
    popup = (await targets(session)).find(
      (t) => t.type === 'page' && t.url === popupUrl && !stale.has(t.targetId),
    );
    if (!popup) await new Promise((r) => setTimeout(r, 100));
  }
  if (!popup) throw new Error('the popup did not open');
  const { sessionId } = (await session.send('Target.attachToTarget', {
    targetId: popup.targetId,
    flatten: false,
  })) as { sessionId: string };

  let seq = 0;
  const send = <T>(method: string, params: Record<string, unknown>): Promise<T> =>
    new Promise((done, fail) => {
      const id = ++seq;
      const onMessage = (e: { sessionId: string; message: string }) => {
        if (e.sessionId !== sessionId) return;
        const m = JSON.parse(e.message) as { id?: number; result?: T; error?: { message: string } };
        if (m.id !== id) return;
        session.off('Target.receivedMessageFromTarget' as never, onMessage as never);
        if (m.error) fail(new Error(`${method}: ${m.error.message}`));
        else done(m.result as T);
      };
      session.on('Target.receivedMessageFromTarget' as never, onMessage as never);
      void session.send(
        'Target.sendMessageToTarget' as never,
        {
          sessionId,
          message: JSON.stringify({ id, method, params }),
        } as never,
      );
    });

  const evaluate = async <T>(expression: string): Promise<T> => {
    const r = await send<{ result: { value: T }; exceptionDetails?: { text: string } }>('Runtime.evaluate', {
      expression,
      awaitPromise: true,
      userGesture: true,
      returnByValue: true,
    });
    if (r.exceptionDetails) throw new Error(`popup: ${r.exceptionDetails.text} in ${expression}`);
    return r.result.value;
  };
  return {
    evaluate,
    async waitFor(expression, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (!(await evaluate<boolean>(`!!(${expression})`))) {
        if (Date.now() > until) throw new Error(`popup: timed out waiting for ${expression}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async screenshot() {
      const { data } = await send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
      return Buffer.from(data, 'base64');
    },
  };
}
