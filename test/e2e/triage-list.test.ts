/**
 * Triage on the issue list (issue 23), against the built dashboard and the local stack: a team of two (Ada,
 * the owner, and Grace, a member) triages twelve reports by bulk action (status, priority, assignee,
 * labels, resolve) and the rows and counts show it; each kind of filter and the sort live in the address
 * (reload and back keep the view), the CSV link carries the view; in German at phone width; axe finds
 * nothing serious. Reports are written through the issues entity (the create transaction, facets included).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { axeFindings } from '../support/axe';
import { type PageOptions, setUpBrowserSuite, shot, type TestPage, waitForPath } from '../support/browser';
import { seedIssues } from '../support/issues';
import { addToTeam, inDays, setTeamPlan } from '../support/teams';
import { signedIn } from '../support/users';
import { userIdOf } from '../support/webteam';

const suite = setUpBrowserSuite();
const phone = { width: 390, height: 844 };

interface Persona {
  api: ApiClient;
  id: string;
}
let ada: Persona;
let grace: Persona;
let projectId: string;
let checkout: string;
let design: string;

async function persona(first: string, last: string): Promise<Persona> {
  const { client, email } = await signedIn(suite.stack.url);
  await client.patch('/api/client/profile', { firstName: first, lastName: last });
  return { api: client, id: await userIdOf(email) };
}

async function tabOf(who: Persona, opts: PageOptions = {}): Promise<TestPage> {
  const tab = await suite.newTab(opts);
  await tab.context.addCookies(
    [...who.api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  return tab;
}

async function label(name: string, color: string): Promise<string> {
  const res = await ada.api.post<{ label: { id: string } }>(`/api/client/website/${projectId}/labels`, {
    name,
    color,
  });
  if (res.body.status !== 'success') throw new Error(`label not created: ${JSON.stringify(res.body)}`);
  return res.body.msg.label.id;
}

beforeAll(async () => {
  ada = await persona('Ada', 'Lovelace');
  grace = await persona('Grace', 'Hopper');
  const created = await ada.api.post<{ id: string }>('/api/client/website', {
    name: 'Shop',
    url: 'shop.example',
  });
  projectId = (created.body as { msg: { id: string } }).msg.id;
  // A new project mails its owner; these issues come in with no integration on.
  await ada.api.patch(`/api/client/integration/${projectId}`, [{ name: 'email', active: 0, data: {} }]);
  // Starter: member seats, so Grace fits in Ada's (personal) team.
  await setTeamPlan(ada.id, 'BASIC_PLAN', inDays(30));
  await addToTeam(ada.id, grace.id, 'MEMBER');
  await seedIssues(projectId, 12);
  checkout = await label('Checkout', '#b3261e');
  design = await label('Design', '#ffe066');
});

const rows = (page: Page) => page.getByTestId('issue-row');
/** A reload loads chunks, profile, team, labels and list: longer than expect.poll's 1 s default. */
const slow = { timeout: 15_000 };
/** Row `n`'s box, by its name in either language ("Select issue #3", "Meldung #3 auswählen"). */
const box = (page: Page, n: number) => page.getByRole('checkbox', { name: new RegExp(`#${n}\\b`) });
const row = (page: Page, n: number) => rows(page).filter({ has: box(page, n) });
const listPath = () => `/profile/site/${projectId}`;

async function rowNumbers(page: Page): Promise<number[]> {
  const texts = await rows(page).allTextContents();
  return texts.map((t) => Number(/#(\d+)/.exec(t)?.[1]));
}

async function expectRows(page: Page, numbers: number[]) {
  await expect.poll(() => rowNumbers(page), slow).toEqual(numbers);
}

/** The chips of row `n` as text: status, priority, labels and due date in order. */
async function chipsOf(page: Page, n: number): Promise<string[]> {
  return row(page, n).getByTestId('row-triage').locator('.mantine-Badge-root').allTextContents();
}

const filterBar = (page: Page) => page.getByRole('group', { name: /^Filter(s)?$/ });

/** Picks `option` in the filter bar's select named `name`. */
async function filter(page: Page, name: string, option: string) {
  await filterBar(page).getByLabel(name, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Runs a bulk action: the bar's menu `menu`, then its item `item`. */
async function bulk(page: Page, menu: string, item: string) {
  const bar = page.getByRole('region', { name: /Change the selected issues|Ausgewählte Meldungen ändern/ });
  await bar.getByRole('button', { name: menu }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

async function expectAxeClean(page: Page, where: string) {
  expect([where, await axeFindings(page)]).toEqual([where, []]);
}

describe('triaging the list in English', () => {
  let t: TestPage;
  beforeAll(async () => {
    t = await tabOf(ada);
  });

  it('changes several issues at once by bulk action: rows, counts and a notice show it', async () => {
    const { page } = t;
    await page.goto(listPath());
    await expectRows(page, [12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(await chipsOf(page, 12)).toEqual(['New']);
    await page.getByText('12 issues', { exact: true }).waitFor();

    // Select three by their boxes: the bar appears, named, with the count announced.
    for (const n of [12, 11, 10]) await box(page, n).check();
    const bar = page.getByRole('region', { name: 'Change the selected issues' });
    await bar.waitFor();
    await page.getByRole('status').filter({ hasText: '3 issues selected' }).waitFor({ state: 'attached' });
    await expectAxeClean(page, 'list with the bulk bar');
    await shot(page, 'triage-list-selected-en');
    await bulk(page, 'Set status', 'In progress');
    await page.getByText('3 issues updated.').waitFor();
    await bar.waitFor({ state: 'detached' });
    expect(await box(page, 12).isChecked()).toBe(false);
    await expect.poll(() => chipsOf(page, 10), slow).toEqual(['In progress']);
    expect(await chipsOf(page, 9)).toEqual(['New']);

    // Two of them: priority, assignee and a label, one action each.
    for (const n of [12, 11]) await box(page, n).check();
    await bulk(page, 'Set priority', 'Urgent');
    await page.getByText('2 issues updated.').waitFor();
    for (const n of [12, 11]) await box(page, n).check();
    await bulk(page, 'Assign', 'Grace Hopper');
    await page.getByText('2 issues updated.').waitFor();
    for (const n of [12, 11]) await box(page, n).check();
    await bulk(page, 'Add label', 'Checkout');
    await expect.poll(() => chipsOf(page, 12), slow).toEqual(['In progress', 'Urgent', 'Checkout']);
    expect(await chipsOf(page, 11)).toEqual(['In progress', 'Urgent', 'Checkout']);
    await row(page, 12).getByRole('img', { name: 'Assigned to Grace Hopper' }).first().waitFor();
    expect(
      await row(page, 10)
        .getByRole('img', { name: /Assigned to/ })
        .count(),
    ).toBe(0);
    // The label's text is black or white by contrast: white on the dark red.
    const chip = row(page, 12).getByTestId('label-chip');
    expect(await chip.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 255)');

    // A label comes off again; another goes on (the yellow one, black text).
    await box(page, 11).check();
    await bulk(page, 'Remove label', 'Checkout');
    await expect.poll(() => chipsOf(page, 11), slow).toEqual(['In progress', 'Urgent']);
    await box(page, 9).check();
    await bulk(page, 'Add label', 'Design');
    await expect.poll(() => chipsOf(page, 9), slow).toEqual(['New', 'Design']);
    expect(
      await row(page, 9)
        .getByTestId('label-chip')
        .evaluate((el) => getComputedStyle(el).color),
    ).toBe('rgb(0, 0, 0)');

    // The whole page by keyboard: the header box, Space; then Resolve two of them.
    await page.getByRole('checkbox', { name: 'Select all issues on this page' }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('status').filter({ hasText: '10 issues selected' }).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await bar.waitFor({ state: 'detached' });
    for (const n of [4, 3]) await box(page, n).check();
    await bar.getByRole('button', { name: 'Resolve' }).click();
    await page.getByText('2 issues updated.').waitFor();
    await page.getByText('10 issues', { exact: true }).waitFor();
    await expectRows(page, [12, 11, 10, 9, 8, 7, 6, 5, 2, 1]);
    await shot(page, 'triage-list-en');
    expect(t.failedResponses).toEqual([]);
    expect(t.errors).toEqual([]);
  });

  it('filters by each kind, in the address: reload and back keep the view, the CSV link carries it', async () => {
    const { page } = t;
    await page.goto(listPath());
    await expectRows(page, [12, 11, 10, 9, 8, 7, 6, 5, 2, 1]);

    await filter(page, 'Status', 'In progress');
    await waitForPath(page, listPath(), '?status=in_progress');
    await expectRows(page, [12, 11, 10]);
    await page.getByText('3 issues', { exact: true }).waitFor();
    await page.reload();
    await expectRows(page, [12, 11, 10]);
    expect(await filterBar(page).getByLabel('Status', { exact: true }).inputValue()).toBe('In progress');

    await filter(page, 'Priority', 'Urgent');
    await waitForPath(page, listPath(), '?status=in_progress&priority=urgent');
    await expectRows(page, [12, 11]);
    const csv = await page.getByTestId('csv-export').getAttribute('href');
    expect(csv).toBe(`/api/client/website/${projectId}/requests.csv?status=in_progress&priority=urgent`);
    await shot(page, 'triage-list-filtered-en');
    await page.goBack();
    await waitForPath(page, listPath(), '?status=in_progress');
    await expectRows(page, [12, 11, 10]);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitForPath(page, listPath(), '');
    await filter(page, 'Assignee', 'Grace Hopper');
    await waitForPath(page, listPath(), `?assignee=${grace.id}`);
    await expectRows(page, [12, 11]);
    await filter(page, 'Assignee', 'Unassigned');
    await waitForPath(page, listPath(), '?assignee=none');
    await expectRows(page, [10, 9, 8, 7, 6, 5, 2, 1]);
    await filter(page, 'Assignee', 'Me');
    await waitForPath(page, listPath(), '?assignee=me');
    await page.getByRole('heading', { name: 'No issues match these filters' }).waitFor();

    await filter(page, 'Assignee', 'Any');
    await filter(page, 'Label', 'Checkout');
    await waitForPath(page, listPath(), `?label=${checkout}`);
    await expectRows(page, [12]);
    await filter(page, 'Label', 'Design');
    await waitForPath(page, listPath(), `?label=${design}`);
    await expectRows(page, [9]);
    // A link names the view: a new tab opened with it shows the same.
    const other = await tabOf(ada);
    await other.page.goto(`${listPath()}?label=${design}`);
    await expectRows(other.page, [9]);
    expect(await filterBar(other.page).getByLabel('Label', { exact: true }).inputValue()).toBe('Design');

    // The resolved list filters its own statuses.
    await page.goto(`/profile/resolved/${projectId}?status=resolved`);
    await expectRows(page, [4, 3]);
    expect(await page.getByTestId('csv-export').getAttribute('href')).toBe(
      `/api/client/website/${projectId}/requests.csv?resolved=1&status=resolved`,
    );
    await expectAxeClean(page, 'resolved list, filtered');
    expect(t.failedResponses).toEqual([]);
  });

  it('sorts: oldest, priority, recently updated', async () => {
    const { page } = t;
    await page.goto(listPath());
    await filter(page, 'Sort', 'Oldest first');
    await waitForPath(page, listPath(), '?sort=oldest');
    await expectRows(page, [1, 2, 5, 6, 7, 8, 9, 10, 11, 12]);
    await filter(page, 'Sort', 'Priority');
    await waitForPath(page, listPath(), '?sort=priority');
    await expectRows(page, [12, 11, 10, 9, 8, 7, 6, 5, 2, 1]);
    await filter(page, 'Sort', 'Recently updated');
    await waitForPath(page, listPath(), '?sort=updated');
    // 9 got the last change (its label), then 11 (a label removed), then 12 (a label added).
    await expect.poll(async () => (await rowNumbers(page)).slice(0, 3), slow).toEqual([9, 11, 12]);
    // A filter with the sort keeps both.
    await filter(page, 'Status', 'In progress');
    await waitForPath(page, listPath(), '?status=in_progress&sort=updated');
    await expectRows(page, [11, 12, 10]);
    await expectAxeClean(page, 'list sorted and filtered');
    expect(t.failedResponses).toEqual([]);
  });
});

describe('triaging the list in German at phone width', () => {
  beforeAll(async () => {
    // The state the English steps leave, so this part also runs alone (the bulk call is idempotent).
    const res = await ada.api.patch(`/api/client/website/${projectId}/requests`, {
      tickets: [12, 11, 10],
      set: { status: 'in_progress' },
    });
    expect(res.status).toBe(200);
    const assigned = await ada.api.patch(`/api/client/website/${projectId}/requests`, {
      tickets: [12, 11],
      set: { assignee: grace.id },
    });
    expect(assigned.status).toBe(200);
  });

  it('selects, changes and filters with German texts, and axe finds nothing serious', async () => {
    const t = await tabOf(grace, { locale: 'de-DE', viewport: phone });
    const { page } = t;
    await page.goto(`/profile/site/${projectId}?status=in_progress`);
    await expectRows(page, [12, 11, 10]);
    await shot(page, 'triage-list-de-phone');
    await expect.poll(() => chipsOf(page, 10), slow).toEqual(['In Arbeit']);
    await page.getByText('3 Meldungen', { exact: true }).waitFor();
    await box(page, 10).check();
    await page.getByRole('region', { name: 'Ausgewählte Meldungen ändern' }).waitFor();
    await page.getByRole('status').filter({ hasText: '1 Meldung ausgewählt' }).waitFor({ state: 'attached' });
    await expectAxeClean(page, 'German phone list with the bulk bar');
    await shot(page, 'triage-list-de-phone-selected');
    await bulk(page, 'Priorität setzen', 'Hoch');
    await page.getByText('1 Meldung geändert.').waitFor();
    await expect.poll(() => chipsOf(page, 10), slow).toEqual(['In Arbeit', 'Hoch']);
    await box(page, 10).check();
    await bulk(page, 'Zuweisen', 'Ich');
    await page.getByText('1 Meldung geändert.').waitFor();
    await filter(page, 'Status', 'Alle');
    await filter(page, 'Zuständig', 'Ich');
    await waitForPath(page, `/profile/site/${projectId}`, '?assignee=me');
    await expectRows(page, [12, 11, 10]);
    await row(page, 10).getByRole('img', { name: 'Zuständig: Grace Hopper' }).waitFor();
    await expectAxeClean(page, 'German phone list, filtered');
    await shot(page, 'triage-list-de-phone-filtered');
    // The page is no wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    expect(t.failedResponses).toEqual([]);
  });
});

describe('the other two pictures: German at 1280 px, English at 390 px', () => {
  beforeAll(async () => {
    // What the English steps leave on 12 and 11, so this part also runs alone (each call is idempotent).
    for (const set of [
      { status: 'in_progress' },
      { priority: 'urgent' },
      { assignee: grace.id },
      { labels: { add: [checkout] } },
    ]) {
      const res = await ada.api.patch(`/api/client/website/${projectId}/requests`, {
        tickets: [12, 11],
        set,
      });
      expect(res.status).toBe(200);
    }
  });

  it('shows the triaged list without axe findings and no wider than a phone', async () => {
    const de = await tabOf(grace, { locale: 'de-DE' });
    await de.page.goto(listPath());
    await de.page.getByRole('heading', { name: 'Offene Meldungen' }).waitFor();
    await expect.poll(() => chipsOf(de.page, 11), slow).toEqual(['In Arbeit', 'Dringend', 'Checkout']);
    await box(de.page, 12).check();
    await de.page.getByRole('region', { name: 'Ausgewählte Meldungen ändern' }).waitFor();
    await expectAxeClean(de.page, 'German list at 1280 px');
    await shot(de.page, 'triage-list-de');

    const en = await tabOf(ada, { viewport: phone });
    await en.page.goto(`${listPath()}?sort=priority`);
    await expect.poll(async () => (await rowNumbers(en.page)).slice(0, 2), slow).toEqual([12, 11]);
    await box(en.page, 11).check();
    await en.page.getByRole('region', { name: 'Change the selected issues' }).waitFor();
    await expectAxeClean(en.page, 'English list at 390 px');
    await shot(en.page, 'triage-list-en-phone');
    expect(await en.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      phone.width,
    );
    expect([...de.failedResponses, ...en.failedResponses]).toEqual([]);
  });
});
