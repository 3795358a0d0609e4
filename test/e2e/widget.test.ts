/**
 * The widget launcher on a customer's website (issue 4), in Chromium: a page on another origin carries the
 * install snippet, and the launcher appears exactly as the project is configured, and nowhere else.
 *
 * Customer pages are served by test/support/customer-site.ts under made-up host names mapped to 127.0.0.1.
 * The loader script is cached for 60 s, so every visit uses a fresh browser context (its own HTTP cache)
 * and sees the project's current settings.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import de from '../../widget/src/i18n/de';
import en from '../../widget/src/i18n/en';
import type { ApiClient } from '../support/api-client';
import { openPage, setUpE2eStack, shot } from '../support/browser';
import {
  type CustomerSite,
  type CustomerVisit,
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
let owner: ApiClient;
let projectId: string;

const desktop = { width: 1280, height: 800 };
const phone: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};

const snippetFor = (id: string) => `<script async src="${stack.url}/api/website/${id}/code"></script>`;

beforeAll(async () => {
  [browser, site] = await Promise.all([launchCustomerBrowser(), startCustomerSite()]);
  ({ client: owner } = await signedIn(stack.url));
  const created = await owner.post<{ id: string }>('/api/client/website', {
    name: 'Acme Shop',
    url: `https://${customerHosts.domain}`,
  });
  expect(created.status).toBe(201);
  projectId = (created.body as { msg: { id: string } }).msg.id;
  site.page('/', customerPage({ snippet: snippetFor(projectId) }));
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function configure(change: Record<string, unknown>): Promise<void> {
  const res = await owner.patch(`/api/client/website/${projectId}`, change);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A customer page on `host` in a fresh context. */
const visit = (host: string, path = '/', options: BrowserContextOptions = {}): Promise<CustomerVisit> =>
  visitCustomerPage(browser, site.url(host, path), { viewport: desktop, ...options });

const launcherButton = (page: Page, name = 'Feedback') => page.getByRole('button', { name, exact: true });

async function launcherCount(page: Page): Promise<number> {
  return page.locator('snag-launcher').count();
}

/** Whether the loader ran on the page (it defines `window.Snag` with its private marker). */
const loaderRan = (page: Page) => page.evaluate(() => (window.Snag as { _l?: number } | undefined)?._l === 1);

async function style(page: Page, name: string) {
  return launcherButton(page, name).evaluate((el) => {
    const s = getComputedStyle(el);
    return { background: s.backgroundColor, color: s.color, boxSizing: s.boxSizing, display: s.display };
  });
}

describe('the launcher on the project domain', () => {
  it('appears with the configured text, colour and position, inside an open shadow root', async () => {
    await configure({
      data: { widgetText: 'Report a bug', widgetColor: '#0CA678', widgetPosition: 'rightMiddle' },
    });
    const { page, errors, close } = await visit(customerHosts.shop);
    const button = launcherButton(page, 'Report a bug');
    await button.waitFor();
    expect(await page.evaluate(() => document.querySelector('snag-launcher')?.shadowRoot?.mode)).toBe('open');
    // Nothing in the light DOM: the button lives in the shadow tree only.
    expect(await page.evaluate(() => document.querySelectorAll('button').length)).toBe(0);
    expect((await style(page, 'Report a bug')).background).toBe('rgb(12, 166, 120)');
    expect((await style(page, 'Report a bug')).color).toBe('rgb(255, 255, 255)');
    const box = (await button.boundingBox())!;
    expect(box.x + box.width).toBeCloseTo(desktop.width, 0);
    expect(box.y + box.height / 2).toBeCloseTo(desktop.height / 2, 0);
    expect(box.height).toBeGreaterThan(box.width); // a vertical tab
    expect(await page.evaluate(() => Object.keys(window).filter((k) => /snag/i.test(k)))).toEqual(['Snag']);
    expect(errors).toEqual([]);
    await close();
  });

  it('takes each of the four positions and both colour schemes', async () => {
    const expected = {
      rightMiddle: (b: Box) =>
        near(b.x + b.width, desktop.width) && near(b.y + b.height / 2, desktop.height / 2),
      leftMiddle: (b: Box) => near(b.x, 0) && near(b.y + b.height / 2, desktop.height / 2),
      rightBottom: (b: Box) =>
        near(b.x + b.width, desktop.width - 20) && near(b.y + b.height, desktop.height - 20),
      leftBottom: (b: Box) => near(b.x, 20) && near(b.y + b.height, desktop.height - 20),
    };
    for (const scheme of ['white', 'black'] as const) {
      for (const [position, check] of Object.entries(expected)) {
        await configure({
          data: {
            widgetText: 'Feedback',
            widgetColor: '#4F4EAE',
            widgetPosition: position,
            widgetColorScheme: scheme,
          },
        });
        const { page, errors, close } = await visit(customerHosts.shop);
        const button = launcherButton(page);
        await button.waitFor();
        const box = (await button.boundingBox())!;
        expect(check(box), `${position} ${JSON.stringify(box)}`).toBe(true);
        const colours = await style(page, 'Feedback');
        expect(colours.background).toBe('rgb(79, 78, 174)');
        expect(colours.color).toBe(scheme === 'white' ? 'rgb(255, 255, 255)' : 'rgb(20, 20, 31)');
        await shot(page, `launcher-${position}-${scheme}`);
        expect(errors).toEqual([]);
        await close();
      }
    }
    await configure({ data: { widgetPosition: 'rightMiddle', widgetColorScheme: 'white' } });
  });

  it('keeps its size and colours on a page with hostile CSS', async () => {
    const plain = await visit(customerHosts.shop);
    const reference = (await launcherButton(plain.page).boundingBox())!;
    await plain.close();

    site.page(
      '/hostile',
      customerPage({
        snippet: snippetFor(projectId),
        head: `<style>
*{box-sizing:content-box!important;font-size:31px!important;letter-spacing:4px!important;line-height:3!important}
button{all:unset}
div{display:none!important}
body *{color:red!important;background:lime!important;padding:9px!important;transform:rotate(3deg)!important}
*:not(html):not(head):not(body){position:static!important;opacity:.2!important;z-index:-1!important}
[hidden]{display:block!important}
</style>`,
      }),
    );
    const { page, errors, close } = await visit(customerHosts.shop, '/hostile');
    const button = launcherButton(page);
    await button.waitFor();
    const box = (await button.boundingBox())!;
    expect(box.width).toBeCloseTo(reference.width, 0);
    expect(box.height).toBeCloseTo(reference.height, 0);
    expect(box.x).toBeCloseTo(reference.x, 0);
    expect(box.y).toBeCloseTo(reference.y, 0);
    const s = await style(page, 'Feedback');
    expect(s).toMatchObject({
      background: 'rgb(79, 78, 174)',
      color: 'rgb(255, 255, 255)',
      boxSizing: 'border-box',
    });
    const host = await page.evaluate(() => {
      const h = getComputedStyle(document.querySelector('snag-launcher')!);
      return { position: h.position, opacity: h.opacity, zIndex: h.zIndex, display: h.display };
    });
    expect(host).toEqual({ position: 'fixed', opacity: '1', zIndex: '2147483000', display: 'block' });
    // hide() still hides it although the page forces [hidden] elements visible.
    await page.evaluate(() => window.Snag?.hide?.());
    expect(await button.isVisible()).toBe(false);
    await shot(page, 'launcher-hostile-css');
    expect(errors).toEqual([]);
    await close();
  });

  it('is reachable by keyboard: Tab focuses it, Enter opens the panel, Escape closes it', async () => {
    const { page, errors, close } = await visit(customerHosts.shop);
    const button = launcherButton(page);
    await button.waitFor();
    let focused = '';
    for (let i = 0; i < 10 && focused !== 'SNAG-LAUNCHER'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.tagName ?? '');
    }
    expect(focused).toBe('SNAG-LAUNCHER');
    expect(await button.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
    await shot(page, 'launcher-focus');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'Feedback' });
    await panel.waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await shot(page, 'launcher-panel-open');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SNAG-LAUNCHER');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(errors).toEqual([]);
    await close();
  });

  it('offers window.Snag: hide(), show(), open() and calls queued before the loader arrived', async () => {
    site.page(
      '/queued',
      customerPage({
        snippet: `<script>window.Snag=window.Snag||{q:[]};Snag.q.push(['hide']);</script>${snippetFor(projectId)}`,
      }),
    );
    const { page, errors, close } = await visit(customerHosts.shop, '/queued');
    await page.waitForFunction(() => (window.Snag as { _l?: number } | undefined)?._l === 1);
    const host = page.locator('snag-launcher');
    await host.waitFor({ state: 'attached' });
    expect(await host.isVisible()).toBe(false); // the queued hide() ran
    await page.evaluate(() => window.Snag?.show?.());
    await launcherButton(page).waitFor();
    await page.evaluate(() => window.Snag?.hide?.());
    await host.waitFor({ state: 'hidden' });
    // open() works with the launcher hidden (a site's own button may call it).
    await page.evaluate(() => window.Snag?.open?.());
    await page.getByRole('dialog', { name: 'Feedback' }).waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // After loading, pushing to the queue runs at once.
    await page.evaluate(() => window.Snag?.q?.push(['show']));
    await launcherButton(page).waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});

describe("the client's own widget texts on the Widget screen (issue 19)", () => {
  /** A dashboard tab of the owner (the customer browser can open the dashboard too). */
  async function dashboard(locale: string, viewport = desktop) {
    const tab = await openPage(browser, stack.url, { locale, viewport });
    await tab.context.addCookies(
      [...owner.cookies].map(([name, value]) => ({ name, value, url: stack.url })),
    );
    await tab.page.goto(`/profile/widget/${projectId}`);
    return tab;
  }
  const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
  const preview = (page: Page) => page.getByTestId('widget-texts-preview');

  it('are written per language, checked, previewed and saved, and the widget shows them', async () => {
    await configure({ data: { widgetLanguage: 'en', widgetTexts: {}, widgetDisableWelcomeScreen: true } });
    const tab = await dashboard('en-US');
    const { page } = tab;
    const heading = field(page, 'Heading');
    await heading.waitFor();
    // Empty fields show the built-in texts of the widget language, which the preview uses too.
    expect(await heading.getAttribute('placeholder')).toBe(en.title);
    expect(await field(page, 'Thank-you text').getAttribute('placeholder')).toBe(en.thanksText);
    await preview(page).getByText(en.thanksText).waitFor();
    await page.getByText('The welcome screen is off (Features)', { exact: false }).waitFor();

    // A text the API would refuse is marked at once (a right-to-left override hides what it says).
    await heading.fill('Report\u202Egpj.exe');
    await heading.blur();
    await page.getByText('Please check this value').waitFor();
    await heading.fill('Tell us what is broken');
    expect(await page.getByText('Please check this value').count()).toBe(0);
    await field(page, 'Welcome text').fill('Hi!\nThanks for helping us.');
    await field(page, 'Thank-you text').fill('We read every report.');
    // The switch's input is visually hidden under its track: a click event, not a click at its coordinates.
    const welcome = page.getByRole('switch', { name: 'Welcome screen' });
    await welcome.dispatchEvent('click');
    expect(await welcome.isChecked()).toBe(true);
    // The preview follows the unsaved values.
    await preview(page).getByText('We read every report.').waitFor();
    await preview(page).getByText('Tell us what is broken').first().waitFor();
    await preview(page).getByText(en.welcomeTitle).waitFor();
    await shot(page, 'widget-texts-en');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'widget-texts-en-390');
    await page.setViewportSize(desktop);

    await page.getByRole('button', { name: 'Save changes', exact: true }).click();
    await page.getByText('Project settings saved', { exact: true }).waitFor();
    const stored = await owner.get<{ website: { data: { widgetTexts: unknown } } }>(
      `/api/client/website/${projectId}`,
    );
    expect(
      (stored.body as { msg: { website: { data: { widgetTexts: unknown } } } }).msg.website.data.widgetTexts,
    ).toEqual({
      en: {
        title: 'Tell us what is broken',
        welcomeText: 'Hi!\nThanks for helping us.',
        thanksText: 'We read every report.',
      },
    });

    // Another language has its own, still empty, set: its built-in texts show.
    await page.getByLabel('Widget language', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Deutsch' }).click();
    expect(await heading.inputValue()).toBe('');
    expect(await heading.getAttribute('placeholder')).toBe(de.title);
    await page.getByText('(Deutsch)', { exact: false }).waitFor();
    expect(tab.errors).toEqual([]);
    expect(tab.failedResponses).toEqual([]);
    await tab.context.close();

    // The widget on the customer's page.
    const { page: shop, errors, close } = await visit(customerHosts.shop);
    await launcherButton(shop).click();
    const panel = shop.getByRole('dialog', { name: 'Tell us what is broken' });
    await panel.getByText('Thanks for helping us.', { exact: false }).waitFor();
    await panel.getByText(en.welcomeTitle).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('are labelled in German on a German dashboard', async () => {
    const tab = await dashboard('de-DE');
    const { page } = tab;
    await field(page, 'Überschrift').waitFor();
    expect(await field(page, 'Überschrift').inputValue()).toBe('Tell us what is broken');
    await field(page, 'Dankestext').waitFor();
    await page.getByRole('heading', { name: 'Texte im Widget' }).waitFor();
    await shot(page, 'widget-texts-de');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'widget-texts-de-390');
    expect(tab.errors).toEqual([]);
    await tab.context.close();
    await configure({ data: { widgetTexts: {}, widgetDisableWelcomeScreen: true } });
  });
});

describe('the automatic language', () => {
  it('speaks the first browser language it has, with its own texts, else the chosen one', async () => {
    await configure({
      data: {
        widgetLanguage: 'en',
        widgetLanguageAuto: true,
        widgetTexts: { de: { title: 'Fehler bei Acme melden' } },
        widgetDisableWelcomeScreen: true,
      },
    });
    try {
      const german = await visit(customerHosts.shop, '/', { locale: 'de-AT' });
      const apps: string[] = [];
      german.page.on('request', (r) => {
        // The app's language files only (the idle-loaded steps or recorder chunk shares their pattern).
        if (/\/widget\/app\.\w+\.[a-z]{2}\.js$/.test(r.url())) apps.push(r.url());
      });
      await launcherButton(german.page).click();
      const panel = german.page.getByRole('dialog', { name: 'Fehler bei Acme melden' });
      await panel.waitFor();
      expect(apps).toHaveLength(1);
      expect(apps[0]).toMatch(/\.de\.js$/);
      expect(await panel.evaluate((el) => el.closest('[lang]')?.getAttribute('lang'))).toBe('de');
      expect(german.errors).toEqual([]);
      await german.close();

      // A browser that asks for no language the widget has: the project's chosen one.
      const other = await visit(customerHosts.shop, '/', { locale: 'pt-BR' });
      await launcherButton(other.page).click();
      await other.page.getByRole('dialog', { name: en.title }).waitFor();
      expect(other.errors).toEqual([]);
      await other.close();
    } finally {
      await configure({ data: { widgetLanguageAuto: false, widgetTexts: {} } });
    }
  });
});

describe('where the launcher does not appear', () => {
  it('is absent on another host, and appears there with the wildcard domain', async () => {
    const other = await visit(customerHosts.other);
    expect(await loaderRan(other.page)).toBe(true);
    expect(await launcherCount(other.page)).toBe(0);
    // The API exists but cannot bring the launcher to a foreign site.
    await other.page.evaluate(() => {
      window.Snag?.show?.();
      window.Snag?.open?.();
    });
    await other.page.waitForTimeout(300);
    expect(await other.page.locator('snag-launcher, snag-panel').count()).toBe(0);
    expect(other.errors).toEqual([]);
    await other.close();

    // The bare domain itself matches too.
    const bare = await visit(customerHosts.domain);
    await launcherButton(bare.page).waitFor();
    await bare.close();

    await configure({ data: { widgetDomainWildcard: true } });
    const wildcard = await visit(customerHosts.other);
    await launcherButton(wildcard.page).waitFor();
    expect(wildcard.errors).toEqual([]);
    await wildcard.close();
    await configure({ data: { widgetDomainWildcard: false } });
  });

  it('in test mode, appears only with ?snag=1', async () => {
    await configure({ activeParam: 1 });
    const without = await visit(customerHosts.shop);
    expect(await loaderRan(without.page)).toBe(true);
    expect(await launcherCount(without.page)).toBe(0);
    await without.close();
    const other = await visit(customerHosts.shop, '/?snag=0');
    expect(await launcherCount(other.page)).toBe(0);
    await other.close();
    const withParam = await visit(customerHosts.shop, '/?utm=x&snag=1');
    await launcherButton(withParam.page).waitFor();
    expect(withParam.errors).toEqual([]);
    await withParam.close();
    await configure({ activeParam: 0 });
  });

  it('is absent on phones when disabled on mobile, and present otherwise', async () => {
    const before = await visit(customerHosts.shop, '/', phone);
    await launcherButton(before.page).waitFor();
    await shot(before.page, 'launcher-phone');
    await before.close();

    await configure({ data: { widgetDisableMobile: true } });
    const mobile = await visit(customerHosts.shop, '/', phone);
    expect(await loaderRan(mobile.page)).toBe(true);
    expect(await launcherCount(mobile.page)).toBe(0);
    expect(mobile.errors).toEqual([]);
    await mobile.close();
    // A narrow desktop window is not a phone.
    const narrow = await visit(customerHosts.shop, '/', { viewport: { width: 390, height: 800 } });
    await launcherButton(narrow.page).waitFor();
    await narrow.close();
    await configure({ data: { widgetDisableMobile: false } });
  });

  it('is absent for an inactive project', async () => {
    await configure({ active: 0 });
    const { page, errors, close } = await visit(customerHosts.shop);
    expect(await page.evaluate(() => window.Snag)).toBeUndefined();
    expect(await launcherCount(page)).toBe(0);
    expect(errors).toEqual([]);
    await close();
    await configure({ active: 1 });
  });

  it('is absent, without errors, for an unknown project and when the loader is loaded bare', async () => {
    site.page('/unknown', customerPage({ snippet: snippetFor(randomUUID()) }));
    const unknown = await visit(customerHosts.shop, '/unknown');
    expect(await unknown.page.evaluate(() => window.Snag)).toBeUndefined();
    expect(await launcherCount(unknown.page)).toBe(0);
    expect(unknown.errors).toEqual([]);
    await unknown.close();

    site.page(
      '/bare',
      customerPage({ snippet: `<script async src="${stack.url}/widget/loader.js"></script>` }),
    );
    const bare = await visit(customerHosts.shop, '/bare');
    expect(await loaderRan(bare.page)).toBe(true);
    await bare.page.evaluate(() => window.Snag?.open?.());
    await bare.page.waitForTimeout(300);
    expect(await bare.page.locator('snag-launcher, snag-panel').count()).toBe(0);
    expect(bare.errors).toEqual([]);
    await bare.close();
  });

  it('is absent once the project is deleted', async () => {
    expect((await owner.delete(`/api/client/website/${projectId}`)).status).toBe(200);
    const { page, errors, close } = await visit(customerHosts.shop);
    expect(await page.evaluate(() => window.Snag)).toBeUndefined();
    expect(await launcherCount(page)).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });
});

type Box = { x: number; y: number; width: number; height: number };
const near = (a: number, b: number) => Math.abs(a - b) <= 1.5;
