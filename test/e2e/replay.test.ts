/**
 * The widget's side of issue 33 in Chromium: a visitor on a customer's single-page app (another origin, a
 * real form) types a password, a card number and an email, clicks through two pushState "pages", opens
 * the widget and reports. The recording is read as the page posts it to storage (the upload call and the
 * report call off the wire): decompressed, it holds none of the typed values; the report's steps read as
 * the visitor's path. Unticking "Attach the last minute of
 * activity" uploads nothing; a Free project never fetches the recorder chunk, yet sends steps.
 *
 * The paid project's configuration carries `replay` because its plan (Starter) and its setting allow it.
 */
import { gunzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayLeaksInGzip } from '../../functions/issues/redact-report';
import en from '../../widget/src/i18n/en';
import { axeFindings } from '../support/axe';
import { replayFrameText as frameText, setUpE2eStack, shot } from '../support/browser';
import {
  type CustomerSite,
  customerHosts,
  customerPage,
  launchCustomerBrowser,
  startCustomerSite,
  visitCustomerPage,
} from '../support/customer-site';
import { signedIn } from '../support/users';

const stack = setUpE2eStack();
let browser: Browser;
let site: CustomerSite;
let paidId: string;
let owner: Awaited<ReturnType<typeof signedIn>>;
let freeId: string;

const PASSWORD = 'Tr0ub4dor&3-secret';
const CARD = '4242 4242 4242 4242';
const EMAIL = 'visitor.private@example.org';

/** A two-view shop: links switch views with pushState, back with popstate; a checkout form on the second. */
const spa = `<div id="app"></div>
<script>
const views = {
  '/': '<h2>Products</h2><p>Vases and bowls.</p><a href="/checkout" data-nav>Go to checkout</a>',
  '/checkout': '<h2>Checkout</h2><form id="pay" aria-label="Payment">' +
    '<label>Email <input id="mail" type="email" name="email"></label>' +
    '<label>Password <input id="pw" type="password" name="password"></label>' +
    '<label>Card number <input id="cc" autocomplete="cc-number" name="card"></label>' +
    '<input type="hidden" name="csrf" value="csrf-7f3a9c21e5">' +
    '<button type="submit">Pay</button></form><a href="/done" data-nav>Finish</a>',
  '/done': '<h2>Thank you</h2><p>Your order is on its way.</p>',
};
const render = () => { document.getElementById('app').innerHTML = views[location.pathname] || views['/']; };
document.addEventListener('click', (e) => {
  const link = e.target.closest('[data-nav]');
  if (!link) return;
  e.preventDefault();
  history.pushState({}, '', link.getAttribute('href') + '?ref=nav');
  render();
});
document.addEventListener('submit', (e) => e.preventDefault());
addEventListener('popstate', render);
render();
</script>`;

beforeAll(async () => {
  [browser, site] = await Promise.all([launchCustomerBrowser(), startCustomerSite()]);
  owner = await signedIn(stack.url);
  const project = async (client: typeof owner.client, name: string, host: string) => {
    const res = await client.post<{ id: string }>('/api/client/website', { name, url: `https://${host}` });
    expect(res.status).toBe(201);
    return (res.body as { msg: { id: string } }).msg.id;
  };
  paidId = await project(owner.client, 'Acme Shop', customerHosts.domain);
  // Starter: replay is a paid feature (the plan applies to every project of the owner's team).
  expect(
    (await owner.client.post('/api/dev/plan', { username: owner.email, plan: 'BASIC_PLAN', days: 30 }))
      .status,
  ).toBe(200);
  const replayOn = await owner.client.patch(`/api/client/website/${paidId}`, {
    data: { widgetReplay: true, widgetLanguage: 'en', widgetDisableWelcomeScreen: true },
  });
  expect(replayOn.status, JSON.stringify(replayOn.body)).toBe(200);
  const free = await signedIn(stack.url);
  freeId = await project(free.client, 'Free Shop', customerHosts.other);
  await free.client.patch(`/api/client/website/${freeId}`, { data: { widgetDisableWelcomeScreen: true } });

  const snippet = (id: string) => `<script async src="${stack.url}/api/website/${id}/code"></script>`;
  site.page('/', customerPage({ snippet: snippet(paidId), body: spa }));
  site.page('/free', customerPage({ snippet: snippet(freeId), body: spa }));
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

interface Wire {
  /** The bodies of the upload calls (kind, type, size). */
  announced: { kind: string; type: string; size: number }[];
  /** The report call's body. */
  report?: Record<string, unknown>;
}

/**
 * Keeps the blob the page posts to storage for a replay (its key names the kind) as `window.__sentReplay`:
 * the exact bytes sent. Chromium does not hand a FormData's Blob to the request events.
 */
const keepSentReplay = `(() => {
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    if (body instanceof FormData && String(body.get('key')).includes('/replay/')) window.__sentReplay = body.get('file');
    return send.apply(this, arguments);
  };
})()`;

/** The replay's bytes as the page posted them, if it did. */
async function sentReplay(page: Page): Promise<Buffer | undefined> {
  const base64 = await page.evaluate(async () => {
    const blob = (window as unknown as { __sentReplay?: Blob }).__sentReplay;
    if (!blob) return null;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]!);
    return btoa(text);
  });
  return base64 === null ? undefined : Buffer.from(base64, 'base64');
}

/** What the page sends, read off the wire as it goes. */
function watch(page: Page): Wire {
  const wire: Wire = { announced: [] };
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (req.method() !== 'POST') return;
    if (url.pathname.endsWith('/upload')) wire.announced.push(req.postDataJSON());
    else if (url.pathname.endsWith('/request')) wire.report = req.postDataJSON();
  });
  return wire;
}

/** The files this document fetched from /widget/ (its own resource timing: no earlier visit counts). */
const widgetFiles = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.startsWith('/widget/')),
  );

/** A page of the customer's site, watched from its first request (the visit again, once watched). */
async function visit(host: string, path: string) {
  const visited = await visitCustomerPage(browser, site.url(host, path), { timeoutMs: 20_000 });
  const wire = watch(visited.page);
  await visited.page.addInitScript(keepSentReplay);
  await visited.page.reload({ waitUntil: 'load' });
  return { ...visited, wire };
}

/** Types into the shop's form and walks its two views, as a visitor would. */
async function visitShop(page: Page) {
  await page.getByRole('link', { name: 'Go to checkout' }).click();
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').pressSequentially(PASSWORD);
  await page.getByLabel('Card number').pressSequentially(CARD);
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.getByRole('link', { name: 'Finish' }).click();
  await page.getByRole('heading', { name: 'Thank you' }).waitFor();
}

/** Opens the widget and writes the report; the attach box is on by default, `attach` false unticks it. */
async function openAndWrite(page: Page, attach = true) {
  await page.locator('snag-launcher').getByRole('button').click();
  const dialog = page.getByRole('dialog', { name: en.title });
  await dialog.getByLabel(en.description).fill('Payment fails on the checkout');
  const box = dialog.getByRole('checkbox', { name: en.replay });
  expect(await box.isChecked()).toBe(true);
  if (!attach) {
    await box.focus();
    await page.keyboard.press('Space'); // Keyboard-operable.
    expect(await box.isChecked()).toBe(false);
  }
  return dialog;
}

async function sent(page: Page) {
  await page.getByRole('button', { name: en.send, exact: true }).click();
  await page.getByText(en.thanksTitle).waitFor({ timeout: 60_000 });
}

describe('a visitor reports with the last minute attached', () => {
  it('uploads a recording without any typed value, and steps that read as the visit', async () => {
    const { page, wire, errors, close } = await visit(customerHosts.shop, '/');
    // The recorder chunk arrives once the page is idle.
    await page.waitForFunction(() => window.Snag?._a?.replay?.has() === true, null, { timeout: 15_000 });
    const files = await widgetFiles(page);
    expect(files.filter((s) => s.endsWith('.recorder.js'))).toHaveLength(1);
    expect(files.some((s) => s.endsWith('.steps.js'))).toBe(false);

    await visitShop(page);
    const dialog = await openAndWrite(page);
    const box = dialog.getByRole('checkbox', { name: en.replay });
    expect(await box.getAttribute('aria-describedby')).toBe('snag-rh');
    expect(await dialog.locator('#snag-rh').textContent()).toBe(en.replayHint);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'replay-form-checkbox');
    await sent(page);

    // The recording: the upload of kind replay, its bytes read off the wire.
    const announced = wire.announced.find((a) => a.kind === 'replay');
    expect(announced).toMatchObject({ kind: 'replay', type: 'application/gzip' });
    const bytes = (await sentReplay(page))!;
    expect(bytes.length).toBe(announced!.size);
    expect(bytes.length).toBeLessThanOrEqual(1024 * 1024);
    const json = gunzipSync(bytes).toString('utf8');
    const events = JSON.parse(json) as { type: number; timestamp: number }[];
    expect(events[0]!.type).toBe(4); // Meta, then the full snapshot: it plays.
    expect(events[1]!.type).toBe(2);
    expect(events.filter((e) => e.type === 3).length).toBeGreaterThan(3);
    for (const secret of [
      PASSWORD,
      CARD,
      CARD.replace(/ /g, ''),
      '4242',
      EMAIL,
      'Tr0ub4dor',
      'visitor.private',
      'csrf-7f3a9c21e5', // a hidden input's value, what the page keeps for itself
    ])
      expect(json, secret).not.toContain(secret);
    // The typing was recorded, as placeholder characters of the same length.
    expect(json).toContain(`"${'*'.repeat(CARD.length)}"`);
    expect(json).toContain(`"${'*'.repeat(PASSWORD.length)}"`);
    // The widget's panel is never recorded: no text of it, however it was typed.
    expect(json).not.toContain('Payment fails on the checkout');
    // The intake's check (docs/privacy.md "Replays") accepts what the recorder made in a real browser.
    expect(await replayLeaksInGzip(bytes)).toBeNull();

    // The report names it and carries the steps.
    const report = wire.report!;
    const replay = report.replay as { key: string; start: number; end: number };
    expect(replay.key).toMatch(/^pending\/[0-9a-f-]{36}\/replay\/[0-9a-f-]{36}\.gz$/);
    expect(replay.end).toBeGreaterThan(replay.start);
    expect(replay.start).toBe(events[0]!.timestamp);
    const steps = (report.steps as { kind: string; label: string; t: number }[]).map((s) => [
      s.kind,
      s.label.replace(site.url(customerHosts.shop, ''), ''),
    ]);
    // Playwright's fill and typing focus a field without clicking it; leaving it fires its change.
    expect(steps).toEqual([
      ['load', '/'],
      ['click', 'link "Go to checkout"'],
      ['navigate', '/checkout'],
      ['focus', 'field "Email"'],
      ['change', 'field "Email"'],
      ['focus', 'field "Password"'],
      ['change', 'field "Password"'],
      ['focus', 'field "Card number"'],
      ['change', 'field "Card number"'],
      ['click', 'button "Pay"'],
      ['submit', 'form "Payment"'],
      ['click', 'link "Finish"'],
      ['navigate', '/done'],
      ['open', ''],
    ]);
    expect(JSON.stringify(report.steps)).not.toMatch(/4242|Tr0ub4dor|visitor\.private/);
    expect(errors).toEqual([]);
    await close();
  });

  it('uploads no recording when the visitor unticks the box, and still sends the steps', async () => {
    const { page, wire, close } = await visit(customerHosts.shop, '/');
    await page.waitForFunction(() => window.Snag?._a?.replay?.has() === true, null, { timeout: 15_000 });
    await visitShop(page);
    await openAndWrite(page, false);
    await sent(page);
    expect(wire.announced.map((a) => a.kind)).not.toContain('replay');
    expect(await sentReplay(page)).toBeUndefined();
    const report = wire.report!;
    expect(report.replay).toBeUndefined();
    expect((report.steps as unknown[]).length).toBeGreaterThan(5);
    await close();
  });
});

describe("the project's option to mask all text", () => {
  it('records the page with every text masked', async () => {
    const set = (widgetReplayMaskText: boolean) =>
      owner.client.patch(`/api/client/website/${paidId}`, { data: { widgetReplayMaskText } });
    expect((await set(true)).status).toBe(200);
    try {
      const { page, wire, close } = await visit(customerHosts.shop, '/');
      await page.waitForFunction(() => window.Snag?._a?.replay?.has() === true, null, { timeout: 15_000 });
      await page.getByRole('link', { name: 'Go to checkout' }).click();
      await openAndWrite(page);
      await sent(page);
      expect(wire.report!.replay).toBeDefined();
      const gzip = (await sentReplay(page))!;
      const json = gunzipSync(gzip).toString('utf8');
      for (const text of ['Handmade ceramics', 'Vases and bowls', 'Go to checkout', 'Checkout'])
        expect(json, text).not.toContain(text);
      expect(json).toContain('********'); // The text is there, as placeholders.
      // A strict project's intake (docs/privacy.md) stores this real Chromium recording: all its text masked.
      expect(await replayLeaksInGzip(gzip, undefined, { maskedText: true })).toBeNull();
      await close();
    } finally {
      await set(false);
    }
  });
});

describe('a page changing too fast', () => {
  it('stops recording instead of slowing the page, and the report says so', async () => {
    const { page, wire, errors, close } = await visit(customerHosts.shop, '/');
    await page.waitForFunction(() => window.Snag?._a?.replay?.has() === true, null, { timeout: 15_000 });
    await page.getByRole('link', { name: 'Go to checkout' }).click();
    // 12,000 nodes at once: over the limit of 10,000 within a second.
    await page.evaluate(() => {
      const box = document.createElement('div');
      for (let i = 0; i < 12_000; i++) box.appendChild(document.createElement('span')).textContent = 'flood';
      document.body.append(box);
    });
    await openAndWrite(page);
    await sent(page);
    const replay = wire.report!.replay as { stopped?: string };
    expect(replay.stopped).toBe('mutations');
    const gzip = (await sentReplay(page))!;
    const json = gunzipSync(gzip).toString('utf8');
    expect(json).not.toContain('flood'); // The batch over the limit was never recorded.
    expect(json).toContain('Go to checkout');
    // Words in the recording: a strict project's intake would refuse it (docs/privacy.md).
    expect(await replayLeaksInGzip(gzip, undefined, { maskedText: true })).toMatch(/unmasked text/);
    expect(errors).toEqual([]);
    await close();
  });
});

describe('a Free project', () => {
  it('never fetches the recorder chunk and offers no recording, yet sends the steps', async () => {
    const { page, wire, errors, close } = await visit(customerHosts.other, '/free');
    await page.waitForFunction(() => !!window.Snag?._a, null, { timeout: 15_000 });
    await visitShop(page);
    await page.locator('snag-launcher').getByRole('button').click();
    const dialog = page.getByRole('dialog', { name: en.title });
    await dialog.getByLabel(en.description).fill('Payment fails');
    expect(await dialog.getByRole('checkbox').count()).toBe(0);
    await sent(page);
    const files = await widgetFiles(page);
    expect(files.some((s) => s.endsWith('.recorder.js'))).toBe(false);
    expect(files.filter((s) => s.endsWith('.steps.js'))).toHaveLength(1);
    expect(wire.announced.map((a) => a.kind)).not.toContain('replay');
    const steps = wire.report!.steps as { kind: string }[];
    expect(steps.map((s) => s.kind)).toContain('navigate');
    expect(steps.at(-1)!.kind).toBe('open');
    expect(errors).toEqual([]);
    await close();
  });
});

/**
 * The whole loop in one: what this visitor recorded is what the client's team watches. The report goes
 * through the real widget and intake; the owner then opens the issue in the dashboard (English at 1280 px,
 * German at 390 px), where the player plays the stored recording, the timeline lists the visit's steps, and
 * a step seeks the player to the page as it was then.
 */
describe('the dashboard plays what the visitor recorded', () => {
  async function openIssue(
    n: number,
    options: { locale: string; viewport: { width: number; height: number } },
  ) {
    const context = await browser.newContext(options);
    await context.addCookies(
      [...owner.client.cookies].map(([name, value]) => ({ name, value, url: stack.url })),
    );
    const page = await context.newPage();
    await page.goto(`${stack.url}/profile/site/${paidId}/ticket/${n}`);
    await page.getByTestId('issue-description').waitFor();
    return { page, close: () => context.close() };
  }

  it('plays the replay, lists the steps and seeks from one (en 1280, de 390; axe clean)', async () => {
    const { page: shop, close } = await visit(customerHosts.shop, '/');
    await shop.waitForFunction(() => window.Snag?._a?.replay?.has() === true, null, { timeout: 15_000 });
    await visitShop(shop);
    await openAndWrite(shop);
    await sent(shop);
    await close();
    const list = await owner.client.get(`/api/client/website/${paidId}/request`);
    const n = Math.max(
      ...(list.body as { msg: { requests: { number: number }[] } }).msg.requests.map((r) => r.number),
    );

    const en1280 = await openIssue(n, { locale: 'en-US', viewport: { width: 1280, height: 800 } });
    const page = en1280.page;
    const items = page.getByTestId('timeline-item');
    await expect.poll(() => items.count()).toBeGreaterThan(10);
    const texts = await items.allTextContents();
    expect(texts.some((t) => t.includes('Go to checkout'))).toBe(true);
    expect(texts.some((t) => t.includes('/done'))).toBe(true);
    expect(texts.join('\n')).not.toMatch(/4242|Tr0ub4dor|visitor\.private/);
    await page.getByTestId('replay-open').click();
    // The player opens at the recording's start: the shop's first view.
    await expect.poll(() => frameText(page), { timeout: 15_000 }).toContain('Vases and bowls');
    // The step of opening the widget seeks to the shop's last view; the panel itself was never recorded.
    await page.getByTestId('timeline-seek').filter({ hasText: 'Opened the feedback widget' }).click();
    await expect.poll(() => frameText(page)).toContain('Thank you');
    expect(await frameText(page)).not.toContain('Payment fails on the checkout');
    // A step's entry seeks the player back to the checkout form the visitor was filling in.
    await page.getByTestId('timeline-seek').filter({ hasText: 'Changed field "Email"' }).click();
    await expect.poll(() => frameText(page)).toContain('Card number');
    expect(await frameText(page)).not.toContain('Thank you');
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'replay-journey-en-1280');
    await en1280.close();

    const de390 = await openIssue(n, { locale: 'de-DE', viewport: { width: 390, height: 844 } });
    await de390.page.getByRole('region', { name: 'Sitzungsaufzeichnung' }).waitFor();
    await de390.page.getByTestId('replay-open').click();
    await expect.poll(() => frameText(de390.page), { timeout: 15_000 }).toContain('Vases and bowls');
    // Once the player has scaled the recorded viewport to the phone's width, nothing scrolls sideways.
    await expect
      .poll(() => de390.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth))
      .toBe(true);
    expect(await axeFindings(de390.page)).toEqual([]);
    await shot(de390.page, 'replay-journey-de-390');
    await de390.close();
  });
});
