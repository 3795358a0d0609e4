/**
 * Triage on the issue detail (issue 23), against the built dashboard and the local stack: the owner creates,
 * renames, recolours and deletes the project's labels in the configuration; sets status, priority,
 * assignee, labels and due date in the side panel and sees each in the timeline; posts an internal and a
 * public comment and one that mentions a member through the `@` completion, by keyboard; the mentioned
 * member gets the mail once the notification outbox is flushed; the member saves its notification
 * settings, then reads the issue in German at 390 px. axe-core checks every screen.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { latestMail } from '../support/api-client';
import { axeFindings } from '../support/axe';
import { navigateInApp, setUpBrowserSuite, shot, type TestPage } from '../support/browser';
import { seedIssues } from '../support/issues';
import { eventually } from '../support/local-stack';
import { addToTeam, inDays, setTeamPlan } from '../support/teams';
import { signedIn } from '../support/users';
import { userIdOf } from '../support/webteam';

const suite = setUpBrowserSuite();
const phone = { width: 390, height: 844 };

interface Person {
  client: ApiClient;
  email: string;
  id: string;
}

async function person(firstName: string, lastName: string): Promise<Person> {
  const { client, email } = await signedIn(suite.stack.url);
  const named = await client.patch('/api/client/profile', { firstName, lastName });
  expect(named.status).toBe(200);
  return { client, email, id: await userIdOf(email) };
}

async function tabOf(
  p: Person,
  opts: { locale?: string; viewport?: { width: number; height: number } } = {},
) {
  const tab = await suite.newTab(opts);
  await tab.context.addCookies(
    [...p.client.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  return tab;
}

/** No console error and no failed call: every save and load of the steps went through. */
function expectClean(tab: TestPage) {
  expect(tab.errors).toEqual([]);
  expect(tab.failedResponses).toEqual([]);
}

const panel = (page: Page) => page.getByTestId('triage-panel');
const expectAxe = async (page: Page) => expect(await axeFindings(page)).toEqual([]);
const timeline = (page: Page) => page.getByTestId('timeline');

/** Waits for the field's own saved state (its status line under it). */
async function savedState(page: Page, field: string) {
  await page.locator(`#triage-${field}-state[data-save-state="saved"]`).waitFor();
}

describe('triage on the issue detail, with comments, mentions and notification mails', () => {
  let owner: Person;
  let member: Person;
  let guest: Person;
  let projectId: string;

  it('manages the project labels in the configuration', async () => {
    owner = await person('Ada', 'Lovelace');
    member = await person('Grace', 'Hopper');
    guest = await person('Alan', 'Turing');
    const plan = await owner.client.post('/api/dev/plan', {
      username: owner.email,
      plan: 'BASIC_PLAN',
      days: 30,
    });
    expect(plan.status).toBe(200);
    await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
    await addToTeam(owner.id, member.id, 'MEMBER');
    const created = await owner.client.post<{ id: string }>('/api/client/website', {
      name: 'Shop',
      url: 'shop.example',
    });
    if (created.body.status !== 'success') throw new Error(JSON.stringify(created.body));
    projectId = created.body.msg.id;
    await seedIssues(projectId, 2, (n) => `Checkout step ${n} fails`);
    await addToTeam(owner.id, guest.id, 'GUEST', [projectId]);

    const o = await tabOf(owner);
    await o.page.goto(`/profile/configuration/${projectId}/labels`);
    const create = o.page.getByTestId('label-create');
    await create.waitFor();
    const add = async (name: string, colour: string | null, hex?: string) => {
      await create.getByRole('textbox', { name: 'Name' }).fill(name);
      if (colour) await create.getByRole('button', { name: colour, exact: true }).click();
      if (hex) await create.getByRole('textbox', { name: 'Colour' }).fill(hex);
      await create.getByRole('button', { name: 'Add label' }).click();
      await o.page.getByText(`Label ${name} added`).waitFor();
    };
    await add('Bug', 'Red');
    await add('Checkout', null, '#fab005');
    await add('Temporary', 'Violet');
    const rows = o.page.getByTestId('label-row');
    await expect.poll(() => rows.count()).toBe(3);

    // Rename and recolour in place.
    await o.page.getByRole('button', { name: 'Edit the label Checkout' }).click();
    const editing = rows.filter({ has: o.page.getByRole('button', { name: 'Save' }) });
    await editing.getByRole('textbox', { name: 'Name' }).fill('Payment');
    await editing.getByRole('button', { name: 'Blue', exact: true }).click();
    await editing.getByRole('button', { name: 'Save' }).click();
    await o.page.getByText('Label saved').waitFor();
    // Delete after the confirmation.
    await o.page.getByRole('button', { name: 'Delete the label Temporary' }).click();
    await o.page.getByRole('dialog').getByRole('button', { name: 'Delete label' }).click();
    await o.page.getByText('Label Temporary deleted').waitFor();
    await expect
      .poll(() => rows.allTextContents())
      .toEqual(['Bug', 'Payment'].map((n) => expect.stringContaining(n)));
    const labels = await owner.client.get<{ labels: { name: string; color: string }[] }>(
      `/api/client/website/${projectId}/labels`,
    );
    if (labels.body.status !== 'success') throw new Error(JSON.stringify(labels.body));
    expect(labels.body.msg.labels.map((l) => [l.name, l.color.toLowerCase()]).sort()).toEqual([
      ['Bug', '#e03131'],
      ['Payment', '#1971c2'],
    ]);
    expect(await axeFindings(o.page)).toEqual([]);
    await shot(o.page, 'labels-en-desktop');
    expectClean(o);
  });

  it('sets the triage fields in the side panel and shows each in the timeline', async () => {
    const o = await tabOf(owner);
    await o.page.goto(`/profile/site/${projectId}/ticket/1`);
    const p = panel(o.page);
    await p.waitFor();
    await p.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'In progress' });
    await savedState(o.page, 'status');
    await p.getByRole('combobox', { name: 'Priority' }).selectOption({ label: 'High' });
    await savedState(o.page, 'priority');
    await p.getByRole('combobox', { name: 'Assignee' }).selectOption({ label: 'Grace Hopper' });
    await savedState(o.page, 'assignee');
    await p.getByLabel('Labels', { exact: true }).click();
    await o.page.getByRole('option', { name: 'Bug' }).click();
    await savedState(o.page, 'labels');
    await o.page.keyboard.press('Escape');
    await p.getByLabel('Due date').fill('2026-12-24');
    await savedState(o.page, 'dueDate');

    const t = timeline(o.page);
    for (const line of [
      'Ada Lovelace set status to In progress',
      'Ada Lovelace set priority to High',
      'Ada Lovelace assigned the issue to Grace Hopper',
      'Ada Lovelace added the label Bug',
      'Ada Lovelace set the due date to Dec 24, 2026',
    ])
      await t.getByText(line).waitFor();
    // The API agrees: the fields are stored, not only shown.
    const issue = await owner.client.get<Record<string, unknown>>(
      `/api/client/website/${projectId}/request/1`,
    );
    if (issue.body.status !== 'success') throw new Error(JSON.stringify(issue.body));
    expect(issue.body.msg).toMatchObject({
      status: 'in_progress',
      priority: 'high',
      assignee: member.id,
      dueDate: '2026-12-24',
    });
    expect(issue.body.msg.labels).toHaveLength(1);
    await shot(o.page, 'detail-en-desktop-triaged');
    expectClean(o);
  });

  it('adds and removes labels by keyboard alone, each remove button named for a screen reader', async () => {
    const o = await tabOf(owner);
    const sent: unknown[] = [];
    o.page.on('request', (r) => {
      if (r.method() === 'PATCH' && r.postData()?.includes('Labels')) sent.push(r.postDataJSON());
    });
    await o.page.goto(`/profile/site/${projectId}/ticket/2`);
    const p = panel(o.page);
    await p.waitFor();
    const focusedName = () =>
      o.page.evaluate(() => {
        const el = document.activeElement;
        return (
          el?.getAttribute('aria-label') ??
          (el?.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null)
        );
      });
    // From the Assignee field, Tab reaches Labels.
    await p.getByRole('combobox', { name: 'Assignee' }).focus();
    await o.page.keyboard.press('Tab');
    expect(await focusedName()).toBe('Labels');
    const active = o.page.locator('[role="option"][data-combobox-selected]');
    for (const name of ['Bug', 'Payment']) {
      // The arrow keys open the list and move through it; Enter picks.
      for (let i = 0; i < 5 && !((await active.count()) && (await active.innerText()) === name); i++)
        await o.page.keyboard.press('ArrowDown');
      await o.page.keyboard.press('Enter');
      await timeline(o.page).getByText(`Ada Lovelace added the label ${name}`).waitFor();
    }
    await o.page.keyboard.press('Escape');
    // Each chosen label has its own remove button in the Tab order, named for a screen reader.
    expect(await p.getByRole('button', { name: /^Remove the label / }).count()).toBe(2);
    await o.page.keyboard.press('Shift+Tab');
    expect(await focusedName()).toBe('Remove the label Payment');
    await o.page.keyboard.press('Shift+Tab');
    expect(await focusedName()).toBe('Remove the label Bug');
    await expectAxe(o.page);
    await o.page.keyboard.press('Enter');
    await timeline(o.page).getByText('Ada Lovelace removed the label Bug').waitFor();
    // Focus goes back to the field, not lost with the removed button; Payment stays.
    expect(await focusedName()).toBe('Labels');
    await expect
      .poll(() => p.getByRole('button', { name: /^Remove the label / }).allInnerTexts())
      .toHaveLength(1);
    expect(await p.getByRole('button', { name: 'Remove the label Payment' }).count()).toBe(1);
    await o.page.keyboard.press('Escape');
    await expectAxe(o.page);
    // Only the change is sent: one label added per pick, the removed one by itself.
    const labelIds = await owner.client.get<{ labels: { id: string; name: string }[] }>(
      `/api/client/website/${projectId}/labels`,
    );
    if (labelIds.body.status !== 'success') throw new Error(JSON.stringify(labelIds.body));
    const all = labelIds.body.msg.labels;
    const idOf = (name: string) => all.find((l) => l.name === name)?.id;
    expect(sent).toEqual([
      { addLabels: [idOf('Bug')] },
      { addLabels: [idOf('Payment')] },
      { removeLabels: [idOf('Bug')] },
    ]);
    const issue = await owner.client.get<{ labels: string[] }>(`/api/client/website/${projectId}/request/2`);
    if (issue.body.status !== 'success') throw new Error(JSON.stringify(issue.body));
    expect(issue.body.msg.labels).toEqual([idOf('Payment')]);
    expectClean(o);
  });

  it('posts internal and public comments and a mention by keyboard; the member gets the mail', async () => {
    const o = await tabOf(owner);
    await o.page.goto(`/profile/site/${projectId}/ticket/1`);
    const field = o.page.getByRole('textbox', { name: 'Comment' });
    await field.waitFor();

    // Internal is the default for the team.
    await field.fill('The payment provider times out.');
    await o.page.getByRole('button', { name: 'Send' }).click();
    const comments = o.page.getByTestId('comment');
    await expect.poll(() => comments.count()).toBe(1);
    expect(await comments.nth(0).getAttribute('data-visibility')).toBe('internal');
    await comments.nth(0).getByText('Internal', { exact: true }).waitFor();

    await field.fill('Thanks, we are on it.');
    await o.page.getByRole('radio', { name: 'Public (the reporter too)' }).check();
    await o.page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => comments.count()).toBe(2);
    expect(await comments.nth(1).getAttribute('data-visibility')).toBe('public');
    expect(await comments.nth(1).getByText('Internal', { exact: true }).count()).toBe(0);

    // A mention through the completion, keyboard only; markup stays text.
    await o.page.getByRole('radio', { name: 'Internal (team only)' }).check();
    await field.click();
    await field.pressSequentially('Please look <b>now</b> @gr');
    const list = o.page.getByRole('listbox', { name: 'Team members to mention' });
    await list.waitFor();
    expect(await field.getAttribute('aria-activedescendant')).toBe(
      await list.getByRole('option', { name: 'Grace Hopper' }).getAttribute('id'),
    );
    await shot(o.page, 'detail-en-desktop-mention');
    await o.page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    // Closed for that mention; typed afresh, it offers the members again.
    for (let i = 0; i < 3; i++) await field.press('Backspace');
    await field.pressSequentially('@gr');
    await list.waitFor();
    await o.page.keyboard.press('Enter');
    expect(await field.inputValue()).toBe('Please look <b>now</b> @Grace Hopper ');
    await field.pressSequentially('thanks');
    await field.press('Control+Enter');
    await expect.poll(() => comments.count()).toBe(3);
    const body = comments.nth(2).getByTestId('comment-body');
    expect(await body.textContent()).toBe('Please look <b>now</b> @Grace Hopper thanks');
    expect(await body.locator('b').count()).toBe(0);
    await shot(o.page, 'detail-en-desktop-comments');
    expect(await axeFindings(o.page)).toEqual([]);
    expectClean(o);

    // The outbox's flush (its schedule, run now as the notification tests run it) mails the member.
    await suite.stack.runSchedule('notifications');
    const mail = await eventually(
      async () => {
        const m = await latestMail(suite.stack.url, member.email);
        return m && /mention/i.test(`${m.subject} ${m.text}`) ? m : undefined;
      },
      15_000,
      `a mention mail to ${member.email}`,
    );
    expect(mail.text).toContain('Ada Lovelace mentioned you on #1');
  });

  it('saves the notification settings on the profile', async () => {
    const m = await tabOf(member);
    await m.page.goto('/profile/edit');
    const settings = m.page.getByTestId('notification-settings');
    await settings.waitFor();
    // Where the rules live: this is the one setting for new reports, and who hears of a visitor's reply.
    await settings.getByText('The one setting for your mails about new reports', { exact: false }).waitFor();
    await settings
      .getByText('a visitor’s reply on an issue nobody is assigned to', { exact: false })
      .waitFor();
    await settings.getByRole('radio', { name: 'A daily digest of new issues' }).check();
    await m.page.locator('#notification-state[data-save-state="saved"]').waitFor();
    await settings
      .getByRole('switch', { name: 'Comments on issues assigned to me' })
      .uncheck({ force: true });
    await expect
      .poll(async () => {
        const r = await member.client.get<{ settings: Record<string, unknown> }>('/api/client/notifications');
        return r.body.status === 'success' ? r.body.msg.settings : null;
      })
      .toEqual({ newIssue: 'daily', assigned: true, mentioned: true, comments: false });
    await m.page.reload();
    await settings.getByRole('radio', { name: 'A daily digest of new issues' }).waitFor();
    expect(await settings.getByRole('radio', { name: 'A daily digest of new issues' }).isChecked()).toBe(
      true,
    );
    expect(await axeFindings(m.page)).toEqual([]);
    await shot(m.page, 'profile-en-desktop-notifications');
    expectClean(m);
  });

  it('reads the issue in German at 390 px, where the member edits its own comment', async () => {
    const m = await tabOf(member, { locale: 'de-DE', viewport: phone });
    await m.page.goto(`/profile/site/${projectId}/ticket/1`);
    const t = timeline(m.page);
    await t.getByText('Ada Lovelace hat die Priorität auf Hoch gesetzt').waitFor();
    await t.getByText('Ada Lovelace hat die Meldung Grace Hopper zugewiesen').waitFor();
    expect(await t.getByText('Intern', { exact: true }).count()).toBe(2);
    expect(await m.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Someone else's comment: no Edit, no Delete for a MEMBER.
    expect(await m.page.getByRole('button', { name: /bearbeiten$/ }).count()).toBe(0);

    const field = m.page.getByRole('textbox', { name: 'Kommentar', exact: true });
    await field.fill('Ich schaue es mir an.');
    await m.page.getByRole('button', { name: 'Senden' }).click();
    const mine = m.page.getByTestId('comment').filter({ hasText: 'Ich schaue es mir an.' });
    await mine.waitFor();
    await mine.getByRole('button', { name: /bearbeiten$/ }).click();
    const editing = m.page
      .getByTestId('comment')
      .filter({ has: m.page.getByRole('textbox', { name: 'Kommentar bearbeiten' }) });
    await editing.getByRole('textbox').fill('Ich übernehme das.');
    await editing.getByRole('button', { name: 'Speichern' }).click();
    await m.page
      .getByTestId('comment')
      .filter({ hasText: 'Ich übernehme das.' })
      .getByText('bearbeitet')
      .waitFor();
    expect(await axeFindings(m.page)).toEqual([]);
    await shot(m.page, 'detail-de-phone');
    expectClean(m);
  });

  it('shows a GUEST the fields read-only, no internal comment and a public-only composer', async () => {
    const g = await tabOf(guest);
    await g.page.goto(`/profile/site/${projectId}/ticket/1`);
    // Read-only: the values as text with the reason, no control to change them.
    const summary = g.page.getByTestId('triage-summary');
    await summary.waitFor();
    await g.page.getByText('As a guest you can see these fields but not change them.').waitFor();
    expect(await summary.innerText()).toMatch(
      /Status\s+In progress\s+Priority\s+High\s+Assignee\s+Grace Hopper/,
    );
    expect(await summary.getByText('Bug', { exact: true }).count()).toBe(1);
    expect(await g.page.getByRole('combobox', { name: 'Status' }).count()).toBe(0);
    await timeline(g.page).getByText('Thanks, we are on it.').waitFor();
    // The server leaves internal comments out of a GUEST's answers; none is shown.
    const comments = g.page.getByTestId('comment');
    expect(
      await comments.evaluateAll((els) => els.map((e) => e.getAttribute('data-visibility'))),
    ).not.toContain('internal');
    expect(await g.page.getByRole('radio', { name: 'Internal (team only)' }).count()).toBe(0);
    await g.page.getByText('Your comments are public: the team and the reporter see them.').waitFor();
    const before = await comments.count();
    await g.page.getByRole('textbox', { name: 'Comment' }).fill('Seen on my phone too.');
    await g.page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => comments.count()).toBe(before + 1);
    expect(await comments.last().getAttribute('data-visibility')).toBe('public');
    expect(await axeFindings(g.page)).toEqual([]);
    await shot(g.page, 'detail-en-desktop-guest');
    expectClean(g);
  });

  it('fits and reads well at 1280 and 390 px in English and German', async () => {
    for (const [locale, viewport, name] of [
      ['de-DE', { width: 1280, height: 860 }, 'de-desktop'],
      ['en-US', phone, 'en-phone'],
      ['de-DE', phone, 'de-phone'],
    ] as const) {
      const o = await tabOf(owner, { locale, viewport });
      for (const [path, what, ready] of [
        [`/profile/site/${projectId}/ticket/1`, 'detail', 'triage-panel'],
        [`/profile/configuration/${projectId}/labels`, 'labels', 'label-create'],
        ['/profile/edit', 'profile', 'notification-settings'],
      ] as const) {
        // The first screen loaded as typed, the next ones reached as the dashboard's links go (each renders
        // and loads its own data at this locale and width, without starting the bundle again).
        if (what === 'detail') await o.page.goto(path);
        else await navigateInApp(o.page, path);
        await o.page.getByTestId(ready).waitFor();
        if (viewport.width === phone.width)
          expect(await o.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        expect([name, what, await axeFindings(o.page)]).toEqual([name, what, []]);
        await shot(o.page, `${what}-${name}`);
      }
      expectClean(o);
    }
  });
});

describe('the comment composer’s limit', () => {
  it('keeps an over-long paste whole, says how much is over and refuses it until shortened', async () => {
    const writer = await person('Rosa', 'Parks');
    const created = await writer.client.post<{ id: string }>('/api/client/website', {
      name: 'Limits',
      url: 'limits.example',
    });
    if (created.body.status !== 'success') throw new Error(JSON.stringify(created.body));
    const id = created.body.msg.id;
    await seedIssues(id, 1, () => 'A long story');
    const tab = await tabOf(writer);
    const { page } = tab;
    await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.stack.url });
    await page.goto(`/profile/site/${id}/ticket/1`);
    const field = page.getByRole('textbox', { name: 'Comment' });
    await field.waitFor();

    const long = `${'Steps to reproduce. '.repeat(255)}`; // 5,100 characters
    expect(long.length).toBe(5100);
    await page.evaluate((text) => navigator.clipboard.writeText(text), long);
    await field.focus();
    await page.keyboard.press('ControlOrMeta+V');
    // Nothing is cut: the whole paste is there, and the field says by how much it is over.
    await expect.poll(() => field.inputValue().then((v) => v.length)).toBe(5100);
    await page.getByText('5,100 of 5,000 characters').waitFor();
    await page
      .getByText('100 characters too many: a comment holds at most 5,000. Shorten it to send it.')
      .waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const send = page.getByRole('button', { name: 'Send' });
    expect(await send.isDisabled()).toBe(true);
    // Ctrl+Enter does not send it either.
    let posted = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/comments')) posted++;
    });
    await field.press('ControlOrMeta+Enter');
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'composer-too-long');
    expect(posted).toBe(0);

    // Shortened to the limit, it goes.
    await field.fill(long.slice(0, 5000));
    await expect.poll(() => field.getAttribute('aria-invalid')).not.toBe('true');
    await send.click();
    await page.getByText('Comment added').waitFor();
    expect(posted).toBe(1);
    expectClean(tab);
  });
});
