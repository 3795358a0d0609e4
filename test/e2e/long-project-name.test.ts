/**
 * A project name of the most characters a name may have (100) and no place to break keeps every layout
 * intact, at desktop (1280 px) and phone (390 px) width: the project list, the sidebar's project selector
 * (open too) and the phone's drawer, the issue screens and their breadcrumbs, every configuration,
 * widget and integration screen, and the mails that name the project. Nothing may make the page scroll
 * sideways. Pictures when SNAG_E2E_SHOTS is set.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrationNames } from '#contracts/integration-names';
import { limits } from '#contracts/limits';
import { configurationSections } from '../../web/src/paths';
import type { SentMail } from '../support/api-client';
import {
  navigateInApp,
  setUpBrowserSuite,
  shot,
  signedInTab,
  type TestPage,
  trackRequests,
} from '../support/browser';
import { eventually } from '../support/local-stack';
import { fileReport } from '../support/widget';

const suite = setUpBrowserSuite();

const longName = 'Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenherstellungsbetrieb'
  .repeat(2)
  .slice(0, limits.projectNameMax);
const visitor = 'long-name-visitor@example.org';

const widths = [
  { label: 'desktop', viewport: { width: 1280, height: 860 } },
  { label: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** How far the page scrolls sideways (0 when it does not). */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Content cut off sideways with no way to see it: an element that hides its overflow (a table's card, a
 * header) while its content is wider than it. Scroll containers (the board's columns, the section tabs)
 * and inputs scroll by design; a text ending in an ellipsis is a layout that holds; a few pixels are the
 * components' own rounding (a switch's track).
 */
const clipped = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (el.clientWidth <= 2 || el.scrollWidth <= el.clientWidth + 4) continue;
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) continue;
      const style = getComputedStyle(el);
      if (!['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis') continue;
      const what = el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? el.className.toString();
      out.push(`${el.tagName.toLowerCase()} "${what.slice(0, 60)}" ${el.scrollWidth}>${el.clientWidth}`);
    }
    return out;
  });

/** Requests on the tab's page (`settle` after a navigation inside the app waits for them to end). */
let requests: ReturnType<typeof trackRequests> | undefined;

async function settle(page: Page) {
  // After a navigation inside the app the old screen's `main` is still there until the new one renders:
  // its loads must have started and ended first.
  if (requests)
    await expect.poll(requests.quietFor, { timeout: 15_000, interval: 50 }).toBeGreaterThanOrEqual(150);
  await page.locator('main').first().waitFor();
  await expect.poll(async () => page.locator('.mantine-Loader-root').count(), { timeout: 15_000 }).toBe(0);
  await page.waitForTimeout(150);
}

describe('a 100-character unbroken project name', () => {
  let tab: TestPage;
  let email: string;
  let id: string;
  let issue: number;

  beforeAll(async () => {
    const signed = await signedInTab(suite, { locale: 'en-US' });
    ({ tab, email } = signed);
    requests = trackRequests(tab.page);
    await signed.api.post('/api/dev/plan', { username: email, plan: 'BASIC_PLAN', days: 30 });
    const created = await signed.api.post('/api/client/website', { name: longName, url: 'long.example' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    id = (created.body as { msg: { id: string } }).msg.id;
    // A second project, so the selector has a list to show.
    await signed.api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
    issue = await fileReport(suite.stack.url, id, 'https://long.example', {
      fields: { msg: 'The Pay button does nothing.', username: visitor, href: 'https://long.example/cart' },
    });
  });

  for (const { label, viewport } of widths) {
    it(`keeps every screen within the window (${label})`, async () => {
      const { page } = tab;
      await page.setViewportSize(viewport);
      const screens = [
        { name: 'projects', path: '/profile' },
        { name: 'issues', path: `/profile/site/${id}` },
        { name: 'board', path: `/profile/site/${id}/board` },
        { name: 'resolved', path: `/profile/resolved/${id}` },
        { name: 'issue', path: `/profile/site/${id}/ticket/${issue}` },
        { name: 'widget', path: `/profile/widget/${id}` },
        ...integrationNames.map((n) => ({
          name: `integration-${n}`,
          path: `/profile/integrations/${id}/${n}`,
        })),
        ...configurationSections.map((s) => ({
          name: `configuration-${s}`,
          path: `/profile/configuration/${id}/${s}`,
        })),
        { name: 'team', path: '/profile/team' },
      ];
      const wide: string[] = [];
      // One load of the dashboard per width; the screens are reached as its links reach them.
      for (const [i, screen] of screens.entries()) {
        if (i === 0) await page.goto(screen.path);
        else {
          requests?.moved();
          await navigateInApp(page, screen.path);
        }
        await settle(page);
        // Still the screen asked for (a failed load would show the login page, which fits any window).
        expect(new URL(page.url()).pathname, screen.name).toBe(screen.path.split('?')[0]);
        const over = await sideways(page);
        if (over > 0) wide.push(`${screen.name}: the page scrolls ${over} px sideways`);
        for (const cut of await clipped(page)) wide.push(`${screen.name}: ${cut}`);
        await shot(page, `long-name-${screen.name}-${label}`);
      }
      expect(tab.failedResponses).toEqual([]);
      expect(wide).toEqual([]);
    });

    it(`keeps the project selector and its list within the window (${label})`, async () => {
      const { page } = tab;
      await page.setViewportSize(viewport);
      await page.goto(`/profile/site/${id}`);
      await settle(page);
      expect(new URL(page.url()).pathname).toBe(`/profile/site/${id}`);
      // The sidebar starts collapsed on a wide screen; on a phone it is the drawer behind the burger.
      if (label === 'phone') await page.getByRole('button', { name: 'Open navigation' }).click();
      else await page.getByRole('button', { name: 'Expand sidebar' }).click();
      const nav = page.getByRole('navigation', { name: 'Project navigation' });
      const select = nav.getByLabel('Project', { exact: true });
      await select.waitFor();
      expect(await sideways(page)).toBe(0);
      const navBox = (await nav.boundingBox())!;
      expect(navBox.x + navBox.width).toBeLessThanOrEqual(viewport.width);
      expect(await nav.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      // The field shows as much of the name as fits and ends it with "…"; the whole name is its title.
      expect(await select.evaluate((el) => getComputedStyle(el).textOverflow)).toBe('ellipsis');
      expect(await select.getAttribute('title')).toBe(longName);
      await select.click();
      const option = page.getByRole('option', { name: longName });
      await option.waitFor();
      // The whole name is in the list, within it and within the window.
      const box = (await option.boundingBox())!;
      const list = (await page.getByRole('listbox').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(list.x);
      expect(box.x + box.width).toBeLessThanOrEqual(list.x + list.width);
      expect(list.x + list.width).toBeLessThanOrEqual(viewport.width);
      expect(await option.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      expect(await sideways(page)).toBe(0);
      await shot(page, `long-name-selector-${label}`);
      await page.keyboard.press('Escape');
      if (label === 'desktop') await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    });
  }

  it('keeps the mails that name the project within a phone and a desktop window', async () => {
    await suite.stack.runSchedule('notifications');
    const mails = await eventually(async () => {
      const res = await fetch(new URL('/api/dev/emails', suite.stack.url));
      const all = ((await res.json()) as { msg: SentMail[] }).msg.filter(
        (m) => (m.to.includes(visitor) || m.to.includes(email)) && m.html.includes(longName),
      );
      if (all.length === 0) await suite.stack.runSchedule('notifications');
      return all.length > 0 ? all : undefined;
    }, 30_000);
    const { page } = tab;
    const wide: string[] = [];
    for (const [i, mail] of mails.entries()) {
      for (const { label, viewport } of widths) {
        await page.setViewportSize(viewport);
        await page.setContent(mail.html);
        const over = await sideways(page);
        if (over > 0) wide.push(`${mail.subject} (${label}): ${over} px`);
        await shot(page, `long-name-mail-${i}-${label}`);
      }
    }
    // The reporter's status page, which the confirmation mail links to, names the project in its header.
    const statusPage = mails
      .map((m) => /https?:\/\/\S+\/r\/[A-Za-z0-9_-]{22}/.exec(m.text)?.[0])
      .find(Boolean);
    expect(statusPage).toBeDefined();
    for (const { label, viewport } of widths) {
      await page.setViewportSize(viewport);
      await page.goto(statusPage as string);
      await page.locator('main h1').waitFor();
      const over = await sideways(page);
      if (over > 0) wide.push(`status page (${label}): ${over} px`);
      await shot(page, `long-name-status-page-${label}`);
    }
    expect(wide).toEqual([]);
  });
});
