/**
 * The ClickUp settings screen in the browser (issue 36), against the built dashboard, the local stack and
 * its ClickUp fake: a refused token shows the server's words; a good one authorises and lists every list by
 * its path, the token is shown masked, the list is chosen and saved, the webhook is registered from the
 * hook panel, and a report then arrives as a task in that list. In English at 1280 px and German at 390 px,
 * axe-clean, no sideways scrolling.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, type TestPage } from '../support/browser';
import { eventually } from '../support/local-stack';
import { newSite, type Site, storedIntegration } from '../support/sites';
import { fileReport } from '../support/widget';

const suite = setUpBrowserSuite({ vendorFakes: true });
const fake = () => suite.stack.vendorFakes!.clickup;
const client = () => newSite(suite.stack.url, 'BASIC_PLAN');

async function tab(c: Site, opts: { locale: string; width: number }): Promise<TestPage> {
  const t = await suite.newTab({ locale: opts.locale, viewport: { width: opts.width, height: 900 } });
  await t.context.addCookies(
    [...c.client.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  return t;
}

const stored = (c: Site) => storedIntegration(c, 'clickup');
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('the ClickUp settings screen', () => {
  it('refuses a bad token, authorises a good one, saves the list, registers the webhook, delivers (en, 1280)', async () => {
    const c = await client();
    const t = await tab(c, { locale: 'en-US', width: 1280 });
    const { page } = t;
    await page.goto(`/profile/integrations/${c.id}/clickup`);
    await page.getByRole('tab', { name: 'ClickUp', selected: true }).waitFor();

    await page.getByLabel('Personal API token').fill('pk_invalid');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText(/The token was refused/).waitFor();
    expect((await stored(c)).authorized).toBe(0);

    await page.getByLabel('Personal API token').fill('pk_77_E2ETOKEN0123456789');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText('Authorized', { exact: true }).waitFor();
    const list = page.getByLabel('List', { exact: true }).first();
    expect(await list.inputValue()).toBe('Snag Agency / Clients / Website / Bugs');
    expect(await page.getByLabel('Personal API token').inputValue()).toBe('••••6789');
    expect(await page.getByRole('switch', { name: 'Active' }).isChecked()).toBe(false);

    await list.click();
    await page.getByRole('option', { name: 'Snag Agency / Clients / Inbox' }).click();
    await page.getByRole('switch', { name: 'Active' }).check({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('ClickUp integration saved', { exact: true }).waitFor();
    expect(await stored(c)).toMatchObject({
      active: 1,
      authorized: 1,
      data: { id: '9001/125', name: 'Snag Agency / Clients / Inbox', key: '••••6789' },
    });

    // The webhook, registered through ClickUp's API from the hook panel (ClickUp has no screen for it).
    await page.getByRole('button', { name: 'Register the webhook on ClickUp' }).click();
    await page.getByText(/Registered on ClickUp/).waitFor();
    // ClickUp chose the secret: explained, never shown or regenerated; a new webhook is the way to a new one.
    await page.getByText(/ClickUp chooses the secret it signs deliveries with/).waitFor();
    expect(await page.getByRole('button', { name: 'Show the secret' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Register again' }).waitFor();
    expect(fake().hooks.at(-1)).toMatchObject({
      listId: 125,
      events: ['taskStatusUpdated', 'taskCommentPosted'],
    });

    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'integrations-clickup-en-1280');

    const n = await fileReport(suite.stack.url, c.id, 'https://shop.example', {
      fields: { msg: 'From e2e' },
    });
    const task = await eventually(
      async () => fake().tasks.find((x) => x.name === `#${n} From e2e` && x.listId === '125'),
      30_000,
      'the ClickUp task',
    );
    expect(task.markdown).toContain('From e2e');
    expect(t.errors).toEqual([]);
  });

  it('reads in German on a phone, axe-clean, without sideways scrolling (de, 390)', async () => {
    const c = await client();
    const t = await tab(c, { locale: 'de-DE', width: 390 });
    const { page } = t;
    await page.goto(`/profile/integrations/${c.id}/clickup`);
    await page.getByText(/eine ClickUp-Aufgabe anlegen/).waitFor();
    await page.getByLabel('Persönliches API-Token').fill('pk_de_0123456789');
    await page.getByRole('button', { name: 'Autorisieren' }).click();
    await page.getByLabel('Liste', { exact: true }).first().waitFor();
    expect(await page.getByLabel('Liste', { exact: true }).first().inputValue()).toBe(
      'Snag Agency / Clients / Website / Bugs',
    );
    await page
      .getByText(/Webhook bei ClickUp registrieren/)
      .first()
      .waitFor();
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'integrations-clickup-de-390');
    expect(t.errors).toEqual([]);
  });
});
