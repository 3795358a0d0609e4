/**
 * Gathering duplicates from the first report (issue 37's walk): thirty visitors report one broken checkout,
 * the member opens the first report, and "Possibly the same as" lets them merge each suggestion INTO this
 * issue ("Merge #2 here"), with Undo, without visiting every other report. Three reports filed through the
 * widget's intake call (as the widget sends them: the page, the failed request and the console error), real
 * suggestions from the similar consumer, the built dashboard, axe-core; a 1280 px screenshot with
 * SNAG_E2E_SHOTS. Merging from the duplicate's own page is in test/e2e/merge.test.ts.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SimilarAnswer } from '#contracts/similar';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot } from '../support/browser';
import { eventually } from '../support/local-stack';
import { inDays, setTeamPlan } from '../support/teams';
import { signedIn } from '../support/users';
import { userIdOf } from '../support/webteam';
import { widgetCall } from '../support/widget';

const suite = setUpBrowserSuite();
const expectAxe = async (page: Page) => expect(await axeFindings(page)).toEqual([]);
const SITE = 'https://shop.example';
// Times on the visitor's clock (epoch ms), as the widget sends them.
const logs = [
  { t: Date.now() - 2000, level: 'error', kind: 'network', msg: 'POST /api/pay 500' },
  {
    t: Date.now() - 1990,
    level: 'error',
    kind: 'console',
    msg: "Payment failed: Cannot read properties of undefined (reading 'id')",
  },
];

describe('gathering suggestions into the first report', () => {
  it('merges two suggestions into the issue on screen, with Undo, and counts its reports', async () => {
    const { client, email } = await signedIn(suite.stack.url);
    await setTeamPlan(await userIdOf(email), 'BASIC_PLAN', inDays(30));
    const created = await client.post<{ id: string }>('/api/client/website', {
      name: 'Shop',
      url: 'shop.example',
    });
    if (created.body.status !== 'success') throw new Error(JSON.stringify(created.body));
    const pid = created.body.msg.id;
    const words = [
      'The Pay now button does nothing, my order never goes through',
      'Checkout broken: I click pay and it says something went wrong',
      'Cannot pay for my order, error after pressing Pay now',
    ];
    for (const [i, msg] of words.entries()) {
      const res = await widgetCall(
        suite.stack.url,
        pid,
        'request',
        { msg, browser: ['Chrome', 'Firefox', 'Safari'][i], os: 'Windows', href: `${SITE}/checkout`, logs },
        { origin: SITE, visitor: `198.19.${40 + i}.9:41000` },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // The consumer's suggestions for #1 name both others (computed after the intake, never on its path).
    await eventually(
      async () => {
        const res = await client.get<SimilarAnswer>(`/api/client/website/${pid}/request/1/similar`);
        const answer = res.body.status === 'success' ? res.body.msg : undefined;
        return answer?.similar.length === 2 ? true : undefined;
      },
      30_000,
      'the suggestions of #1',
    );

    const tab = await suite.newTab({ viewport: { width: 1280, height: 900 } });
    await tab.context.addCookies(
      [...client.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
    );
    const { page } = tab;
    await page.goto(`/profile/site/${pid}/ticket/1`);
    const gather2 = page.getByRole('button', {
      name: 'Merge #2 here: #2 becomes a duplicate of #1',
    });
    await gather2.waitFor();
    // Both directions on each row, their names starting with what they show (axe: label-content-name-mismatch).
    await expectAxe(page);
    await shot(page, 'merge-gather-suggestions-en-1280');
    await gather2.click();
    const undo = page.getByRole('button', { name: 'Undo: #2 merged into #1.' });
    await expect.poll(() => undo.evaluate((el) => el === document.activeElement)).toBe(true);
    const reports = page.getByRole('region', { name: '2 reports' });
    await reports.getByTestId('duplicate-row').getByText('#2 Checkout broken', { exact: false }).waitFor();
    // Undo takes #2 out again, from the primary's page.
    await page.keyboard.press('Enter');
    await page.getByText('#2 stands alone again.').waitFor();
    await expect.poll(() => reports.count()).toBe(0);
    // Both gathered: the suggestions are left with none, the primary counts three.
    await gather2.click();
    await page.getByRole('region', { name: '2 reports' }).waitFor();
    await page.getByRole('button', { name: 'Merge #3 here: #3 becomes a duplicate of #1' }).click();
    await page.getByRole('region', { name: '3 reports' }).waitFor();
    await page.getByText('No similar open issues found.').waitFor();
    await page.mouse.move(0, 0);
    await expectAxe(page);
    await shot(page, 'merge-gather-en-1280');
    const dup = await client.get<{ duplicateOf?: number }>(`/api/client/website/${pid}/request/3`);
    expect(dup.body.status === 'success' && dup.body.msg.duplicateOf).toBe(1);
    expect(tab.errors).toEqual([]);
  });
});
