/**
 * Insights in the dashboard (issue 37, docs/insights.md), against the built dashboard and the local stack,
 * one sign-in and one page for the file: a new project's empty state; the figures once reports came in
 * (reports, open issues, the page and browser most reported, a resolution), each chart's table reached
 * from the keyboard; the team's screen from the team page; then German at 390 px. Axe-clean throughout.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, signedInTab } from '../support/browser';
import { seedIssues } from '../support/issues';

const suite = setUpBrowserSuite();

type Api = Awaited<ReturnType<typeof signedInTab>>['api'];
let ctx: { api: Api; page: Page; errors: unknown[]; id: string };

const pages = [
  'https://shop.example/orders/1043/pay',
  'https://shop.example/orders/2210/pay',
  'https://shop.example/cart',
];

/** Turns on a card's "Show as table" from the keyboard and answers the table's body rows as text. */
async function tableOf(page: Page, card: string, name: string): Promise<string[]> {
  const toggle = page.getByTestId(card).getByRole('switch', { name });
  await toggle.focus();
  await page.keyboard.press('Space');
  const table = page.getByTestId(`${card}-table`);
  await table.waitFor();
  return (await table.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
}

describe('Insights', () => {
  it('a new project shows its empty state, in English at 1280 px, axe clean', async () => {
    const { api, tab, page } = await signedInTab(suite, { viewport: { width: 1280, height: 900 } });
    const created = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
    const id = (created.body as { msg: { id: string } }).msg.id;
    ctx = { api, page, errors: tab.errors, id };
    await page.goto(`/profile/site/${id}`);
    // Reached from the project's sidebar, like its other screens.
    await page
      .getByRole('navigation', { name: 'Project navigation' })
      .getByRole('link', { name: 'Insights' })
      .click();
    await page.getByRole('heading', { name: 'No reports yet' }).waitFor();
    expect(page.url()).toContain(`/profile/insights/${id}`);
    await shot(page, 'insights-empty-en-1280');
    expect(await axeFindings(page)).toEqual([]);
  });

  it('shows the figures, each chart with its table from the keyboard, and the oldest open issues', async () => {
    const { api, page, id } = ctx;
    let i = 0;
    await seedIssues(
      id,
      3,
      (n) => `Checkout button ${n}`,
      (issue) => ({
        ...issue,
        createdAt: new Date(Date.now() - (3 - i) * 3_600_000).toISOString(),
        data: { ...issue.data, href: pages[i]!, browser: i++ === 2 ? 'Safari' : 'Chrome' },
      }),
    );
    expect((await api.patch(`/api/client/website/${id}/request/1`, { status: 'resolved' })).status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Reports per day' }).waitFor();
    expect(await page.getByTestId('insights-reports').innerText()).toContain('3');
    expect(await page.getByTestId('insights-open').innerText()).toContain('2');
    expect(await page.getByTestId('insights-median').innerText()).toContain('3 hours');
    await page.getByTestId('insights-per-day-chart').locator('svg').first().waitFor();
    expect((await tableOf(page, 'insights-per-day', 'Show as table')).at(-1)).toMatch(/ 3$/);
    expect(await tableOf(page, 'insights-pages', 'Show as table')).toEqual([
      'shop.example/orders/:n/pay 2',
      'shop.example/cart 1',
    ]);
    expect(await tableOf(page, 'insights-browsers', 'Show as table')).toEqual(['Chrome 2', 'Safari 1']);
    expect(await tableOf(page, 'insights-status', 'Show as table')).toEqual([
      'New 2',
      'In progress 0',
      'In review 0',
    ]);
    const oldest = page.getByTestId('insights-oldest').getByRole('link');
    expect(await oldest.allInnerTexts()).toEqual(['#2 Checkout button 2', '#3 Checkout button 3']);
    expect(await oldest.first().getAttribute('href')).toBe(`/profile/site/${id}/ticket/2`);
    await shot(page, 'insights-figures-en-1280');
    expect(await axeFindings(page)).toEqual([]);

    // The period is in the address; the team's screen sums its projects and is linked from the team page.
    await page.getByRole('combobox', { name: 'Period' }).click();
    await page.getByRole('option', { name: 'Last 7 days' }).click();
    await page.waitForURL(/period=7/);
    await page.goto('/profile/team');
    await page.getByTestId('team-insights-link').click();
    await page.getByRole('heading', { name: 'Team insights' }).waitFor();
    expect(await page.getByTestId('insights-reports').innerText()).toContain('3');
    expect(await page.getByTestId('insights-oldest').innerText()).toContain('Shop');
    await shot(page, 'insights-team-en-1280');
    expect(await axeFindings(page)).toEqual([]);
  });

  it('in German at 390 px: the same figures and tables, axe clean', async () => {
    const { page, id, errors } = ctx;
    await page.evaluate(() => localStorage.setItem('snag.lang', 'de'));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/profile/insights/${id}`);
    await page.getByRole('heading', { name: 'Meldungen pro Tag' }).waitFor();
    expect(await page.getByTestId('insights-median').innerText()).toContain('3 Stunden');
    expect(await tableOf(page, 'insights-devices', 'Als Tabelle zeigen')).toEqual(['Desktop 3']);
    await shot(page, 'insights-figures-de-390');
    expect(await axeFindings(page)).toEqual([]);
    await page.goto('/profile/team/insights');
    await page.getByRole('heading', { name: 'Auswertung des Teams' }).waitFor();
    await shot(page, 'insights-team-de-390');
    expect(await axeFindings(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
