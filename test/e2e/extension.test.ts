/**
 * The browser extension (issue 34, docs/extension.md) in Chromium, loaded unpacked from its build: on a
 * page of another origin with no snippet and a strict Content-Security-Policy, a member connects the
 * extension to the local stack, picks the project and reports with an annotated screenshot; the issue has
 * the browser's own picture (masked field covered), the page's console error and "via extension". A revoked
 * connection asks to connect again and keeps the draft. Nothing is injected into a page before the user
 * acts. The Firefox build passes Mozilla's `web-ext lint`, and in Firefox (stock ESR, over Marionette) a
 * member connects through the same connect page and reports from the keyboard shortcut on the same page.
 *
 * How the test reaches what it cannot click (the toolbar button, the permission prompt): see
 * test/support/extension.ts and decision EXT-8.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pixelmatch from 'pixelmatch';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V1Issue } from '#contracts/api-v1';
import { MASK_COLOUR } from '../../widget/src/capture/mask';
import en from '../../widget/src/i18n/en';
import type { ApiClient } from '../support/api-client';
import { axeFindings } from '../support/axe';
import { setUpE2eStack, shot } from '../support/browser';
import { type CustomerSite, customerHosts, startCustomerSite } from '../support/customer-site';
import {
  buildExtension,
  type ExtensionBrowser,
  extensionDir,
  grantSiteAccess,
  launchWithExtension,
  openPopup,
  type Popup,
  pressShortcut as pressChromiumShortcut,
} from '../support/extension';
import {
  extensionId,
  extensionUuid,
  type Firefox,
  keys,
  launchFirefox,
  pressShortcut,
} from '../support/firefox';
import { signedIn } from '../support/users';

const stack = setUpE2eStack();
let site: CustomerSite;
let member: ApiClient;
let projectId: string;
let ext: ExtensionBrowser | undefined;

const resolverRules = '--host-resolver-rules=MAP customer.test 127.0.0.1, MAP *.customer.test 127.0.0.1';
const strictCsp = "script-src 'self'; connect-src 'self'";

/** The customer's page: no snippet, a strict CSP, a card field (masked by the widget's rules), a Pay button. */
const shopPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme checkout</title>
<style>
body{margin:0;font:16px/1.5 Georgia,serif;color:#222;background:#faf7f2}
header{padding:18px 40px;background:#fff;border-bottom:1px solid #e8e2d8;font-weight:700;font-size:22px}
main{max-width:880px;margin:32px auto;padding:0 24px}
.hero{height:200px;border-radius:14px;background:linear-gradient(120deg,#f1d9c3,#e9c7d9);margin-bottom:24px}
label{display:block;margin:12px 0 4px}
input{font:inherit;padding:6px 10px;width:320px}
.secret{margin-top:16px;padding:10px;background:#fff;border:1px solid #ddd;width:300px}
button{font:inherit;margin-top:16px;padding:8px 18px}
</style></head>
<body><header>Acme Shop</header>
<main><div class="hero"></div><h1>Checkout</h1>
<label for="card">Card number</label><input id="card" autocomplete="cc-number" value="4242 4242 4242 4242">
<div class="secret" data-snag-mask id="secret">Order for Ada, 12 Main Street</div>
<button id="pay" type="button">Pay</button></main>
<script src="/app.js"></script>
</body></html>`;
const shopScript = `document.getElementById('pay').addEventListener('click', function () {
  console.error('Payment failed: card declined');
});`;

beforeAll(async () => {
  site = await startCustomerSite();
  site.file('/', shopPage, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': strictCsp,
    'cache-control': 'no-store',
  });
  site.file('/app.js', shopScript, { 'content-type': 'text/javascript' });
  await buildExtension();
  ({ client: member } = await signedIn(stack.url));
  const created = await member.post<{ id: string }>('/api/client/website', {
    name: 'Acme Shop',
    url: `https://${customerHosts.domain}`,
  });
  expect(created.status).toBe(201);
  projectId = (created.body as { msg: { id: string } }).msg.id;
});

afterAll(async () => {
  await ext?.close();
  await site?.close();
});

async function savePng(name: string, png: Buffer) {
  const dir = process.env.SNAG_E2E_SHOTS;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.png`), png);
}

/** What the page's world shows of the extension: its MAIN-world marker, a wrapped console, its panel. */
const injected = (page: Page) =>
  page.evaluate(() => ({
    logScript: '__snagExtensionLogs' in window,
    consoleWrapped: !/\[native code\]/.test(String(console.error)),
    panel: document.querySelector('snag-panel') !== null,
  }));

const text = (popup: Popup, id: string) =>
  popup.evaluate<string>(`document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`);
const click = (popup: Popup, id: string) =>
  popup.evaluate(`document.getElementById(${JSON.stringify(id)}).click()`);

/** The stored issue as the v1 API answers it, read with the extension's own token (issues:read). */
async function v1Issue(token: string, n: number): Promise<V1Issue> {
  const res = await fetch(`${stack.url}/api/v1/projects/${projectId}/issues/${n}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { msg: V1Issue }).msg;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Share of pixels that differ (pixelmatch, threshold 0.1) outside `skip`, which are blanked in both. */
function differingShare(a: PNG, b: PNG, skip: Box[]): number {
  const blank = (img: PNG) => {
    for (const r of skip)
      for (let y = Math.max(0, Math.floor(r.y)); y < Math.min(img.height, Math.ceil(r.y + r.height)); y++)
        for (let x = Math.max(0, Math.floor(r.x)); x < Math.min(img.width, Math.ceil(r.x + r.width)); x++)
          img.data.writeUInt32BE(0xff00ffff, (y * img.width + x) * 4);
  };
  blank(a);
  blank(b);
  const n = pixelmatch(a.data, b.data, undefined, a.width, a.height, { threshold: 0.1 });
  return n / (a.width * a.height);
}

const grow = (r: Box, by: number): Box => ({
  x: r.x - by,
  y: r.y - by,
  width: r.width + 2 * by,
  height: r.height + 2 * by,
});

describe('the built extension', () => {
  it('asks for nothing but activeTab, scripting and storage at install, and passes web-ext lint', async () => {
    for (const browser of ['chrome', 'firefox'] as const) {
      const manifest = JSON.parse(readFileSync(join(extensionDir(browser), 'manifest.json'), 'utf8'));
      expect(manifest.manifest_version).toBe(3);
      expect([...manifest.permissions].sort()).toEqual(['activeTab', 'scripting', 'storage']);
      expect(manifest.host_permissions).toBeUndefined();
      expect(manifest.content_scripts).toBeUndefined();
      expect(JSON.stringify(manifest)).not.toContain('<all_urls>');
      expect(manifest.optional_host_permissions).toEqual(['http://*/*', 'https://*/*']);
      expect(manifest.commands['report-bug'].suggested_key.default).toBe('Alt+Shift+S');
      expect(existsSync(join(extensionDir(browser), '..', `snag-${manifest.version}-${browser}.zip`))).toBe(
        true,
      );
    }
    const { stdout } = await promisify(execFile)(
      'npx',
      [
        'web-ext',
        'lint',
        '--source-dir',
        extensionDir('firefox'),
        '--output',
        'json',
        '--no-config-discovery',
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const lint = JSON.parse(stdout) as {
      errors: { code: string }[];
      warnings: { code: string; file?: string }[];
    };
    expect(lint.errors).toEqual([]);
    // The one warning: Preact's renderer writes innerHTML for `dangerouslySetInnerHTML`, which the
    // widget's app never uses (its texts are text nodes, widget/src/i18n/index.ts).
    expect(lint.warnings.map((w) => `${w.code} ${w.file}`)).toEqual(['UNSAFE_VAR_ASSIGNMENT report.js']);
  });
});

describe('reporting from a page without the snippet', () => {
  it('connects, reports with an annotated screenshot, and asks to connect again once revoked', async () => {
    ext = await launchWithExtension([resolverRules]);
    const { context, worker } = ext;
    // The server's site access, as the user grants it when saving the address (a headless browser
    // cannot answer the prompt; after this grant the extension's own request resolves without one).
    await grantSiteAccess(ext, 'http://localhost/*');

    const pageUrl = site.url(customerHosts.shop, '/');
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pageUrl, { waitUntil: 'load' });
    // Installed and connected or not, the extension does nothing to a page until the user acts.
    expect(await injected(page)).toEqual({ logScript: false, consoleWrapped: false, panel: false });

    // The popup: set the server, connect.
    let popup = await openPopup(ext, pageUrl);
    await popup.waitFor(`document.getElementById('connection-status')`);
    expect(await text(popup, 'connection-status')).toBe('Not connected');
    await popup.evaluate(`(() => {
      const input = document.getElementById('server');
      input.value = ${JSON.stringify(stack.url)};
      document.getElementById('save-server').click();
    })()`);
    await popup.waitFor(`document.getElementById('server').value === ${JSON.stringify(stack.url)}`);
    await savePng('extension-popup-not-connected', await popup.screenshot());

    // The member is signed in to the dashboard in this browser; the connect page asks them to approve.
    await context.addCookies([...member.cookies].map(([name, value]) => ({ name, value, url: stack.url })));
    const connectTab = context.waitForEvent('page');
    await click(popup, 'connect');
    const connect = await connectTab;
    await connect.waitForURL(/\/connect\/extension\?/);
    const approve = connect.getByRole('button', { name: 'Approve', exact: true });
    await approve.waitFor();
    await shot(connect, 'extension-connect-page');
    await approve.click();
    // The background worker sees the done address, exchanges the code and closes the tab.
    await connect.waitForEvent('close', { timeout: 15_000 });
    const stored = (await worker.evaluate(() =>
      (
        globalThis as unknown as {
          chrome: { storage: { local: { get(keys: string[]): Promise<unknown> } } };
        }
      ).chrome.storage.local.get(['token', 'user']),
    )) as { token: string; user: { name: string } };
    expect(stored.token).toMatch(/^snag_ext_/);

    // The popup again: connected, the project preselected by the page's host (shop.customer.test).
    await page.bringToFront();
    popup = await openPopup(ext, pageUrl);
    await popup.waitFor(`document.getElementById('project')?.value`);
    expect(await text(popup, 'connection-status')).toBe(`Connected as ${stored.user.name}`);
    expect(await popup.evaluate<string>(`document.getElementById('project').value`)).toBe(projectId);
    await savePng('extension-popup-connected', await popup.screenshot());
    await click(popup, 'report');
    const dialog = page.getByRole('dialog', { name: en.title });
    await dialog.waitFor();
    expect(await injected(page)).toEqual({ logScript: true, consoleWrapped: true, panel: true });
    // The page, now watched: its error goes to the console (the panel closed first, without a draft).
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.click('#pay');
    await page.mouse.move(5, 790);
    const reference = PNG.sync.read(await page.screenshot());
    const card = (await page.locator('#card').boundingBox())!;
    const secret = (await page.locator('#secret').boundingBox())!;

    // Report again, this time from the keyboard shortcut (Chromium applied the suggested key), with the
    // project remembered for the site: the same report as the popup's button.
    const commands = (await worker.evaluate(() =>
      (
        globalThis as unknown as { chrome: { commands: { getAll(): Promise<unknown> } } }
      ).chrome.commands.getAll(),
    )) as { name: string; shortcut: string }[];
    expect(commands.find((c) => c.name === 'report-bug')?.shortcut).toBe('Alt+Shift+S');
    await pressChromiumShortcut(page);
    await dialog.waitFor();
    await dialog.getByLabel(en.description).fill('Pay does nothing: no error, no confirmation.');
    await dialog.getByRole('button', { name: en.takeScreenshot }).click();
    const editor = page.getByRole('dialog', { name: en.editorTitle });
    await editor.waitFor({ timeout: 30_000 });
    await editor.getByRole('button', { name: en.toolRect }).click();
    const canvas = editor.getByRole('img', { name: en.editorTitle });
    const cb = (await canvas.boundingBox())!;
    const from = { x: 0.55, y: 0.6 };
    const to = { x: 0.75, y: 0.8 };
    await page.mouse.move(cb.x + cb.width * from.x, cb.y + cb.height * from.y);
    await page.mouse.down();
    await page.mouse.move(cb.x + cb.width * to.x, cb.y + cb.height * to.y, { steps: 5 });
    await page.mouse.up();
    await shot(page, 'extension-annotate');
    await editor.getByRole('button', { name: en.done }).click();
    await editor.waitFor({ state: 'detached' });
    await shot(page, 'extension-report-form');
    await page.getByRole('button', { name: en.send, exact: true }).click();
    const thanks = page.getByRole('status').filter({ hasText: en.thanksTitle });
    await thanks.waitFor({ timeout: 60_000 });
    const number = Number(/#?(\d+)/.exec((await thanks.textContent()) ?? '')?.[1]);
    expect(number).toBeGreaterThan(0);

    // The issue: the browser's own picture, the masks painted, the annotation drawn, the page's error.
    const issue = await v1Issue(stored.token, number);
    expect(issue.description).toBe('Pay does nothing: no error, no confirmation.');
    expect(issue.pageUrl).toBe(pageUrl);
    expect(issue.screenshots).toHaveLength(1);
    const picture = PNG.sync.read(Buffer.from(await (await fetch(issue.screenshots[0]!.url)).arrayBuffer()));
    await savePng('extension-issue-screenshot', PNG.sync.write(picture));
    expect([picture.width, picture.height]).toEqual([reference.width, reference.height]);
    const at = (x: number, y: number) => {
      const i = (Math.round(y) * picture.width + Math.round(x)) * 4;
      return `#${[0, 1, 2].map((k) => picture.data[i + k]!.toString(16).padStart(2, '0')).join('')}`;
    };
    for (const r of [card, secret]) {
      for (const [fx, fy] of [
        [0.1, 0.5],
        [0.5, 0.5],
        [0.9, 0.5],
      ] as const)
        expect(at(r.x + r.width * fx, r.y + r.height * fy), 'masked').toBe(MASK_COLOUR);
    }
    const mark: Box = {
      x: picture.width * from.x,
      y: picture.height * from.y,
      width: picture.width * (to.x - from.x),
      height: picture.height * (to.y - from.y),
    };
    // The rectangle's stroke is the editor's red, along its top edge.
    const edge = at(mark.x + mark.width / 2, mark.y);
    expect(Number.parseInt(edge.slice(1, 3), 16), edge).toBeGreaterThan(180);
    const share = differingShare(picture, reference, [grow(mark, 12), grow(card, 2), grow(secret, 2)]);
    expect(share, `differing share ${share}`).toBeLessThanOrEqual(0.005);

    // In the dashboard: the console error and who filed it, "via extension".
    const dashboard = await context.newPage();
    await dashboard.goto(`${stack.url}/profile/site/${projectId}/ticket/${number}`);
    await dashboard.locator('[aria-controls="issue-log-entries"]').click();
    await dashboard.getByText('Payment failed: card declined').first().waitFor();
    await dashboard
      .getByTestId('activity-line')
      .getByText(/via extension/)
      .first()
      .waitFor();
    await shot(dashboard, 'extension-issue-dashboard');
    await dashboard.close();

    // Revoked while a draft is open: Send says the connection ended and keeps the draft.
    await page.getByRole('button', { name: en.newReport }).click();
    await dialog.getByLabel(en.description).fill('The total is wrong after a coupon.');
    const list = await member.get<{ id: string }[]>('/api/client/profile/extensions');
    expect(list.status).toBe(200);
    for (const c of (list.body as { msg: { id: string }[] }).msg) {
      expect((await member.delete(`/api/client/profile/extensions/${c.id}`)).status).toBe(200);
    }
    await page.getByRole('button', { name: en.send, exact: true }).click();
    await dialog.getByRole('alert').filter({ hasText: en.errCONNECTION_ENDED }).waitFor();
    expect(await dialog.getByLabel(en.description).inputValue()).toBe('The total is wrong after a coupon.');
    await shot(page, 'extension-connection-ended');
    // The toolbar button says so too, before the popup is opened.
    const badge = await worker.evaluate(() =>
      (
        globalThis as unknown as { chrome: { action: { getBadgeText(d: object): Promise<string> } } }
      ).chrome.action.getBadgeText({}),
    );
    expect(badge).toBe('!');
    popup = await openPopup(ext, pageUrl);
    await popup.waitFor(`document.getElementById('connect')`);
    expect(await text(popup, 'connection-status')).toBe('Your connection has ended: connect again');
    expect(await text(popup, 'connect')).toBe('Connect again');
    await savePng('extension-popup-ended', await popup.screenshot());

    // Connecting again, the kept draft goes out with the panel's own "Try again".
    const again = context.waitForEvent('page');
    await click(popup, 'connect');
    const reconnect = await again;
    await reconnect.getByRole('button', { name: 'Approve', exact: true }).click();
    await reconnect.waitForEvent('close', { timeout: 15_000 });
    await page.bringToFront();
    await dialog.getByRole('button', { name: en.retry }).click();
    await thanks.waitFor({ timeout: 60_000 });
    const second = Number(/#?(\d+)/.exec((await thanks.textContent()) ?? '')?.[1]);
    expect(second).toBe(number + 1);
    expect(errors).toEqual([]);
  });

  it('the popup is labelled and axe-clean', async () => {
    if (!ext) throw new Error('the journey above did not start the browser');
    const page = await ext.context.newPage();
    await page.goto(`chrome-extension://${ext.id}/popup.html`);
    await page.locator('#connection-status').waitFor();
    expect(await page.getByLabel('Server address').inputValue()).toBe(stack.url);
    expect(await axeFindings(page)).toEqual([]);
    await page.close();
  });

  it('captures logs from page load on a site the user turned it on for, and only there', async () => {
    if (!ext) throw new Error('the journey above did not start the browser');
    const pageUrl = site.url(customerHosts.shop, '/');
    const page = ext.context.pages().find((p) => p.url() === pageUrl)!;
    await grantSiteAccess(ext, `http://${customerHosts.shop}/*`);
    await page.bringToFront();
    let popup = await openPopup(ext, pageUrl);
    await popup.waitFor(`document.getElementById('logs')`);
    expect(await popup.evaluate<boolean>(`document.getElementById('logs').checked`)).toBe(false);
    await click(popup, 'logs');
    await popup.waitFor(`document.getElementById('logs').checked`);
    await page.reload({ waitUntil: 'load' });
    // The page-log script ran at document_start, before any user action; the reporter did not.
    expect(await injected(page)).toEqual({ logScript: true, consoleWrapped: true, panel: false });
    // Another site (no permission, no switch) stays untouched.
    const other = await ext.context.newPage();
    await other.goto(site.url(customerHosts.domain, '/'), { waitUntil: 'load' });
    expect(await injected(other)).toEqual({ logScript: false, consoleWrapped: false, panel: false });
    await other.close();

    await page.bringToFront();
    popup = await openPopup(ext, pageUrl);
    await popup.waitFor(`document.getElementById('logs')?.checked`);
    await click(popup, 'logs');
    await popup.waitFor(`!document.getElementById('logs').checked`);
    // The switch shows off at once; the worker's unregistration of the page-load script follows a moment
    // later, so a reload in that moment still gets it once: the next loads must not.
    await expect
      .poll(
        async () => {
          await page.reload({ waitUntil: 'load' });
          return injected(page);
        },
        { timeout: 10_000 },
      )
      .toEqual({ logScript: false, consoleWrapped: false, panel: false });
  });
});

describe('in Firefox', () => {
  /** The reporter's panel in the page: its shadow root is open, as the widget's. */
  const inPanel = (script: string) =>
    `const root = document.querySelector('snag-panel')?.shadowRoot; ${script}`;
  const panelButton = (ff: Firefox, name: string, timeoutMs?: number) =>
    ff.waitFor(
      inPanel(
        `return root && [...root.querySelectorAll('button')].find((b) => b.textContent.trim() === ${JSON.stringify(name)} || b.getAttribute('aria-label') === ${JSON.stringify(name)})`,
      ),
      `the panel's ${name} button`,
      timeoutMs,
    );
  /** What the page's world shows of the extension (Marionette's scripts see the page through a wrapper). */
  const injectedInFirefox = (ff: Firefox) =>
    ff.run<{ logScript: boolean; panel: boolean }>(
      `return { logScript: '__snagExtensionLogs' in window.wrappedJSObject, panel: document.querySelector('snag-panel') !== null };`,
    );

  it('connects through the connect page, reports from the keyboard shortcut, and the issue arrives via extension with its screenshot', async () => {
    const ff = await launchFirefox({ localDomains: [customerHosts.domain, customerHosts.shop] });
    try {
      // The built Firefox extension, as about:debugging's "Load Temporary Add-on" installs it.
      expect(await ff.send('Addon:Install', { path: extensionDir('firefox'), temporary: true })).toBe(
        extensionId,
      );
      // The member is signed in to the dashboard in this browser too.
      await ff.navigate(`${stack.url}/api/health`);
      for (const [name, value] of member.cookies)
        await ff.send('WebDriver:AddCookie', { cookie: { name, value, path: '/' } });

      // The popup's page in a tab (Firefox lets no automation open the toolbar's popup): the same page and
      // code; set the server (the permission request runs in the click, Firefox's prompt answered by its
      // test switch), connect.
      await ff.navigate(`moz-extension://${extensionUuid}/popup.html`);
      await ff.waitFor(
        `return document.getElementById('connection-status')?.textContent === 'Not connected'`,
        'the popup',
      );
      await ff.type(await ff.run(`return document.getElementById('server')`), stack.url);
      await ff.click(await ff.run(`return document.getElementById('save-server')`));
      const connectButton = await ff.waitFor(
        `const b = document.getElementById('connect'); return b && !b.disabled && b`,
        'Connect',
      );
      const popupTab = await ff.tab();
      await ff.click(connectButton);
      let connectTab: string | undefined;
      for (let i = 0; i < 100 && !connectTab; i++) {
        connectTab = (await ff.tabs()).find((h) => h !== popupTab);
        if (!connectTab) await new Promise((r) => setTimeout(r, 100));
      }
      if (!connectTab) throw new Error('the connect page did not open');
      await ff.switchTo(connectTab);
      const approve = await ff.waitFor(
        `return [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Approve')`,
        'Approve',
        30_000,
      );
      const connectAt = new URL(await ff.send<string>('WebDriver:GetCurrentURL'));
      expect(connectAt.pathname).toBe('/connect/extension');
      expect(connectAt.searchParams.get('browser')).toBe('Firefox');
      await savePng('extension-firefox-connect', await ff.screenshot());
      await ff.click(approve);
      // The background script sees the done address, exchanges the code and closes the tab.
      for (let i = 0; i < 150 && (await ff.tabs()).includes(connectTab); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(await ff.tabs()).toEqual([popupTab]);
      await ff.switchTo(popupTab);
      const token = await ff.run<string>(
        `return window.wrappedJSObject.browser.storage.local.get('token').then((s) => s.token)`,
      );
      expect(token).toMatch(/^snag_ext_/);

      // The customer's page (another origin, strict CSP, no snippet): nothing injected until the user acts.
      const pageUrl = site.url(customerHosts.shop, '/');
      await ff.navigate(pageUrl);
      expect(await injectedInFirefox(ff)).toEqual({ logScript: false, panel: false });
      await pressShortcut(ff, [keys.alt, keys.shift, 'S']);
      await panelButton(ff, en.takeScreenshot, 30_000);
      expect(await injectedInFirefox(ff)).toEqual({ logScript: true, panel: true });

      const description = await ff.run(inPanel(`return root.querySelector('textarea')`));
      await ff.type(description, 'Firefox: Pay does nothing.');
      await ff.click(await panelButton(ff, en.takeScreenshot));
      await ff.click(await panelButton(ff, en.done, 30_000));
      await savePng('extension-firefox-report-form', await ff.screenshot());
      await ff.click(await panelButton(ff, en.send));
      const thanks = await ff.waitFor<string>(
        inPanel(
          `const s = [...root.querySelectorAll('[role=status]')].find((e) => e.textContent.includes(${JSON.stringify(en.thanksTitle)})); return s && s.textContent`,
        ),
        'the thanks',
        60_000,
      );
      const number = Number(/#?(\d+)/.exec(thanks)?.[1]);
      expect(number).toBeGreaterThan(0);
      const { card, viewport } = await ff.run<{ card: Box; viewport: number }>(
        `const r = document.getElementById('card').getBoundingClientRect(); return { card: { x: r.x, y: r.y, width: r.width, height: r.height }, viewport: window.innerWidth };`,
      );

      // The issue: the member's, via the extension, with Firefox's own picture and the card field masked.
      const issue = await v1Issue(token, number);
      expect(issue.description).toBe('Firefox: Pay does nothing.');
      expect(issue.pageUrl).toBe(pageUrl);
      expect(issue.filedVia?.kind).toBe('extension');
      expect(issue.screenshots).toHaveLength(1);
      const picture = PNG.sync.read(
        Buffer.from(await (await fetch(issue.screenshots[0]!.url)).arrayBuffer()),
      );
      await savePng('extension-firefox-issue-screenshot', PNG.sync.write(picture));
      const scale = picture.width / viewport;
      const i =
        (Math.round((card.y + card.height / 2) * scale) * picture.width +
          Math.round((card.x + card.width / 2) * scale)) *
        4;
      const colour = `#${[0, 1, 2].map((k) => picture.data[i + k]!.toString(16).padStart(2, '0')).join('')}`;
      expect(colour, 'the card field is masked').toBe(MASK_COLOUR);
    } catch (error) {
      // Firefox's own console (the extension's warnings among it) says what went wrong.
      console.error(ff.log.filter((l) => /Snag|moz-extension/.test(l)).join('\n'));
      throw error;
    } finally {
      await ff.close();
    }
  });
});
