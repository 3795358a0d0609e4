/**
 * The Microsoft Teams and Discord settings screens in the browser (issue 36), against the built dashboard,
 * the local stack and its vendor fakes: the note gives the fake's URL to paste, a URL that is not the
 * vendor's is refused with the screen's words, the URL is saved and then shown masked, and a report arrives
 * as a card (Teams) and an embed (Discord) with the screenshot. English at 1280 px and German at 390 px,
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
const fakes = () => suite.stack.vendorFakes!;
const client = () => newSite(suite.stack.url, 'BASIC_PLAN');

async function tab(c: Site, opts: { locale: string; width: number }): Promise<TestPage> {
  const t = await suite.newTab({ locale: opts.locale, viewport: { width: opts.width, height: 900 } });
  await t.context.addCookies(
    [...c.client.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  return t;
}
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const screens = {
  teams: {
    tab: 'Microsoft Teams',
    field: { en: 'Workflow URL', de: 'Workflow-URL' },
    wrong: 'https://u:p@example.com/x',
    refused: {
      en: 'Paste the https URL the workflow shows.',
      de: 'Fügen Sie die https-URL ein, die der Workflow anzeigt.',
    },
    toast: { en: 'Microsoft Teams integration saved', de: 'Microsoft-Teams-Integration gespeichert' },
    url: () => fakes().teams.webhookUrl,
  },
  discord: {
    tab: 'Discord',
    field: { en: 'Webhook URL', de: 'Webhook-URL' },
    wrong: 'https://discord.com/channels/1/2',
    refused: {
      en: 'Paste a Discord webhook URL (https://discord.com/api/webhooks/…).',
      de: 'Fügen Sie eine Discord-Webhook-URL ein (https://discord.com/api/webhooks/…).',
    },
    toast: { en: 'Discord integration saved', de: 'Discord-Integration gespeichert' },
    url: () => fakes().discord.webhookUrl,
  },
} as const;

async function configure(page: Page, c: Site, name: keyof typeof screens, lang: 'en' | 'de') {
  const s = screens[name];
  await page.goto(`/profile/integrations/${c.id}/${name}`);
  await page.getByRole('tab', { name: s.tab, selected: true }).waitFor();
  // The local stack's note names the fake's URL to paste.
  await expect
    .poll(async () => (await page.getByTestId('integration-fake').textContent()) ?? '')
    .toContain(s.url());
  const field = page.getByLabel(s.field[lang]);
  await page.getByRole('switch').first().check({ force: true });
  await field.fill(s.wrong);
  await page.getByRole('button', { name: lang === 'en' ? 'Save' : 'Speichern' }).click();
  await page.getByText(s.refused[lang]).waitFor();
  await field.fill(s.url());
  await page.getByRole('button', { name: lang === 'en' ? 'Save' : 'Speichern' }).click();
  await page.getByText(s.toast[lang], { exact: true }).waitFor();
  // The URL is the credential: shown masked once saved.
  await expect.poll(() => field.inputValue()).toMatch(/^••••/);
  expect(await field.inputValue()).not.toContain('/webhooks/');
  const stored = await storedIntegration(c, name);
  expect(stored).toMatchObject({ active: 1, data: { url: `••••${s.url().slice(-4)}` } });
  expect(await axeFindings(page)).toEqual([]);
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
}

describe('the Microsoft Teams and Discord settings screens', () => {
  it('configures both against their fakes, and a report reaches both with its screenshot (en, 1280)', async () => {
    const c = await client();
    const { page } = await tab(c, { locale: 'en-US', width: 1280 });
    await configure(page, c, 'teams', 'en');
    await shot(page, 'chat-teams-en-1280');
    await configure(page, c, 'discord', 'en');
    await shot(page, 'chat-discord-en-1280');

    const n = await fileReport(suite.stack.url, c.id, 'https://shop.example', {
      fields: { msg: 'The pay button does nothing @everyone' },
      screenshots: [{ type: 'image/png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) }],
    });
    const card = await eventually(
      async () => fakes().teams.cards.find((k) => JSON.stringify(k).includes(`#${n} The pay button`)),
      45_000,
      'the Teams card',
    );
    expect(JSON.stringify(card)).toMatch(/"type":"Image","url":"[^"]*\/api\/files\//);
    const message = await eventually(
      async () => fakes().discord.messages.find((m) => m.embeds[0]?.url?.endsWith(`/ticket/${n}`)),
      45_000,
      'the Discord message',
    );
    expect(message.embeds[0]?.image?.url).toMatch(/\/api\/files\//);
    expect(message.pinged).toEqual([]);
  });

  it('reads in German on a phone, axe-clean, without sideways scrolling (de, 390)', async () => {
    const c = await client();
    const { page } = await tab(c, { locale: 'de-DE', width: 390 });
    await configure(page, c, 'teams', 'de');
    await shot(page, 'chat-teams-de-390');
    await configure(page, c, 'discord', 'de');
    await shot(page, 'chat-discord-de-390');
  });
});
