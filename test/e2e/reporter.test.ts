/**
 * The reporter hears back (issue 24), in Chromium against the built dashboard and the local stack: a
 * visitor reports through the widget on the customer's page and leaves their email; the team comments
 * publicly and resolves the issue on the dashboard; the flush mails the reporter, who opens the mailed
 * `/r/{token}` link, sees the status and the comment, replies, and the reply appears on the dashboard's
 * timeline as "Reporter". In English at 1280 px, in Russian and in German (the widget's language) at 390
 * px; axe-core clean on the status page at both widths.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { outboxKey } from '../../functions/issues/reporter';
import { fill, reporterTexts } from '../../functions/issues/reporter-texts';
import type { Messages } from '../../widget/src/i18n/en';
import { latestMail } from '../support/api-client';
import { axeFindings } from '../support/axe';
import { launchBrowser, openPage, setUpE2eStack, shot, type TestPage, toastCame } from '../support/browser';
import {
  type CustomerSite,
  customerHosts,
  customerPage,
  launchCustomerBrowser,
  startCustomerSite,
  visitCustomerPage,
} from '../support/customer-site';
import { eventually } from '../support/local-stack';
import { signedIn } from '../support/users';

const stack = setUpE2eStack();
let site: CustomerSite;
let visitorBrowser: Browser;
let browser: Browser;
let projectId = '';
let owner: Awaited<ReturnType<typeof signedIn>>;
const tabs: TestPage[] = [];

const desktop = { width: 1280, height: 860 };
const phone = { width: 390, height: 844 };

beforeAll(async () => {
  site = await startCustomerSite();
  visitorBrowser = await launchCustomerBrowser();
  browser = await launchBrowser();
  owner = await signedIn(stack.url);
  const created = await owner.client.post<{ id: string }>('/api/client/website', {
    name: 'Acme Ceramics',
    url: `https://${customerHosts.domain}`,
  });
  projectId = (created.body as { msg: { id: string } }).msg.id;
  const snippet = `<script async src="${stack.url}/api/website/${projectId}/code"></script>`;
  site.page('/', customerPage({ snippet }));
});

afterAll(async () => {
  for (const tab of tabs) await tab.context.close();
  await browser?.close();
  await visitorBrowser?.close();
  await site?.close();
});

async function tab(viewport = desktop, cookies = false, locale = 'en-US'): Promise<TestPage> {
  const t = await openPage(browser, stack.url, { viewport, locale });
  if (cookies)
    await t.context.addCookies(
      [...owner.client.cookies].map(([name, value]) => ({ name, value, url: stack.url })),
    );
  tabs.push(t);
  return t;
}

/** The visitor's report through the widget, with their email: the number the thank-you screen shows. */
async function reportThroughWidget(t: Messages, description: string, email: string): Promise<number> {
  const visit = await visitCustomerPage(visitorBrowser, site.url(customerHosts.shop, '/'), {
    timeoutMs: 15_000,
  });
  try {
    const { page } = visit;
    await page.locator('snag-launcher').getByRole('button').click();
    const dialog = page.getByRole('dialog', { name: t.title });
    await dialog.getByLabel(t.description).fill(description);
    await dialog.getByLabel(t.email).fill(email);
    await page.getByRole('button', { name: t.send, exact: true }).click();
    const status = page.getByRole('status').filter({ hasText: t.thanksTitle });
    await status.waitFor({ timeout: 60_000 });
    const number = /#(\d+)/.exec((await status.textContent()) ?? '')?.[1];
    expect(number).toBeDefined();
    expect(visit.errors).toEqual([]);
    return Number(number);
  } finally {
    await visit.close();
  }
}

/** The team's part on the dashboard: a public comment, then the status Resolved in the side panel. */
async function teamAnswersAndResolves(n: number, answer: string) {
  const o = await tab(desktop, true);
  await o.page.goto(`/profile/site/${projectId}/ticket/${n}`);
  const field = o.page.getByRole('textbox', { name: 'Comment' });
  await field.fill(answer);
  await o.page.getByRole('radio', { name: 'Public (the reporter too)' }).check();
  await o.page.getByRole('button', { name: 'Send' }).click();
  await o.page.getByTestId('comment').filter({ hasText: answer }).waitFor();
  await o.page
    .getByTestId('triage-panel')
    .getByRole('combobox', { name: 'Status' })
    .selectOption({ label: 'Resolved' });
  await o.page.locator('#triage-status-state[data-save-state="saved"]').waitFor();
  expect(o.errors).toEqual([]);
  return o;
}

const flush = () => stack.runSchedule('notifications');

/** Waits until the fan-out owes the reporter news of the status (the resolution), then flushes their outbox. */
async function mailResolution(n: number) {
  await eventually(
    async () =>
      (
        await db().send(
          new GetCommand({ TableName: tableName(), Key: outboxKey(projectId, n), ConsistentRead: true }),
        )
      ).Item?.status === true || undefined,
    20_000,
    'the resolution owed to the reporter',
  );
  await flush();
}

/** The status page link of the newest mail to `email`. */
async function mailedLink(email: string, expected: string): Promise<string> {
  const mail = await eventually(async () => {
    const m = await latestMail(stack.url, email);
    return m?.subject.includes(expected) ? m : undefined;
  }, 20_000);
  const link = /https?:\/\/\S+\/r\/[A-Za-z0-9_-]{22}/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  return link!;
}

async function checkStatusPage(page: Page, lang: 'en' | 'ru' | 'de', n: number, answer: string) {
  const t = reporterTexts[lang];
  await page.getByRole('heading', { level: 1, name: fill(t.pageTitle, { n }) }).waitFor();
  expect(await page.locator('html').getAttribute('lang')).toBe(lang);
  expect(await page.locator('.badge').textContent()).toBe(t.resolved);
  const replies = page.getByRole('list');
  await replies.getByText(answer).waitFor();
  await replies.getByText('Ada Lovelace', { exact: false }).waitFor();
  expect(await page.getByRole('main').count()).toBe(1);
  expect(await page.getByRole('banner').count()).toBe(1);
  expect(await axeFindings(page)).toEqual([]);
}

describe('the reporter hears back', () => {
  const cases = [
    {
      lang: 'en',
      viewport: desktop,
      answer: 'Thanks! A fix is live.',
      replyText: 'Works for me now, thank you.',
    },
    {
      lang: 'ru',
      viewport: phone,
      answer: 'Спасибо, исправили.',
      replyText: 'Теперь всё работает, спасибо!',
    },
    { lang: 'de', viewport: phone, answer: 'Danke, ist behoben.', replyText: 'Jetzt klappt es, danke!' },
  ] as const;

  it.each(cases)('$lang at $viewport.width px: report, answer, resolve, status page, reply', async (c) => {
    const configured = await owner.client.patch(`/api/client/website/${projectId}`, {
      data: { widgetLanguage: c.lang, widgetColor: c.lang === 'ru' ? '#FAB005' : '#4F4EAE' },
    });
    expect(configured.status).toBe(200);
    const widgetTexts = (await import(`../../widget/src/i18n/${c.lang}.ts`)).default as Messages;
    const email = `reporter-${c.lang}@mail.example`;
    const n = await reportThroughWidget(widgetTexts, `The glaze photos do not load (${c.lang})`, email);
    await flush();
    const t = reporterTexts[c.lang];
    await mailedLink(email, fill(t.confirmSubject, { n }));

    const dashboard = await teamAnswersAndResolves(n, c.answer);
    await mailResolution(n);
    const link = await mailedLink(email, fill(t.resolvedSubject, { n }));

    // The reporter opens the mailed link, in a context of their own.
    const reporter = await tab(c.viewport);
    await reporter.page.goto(link);
    await checkStatusPage(reporter.page, c.lang, n, c.answer);
    await shot(reporter.page, `reporter-status-${c.lang}-${c.viewport.width}`);
    if (c.viewport.width === phone.width) {
      await reporter.page.setViewportSize(desktop);
      expect(await axeFindings(reporter.page)).toEqual([]);
    } else {
      await reporter.page.setViewportSize(phone);
      expect(await axeFindings(reporter.page)).toEqual([]);
      expect(await reporter.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        phone.width,
      );
    }

    // The reply, by keyboard: label, text, button; the live status says it went.
    await reporter.page.getByRole('textbox', { name: t.replyLabel }).fill(c.replyText);
    await reporter.page.getByRole('button', { name: t.send }).click();
    await reporter.page.getByRole('status').filter({ hasText: t.sent }).waitFor();
    await reporter.page.getByRole('list').getByText(c.replyText).waitFor();
    expect(await axeFindings(reporter.page)).toEqual([]);
    expect(reporter.errors).toEqual([]);
    expect(reporter.failedResponses).toEqual([]);

    // The team sees it on the timeline, as the reporter's.
    await dashboard.page.reload();
    const reply = dashboard.page.getByTestId('comment').filter({ hasText: c.replyText });
    await reply.waitFor();
    await reply.getByText('Reporter').first().waitFor();
    expect(await reply.getAttribute('data-visibility')).toBe('public');
  });
});

describe('the Widget screen', () => {
  const stored = async () =>
    (
      (await owner.client.get(`/api/client/website/${projectId}`)).body as {
        msg: { website: { data: Record<string, unknown> } };
      }
    ).msg.website.data;

  it('turns reporter updates off and names the sender, in English at 1280 px and German at 390 px', async () => {
    const en = await tab(desktop, true);
    await en.page.goto(`/profile/widget/${projectId}`);
    await en.page.getByRole('heading', { name: 'Replies to visitors' }).waitFor();
    const updates = en.page.getByRole('switch', { name: 'Keep reporters informed' });
    expect(await updates.isChecked()).toBe(true);
    await en.page.getByRole('textbox', { name: 'Sender name' }).fill('Acme Support');
    await en.page.getByRole('button', { name: 'Save changes', exact: true }).click();
    await toastCame(en.page, 'Project settings saved');
    expect(await stored()).toMatchObject({ reporterUpdates: true, reporterSenderName: 'Acme Support' });
    // A name that would break the From header is refused on the screen, before the server would.
    await en.page.getByRole('textbox', { name: 'Sender name' }).fill('Acme "Support"');
    await en.page.getByRole('button', { name: 'Save changes', exact: true }).click();
    await en.page.getByText('without quotes or angle brackets', { exact: false }).waitFor();
    await en.page.getByRole('textbox', { name: 'Sender name' }).fill('Acme Support');
    await updates.click({ force: true });
    expect(await en.page.getByRole('textbox', { name: 'Sender name' }).isDisabled()).toBe(true);
    await en.page.getByRole('button', { name: 'Save changes', exact: true }).click();
    await toastCame(en.page, 'Project settings saved');
    expect(await stored()).toMatchObject({ reporterUpdates: false });
    expect(await axeFindings(en.page)).toEqual([]);
    await shot(en.page, 'widget-reporter-en-1280');
    expect(en.errors).toEqual([]);

    const de = await tab(phone, true, 'de-DE');
    await de.page.goto(`/profile/widget/${projectId}`);
    await de.page.getByRole('heading', { name: 'Antworten an Besucher' }).waitFor();
    const an = de.page.getByRole('switch', { name: 'Meldende auf dem Laufenden halten' });
    expect(await an.isChecked()).toBe(false);
    await an.click({ force: true });
    await de.page.getByRole('button', { name: 'Änderungen speichern', exact: true }).click();
    await toastCame(de.page, 'Projekteinstellungen gespeichert');
    expect(await stored()).toMatchObject({ reporterUpdates: true, reporterSenderName: 'Acme Support' });
    expect(await axeFindings(de.page)).toEqual([]);
    await shot(de.page, 'widget-reporter-de-390');
    expect(de.errors).toEqual([]);
  });

  it('lets the widget follow the visitor’s browser, the chosen language then the fallback (en and de)', async () => {
    const en = await tab(desktop, true);
    await en.page.goto(`/profile/widget/${projectId}`);
    const auto = en.page.getByRole('switch', { name: 'Follow the visitor’s browser' });
    await auto.waitFor();
    expect(await auto.isChecked()).toBe(false);
    await en.page.getByLabel('Widget language', { exact: true }).first().waitFor();
    await auto.click({ force: true });
    await en.page.getByLabel('Fallback language', { exact: true }).first().waitFor();
    await en.page.getByRole('button', { name: 'Save changes', exact: true }).click();
    await toastCame(en.page, 'Project settings saved');
    expect(await stored()).toMatchObject({ widgetLanguageAuto: true });
    expect(await axeFindings(en.page)).toEqual([]);
    expect(en.errors).toEqual([]);

    const de = await tab(desktop, true, 'de-DE');
    await de.page.goto(`/profile/widget/${projectId}`);
    const an = de.page.getByRole('switch', { name: 'Sprache des Browsers folgen' });
    await an.waitFor();
    expect(await an.isChecked()).toBe(true);
    await de.page.getByLabel('Ersatzsprache', { exact: true }).first().waitFor();
    await an.click({ force: true });
    await de.page.getByRole('button', { name: 'Änderungen speichern', exact: true }).click();
    await toastCame(de.page, 'Projekteinstellungen gespeichert');
    expect(await stored()).toMatchObject({ widgetLanguageAuto: false });
    expect(de.errors).toEqual([]);
  });
});
