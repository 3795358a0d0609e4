/**
 * Merging on the dashboard (issue 37), against the built dashboard and the local stack: the owner marks a
 * report as a duplicate by number, with the keyboard, undoes it from the focused Undo, merges it again from
 * "Possibly the same as", sees the primary's "2 reports" with the duplicate's reporter and the browsers and
 * pages affected, collapses the list and sorts it by reports; then, in German at 390 px, unmerges it from
 * the duplicate's banner. axe-core checks each screen; 1280 and 390 px screenshots with SNAG_E2E_SHOTS.
 *
 * The issues are seeded straight into the table (no filing, so the similar-reports consumer never sees
 * them): this file answers GET …/similar in the browser with a contract-shaped answer (`similarAnswer`), so
 * the panel is drawn and checked; everything else is the real stack. Real suggestions, computed by the
 * consumer from filed reports, are tested through the local stack in test/integration/similar.test.ts.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SimilarAnswer } from '#contracts/similar';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, type TestPage } from '../support/browser';
import { seedIssues } from '../support/issues';
import { inDays, setTeamPlan } from '../support/teams';
import { signedIn } from '../support/users';
import { userIdOf } from '../support/webteam';

const suite = setUpBrowserSuite();
const phone = { width: 390, height: 844 };
const expectAxe = async (page: Page) => expect(await axeFindings(page)).toEqual([]);

/** What GET …/similar answers for issue 3 (contracts/similar.ts): issue 2, same page and error. */
const similarAnswer: SimilarAnswer = {
  ready: true,
  similar: [
    {
      number: 2,
      title: 'Checkout step 2 fails',
      status: 'new',
      score: 0.92,
      reasons: ['same_page_and_error', 'similar_description'],
      createdAt: '2026-01-01T00:00:02.000Z',
      reports: 1,
    },
  ],
};

/** Issue 3 is told of issue 2; any other issue of nothing. */
async function suggestions(tab: TestPage) {
  // By path: the German dashboard's calls carry `?lng=de`.
  await tab.page.route(
    (url) => url.pathname.endsWith('/similar'),
    (route) => {
      const msg = route.request().url().includes('/request/3/')
        ? similarAnswer
        : { ready: true, similar: [] };
      return route.fulfill({ contentType: 'application/json', json: { status: 'success', msg } });
    },
  );
}

describe('merging on the issue page and the list', () => {
  let projectId = '';
  let cookies: { name: string; value: string; url: string }[] = [];

  async function tab(opts: { locale?: string; viewport?: { width: number; height: number } } = {}) {
    const t = await suite.newTab(opts);
    await t.context.addCookies(cookies);
    await suggestions(t);
    return t;
  }

  it("merges by number with Undo, from the suggestions, and shows the primary's reports and the collapsed list", async () => {
    const { client, email } = await signedIn(suite.stack.url);
    cookies = [...client.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url }));
    await setTeamPlan(await userIdOf(email), 'BASIC_PLAN', inDays(30));
    const created = await client.post<{ id: string }>('/api/client/website', {
      name: 'Shop',
      url: 'shop.example',
    });
    if (created.body.status !== 'success') throw new Error(JSON.stringify(created.body));
    projectId = created.body.msg.id;
    await seedIssues(
      projectId,
      3,
      (n) => `Checkout step ${n} fails`,
      (issue) =>
        issue.number === 3
          ? { ...issue, data: { ...issue.data, browser: 'Safari', href: 'https://shop.example/cart?x=1' } }
          : issue,
    );
    const o = await tab({ viewport: { width: 1280, height: 900 } });
    const { page } = o;
    await page.goto(`/profile/site/${projectId}/ticket/3`);
    // By number, with the keyboard: the field, Enter.
    const number = page.getByRole('textbox', { name: 'Issue number' });
    await number.fill('2');
    await number.press('Enter');
    await page.getByTestId('duplicate-banner').getByText('Duplicate of #2').waitFor();
    const undo = page.getByRole('button', { name: 'Undo: #3 merged into #2.' });
    await expect.poll(() => undo.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectAxe(page);
    await shot(page, 'merge-duplicate-en-1280');
    await page.keyboard.press('Enter');
    await page.getByText('#3 stands alone again.').waitFor();
    await expect.poll(() => page.getByTestId('duplicate-banner').count()).toBe(0);
    // The notice offers the way back again, still under the keyboard's focus.
    const redo = page.getByRole('button', { name: 'Undo: #3 stands alone again.' });
    await expect.poll(() => redo.evaluate((el) => el === document.activeElement)).toBe(true);
    // From "Possibly the same as": its score and reasons in words, then "Merge into #2".
    const row = page.getByTestId('similar-row');
    await row.getByText('92% alike').waitFor();
    await row.getByText('same page and same error · similar description').waitFor();
    await expectAxe(page);
    await shot(page, 'merge-suggestions-en-1280');
    await row.getByRole('button', { name: 'Merge into #2: this issue becomes its duplicate' }).click();
    await page.getByTestId('duplicate-banner').waitFor();

    await page.goto(`/profile/site/${projectId}/ticket/2`);
    const reports = page.getByRole('region', { name: '2 reports' });
    await reports.waitFor();
    await reports.getByTestId('duplicate-row').getByText('#3 Checkout step 3 fails').waitFor();
    await reports.getByText('visitor@example.org', { exact: false }).waitFor();
    await reports.getByText('Firefox, Safari').waitFor();
    await reports.getByText('https://shop.example/, https://shop.example/cart').waitFor();
    await expectAxe(page);
    await shot(page, 'merge-primary-en-1280');

    await page.goto(`/profile/site/${projectId}`);
    const rows = page.getByTestId('issue-row');
    await rows.first().waitFor();
    await expect.poll(() => rows.count()).toBe(3);
    // The switch follows the address: clicked, the view's link gains collapse=1.
    await page
      .getByRole('switch', { name: 'Group duplicates under the issue they were merged into' })
      .click();
    await page.waitForURL(/collapse=1/);
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    await page.getByTestId('filter-sort').click();
    // The list keeps the previous answer on screen (dimmed once the load starts) until the sorted one arrives.
    const sorted = page.waitForResponse((r) => r.url().includes('sort=reports'));
    await page.getByRole('option', { name: 'Most reports' }).click();
    await sorted;
    await expect
      .poll(() => rows.first().getByTestId('merge-chip').textContent(), { timeout: 15_000 })
      .toBe('2 reports');
    expect(page.url()).toContain('collapse=1');
    // The pointer off the rows (a hovered row's tint is not the resting state axe should judge).
    await page.mouse.move(0, 0);
    await shot(page, 'merge-list-en-1280');
    await expectAxe(page);
    expect(o.errors).toEqual([]);
  });

  it('unmerges from the banner in German at 390 px', async () => {
    const d = await tab({ locale: 'de-DE', viewport: phone });
    const { page } = d;
    await page.goto(`/profile/site/${projectId}/ticket/3`);
    const banner = page.getByTestId('duplicate-banner');
    await banner.getByText('Duplikat von #2').waitFor();
    await expectAxe(page);
    await shot(page, 'merge-duplicate-de-390');
    await banner.getByRole('button', { name: 'Trennen von #2' }).click();
    await page.getByText('#3 steht wieder für sich.').waitFor();
    await expect.poll(() => banner.count()).toBe(0);
    await shot(page, 'merge-after-unmerge-de-390');
    await page.getByRole('heading', { name: 'Möglicherweise dasselbe wie' }).waitFor();
    await expectAxe(page);
    await shot(page, 'merge-alone-de-390');
    expect(d.errors).toEqual([]);
  });
});
