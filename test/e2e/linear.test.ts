/**
 * The Linear settings screen in the browser (issue 24), against the built dashboard, the local stack and
 * its Linear fake: a refused key shows the server's words; a good key authorises and lists the teams,
 * the key is shown masked, the team is chosen and saved, and a report then arrives in that team in Linear.
 * In English at 1280 px and German at 390 px, axe-clean, no sideways scrolling.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, type TestPage } from '../support/browser';
import { eventually } from '../support/local-stack';
import { newSite, type Site, storedIntegration } from '../support/sites';
import { fileReport } from '../support/widget';

const suite = setUpBrowserSuite({ vendorFakes: true });
const fake = () => suite.stack.vendorFakes!.linear;

const client = () => newSite(suite.stack.url, 'BASIC_PLAN');

async function tab(c: Site, opts: { locale: string; width: number }): Promise<TestPage> {
  const t = await suite.newTab({ locale: opts.locale, viewport: { width: opts.width, height: 900 } });
  await t.context.addCookies(
    [...c.client.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  return t;
}

const stored = (c: Site) => storedIntegration(c, 'linear');

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('the Linear settings screen', () => {
  it('refuses a bad key with the server’s words, authorises a good one, saves the team, delivers (en, 1280)', async () => {
    const c = await client();
    const t = await tab(c, { locale: 'en-US', width: 1280 });
    const { page } = t;
    await page.goto(`/profile/integrations/${c.id}/linear`);
    await page.getByRole('tab', { name: 'Linear', selected: true }).waitFor();
    // No host: Linear's address is Snag's setting, not the client's.
    expect(await page.getByLabel('GitLab host').count()).toBe(0);

    await page.getByLabel('Personal API key').fill('lin_api_invalid');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText(/The token was refused/).waitFor();
    expect((await stored(c)).authorized).toBe(0);

    await page.getByLabel('Personal API key').fill('lin_api_e2e_0123456789');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText('Authorized', { exact: true }).waitFor();
    const team = page.getByLabel('Team', { exact: true }).first();
    expect(await team.inputValue()).toBe('Engineering (ENG)');
    const key = await page.getByLabel('Personal API key').inputValue();
    expect(key).toBe('••••6789');
    // Active as stored (Authorize stores the authorisation only): off until switched on and saved.
    expect(await page.getByRole('switch', { name: 'Active' }).isChecked()).toBe(false);
    expect((await stored(c)).active).toBe(0);

    await team.click();
    await page.getByRole('option', { name: 'Operations (OPS)' }).click();
    await page.getByRole('switch', { name: 'Active' }).check({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Linear integration saved', { exact: true }).waitFor();
    expect(await stored(c)).toMatchObject({
      active: 1,
      authorized: 1,
      data: { id: fake().teams[1]?.id, name: 'Operations (OPS)', key: '••••6789' },
    });
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'integrations-linear-en-1280');

    // A report now reaches that team.
    const n = await fileReport(suite.stack.url, c.id, 'https://shop.example', {
      fields: { msg: 'From e2e' },
    });
    const issue = await eventually(
      async () => fake().issues.find((i) => i.title === `#${n} From e2e`),
      30_000,
      'the Linear issue',
    );
    expect(issue.teamId).toBe(fake().teams[1]?.id);
    expect(t.errors).toEqual([]);
  });

  it('reads in German on a phone, axe-clean, without sideways scrolling (de, 390)', async () => {
    const c = await client();
    const t = await tab(c, { locale: 'de-DE', width: 390 });
    const { page } = t;
    await page.goto(`/profile/integrations/${c.id}/linear`);
    await page.getByRole('heading', { name: 'Synchronisieren' }).waitFor();
    await page.getByText(/ein Linear-Issue anlegen/).waitFor();
    await page.getByLabel('Persönlicher API-Schlüssel').fill('lin_api_de_0123456789');
    await page.getByRole('button', { name: 'Autorisieren' }).click();
    await page.getByLabel('Team', { exact: true }).first().waitFor();
    expect(await page.getByLabel('Team', { exact: true }).first().inputValue()).toBe('Engineering (ENG)');
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'integrations-linear-de-390');
    expect(t.errors).toEqual([]);
  });
});
