/**
 * The Azure DevOps Boards screen in the browser (issue 36), against the built dashboard, the local stack
 * and its Azure DevOps fake: the fake's note names the organisation URL to enter; a refused PAT says the
 * server's words; a good one authorises, lists the projects and the work item types (Bug chosen), another
 * project reloads its types; switched on and saved; the service hooks registered from the screen; English
 * at 1280 and German on a phone, axe clean, without sideways scrolling.
 */
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, type TestPage } from '../support/browser';
import { eventually } from '../support/local-stack';
import { newSite, type Site, storedIntegration } from '../support/sites';

const suite = setUpBrowserSuite({ vendorFakes: true });
const phone = { width: 390, height: 844 };

async function tab(c: Site, opts: { locale?: string; phone?: boolean } = {}): Promise<TestPage> {
  const t = await suite.newTab({
    locale: opts.locale ?? 'en-US',
    ...(opts.phone ? { viewport: phone } : {}),
    allowOrigins: [suite.stack.endpoints.s3],
  });
  await t.context.addCookies(
    [...c.client.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  return t;
}

describe('the Azure DevOps screen', () => {
  it('authorises with the organisation URL and a PAT, chooses project and type, saves and registers the hooks (en, 1280)', async () => {
    const fake = suite.stack.vendorFakes!.azure;
    const c = await newSite(suite.stack.url, 'BASIC_PLAN');
    const { page } = await tab(c);
    await page.goto(`/profile/integrations/${c.id}/azure`);
    const note = page.getByTestId('integration-fake');
    await expect.poll(async () => (await note.textContent()) ?? '').toContain(fake.orgUrl);

    await page.getByLabel('Organisation URL').fill(fake.orgUrl);
    await page.getByLabel('Personal access token').fill('invalid-pat');
    const answer = page.waitForResponse((r) => r.url().includes('/api/client/integration/azure/projects'));
    await page.getByRole('button', { name: 'Authorize' }).click();
    const { msg } = (await (await answer).json()) as { msg: string };
    await page.getByRole('alert').getByText(msg).waitFor();

    await page.getByLabel('Personal access token').fill('azure-e2e-pat-0123456789');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText('Authorized', { exact: true }).waitFor();
    expect(await page.getByLabel('Project', { exact: true }).first().inputValue()).toBe('Fabrikam-Fiber-Git');
    await eventually(
      async () =>
        (await page.getByLabel('Work item type', { exact: true }).first().inputValue()) === 'Bug'
          ? true
          : undefined,
      10_000,
      'Bug chosen',
    );
    // Another project: its types are asked for with the stored token.
    const types = fake.calls(/\/_apis\/wit\/workitemtypes$/).length;
    await page.getByLabel('Project', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Website' }).click();
    await eventually(
      async () => (fake.calls(/\/_apis\/wit\/workitemtypes$/).length > types ? true : undefined),
      10_000,
      'types of Website',
    );
    await page.getByRole('switch', { name: 'Active' }).check({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Azure DevOps integration saved', { exact: true }).waitFor();
    const stored = await storedIntegration(c, 'azure');
    expect(stored).toMatchObject({ active: 1, authorized: 1, data: { name: 'Website', issueId: 'Bug' } });

    await page.getByRole('button', { name: 'Register the webhook on Azure DevOps' }).click();
    await page
      .getByRole('status')
      .getByText(/Registered on Azure DevOps/)
      .waitFor();
    expect(fake.subscriptions.filter((s) => s.projectId === stored.data.id).map((s) => s.eventType)).toEqual([
      'workitem.updated',
      'workitem.commented',
    ]);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'integrations-azure-en-1280');
  });

  it('reads in German on a phone, authorised before, axe clean, without sideways scrolling (de, 390)', async () => {
    const fake = suite.stack.vendorFakes!.azure;
    const c = await newSite(suite.stack.url, 'BASIC_PLAN');
    const listed = await c.client.post('/api/client/integration/azure/projects', {
      siteId: c.id,
      host: fake.orgUrl,
      key: 'azure-e2e-de-0123456789',
    });
    expect(listed.status).toBe(200);
    const { page } = await tab(c, { locale: 'de-DE', phone: true });
    await page.goto(`/profile/integrations/${c.id}/azure`);
    await page.getByLabel('Organisations-URL').waitFor();
    await page.getByText('Autorisiert', { exact: true }).waitFor();
    await eventually(
      async () =>
        (await page.getByLabel('Arbeitselementtyp', { exact: true }).first().inputValue()) === 'Bug'
          ? true
          : undefined,
      10_000,
      'Bug chosen',
    );
    await page.getByText('Änderungen aus Azure DevOps').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'integrations-azure-de-390');
  });
});
