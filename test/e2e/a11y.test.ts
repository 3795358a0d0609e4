/**
 * WCAG 2.2 AA in the browser (issue 20, dashboard part): axe-core on every screen of the dashboard
 * (web/src/app/routes.tsx) with realistic content, in English and German, at desktop (1280 px) and phone (390 px)
 * width. Any serious or critical violation fails, and so does any of the rules the issue named (landmarks,
 * Label in Name, links told apart by colour alone) whatever axe rates them.
 *
 * One browser and one signed-in context walk every screen per language and width: the language is the
 * stored choice (`snag.lang`) and the width the viewport, so the setup (accounts, projects, issues) is paid
 * once. The auth screens are public; a session does not change them. Within a walk the dashboard is
 * loaded once per account and cookie choice and moves between screens as its own links do: a fresh load
 * of each of the 160-odd screens cost about half of the file's time in starting the bundle again.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrationNames } from '#contracts/integration-names';
import { configurationSections } from '../../web/src/paths';
import type { ApiClient } from '../support/api-client';
import { axeFindings } from '../support/axe';
import { navigateInApp, setUpBrowserSuite, shot, type TestPage, trackRequests } from '../support/browser';
import { seedIssues } from '../support/issues';
import { png } from '../support/png';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const suite = setUpBrowserSuite();
/** The screen has settled: no request for a while, no loader, transitions (up to 200 ms) done. */
async function settled(page: Page, quietFor: () => number): Promise<void> {
  await page.waitForLoadState('load');
  const deadline = Date.now() + 15_000;
  while (quietFor() < 150 || (await page.locator('.mantine-Loader-root').count()) > 0) {
    if (Date.now() > deadline) throw new Error(`${page.url()} did not settle`);
    await page.waitForTimeout(50);
  }
  await page.locator('main').first().waitFor();
  await page.waitForTimeout(200);
}

interface Screen {
  name: string;
  path: string;
  /** Sign in as the account without projects for this screen. */
  emptyAccount?: boolean;
  /** Show the cookie notice, as on a first visit. */
  cookieNotice?: boolean;
}

const widths = [
  { label: 'desktop', viewport: { width: 1280, height: 860 } },
  { label: 'phone', viewport: { width: 390, height: 844 } },
] as const;
const languages = ['en', 'de'] as const;

describe('accessibility: axe-core on every dashboard screen', () => {
  let tab: TestPage;
  let requests: ReturnType<typeof trackRequests>;
  let screens: Screen[];
  let cookies: { full: ApiClient; empty: ApiClient };

  beforeAll(async () => {
    const url = suite.stack.url;
    const [full, empty] = await Promise.all([signedIn(url), signedIn(url)]);
    cookies = { full: full.client, empty: empty.client };
    // A paid plan, so integrations, files and video show their forms rather than the upgrade notice.
    await full.client.post('/api/dev/plan', { username: full.email, plan: 'BASIC_PLAN', days: 30 });
    const create = async (name: string, domain: string) =>
      ((await full.client.post('/api/client/website', { name, url: domain })).body as { msg: { id: string } })
        .msg.id;
    const shop = await create('Shop', 'shop.example');
    const quiet = await create('Quiet blog', 'blog.example');
    await seedIssues(shop, 6, (n) => `Checkout fails on step ${n}`);
    const detail = await fileReport(url, shop, 'https://shop.example', {
      fields: {
        msg: 'The Pay button does nothing.\n\nTried twice.',
        username: 'visitor@example.org',
        href: 'https://shop.example/cart?step=2',
        browser: 'Firefox',
        browserVersion: '130',
        os: 'Windows',
        osVersion: '11',
        deviceType: 'Desktop',
        screenResolution: '1920x1080',
        customFields: [{ name: 'Customer number', value: 'C-1042' }],
        logs: [{ t: Date.UTC(2026, 10, 2, 9, 30, 5), level: 'error', kind: 'exception', msg: 'TypeError' }],
      },
      screenshots: [{ type: 'image/png', content: png(640, 400, [79, 78, 174], true) }],
      files: [{ name: 'notes.txt', type: 'text/plain', content: new TextEncoder().encode('Order 1042') }],
    });
    for (const n of [1, 2]) {
      const res = await full.client.patch(`/api/client/website/${shop}/request/${n}`, { restore: false });
      expect(res.status).toBe(200);
    }

    screens = [
      { name: 'login', path: '/login' },
      { name: 'login-cookie-notice', path: '/login', cookieNotice: true },
      { name: 'registration', path: '/registration' },
      { name: 'confirm-registration', path: '/confirm_registration?username=ada%40example.com' },
      { name: 'reset', path: '/reset' },
      { name: 'reset-verification', path: '/reset_verification?code=abcdef' },
      { name: 'reset-verification-no-code', path: '/reset_verification' },
      { name: 'projects-empty', path: '/profile', emptyAccount: true },
      { name: 'projects', path: '/profile' },
      { name: 'projects-not-found-notice', path: '/profile/no-such-page' },
      { name: 'profile-edit', path: '/profile/edit' },
      { name: 'profile-extensions', path: '/profile/edit/extension' },
      // The browser extension's connect page as the extension opens it, a broken address, and its ends.
      {
        name: 'connect-extension',
        path: `/connect/extension?challenge=${'E'.repeat(43)}&state=${'s'.repeat(22)}&browser=Chrome`,
      },
      { name: 'connect-extension-invalid', path: '/connect/extension?challenge=short' },
      { name: 'connect-extension-done', path: `/connect/extension/done?code=${'c'.repeat(43)}&state=s` },
      { name: 'connect-extension-denied', path: '/connect/extension/done?error=denied&state=s' },
      { name: 'billing', path: '/profile/billing' },
      { name: 'create-project', path: '/profile/create/project' },
      { name: 'issues-open', path: `/profile/site/${shop}` },
      { name: 'issues-open-empty', path: `/profile/site/${quiet}` },
      { name: 'issues-resolved', path: `/profile/resolved/${shop}` },
      { name: 'issues-resolved-empty', path: `/profile/resolved/${quiet}` },
      { name: 'issue', path: `/profile/site/${shop}/ticket/${detail}` },
      ...integrationNames.map((n) => ({
        name: `integration-${n}`,
        path: `/profile/integrations/${shop}/${n}`,
      })),
      { name: 'widget', path: `/profile/widget/${shop}` },
      ...configurationSections.map((s) => ({
        name: `configuration-${s}`,
        path: `/profile/configuration/${shop}/${s}`,
      })),
    ];
    tab = await suite.newTab({ acceptCookies: false });
    requests = trackRequests(tab.page);
  });

  async function signInAs(api: ApiClient) {
    await tab.context.clearCookies();
    await tab.context.addCookies(
      [...api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
    );
  }

  for (const lang of languages) {
    for (const { label, viewport } of widths) {
      it(`has no serious or critical violation on any screen (${lang}, ${label})`, async () => {
        const { page } = tab;
        await page.setViewportSize(viewport);
        const findings: string[] = [];
        let account: 'full' | 'empty' | null = null;
        // The stored choice wins over the browser's locale, and lasts across the navigations.
        await page.goto('/login');
        await page.evaluate((l) => localStorage.setItem('snag.lang', l), lang);
        const cookieNotice = (shown: boolean) =>
          page.evaluate((s) => {
            if (s) localStorage.removeItem('snag.cookies.accepted');
            else localStorage.setItem('snag.cookies.accepted', 'true');
          }, shown);
        // A screen is loaded afresh when the account, the stored cookie choice or the language changed
        // since the last one (the dashboard reads them as it starts); otherwise the app navigates to it.
        let fresh = true;
        let notice: boolean | null = null;
        for (const screen of screens) {
          const wanted = screen.emptyAccount ? 'empty' : 'full';
          if (account !== wanted) {
            await signInAs(cookies[wanted]);
            account = wanted;
            fresh = true;
          }
          if (notice !== (screen.cookieNotice === true)) {
            notice = screen.cookieNotice === true;
            await cookieNotice(notice);
            fresh = true;
          }
          if (fresh) await page.goto(screen.path);
          else {
            requests.moved();
            await navigateInApp(page, screen.path);
          }
          fresh = false;
          await settled(page, requests.quietFor);
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
          for (const finding of await axeFindings(page)) findings.push(`${screen.name}: ${finding}`);
          await shot(page, `a11y-${screen.name}-${lang}-${label}`);
        }
        expect(findings).toEqual([]);
      });
    }
  }
});

describe('accessibility: a tooltip or a toast on screen', () => {
  // What floats over a screen is scanned too: a tooltip (Mantine's, in a portal outside every landmark,
  // once failed the team screen's scan with axe's `region`) and a toast, in their labelled places.
  it.each([
    {
      lang: 'en',
      locale: 'en-US',
      expand: 'Expand sidebar',
      firstName: 'First name',
      save: 'Save changes',
      toast: 'Personal data saved',
      region: 'Notifications',
    },
    {
      lang: 'de',
      locale: 'de-DE',
      expand: 'Seitenleiste ausklappen',
      firstName: 'Vorname',
      save: 'Änderungen speichern',
      toast: 'Persönliche Daten gespeichert',
      region: 'Benachrichtigungen',
    },
  ])('has no violation while a tooltip or a toast shows ($lang)', async ({ locale, ...text }) => {
    const { client } = await signedIn(suite.stack.url);
    const { page, context, errors } = await suite.newTab({ locale, viewport: widths[0].viewport });
    await context.addCookies(
      [...client.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
    );
    await page.goto('/profile/edit');
    await page.getByRole('textbox', { name: text.firstName }).waitFor();
    // The sidebar's toggle names itself in a tooltip while the pointer rests on it.
    await page.getByRole('button', { name: text.expand }).hover();
    await page.getByRole('tooltip', { includeHidden: true }).filter({ hasText: text.expand }).waitFor();
    expect(['tooltip', await axeFindings(page)]).toEqual(['tooltip', []]);
    await page.getByRole('textbox', { name: text.firstName }).fill('Ada');
    await page.getByRole('button', { name: text.save }).click();
    const toast = page.getByText(text.toast);
    await toast.waitFor();
    // A toast pauses its closing while the pointer rests on it: it stays for the whole scan.
    await toast.hover();
    expect(['toast', await axeFindings(page)]).toEqual(['toast', []]);
    expect(await page.getByRole('region', { name: text.region, exact: true }).innerText()).toContain(
      text.toast,
    );
    expect(errors).toEqual([]);
  });
});
