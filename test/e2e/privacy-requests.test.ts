/**
 * The team's Privacy screen (requests about a person's data) in Chromium against the built dashboard and
 * the local stack: an owner finds a visitor's issues by their address, exports them (progress, then a
 * download link to a ZIP) and erases them after typing the address again. English at 1280 px and German
 * at 390 px, axe-core clean, usable by keyboard.
 */
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, signedInTab } from '../support/browser';
import { userIdOf } from '../support/webteam';
import { fileReport } from '../support/widget';

const suite = setUpBrowserSuite();
const phone = { width: 390, height: 844 };

async function projectWithReport(api: Awaited<ReturnType<typeof signedInTab>>['api'], visitor: string) {
  const created = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  const pid = (created.body as { msg: { id: string } }).msg.id;
  await fileReport(suite.stack.url, pid, 'https://shop.example', {
    // The free plan takes no files: the integration test covers them; the screen is what this proves.
    fields: { msg: 'The basket forgets my address', username: visitor },
  });
  return pid;
}

describe('/profile/team/privacy', () => {
  it('finds, exports and erases a visitor’s data (English, 1280 px)', async () => {
    const { page, tab, api, email } = await signedInTab(suite);
    await userIdOf(email);
    const visitor = `grace-${Date.now()}@mail.example`;
    await projectWithReport(api, visitor);

    await page.goto('/profile/team');
    await page.getByTestId('team-privacy-link').click();
    await page.getByRole('heading', { name: 'Requests about a person’s data', level: 1 }).waitFor();
    // A member's own address: no reported issue, but the export would hold their comments; nothing to erase.
    await page.getByLabel('Reporter’s email address').fill(email);
    await page.keyboard.press('Enter');
    await page.getByText('This address belongs to a member of the team', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Export (ZIP)' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Erase…' }).count()).toBe(0);
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'privacy-member-en-1280');
    // By keyboard: type the address, Enter finds.
    await page.getByLabel('Reporter’s email address').fill(visitor);
    await page.keyboard.press('Enter');
    await page.getByText(`1 issue from ${visitor}`).waitFor();
    const list = page.getByTestId('privacy-list');
    await list.getByText('The basket forgets my address').waitFor();
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'privacy-en-1280');

    await page.getByRole('button', { name: 'Export (ZIP)' }).click();
    await page.getByText('The export is ready. The link works for 5 minutes.').waitFor();
    const href = await page.getByRole('link', { name: 'Download the ZIP' }).getAttribute('href');
    const zip = await fetch(href as string);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'privacy-export-en-1280');
    // The same screen on a phone (the export's link in view), then back to 1280 for the dialog.
    await page.setViewportSize(phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'privacy-export-en-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Erase…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this person’s data' });
    // The modal fades in: axe judges its colours once it is there, as a person sees it.
    await expect.poll(() => dialog.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    const confirm = dialog.getByRole('button', { name: 'Erase', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type the address “${visitor}” again to confirm`).fill('someone@else.example');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type the address “${visitor}” again to confirm`).fill(visitor);
    expect([await axeFindings(page)]).toEqual([[]]);
    await confirm.click();
    await page.getByText(`1 issue from ${visitor} erased.`).waitFor();
    // Nothing is left to find.
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByText(`0 issues from ${visitor}`).waitFor();
    expect(tab.errors).toEqual([]);
  });

  it('reads in German on a phone, without side scrolling', async () => {
    const { page, api, tab } = await signedInTab(suite, { locale: 'de-DE', viewport: phone });
    const visitor = `ada-${Date.now()}@mail.example`;
    await projectWithReport(api, visitor);
    await page.goto('/profile/team/privacy');
    await page.getByRole('heading', { name: 'Anfragen zu den Daten einer Person', level: 1 }).waitFor();
    await page.getByLabel('E-Mail-Adresse der meldenden Person').fill(visitor);
    await page.getByRole('button', { name: 'Suchen' }).click();
    await page.getByText(`1 Meldung von ${visitor}`).waitFor();
    await page.getByRole('button', { name: 'Exportieren (ZIP)' }).click();
    await page.getByRole('link', { name: 'ZIP herunterladen' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'privacy-de-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'privacy-de-1280');
    expect(tab.errors).toEqual([]);
  });
});
