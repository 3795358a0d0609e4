/**
 * The Trello settings screen in the browser (issue 36), against the built dashboard, the local stack and
 * its Trello fake: a refused token shows the server's words; the fake's API key, secret and a token
 * authorise and list the boards and lists, the token and secret are shown masked, the lists for new cards
 * and for done are chosen and saved, the webhook is registered from the hook panel, and a report then
 * arrives as a card in that list. In English at 1280 px and German at 390 px, axe-clean, no sideways
 * scrolling.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trelloBoards, trelloFakeApp } from '../../lib/local/vendors/trello';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, type TestPage } from '../support/browser';
import { eventually } from '../support/local-stack';
import { newSite, type Site, storedIntegration } from '../support/sites';
import { fileReport } from '../support/widget';

const suite = setUpBrowserSuite({ vendorFakes: true });
const fake = () => suite.stack.vendorFakes!.trello;
const [website] = trelloBoards;

const client = () => newSite(suite.stack.url, 'BASIC_PLAN');

async function tab(c: Site, opts: { locale: string; width: number }): Promise<TestPage> {
  const t = await suite.newTab({ locale: opts.locale, viewport: { width: opts.width, height: 900 } });
  await t.context.addCookies(
    [...c.client.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  return t;
}

const stored = (c: Site) => storedIntegration(c, 'trello');

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function credentials(
  page: Page,
  labels: { key: string; token: string; secret: string },
  token: string,
) {
  await page.getByLabel(labels.key).fill(trelloFakeApp.key);
  // Required fields: their labels end in an asterisk.
  await page.getByLabel(new RegExp(`^${labels.token}`)).fill(token);
  await page.getByLabel(new RegExp(`^${labels.secret}`)).fill(trelloFakeApp.secret);
}

describe('the Trello settings screen', () => {
  it('refuses a bad token with the server’s words, authorises, saves the lists, registers the hook, delivers (en, 1280)', async () => {
    const c = await client();
    const t = await tab(c, { locale: 'en-US', width: 1280 });
    const { page } = t;
    await page.goto(`/profile/integrations/${c.id}/trello`);
    await page.getByRole('tab', { name: 'Trello', selected: true }).waitFor();
    const labels = { key: 'API key', token: 'Token', secret: 'Secret' };
    // On the local stack the fake's app page says what to type, as Trello's Power-Up admin page would.
    const appPage = await page.getByRole('link', { name: 'the fake Trello’s app page' }).getAttribute('href');
    const shown = await (await fetch(String(appPage))).text();
    expect(shown).toContain(trelloFakeApp.key);
    expect(shown).toContain(trelloFakeApp.secret);

    await credentials(page, labels, 'invalid-token');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText(/The token was refused/).waitFor();
    expect((await stored(c)).authorized).toBe(0);

    await credentials(page, labels, 'fake-trello-token-e2e0123456789');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText('Authorized', { exact: true }).waitFor();
    expect(await page.getByLabel('Board', { exact: true }).first().inputValue()).toBe('Website');
    expect(await page.getByLabel('List for new cards', { exact: true }).first().inputValue()).toBe('To do');
    expect(await page.getByLabel('Token', { exact: true }).inputValue()).toBe('••••6789');
    expect(await page.getByRole('switch', { name: 'Active' }).isChecked()).toBe(false);

    await page.getByLabel('List for new cards', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Doing' }).click();
    await page.getByLabel('List that means done', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Done' }).click();
    await page.getByRole('switch', { name: 'Active' }).check({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Trello integration saved', { exact: true }).waitFor();
    expect(await stored(c)).toMatchObject({
      active: 1,
      authorized: 1,
      data: {
        board: website?.id,
        list: website?.lists[1]?.id,
        doneList: website?.lists[2]?.id,
        token: '••••6789',
        secret: `••••${trelloFakeApp.secret.slice(-4)}`,
      },
    });

    await page.getByRole('button', { name: 'Register the webhook on Trello' }).click();
    await eventually(
      async () =>
        fake().webhooks.find(
          (w) => w.idModel === website?.id && w.callbackURL.includes('/api/hooks/trello/'),
        ),
      15_000,
      'the Trello webhook',
    );
    // Trello signs with the app's secret typed above: nothing of Snag's to show or regenerate.
    await page.getByText(/Trello signs deliveries with your app’s secret/).waitFor();
    expect(await page.getByRole('button', { name: 'Show the secret' }).count()).toBe(0);
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'integrations-trello-en-1280');

    const n = await fileReport(suite.stack.url, c.id, 'https://shop.example', {
      fields: { msg: 'From e2e' },
    });
    const card = await eventually(
      async () => fake().cards.find((x) => x.name === `#${n} From e2e` && x.desc.includes(c.id)),
      30_000,
      'the Trello card',
    );
    expect(card.idList).toBe(website?.lists[1]?.id);
    expect(t.errors).toEqual([]);
  });

  it('reads in German on a phone, axe-clean, without sideways scrolling (de, 390)', async () => {
    const c = await client();
    const t = await tab(c, { locale: 'de-DE', width: 390 });
    const { page } = t;
    await page.goto(`/profile/integrations/${c.id}/trello`);
    await page.getByText(/eine Trello-Karte anlegen/).waitFor();
    await credentials(
      page,
      { key: 'API-Schlüssel', token: 'Token', secret: 'Secret' },
      'fake-trello-token-de0123456789',
    );
    await page.getByRole('button', { name: 'Autorisieren' }).click();
    await page.getByLabel('Liste für neue Karten', { exact: true }).first().waitFor();
    expect(await page.getByLabel('Board', { exact: true }).first().inputValue()).toBe('Website');
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'integrations-trello-de-390');
    expect(t.errors).toEqual([]);
  });
});
