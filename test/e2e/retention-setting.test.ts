/**
 * The retention setting in the dashboard (docs/retention.md), against the built dashboard and the local
 * stack: Configuration → General offers forever (the default), 30, 90, 180 and 365 days, says that copies
 * in trackers are not touched, saves the choice (which the API then answers and the audit log records), in
 * English at 1280 px and German at 390 px, with no serious axe finding.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { queryAll } from '#runtime/db';
import { getProject } from '../../functions/projects/project';
import { auditPartition } from '../../functions/teams/audit';
import { teamOf } from '../../functions/teams/member';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, signedInTab, toastCame } from '../support/browser';

const suite = setUpBrowserSuite();

async function project(api: { post: (p: string, b: unknown) => Promise<{ body: unknown }> }) {
  const created = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  return (created.body as { msg: { id: string } }).msg.id;
}

const stored = async (api: { get: (p: string) => Promise<{ body: unknown }> }, id: string) =>
  (
    (await api.get(`/api/client/website/${id}`)).body as {
      msg: { website: { data: { retentionDays: number | null } } };
    }
  ).msg.website.data.retentionDays;

const radio = (page: Page, name: string) => page.getByRole('radio', { name, exact: true });

describe('the retention setting', () => {
  it('in English at 1280 px: forever by default, 30 days saved, the tracker note shown, axe clean', async () => {
    const { api, tab, page } = await signedInTab(suite, { viewport: { width: 1280, height: 900 } });
    const id = await project(api);
    await page.goto(`/profile/configuration/${id}/general`);
    await page.getByRole('heading', { name: 'Data retention' }).waitFor();
    expect(await radio(page, 'Forever').isChecked()).toBe(true);
    for (const days of [30, 90, 180, 365])
      await radio(page, `${days} days after they were resolved`).waitFor();
    await page.getByText('Copies in your trackers and chat tools').waitFor();
    const save = page.getByRole('button', { name: 'Save retention' });
    expect(await save.isDisabled()).toBe(true);
    // Keyboard: the group is reached and changed with the arrow keys, as a radio group is.
    await radio(page, 'Forever').focus();
    await page.keyboard.press('ArrowDown');
    expect(await radio(page, '30 days after they were resolved').isChecked()).toBe(true);
    await save.click();
    await toastCame(page, 'Retention saved');
    expect(await stored(api, id)).toBe(30);
    const meta = await getProject(id);
    const audit = await queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': auditPartition(teamOf(meta as never)) },
      ConsistentRead: true,
    });
    expect(audit.map((e) => [e.kind, e.detail])).toEqual([
      ['privacy.settings', { setting: 'retentionDays', from: null, to: 30 }],
    ]);
    await page.reload();
    await page.getByRole('heading', { name: 'Data retention' }).waitFor();
    expect(await radio(page, '30 days after they were resolved').isChecked()).toBe(true);
    await shot(page, 'retention-en-1280');
    expect(await axeFindings(page)).toEqual([]);
    expect(tab.errors).toEqual([]);
  });

  it('in German at 390 px: the same choices and note, back to forever, axe clean', async () => {
    const { api, tab, page } = await signedInTab(suite, {
      locale: 'de-DE',
      viewport: { width: 390, height: 844 },
    });
    const id = await project(api);
    await page.goto(`/profile/configuration/${id}/general`);
    await page.getByRole('heading', { name: 'Aufbewahrung' }).waitFor();
    await radio(page, '365 Tage nach dem Erledigen').click();
    await page.getByRole('button', { name: 'Aufbewahrung speichern' }).click();
    await toastCame(page, 'Aufbewahrung gespeichert');
    expect(await stored(api, id)).toBe(365);
    await radio(page, 'Unbegrenzt').click();
    await page.getByRole('button', { name: 'Aufbewahrung speichern' }).click();
    await toastCame(page, 'Aufbewahrung gespeichert');
    expect(await stored(api, id)).toBeNull();
    await page.getByText('Kopien in Ihren Trackern').scrollIntoViewIfNeeded();
    await shot(page, 'retention-de-390');
    expect(await axeFindings(page)).toEqual([]);
    // No sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(tab.errors).toEqual([]);
  });
});
