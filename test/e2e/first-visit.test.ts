/**
 * A new user's way in (issue 9), in Chromium against the built dashboard: the dashboard on either loopback
 * spelling of the one URL, the cookie notice never covering the main button, no 401 in the console of
 * anonymous pages, the domain in one form, configuration on a phone, positive widget switches, the
 * project allowance, and a password form a password manager understands. English and German, 1280 and
 * 390 px; pictures when SNAG_E2E_SHOTS is set.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setUpBrowserSuite, shot, signedInTab, waitEnabled, waitForPath } from '../support/browser';
import { signedIn } from '../support/users';

const suite = setUpBrowserSuite();

const desktop = { width: 1280, height: 860 };
const phone = { width: 390, height: 844 };
const sizes = { desktop, phone } as const;
const languages = { en: 'en-US', de: 'de-DE' } as const;

/** Whether `a` and `b` overlap on the page. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

/** Whether the element at the centre of `target` (in the viewport) is `target` or inside it. */
async function onTop(target: Locator): Promise<boolean> {
  await target.scrollIntoViewIfNeeded();
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
}

describe('the one local URL', () => {
  it('sends a browser opened on 127.0.0.1 to localhost, where signing in works', async () => {
    const { email, password } = await signedIn(suite.stack.url);
    const context = await suite.browser.newContext({ viewport: desktop });
    try {
      const page = await context.newPage();
      const port = new URL(suite.stack.url).port;
      await page.goto(`http://127.0.0.1:${port}/login`);
      expect(new URL(page.url()).origin).toBe(suite.stack.url);
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await waitForPath(page, '/profile');
      expect(await page.getByText('Service is not available at the moment').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('anonymous pages', () => {
  it('ask the API for no profile, so the console shows no 401', async () => {
    const { page, failedResponses, errors } = await suite.newTab();
    for (const path of ['/', '/profile', '/profile/edit', '/login', '/registration', '/reset']) {
      await page.goto(path);
      await page.locator('main').first().waitFor();
    }
    await waitForPath(page, '/reset');
    expect(failedResponses).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('the cookie notice', () => {
  for (const [lang, locale] of Object.entries(languages)) {
    for (const [size, viewport] of Object.entries(sizes)) {
      it(`never covers 'Create account' (${lang}, ${size})`, async () => {
        const { page } = await suite.newTab({ locale, viewport, acceptCookies: false });
        await page.goto('/registration');
        const notice = page.getByRole('region').filter({ has: page.getByRole('button') });
        await notice.waitFor();
        const submit = page.locator('form button[type="submit"]');
        await submit.waitFor();
        await shot(page, `cookie-notice-registration-${lang}-${size}`);
        expect(await overlap(notice, submit)).toBe(false);
        expect(await onTop(submit)).toBe(true);
        expect(await notice.isVisible()).toBe(true);
      });
    }
  }

  it('sits in the flow of the profile area too', async () => {
    const { page } = await signedInTab(suite, { viewport: phone, acceptCookies: false });
    await page.goto('/profile');
    const notice = page.getByRole('region').filter({ has: page.getByRole('button') });
    await notice.waitFor();
    const newProject = page.getByRole('link', { name: 'New project' }).first();
    await newProject.waitFor();
    await shot(page, 'cookie-notice-profile-en-phone');
    expect(await overlap(notice, newProject)).toBe(false);
    expect(await onTop(newProject)).toBe(true);
    await notice.getByRole('button').click();
    await notice.waitFor({ state: 'detached' });
  });
});

describe('projects as a new user sees them', () => {
  const typed = 'https://WWW.Shop-Example.test/de/';

  async function project(locale: string) {
    const tab = await signedInTab(suite, { locale });
    const created = await tab.api.post<{ id: string }>('/api/client/website', { name: 'Shop', url: typed });
    return { ...tab, id: (created.body as { msg: { id: string } }).msg.id };
  }

  it('shows the domain in one form everywhere, and the URL as typed only where it is edited', async () => {
    const { page, id } = await project('en-US');
    await page.goto('/profile');
    expect(await page.getByTestId('project-domain').first().textContent()).toBe('shop-example.test');
    await page.goto(`/profile/configuration/${id}/installation`);
    expect(await page.getByTestId('project-domain').textContent()).toBe('shop-example.test');
    expect(await page.getByTestId('domain-rule').textContent()).toContain(
      'shop-example.test and its subdomains',
    );
    await page.goto(`/profile/configuration/${id}/general`);
    expect(await page.getByRole('textbox', { name: 'Project domain' }).inputValue()).toBe(typed);
  });

  for (const [lang, locale] of Object.entries(languages)) {
    it(`lays General out for phones: full-width fields, one row of tabs (${lang})`, async () => {
      const { page, id } = await project(locale);
      for (const [size, viewport] of Object.entries(sizes)) {
        await page.setViewportSize(viewport);
        await page.goto(`/profile/configuration/${id}/general`);
        const fields = page.locator('form input[type="text"], form input:not([type])');
        await fields.first().waitFor();
        const tabs = page.getByRole('tab');
        const tops = await tabs.evaluateAll((els) =>
          els.map((el) => Math.round(el.getBoundingClientRect().top)),
        );
        expect(new Set(tops).size, 'tabs in one row').toBe(1);
        const [name, url] = [await fields.nth(0).boundingBox(), await fields.nth(1).boundingBox()];
        const form = (await page.locator('form').first().boundingBox())!;
        if (size === 'phone') {
          expect(name!.width).toBeGreaterThan(form.width * 0.9);
          expect(url!.width).toBeGreaterThan(form.width * 0.9);
        } else {
          // Side by side on a wide screen.
          expect(url!.x).toBeGreaterThan(name!.x + name!.width * 0.9);
        }
        await shot(page, `configuration-general-${lang}-${size}`);
      }
    });
  }

  it('names the widget features positively, stores SPEC fields, and saves only changes', async () => {
    const { page, api, id } = await project('en-US');
    await page.goto(`/profile/widget/${id}`);
    const save = page.getByRole('button', { name: 'Save changes', exact: true });
    await save.waitFor();
    expect(await save.isDisabled()).toBe(true);
    const screenshots = page.getByRole('switch', { name: 'Screenshots' });
    const welcome = page.getByRole('switch', { name: 'Welcome screen' });
    // SPEC's defaults: screenshots allowed (widgetDisableScreenshot false), welcome screen off (true).
    expect(await screenshots.isChecked()).toBe(true);
    expect(await welcome.isChecked()).toBe(false);
    await shot(page, 'widget-switches-en-desktop');
    await screenshots.click({ force: true });
    await waitEnabled(save);
    await save.click();
    // A loading button is disabled too: wait for the save to be confirmed, then for Save to rest disabled.
    await page.getByText('Project settings saved', { exact: true }).waitFor();
    await expect.poll(async () => save.isDisabled()).toBe(true);
    const stored = await api.get<{ website: { data: Record<string, unknown> } }>(`/api/client/website/${id}`);
    expect(stored.body).toMatchObject({
      msg: { website: { data: { widgetDisableScreenshot: true, widgetDisableWelcomeScreen: true } } },
    });
    await page.setViewportSize(phone);
    await shot(page, 'widget-switches-en-phone');
  });

  for (const [lang, locale] of Object.entries(languages)) {
    it(`shows the allowance and the upgrade path instead of a form at the Free limit (${lang})`, async () => {
      const { page } = await project(locale);
      for (const [size, viewport] of Object.entries(sizes)) {
        await page.setViewportSize(viewport);
        await page.goto('/profile/create/project');
        const panel = page.getByTestId('project-allowance');
        await panel.waitFor();
        expect(await page.locator('form').count()).toBe(0);
        const plans = panel.getByRole('link', { name: lang === 'en' ? 'See plans' : 'Tarife ansehen' });
        expect(await plans.getAttribute('href')).toBe('/profile/billing');
        await shot(page, `project-allowance-${lang}-${size}`);
      }
    });
  }
});

describe('the first project', () => {
  it('never flashes the allowance notice while the list reloads after creating it (Free: one project)', async () => {
    const { page } = await signedInTab(suite, { locale: 'en-US' });
    await page.goto('/profile/create/project');
    const name = page.getByRole('textbox', { name: 'Project name' });
    await name.waitFor();
    // Whatever renders from here on, however briefly, is recorded: a notice of one frame counts.
    await page.evaluate(() => {
      (window as unknown as { allowanceSeen: boolean }).allowanceSeen = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="project-allowance"]'))
          (window as unknown as { allowanceSeen: boolean }).allowanceSeen = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await name.fill('First shop');
    await page.getByRole('textbox', { name: 'Project domain' }).fill('first-shop.example');
    await page.getByRole('button', { name: 'Create project', exact: true }).click();
    await page.waitForURL(/\/profile\/configuration\/[^/]+\/installation$/);
    await page.getByTestId('project-domain').waitFor();
    expect(await page.evaluate(() => (window as unknown as { allowanceSeen: boolean }).allowanceSeen)).toBe(
      false,
    );
    // The notice itself still shows once the allowance is really used.
    await page.goto('/profile/create/project');
    await page.getByTestId('project-allowance').waitFor();
  });
});

describe('the password form', () => {
  it('carries the account name for password managers', async () => {
    const { page, email } = await signedInTab(suite);
    await page.goto('/profile/edit');
    const username = page.locator('form input[autocomplete="username"]');
    await username.waitFor({ state: 'attached' });
    expect(await username.inputValue()).toBe(email);
    const form = page.locator('form', { has: page.locator('input[autocomplete="new-password"]') });
    expect(await form.locator('input[autocomplete="username"]').count()).toBe(1);
    await shot(page as Page, 'profile-password-en-desktop');
  });
});
