/**
 * The dashboard's side of session replay (issue 33, docs/replay.md "The issue page"), against the built
 * dashboard and the local stack, with recordings filed through the widget's real calls (a `replay` upload
 * and the report naming it): the issue page plays the replay, lists the steps, errors and failed requests
 * on one timeline whose entries seek the player (English at 1280 px, German at 390 px, axe clean with the
 * section open); a hostile recording cannot run script, navigate or reach the dashboard; without a replay
 * the steps are a numbered list saying why; a customer's picture shows through the dashboard's own proxy
 * while HTML and a private address are refused there; and a tracker's signed link opens the public
 * /replay/{token} page without signing in, an invalid one saying so.
 */
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayLinkToken } from '../../functions/issues/replay-link';
import { axeFindings } from '../support/axe';
import { replayFrameText as frameText, setUpBrowserSuite, shot, type TestPage } from '../support/browser';
import { type CustomerSite, startCustomerSite } from '../support/customer-site';
import { png } from '../support/png';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const suite = setUpBrowserSuite();
const SITE = 'https://shop.example';
const T0 = Date.now() - 60_000;

type Node = Record<string, unknown>;
const el = (id: number, tagName: string, attributes: Node, childNodes: Node[] = []): Node => ({
  type: 2,
  id,
  tagName,
  attributes,
  childNodes,
});
const text = (id: number, textContent: string): Node => ({ type: 3, id, textContent });

/** A recording as rrweb writes one: meta, a full snapshot, a change 5 s in, the last event 10 s in. */
function recording(body: Node[], head: Node[] = []): Node[] {
  return [
    { type: 4, timestamp: T0, data: { href: `${SITE}/checkout`, width: 1024, height: 640 } },
    {
      type: 2,
      timestamp: T0 + 10,
      data: {
        node: {
          type: 0,
          id: 1,
          childNodes: [
            { type: 1, id: 2, name: 'html', publicId: '', systemId: '' },
            el(3, 'html', {}, [el(4, 'head', {}, head), el(5, 'body', {}, body)]),
          ],
        },
        initialOffset: { top: 0, left: 0 },
      },
    },
    {
      type: 3,
      timestamp: T0 + 5000,
      data: {
        source: 0,
        texts: [],
        attributes: [],
        removes: [],
        adds: [
          { parentId: 5, nextId: null, node: el(100, 'p', { id: 'failed' }) },
          { parentId: 100, nextId: null, node: text(101, 'Payment failed') },
        ],
      },
    },
    {
      type: 3,
      timestamp: T0 + 10_000,
      data: { source: 1, positions: [{ x: 10, y: 10, id: 5, timeOffset: 0 }] },
    },
  ];
}

const shop = () =>
  recording([el(6, 'h1', {}, [text(7, 'Checkout')]), el(8, 'button', { id: 'pay' }, [text(9, 'Pay')])]);

const steps = [
  { t: T0 + 500, kind: 'navigate', label: '/checkout' },
  { t: T0 + 4000, kind: 'click', label: 'Pay' },
];
const logs = [
  { t: T0 + 6000, level: 'error', kind: 'exception', msg: 'TypeError: payment is undefined' },
  { t: T0 + 6500, level: 'warn', kind: 'network', msg: 'POST https://shop.example/api/pay 502' },
];

/** A client on `plan`, a project, and one report with the steps, the logs and (when given) a recording. */
async function reported(plan: 'BUSINESS_PLAN' | null, events?: Node[], stopped?: 'mutations') {
  const { client: api, email } = await signedIn(suite.stack.url);
  if (plan) expect((await api.post('/api/dev/plan', { username: email, plan, days: 30 })).status).toBe(200);
  const created = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  const id = (created.body as { msg: { id: string } }).msg.id;
  await api.patch(`/api/client/integration/${id}`, [{ name: 'email', active: 0, data: {} }]);
  const n = await fileReport(suite.stack.url, id, SITE, {
    fields: { msg: 'Paying does nothing', steps, logs },
    ...(events
      ? {
          replay: {
            content: new Uint8Array(gzipSync(JSON.stringify(events))),
            start: T0,
            end: T0 + 10_000,
            ...(stopped ? { stopped } : {}),
          },
        }
      : {}),
  });
  const cookies = [...api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url }));
  const issue = await api.get(`/api/client/website/${id}/request/${n}`);
  const replay = (issue.body as { msg: { replay: { name: string } | null } }).msg.replay;
  return { id, n, cookies, replayName: replay?.name ?? null };
}

async function issueTab(
  s: Awaited<ReturnType<typeof reported>>,
  opts: { locale?: string; phone?: boolean } = {},
): Promise<TestPage> {
  const tab = await suite.newTab({
    locale: opts.locale ?? 'en-US',
    ...(opts.phone ? { viewport: { width: 390, height: 844 } } : {}),
  });
  await tab.context.addCookies(s.cookies);
  await tab.page.goto(`/profile/site/${s.id}/ticket/${s.n}`);
  await tab.page.getByTestId('issue-description').waitFor();
  return tab;
}

const clock = (page: Page) => page.getByTestId('replay-clock').textContent();

/** Chromium's own word that the sandbox or the policy refused something: proof, not a fault of the page. */
const refusedBySandbox = (message: string) =>
  /Blocked script execution in '[^']*' because the document's frame is sandboxed/.test(message) ||
  /Blocked autofocusing on a <\w+> element because the element's frame is sandboxed/.test(message) ||
  /Refused to (execute|load|apply)[\s\S]*Content Security Policy/.test(message);

describe('the issue page: replay and timeline', () => {
  it('plays the replay, lists steps, errors and failed requests, and a step seeks the player (en, 1280 px)', async () => {
    const s = await reported('BUSINESS_PLAN', shop());
    expect(s.replayName).toMatch(/\.gz$/);
    const { page, errors } = await issueTab(s);
    const section = page.getByRole('region', { name: 'Session replay' });
    await section.getByText('The last 10 s before the report').waitFor();
    // The timeline is there before the player: steps numbered, the error, the failed request, the report.
    const items = page.getByTestId('timeline-item');
    await expect
      .poll(() => items.evaluateAll((li) => li.map((l) => l.getAttribute('data-kind'))))
      .toEqual(['step', 'step', 'error', 'request', 'report']);
    const texts = await items.allTextContents();
    expect(texts[0]).toContain('Step 1');
    expect(texts[0]).toContain('Went to /checkout');
    expect(texts[0]).toContain('10 s before the report');
    expect(texts[1]).toContain('Clicked Pay');
    expect(texts[1]).toContain('6 s before the report');
    expect(texts[2]).toContain('TypeError: payment is undefined');
    expect(texts[3]).toContain('Failed request');
    expect(texts[4]).toContain('At the report');
    // The player is not in the page until the section opens (its own chunk).
    expect(await page.getByTestId('replay-frame').count()).toBe(0);

    await page.getByTestId('replay-open').click();
    const frame = page.getByTestId('replay-frame');
    await frame.waitFor({ state: 'attached' });
    expect(await frame.getAttribute('sandbox')).toBe('allow-same-origin');
    await expect.poll(() => frameText(page)).toContain('Checkout');
    expect(await frameText(page)).not.toContain('Payment failed');

    // Play: the clock moves and the change 5 s in appears.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    await expect.poll(() => frameText(page), { timeout: 15_000 }).toContain('Payment failed');
    expect(await clock(page)).not.toMatch(/^0:00 /);

    // A step's button seeks back to its moment (4 s in: before the change), paused.
    await page.getByTestId('timeline-seek').filter({ hasText: 'Clicked Pay' }).click();
    await expect.poll(() => clock(page)).toBe('0:04 / 0:10');
    await expect.poll(() => frameText(page)).not.toContain('Payment failed');
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
    // The error's entry, by keyboard: 6 s in, after the change.
    await page.getByTestId('timeline-seek').filter({ hasText: 'TypeError' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => clock(page)).toBe('0:06 / 0:10');
    await expect.poll(() => frameText(page)).toContain('Payment failed');

    // The player's keys: Home to the start, the right arrow 5 s on, Space plays.
    await page.getByTestId('replay-screen').focus();
    await page.keyboard.press('Home');
    await expect.poll(() => clock(page)).toBe('0:00 / 0:10');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => clock(page)).toBe('0:05 / 0:10');
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Pause', exact: true }).click();

    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'replay-issue-en');
    expect(errors.filter((e) => !refusedBySandbox(e))).toEqual([]);
  });

  it('reads in German at phone width, the section open and axe clean (de, 390 px)', async () => {
    const s = await reported('BUSINESS_PLAN', shop(), 'mutations');
    const { page, errors } = await issueTab(s, { locale: 'de-DE', phone: true });
    await page.getByRole('region', { name: 'Sitzungsaufzeichnung' }).waitFor();
    await page
      .getByText('Aufzeichnung vorzeitig beendet: Die Seite hat sich zu schnell verändert.')
      .waitFor();
    await page.getByTestId('replay-open').click();
    await expect.poll(() => frameText(page)).toContain('Checkout');
    const texts = await page.getByTestId('timeline-item').allTextContents();
    expect(texts[1]).toContain('Schritt 2');
    expect(texts[1]).toContain('Geklickt Pay');
    expect(texts[1]).toContain('6 s vor der Meldung');
    expect(texts[3]).toContain('Fehlgeschlagene Anfrage');
    await page.getByTestId('timeline-seek').filter({ hasText: 'Schritt 2' }).click();
    await expect.poll(() => clock(page)).toBe('0:04 / 0:10');
    // The frame fits the phone's width (scaled down), so the page does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'replay-issue-de-390');
    expect(errors.filter((e) => !refusedBySandbox(e))).toEqual([]);
  });

  it('shows the steps as a numbered list with the errors, and why there is no replay (Free plan)', async () => {
    const s = await reported(null);
    expect(s.replayName).toBeNull();
    const { page } = await issueTab(s);
    const section = page.getByRole('region', { name: 'Steps to reproduce' });
    await section.getByText('No replay: session replay is part of the Starter and Business plans.').waitFor();
    const texts = await section.getByTestId('timeline-item').allTextContents();
    expect(texts).toHaveLength(5);
    expect(texts[0]).toContain('Step 1');
    expect(texts[1]).toContain('Step 2');
    expect(await section.getByTestId('timeline-seek').count()).toBe(0);
    expect(await section.getByTestId('replay-open').count()).toBe(0);
    expect(await axeFindings(page)).toEqual([]);
  });
});

describe('a hostile recording', () => {
  it('cannot run script, navigate or reach the dashboard', async () => {
    const dashboard = suite.stack.url;
    const events = recording(
      [
        el(6, 'h1', {}, [text(7, 'Hostile page')]),
        el(10, 'script', {}, [text(11, 'parent.pwned = "script"; fetch("/api/beacon-script")')]),
        el(12, 'img', { src: '/api/beacon-img', onerror: 'parent.pwned = "onerror"' }),
        el(13, 'img', { src: 'data:,', onerror: 'parent.pwned = "onerror-data"' }),
        el(14, 'a', { id: 'js', href: 'javascript:parent.pwned="href"' }, [text(15, 'link')]),
        el(16, 'iframe', { srcdoc: '<script>parent.parent.pwned="srcdoc"</script>' }),
        el(17, 'iframe', { src: 'javascript:parent.pwned="iframe-src"' }),
        el(18, 'div', { style: `background-image:url(${dashboard}/api/beacon-style)` }, [text(19, 'styled')]),
        el(20, 'svg', { onload: 'parent.pwned = "svg"' }),
        el(21, 'form', { action: '/api/beacon-form' }, [
          el(22, 'button', { autofocus: true }, [text(23, 'Go')]),
        ]),
      ],
      [
        el(30, 'meta', { 'http-equiv': 'refresh', content: '0;url=/api/beacon-refresh' }),
        el(31, 'base', { href: 'https://evil.example/' }),
        el(32, 'style', {
          _cssText: 'body{background:url(/api/beacon-sheet)} @import "/api/beacon-import";',
        }),
        el(33, 'link', { rel: 'stylesheet', href: '/api/beacon-link.css' }),
      ],
    );
    const s = await reported('BUSINESS_PLAN', events);
    const { page, errors } = await issueTab(s);
    const beacons: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('beacon') || req.url().includes('evil.example')) beacons.push(req.url());
    });
    const issueUrl = page.url();
    await page.getByTestId('replay-open').click();
    await expect.poll(() => frameText(page)).toContain('Hostile page');
    expect(await page.getByTestId('replay-frame').getAttribute('sandbox')).toBe('allow-same-origin');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => frameText(page), { timeout: 15_000 }).toContain('Payment failed');
    // Give anything that could fire (a refresh, a load, an error handler) time to.
    await page.waitForTimeout(1500);
    expect(await page.evaluate(() => (window as unknown as { pwned?: string }).pwned)).toBeUndefined();
    expect(page.url()).toBe(issueUrl);
    expect(beacons).toEqual([]);
    // Nothing in the rebuilt page carries a handler or a script's text.
    const rebuilt = await page.evaluate(
      () =>
        document.querySelector<HTMLIFrameElement>('[data-testid="replay-frame"]')?.contentDocument
          ?.documentElement.outerHTML ?? '',
    );
    expect(rebuilt).not.toMatch(/onerror|onload|srcdoc|pwned|http-equiv|javascript:/i);
    expect(errors.filter((e) => !refusedBySandbox(e))).toEqual([]);
  });
});

describe("the customer's pictures", () => {
  let site: CustomerSite;
  beforeAll(async () => {
    site = await startCustomerSite();
    site.file('/logo.png', png(40, 20, [30, 90, 200], true), { 'content-type': 'image/png' });
    site.page('/page.html', '<!doctype html><p>not a picture</p>');
  });
  afterAll(async () => {
    await site?.close();
  });

  it("shows a customer's image through the dashboard's proxy and refuses HTML and a private address", async () => {
    const customer = `http://127.0.0.1:${site.port}`;
    const s = await reported(
      'BUSINESS_PLAN',
      recording([
        el(6, 'h1', {}, [text(7, 'Pictures')]),
        el(40, 'img', { id: 'logo', alt: 'Logo', src: `${customer}/logo.png` }),
        el(41, 'img', { id: 'html', alt: 'Page', src: `${customer}/page.html` }),
        el(42, 'img', { id: 'private', alt: 'Private', src: 'https://10.0.0.1/logo.png' }),
      ]),
    );
    const { page, errors } = await issueTab(s);
    const direct: string[] = [];
    const proxy: string[] = [];
    page.on('request', (req) => {
      if (req.url().startsWith(customer) || req.url().includes('10.0.0.1/')) direct.push(req.url());
    });
    page.on('response', (res) => {
      if (res.url().includes('/api/client/replay-asset/')) proxy.push(`${res.status()}`);
    });
    await page.getByTestId('replay-open').click();
    await expect.poll(() => frameText(page)).toContain('Pictures');
    const image = (id: string) =>
      page.evaluate((which) => {
        const frame = document.querySelector<HTMLIFrameElement>('[data-testid="replay-frame"]');
        const img = frame?.contentDocument?.getElementById(which) as HTMLImageElement | null;
        return img ? { src: img.src, width: img.naturalWidth, complete: img.complete } : null;
      }, id);
    await expect.poll(async () => (await image('logo'))?.width).toBe(40);
    expect((await image('logo'))?.src).toBe(
      `${suite.stack.url}/api/client/replay-asset/${s.id}?url=${encodeURIComponent(`${customer}/logo.png`)}`,
    );
    for (const refused of ['html', 'private']) {
      await expect.poll(async () => (await image(refused))?.complete).toBe(true);
      expect(await image(refused)).toMatchObject({ width: 0 });
      expect((await image(refused))?.src).toContain(`/api/client/replay-asset/${s.id}?url=`);
    }
    // The reader's browser called only the dashboard: the far hosts were the server's to call.
    await expect.poll(() => [...proxy].sort()).toEqual(['200', '400', '502']);
    expect(direct).toEqual([]);
    expect(site.requests('/logo.png').map((headers) => headers.cookie)).toEqual([undefined]);
    expect(errors.filter((e) => !refusedBySandbox(e))).toEqual([]);
  });
});

describe('the public replay page', () => {
  it("opens a tracker's signed link without signing in, and says so for an invalid or expired one", async () => {
    const s = await reported('BUSINESS_PLAN', shop());
    const token = await replayLinkToken(
      { projectId: s.id, name: s.replayName ?? '' },
      Date.now() + 3_600_000,
    );
    const tab = await suite.newTab();
    const { page } = tab;
    await page.goto(`/replay/${token}`);
    await page.getByRole('heading', { name: 'Replay', level: 1 }).waitFor();
    await expect.poll(() => frameText(page)).toContain('Checkout');
    expect(await page.getByTestId('replay-frame').getAttribute('sandbox')).toBe('allow-same-origin');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => frameText(page), { timeout: 15_000 }).toContain('Payment failed');
    expect(new URL(page.url()).pathname).toBe(`/replay/${token}`);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'replay-public-en');

    const expired = await replayLinkToken({ projectId: s.id, name: s.replayName ?? '' }, Date.now() - 1000);
    const de = await suite.newTab({ locale: 'de-DE' });
    await de.page.goto(`/replay/${expired}`);
    await de.page
      .getByText('Dieser Link zur Aufzeichnung ist ungültig oder abgelaufen.', { exact: false })
      .waitFor();
    expect(await de.page.getByTestId('replay-frame').count()).toBe(0);
    expect(await axeFindings(de.page)).toEqual([]);
    await de.page.goto('/replay/not-a-token');
    await de.page.getByTestId('replay-error').waitFor();
  });
});
