/**
 * The GitHub settings screen in the browser (issue 24), against the built dashboard, the local stack and
 * its GitHub fake: in English at 1280 px a client authorises with a token, picks the repository, sets
 * labels and saves, and a report then arrives in the fake with those labels; in German at 390 px a
 * refused token is explained in German, then a good one authorises and Reset returns to the start. Both
 * are axe-clean, and a plan without integrations shows the not-available message.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PlanName } from '#contracts/plans';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, type TestPage } from '../support/browser';
import { eventually } from '../support/local-stack';
import { newSite, type Site, storedIntegration } from '../support/sites';
import { fileReport } from '../support/widget';

const suite = setUpBrowserSuite({ vendorFakes: true });
const phone = { width: 390, height: 844 };

const client = (plan: PlanName = 'BASIC_PLAN') => newSite(suite.stack.url, plan);

async function tab(c: Site, opts: { locale?: string; phone?: boolean } = {}): Promise<TestPage> {
  const t = await suite.newTab({
    locale: opts.locale ?? 'en-US',
    ...(opts.phone ? { viewport: phone } : {}),
  });
  await t.context.addCookies(
    [...c.client.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  return t;
}

const openGithub = (page: Page, c: Site) => page.goto(`/profile/integrations/${c.id}/github`);

const storedGithub = (c: Site) => storedIntegration(c, 'github');

async function expectAxeClean(page: Page, where: string) {
  expect(await axeFindings(page), where).toEqual([]);
}

describe('GitHub settings screen', () => {
  it('in English at 1280 px: authorise, choose a repository and labels, save; a report arrives with them', async () => {
    const fake = suite.stack.vendorFakes!.github;
    const c = await client();
    // A new project mails its owner; off, so only GitHub is in play.
    await c.client.patch(`/api/client/integration/${c.id}`, [{ name: 'email', active: 0, data: {} }]);
    const { page } = await tab(c);
    await openGithub(page, c);
    // Listed among the integrations' tabs.
    await page.getByRole('tab', { name: 'GitHub', selected: true }).waitFor();
    await page.getByLabel('Fine-grained personal access token').fill('github_pat_e2e_0123456789');
    await expectAxeClean(page, 'github unauthorised en 1280');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText('Authorized', { exact: true }).waitFor();
    expect(fake.calls('/user/repos').at(-1)?.headers.authorization).toBe('Bearer github_pat_e2e_0123456789');
    expect(await page.getByLabel('Repository', { exact: true }).first().inputValue()).toBe(
      'octo-org/website',
    );
    const token = await page.getByLabel('Fine-grained personal access token').inputValue();
    expect(token).toBe('••••6789');
    await page.getByLabel('Repository', { exact: true }).first().click();
    await page.getByRole('option', { name: 'octo-org/shop' }).click();
    const labels = page.getByLabel('Labels', { exact: true }).first();
    await labels.fill('feedback');
    await labels.press('Enter');
    await labels.fill('from snag');
    await labels.press('Enter');
    // Active as stored (Authorize stores the authorisation only): off until switched on.
    expect(await page.getByRole('switch', { name: 'Active' }).isChecked()).toBe(false);
    await page.getByRole('switch', { name: 'Active' }).check({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('GitHub integration saved', { exact: true }).waitFor();
    await expectAxeClean(page, 'github authorised en 1280');
    await shot(page, 'github-en-1280');
    expect(await storedGithub(c)).toMatchObject({
      active: 1,
      data: { id: 'octo-org/shop', labels: ['feedback', 'from snag'] },
    });

    const n = await fileReport(suite.stack.url, c.id, 'https://shop.example', {
      fields: { msg: 'The cart is empty @octo-org/owners' },
    });
    const issue = await eventually(
      async () => fake.issues.find((i) => i.title.replace(/\u2060/g, '').startsWith(`#${n} `)),
      30_000,
      'the issue in the GitHub fake',
    );
    expect(issue).toMatchObject({ repo: 'octo-org/shop', labels: ['feedback', 'from snag'] });
    expect(issue.actions.mentions).toEqual([]);

    // The issue page's GitHub row links the issue it created (not Snag's settings), in a new tab.
    await page.goto(`/profile/site/${c.id}/ticket/${n}`);
    const created = `${fake.url}/octo-org/shop/issues/${issue.number}`;
    const link = page.getByRole('link', { name: 'Open in GitHub' });
    await eventually(
      async () => {
        // The status comes with the page; one still in progress shows on the next visit.
        await page.getByTestId('integration-status').waitFor();
        if (await link.count()) return true;
        await page.reload();
        return undefined;
      },
      30_000,
      'the GitHub row linking its issue',
    );
    expect(await link.getAttribute('href')).toBe(created);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toContain('noopener');
    await expectAxeClean(page, 'issue with a delivered GitHub row');
  });

  it('in German at 390 px: a refused token is explained, a good one authorises, Reset starts over', async () => {
    const c = await client();
    const { page } = await tab(c, { locale: 'de-DE', phone: true });
    await openGithub(page, c);
    const tokenField = page.getByLabel('Feingranulares persönliches Zugriffstoken');
    await tokenField.fill('github_pat_invalid');
    await page.getByRole('button', { name: 'Autorisieren' }).click();
    await page.getByText(/Das Token wurde abgelehnt/).waitFor();
    await expectAxeClean(page, 'github refused de 390');
    await tokenField.fill('github_pat_de_0123456789');
    await page.getByRole('button', { name: 'Autorisieren' }).click();
    await page.getByText('Autorisiert', { exact: true }).waitFor();
    await page.getByLabel('Labels', { exact: true }).first().waitFor();
    await expectAxeClean(page, 'github authorised de 390');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'github-de-390');
    await page.getByRole('switch', { name: 'Aktiv' }).check({ force: true });
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByText('GitHub-Integration gespeichert', { exact: true }).waitFor();
    expect((await storedGithub(c)).active).toBe(1);
    await page.getByRole('button', { name: 'Autorisierung zurücksetzen' }).click();
    await page.getByRole('button', { name: 'Autorisieren' }).waitFor();
    expect(await page.getByLabel('Feingranulares persönliches Zugriffstoken').inputValue()).toBe('');
    expect(await storedGithub(c)).toMatchObject({ active: 0, data: { id: '' } });
  });

  it('shows the not-available message on Free', async () => {
    const c = await client('FREE_PLAN');
    const { page } = await tab(c);
    await openGithub(page, c);
    await page.getByTestId('integration-unavailable').waitFor();
    expect(await page.getByLabel('Fine-grained personal access token').count()).toBe(0);
  });
});
