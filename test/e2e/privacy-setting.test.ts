/**
 * Strict privacy mode in the dashboard (docs/privacy.md "Strict privacy mode"), against the built dashboard
 * and the local stack: Configuration → General has a Privacy section beside Data retention with the
 * switch and a sentence of what it does; saving it is what the API then answers and the audit log records;
 * in English at 1280 px and German at 390 px, keyboard-usable, with no serious axe finding.
 */
import { describe, expect, it } from 'vitest';
import { queryAll } from '#runtime/db';
import { getProject } from '../../functions/projects/project';
import { auditPartition } from '../../functions/teams/audit';
import { teamOf } from '../../functions/teams/member';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, signedInTab, toastCame } from '../support/browser';

const suite = setUpBrowserSuite();

type Api = {
  post: (p: string, b: unknown) => Promise<{ body: unknown }>;
  get: (p: string) => Promise<{ body: unknown }>;
};

async function project(api: Api) {
  const created = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  return (created.body as { msg: { id: string } }).msg.id;
}

const stored = async (api: Api, id: string) =>
  (
    (await api.get(`/api/client/website/${id}`)).body as {
      msg: { website: { data: { strictPrivacy: boolean } } };
    }
  ).msg.website.data.strictPrivacy;

async function auditDetails(id: string) {
  const meta = await getProject(id);
  const audit = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': auditPartition(teamOf(meta as never)) },
    ConsistentRead: true,
  });
  return audit.map((e) => [e.kind, e.detail]);
}

describe('the strict privacy setting', () => {
  it('in English at 1280 px: off by default, turned on with the keyboard and saved, audited, axe clean', async () => {
    const { api, tab, page } = await signedInTab(suite, { viewport: { width: 1280, height: 900 } });
    const id = await project(api);
    await page.goto(`/profile/configuration/${id}/general`);
    await page.getByRole('heading', { name: 'Privacy', exact: true }).waitFor();
    const strict = page.getByRole('switch', { name: 'Strict privacy mode' });
    expect(await strict.isChecked()).toBe(false);
    await page.getByText('Addresses are stored without query strings or fragments').waitFor();
    const save = page.getByRole('button', { name: 'Save privacy' });
    expect(await save.isDisabled()).toBe(true);
    await strict.focus();
    await page.keyboard.press('Space');
    expect(await strict.isChecked()).toBe(true);
    await save.click();
    await toastCame(page, 'Privacy saved');
    expect(await stored(api, id)).toBe(true);
    expect(await auditDetails(id)).toEqual([
      ['privacy.settings', { setting: 'strictPrivacy', from: false, to: true }],
    ]);
    await page.reload();
    await page.getByRole('heading', { name: 'Privacy', exact: true }).waitFor();
    expect(await page.getByRole('switch', { name: 'Strict privacy mode' }).isChecked()).toBe(true);
    await page.getByRole('heading', { name: 'Privacy', exact: true }).scrollIntoViewIfNeeded();
    await shot(page, 'privacy-en-1280');
    expect(await axeFindings(page)).toEqual([]);
    expect(tab.errors).toEqual([]);
  });

  it('in German at 390 px: on, then off again, each saved, axe clean, no sideways scrolling', async () => {
    const { api, tab, page } = await signedInTab(suite, {
      locale: 'de-DE',
      viewport: { width: 390, height: 844 },
    });
    const id = await project(api);
    await page.goto(`/profile/configuration/${id}/general`);
    await page.getByRole('heading', { name: 'Datenschutz', exact: true }).waitFor();
    const strict = page.getByRole('switch', { name: 'Strenger Datenschutzmodus' });
    const save = page.getByRole('button', { name: 'Datenschutz speichern' });
    await strict.click();
    await save.click();
    await toastCame(page, 'Datenschutz gespeichert');
    expect(await stored(api, id)).toBe(true);
    await strict.click();
    await save.click();
    await toastCame(page, 'Datenschutz gespeichert');
    expect(await stored(api, id)).toBe(false);
    await page.getByText('Adressen werden ohne Query-String').scrollIntoViewIfNeeded();
    await shot(page, 'privacy-de-390');
    expect(await axeFindings(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(tab.errors).toEqual([]);
  });
});
