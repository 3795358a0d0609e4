/**
 * The board (issue 23) against the built dashboard and the local stack: one column per status with its
 * count, a page of cards each and "Show more"; a card dragged from New to In progress (moved on screen,
 * counts changed, the issue's status in_progress through the API); a card moved by Alt+Arrow and by its
 * "Move to…" menu, announced in the live region, focus following it; a refused move put back with a notice;
 * the list's filters in the address; a card opening the issue and "back" returning to the board; German
 * at phone width; axe with no serious or critical finding.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, type TestPage, waitForPath } from '../support/browser';
import { seedIssues } from '../support/issues';
import { signedIn } from '../support/users';

const suite = setUpBrowserSuite();

interface Site {
  api: ApiClient;
  id: string;
  userId: string;
  labelId: string;
  cookies: { name: string; value: string; url: string }[];
}

const msg = <T>(reply: { body: unknown }) => (reply.body as { msg: T }).msg;

/**
 * 15 issues: #15 in progress, #14 in review, #13 resolved, #12 closed, the other 11 new (so New has a
 * second page); #5 high priority with the label "Checkout" and assigned to the owner.
 */
async function seedBoard(): Promise<Site> {
  const { client: api } = await signedIn(suite.stack.url);
  const id = msg<{ id: string }>(
    await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' }),
  ).id;
  await api.patch(`/api/client/integration/${id}`, [{ name: 'email', active: 0, data: {} }]);
  await seedIssues(id, 15, (n) => (n === 5 ? 'Checkout button does nothing' : `Issue ${n}`));
  const patch = async (n: number, body: unknown) =>
    expect((await api.patch(`/api/client/website/${id}/request/${n}`, body)).status).toBe(200);
  await patch(15, { status: 'in_progress' });
  await patch(14, { status: 'in_review' });
  await patch(13, { status: 'resolved' });
  await patch(12, { status: 'closed' });
  const teamId = msg<{ teams: { id: string }[] }>(await api.get('/api/client/teams')).teams[0]!.id;
  const userId = msg<{ members: { userId: string }[] }>(await api.get(`/api/client/team/${teamId}`))
    .members[0]!.userId;
  const label = msg<{ label: { id: string } }>(
    await api.post(`/api/client/website/${id}/labels`, { name: 'Checkout', color: '#f2c94c' }),
  ).label;
  await patch(5, { priority: 'high', labels: [label.id], assignee: userId });
  const cookies = [...api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url }));
  return { api, id, userId, labelId: label.id, cookies };
}

async function tab(s: Site, opts: { locale?: string; phone?: boolean } = {}): Promise<TestPage> {
  const t = await suite.newTab({
    locale: opts.locale ?? 'en-US',
    ...(opts.phone ? { viewport: { width: 390, height: 844 } } : { viewport: { width: 1280, height: 900 } }),
  });
  await t.context.addCookies(s.cookies);
  return t;
}

const column = (page: Page, status: string) => page.getByTestId(`board-column-${status}`);
const card = (scope: Page | Locator, n: number) =>
  scope.locator(`[data-testid="board-card"][data-number="${n}"]`);

/**
 * Drags card `n` onto the top of a column. Its top, not its middle: columns are as tall as the longest, and
 * a target below the fold would scroll the page between press and move, so the drag would start elsewhere.
 */
async function drag(page: Page, n: number, to: string) {
  await card(page, n).dragTo(column(page, to), { targetPosition: { x: 40, y: 16 } });
}

async function cardNumbers(page: Page, status: string): Promise<number[]> {
  const cards = column(page, status).getByTestId('board-card');
  return await cards.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-number'))));
}

/** Each column's count as the board shows it, New to Closed. */
async function counts(page: Page): Promise<number[]> {
  const statuses = ['new', 'in_progress', 'in_review', 'resolved', 'closed'];
  return Promise.all(
    statuses.map(async (s) => Number(await column(page, s).getByTestId('column-count').textContent())),
  );
}

async function statusOf(s: Site, n: number): Promise<string> {
  return msg<{ status: string }>(await s.api.get(`/api/client/website/${s.id}/request/${n}`)).status;
}

describe('the board in English', () => {
  let s: Site;
  let t: TestPage;
  beforeAll(async () => {
    s = await seedBoard();
    t = await tab(s);
  });

  it('shows one column per status with its count, a page of cards each, and "Show more"', async () => {
    const { page } = t;
    await page.goto(`/profile/site/${s.id}/board`);
    await page.getByRole('heading', { level: 1, name: 'Board' }).waitFor();
    await expect.poll(() => counts(page), { timeout: 15_000 }).toEqual([11, 1, 1, 1, 1]);
    for (const name of ['New, 11 issues', 'In progress, 1 issue', 'In review', 'Resolved', 'Closed'])
      await page.getByRole('region', { name: new RegExp(`^${name}`) }).waitFor();
    expect(await cardNumbers(page, 'new')).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    expect(await cardNumbers(page, 'closed')).toEqual([12]);
    const five = card(page, 5);
    await five.getByText('High').waitFor();
    await five.getByText('Checkout', { exact: true }).waitFor();
    await five.getByRole('img', { name: 'Assigned to Ada Lovelace' }).waitFor();
    await shot(page, 'board-en');

    await page.getByRole('button', { name: 'Show more in New, 1 more' }).click();
    await expect.poll(() => cardNumbers(page, 'new')).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(
      await column(page, 'new')
        .getByRole('button', { name: /Show more/ })
        .count(),
    ).toBe(0);
    expect(await axeFindings(page)).toEqual([]);
  });

  it('moves a card from New to In progress by drag and drop', async () => {
    const { page } = t;
    await drag(page, 11, 'in_progress');
    await expect.poll(() => cardNumbers(page, 'in_progress')).toEqual([15, 11]);
    expect(await counts(page)).toEqual([10, 2, 1, 1, 1]);
    expect(await cardNumbers(page, 'new')).not.toContain(11);
    await page.getByTestId('board-announcer').getByText('Issue #11 moved to In progress.').waitFor();
    await expect.poll(() => statusOf(s, 11)).toBe('in_progress');
    // And it stays so after a reload (the server's columns).
    await page.reload();
    await expect.poll(() => counts(page), { timeout: 15_000 }).toEqual([10, 2, 1, 1, 1]);
    await shot(page, 'board-dragged-en');
  });

  it('moves a card by keyboard (Alt+Arrow and the "Move to…" menu), announced, focus following it', async () => {
    const { page } = t;
    const link = card(page, 10).getByRole('link');
    await link.focus();
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => cardNumbers(page, 'in_progress')).toEqual([15, 11, 10]);
    await page.getByTestId('board-announcer').getByText('Issue #10 moved to In progress.').waitFor();
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest('[data-number]')?.getAttribute('data-number')),
      )
      .toBe('10');
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => cardNumbers(page, 'in_review')).toEqual([14, 10]);
    await expect.poll(() => statusOf(s, 10)).toBe('in_review');
    // Past the last column nothing happens; Alt+Left goes back.
    await page.keyboard.press('Alt+ArrowLeft');
    await expect.poll(() => cardNumbers(page, 'in_progress')).toEqual([15, 11, 10]);

    await card(page, 9).getByRole('button', { name: 'Move issue #9' }).click();
    await page.getByRole('menuitem', { name: 'Resolved' }).click();
    await expect.poll(() => cardNumbers(page, 'resolved')).toEqual([13, 9]);
    await page.getByTestId('board-announcer').getByText('Issue #9 moved to Resolved.').waitFor();
    await expect.poll(() => statusOf(s, 9)).toBe('resolved');
    expect(await counts(page)).toEqual([8, 3, 1, 2, 1]);
    await shot(page, 'board-keyboard-en');
  });

  it('puts a refused move back with a notice', async () => {
    const { page } = t;
    await page.route('**/api/client/website/*/request/8*', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: '{"status":"error","code":"SYSTEM_ERROR","msg":"x"}',
          })
        : route.continue(),
    );
    await drag(page, 8, 'closed');
    await page
      .getByRole('alert')
      .getByText(/Issue #8 could not be moved to Closed/)
      .waitFor();
    await expect.poll(() => cardNumbers(page, 'new')).toContain(8);
    expect(await cardNumbers(page, 'closed')).toEqual([12]);
    expect(await counts(page)).toEqual([8, 3, 1, 2, 1]);
    await page.unroute('**/api/client/website/*/request/8*');
    expect(await statusOf(s, 8)).toBe('new');
  });

  it('applies the list filters from the address, and keeps them when switching to the list', async () => {
    const { page } = t;
    await page.getByRole('group', { name: 'Filters' }).getByLabel('Priority', { exact: true }).click();
    await page.getByRole('option', { name: 'High', exact: true }).click();
    await waitForPath(page, `/profile/site/${s.id}/board`, '?priority=high');
    await expect.poll(() => counts(page)).toEqual([1, 0, 0, 0, 0]);
    expect(await cardNumbers(page, 'new')).toEqual([5]);
    // A shared link shows the same board; label and assignee filter too.
    await page.goto(`/profile/site/${s.id}/board?label=${s.labelId}&assignee=${s.userId}`);
    await expect.poll(() => counts(page), { timeout: 15_000 }).toEqual([1, 0, 0, 0, 0]);
    await shot(page, 'board-filtered-en');
    await page.getByRole('link', { name: 'List', exact: true }).click();
    await waitForPath(page, `/profile/site/${s.id}`, `?assignee=${s.userId}&label=${s.labelId}`);
    await page.getByRole('link', { name: 'Board', exact: true }).click();
    await waitForPath(page, `/profile/site/${s.id}/board`, `?assignee=${s.userId}&label=${s.labelId}`);
  });

  it('opens an issue from its card, and "back" returns to the board', async () => {
    const { page } = t;
    await card(page, 5)
      .getByRole('link', { name: /Checkout button does nothing/ })
      .click();
    await waitForPath(page, `/profile/site/${s.id}/ticket/5`);
    await page.getByRole('link', { name: 'Board', exact: true }).click();
    await waitForPath(page, `/profile/site/${s.id}/board`, `?assignee=${s.userId}&label=${s.labelId}`);
    expect(t.errors.filter((e) => !/status of 500/.test(e))).toEqual([]);
  });
});

describe('the board in German on a phone', () => {
  it('shows the columns side by side to scroll, moves a card by its menu, every text in German', async () => {
    const s = await seedBoard();
    const t = await tab(s, { locale: 'de-DE', phone: true });
    const { page } = t;
    await page.goto(`/profile/site/${s.id}/board`);
    await page.getByRole('heading', { level: 1, name: 'Board' }).waitFor();
    await expect.poll(() => counts(page), { timeout: 15_000 }).toEqual([11, 1, 1, 1, 1]);
    await page.getByRole('region', { name: /^Neu, 11 Meldungen/ }).waitFor();
    await page.getByRole('region', { name: /^In Arbeit, 1 Meldung/ }).waitFor();
    // The page itself is no wider than the phone: the columns scroll inside their own strip.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'board-de-phone');

    await card(page, 11).getByRole('button', { name: 'Meldung #11 verschieben' }).click();
    await page.getByRole('menuitem', { name: 'In Prüfung' }).click();
    await expect.poll(() => cardNumbers(page, 'in_review')).toEqual([14, 11]);
    await page.getByTestId('board-announcer').getByText('Meldung #11 nach In Prüfung verschoben.').waitFor();
    await expect.poll(() => statusOf(s, 11)).toBe('in_review');
    await page.getByRole('button', { name: 'Mehr anzeigen in Neu, 1 weitere' }).waitFor();
    await column(page, 'in_review').scrollIntoViewIfNeeded();
    await shot(page, 'board-moved-de-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeFindings(page)).toEqual([]);
    expect(t.errors).toEqual([]);
    expect(t.failedResponses).toEqual([]);
  });
});
