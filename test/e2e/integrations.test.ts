/**
 * The integration screens in the browser (issue 11), against the built dashboard, the local stack and its
 * vendor fakes (lib/local/vendors): email with copies and contact details, webhooks, GitLab and Jira
 * authorised by token, Slack and Asana through their OAuth consent pages, the plan gate, the sync
 * summary repairing a ticket that never reached email, German on a phone, and another client kept out.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PlanName } from '../../functions/shared/plans';
import { type ApiClient, latestMail } from '../support/api-client';
import { setUpBrowserSuite, shot, type TestPage, waitEnabled, waitForPath } from '../support/browser';
import { eventually } from '../support/local-stack';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const suite = setUpBrowserSuite({ vendorFakes: true });
const phone = { width: 390, height: 844 };
const SITE = 'https://shop.example';

interface Client {
  api: ApiClient;
  email: string;
  id: string;
}

async function client(plan: PlanName = 'BASIC_PLAN'): Promise<Client> {
  const { client: api, email } = await signedIn(suite.stack.url);
  const created = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  const id = (created.body as { msg: { id: string } }).msg.id;
  if (plan !== 'FREE_PLAN') await api.post('/api/dev/plan', { username: email, plan, days: 30 });
  return { api, email, id };
}

async function tab(c: Client, opts: { locale?: string; phone?: boolean } = {}): Promise<TestPage> {
  const fakes = suite.stack.vendorFakes!;
  const t = await suite.newTab({
    locale: opts.locale ?? 'en-US',
    ...(opts.phone ? { viewport: phone } : {}),
    // The OAuth consent pages are the vendors' own origins.
    allowOrigins: [
      suite.stack.endpoints.s3,
      new URL(fakes.slack.url).origin,
      new URL(fakes.asana.url).origin,
    ],
  });
  await t.context.addCookies(
    [...c.api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  current = t;
  return t;
}

const open = (page: Page, c: Client, name: string) => page.goto(`/profile/integrations/${c.id}/${name}`);

let current: TestPage | undefined;

/** Waits for the save's toast; when it does not come, says what the page saw (errors, refused calls). */
async function saved(page: Page) {
  try {
    await page.getByText('Integration saved').waitFor();
  } catch (error) {
    await shot(page, 'integrations-failed-save');
    throw new Error(
      `no save toast: ${JSON.stringify({ errors: current?.errors, failed: current?.failedResponses })}`,
      {
        cause: error,
      },
    );
  }
}

describe('integration screens', () => {
  it('sets up email with three copies and a contact detail; the address is required while active', async () => {
    const c = await client();
    const { page } = await tab(c);
    await page.goto(`/profile/integrations/${c.id}`);
    await waitForPath(page, `/profile/integrations/${c.id}/email`);
    // A new project mails its owner from the start: on, to the owner's address.
    await page.getByLabel('Email address').waitFor();
    expect(await page.getByLabel('Email address').inputValue()).toBe(c.email);
    await page.getByLabel('Email address').fill('');
    await page.getByRole('switch', { name: 'Active' }).check({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('This field is required').first().waitFor();

    await page.getByLabel('Email address').fill('team@shop.example');
    for (let i = 1; i <= 3; i++) {
      await page.getByRole('button', { name: 'Add copy address' }).click();
      await page.getByLabel(`Copy to (CC ${i})`).fill(`cc${i}@shop.example`);
    }
    // At the limit the add control is gone (SPEC.md section 5).
    expect(await page.getByRole('button', { name: 'Add copy address' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Add contact detail' }).click();
    await page.getByLabel('Name').fill('Hotline');
    await page.getByLabel('Value').fill('+49 30 1234');
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    await shot(page, 'integrations-email-en-1280');

    await page.reload();
    expect(await page.getByLabel('Email address').inputValue()).toBe('team@shop.example');
    expect(await page.getByLabel('Copy to (CC 3)').inputValue()).toBe('cc3@shop.example');
    expect(await page.getByRole('switch', { name: 'Active' }).isChecked()).toBe(true);
  });

  it('saves a webhook with an https URL only, and shows its token masked afterwards', async () => {
    const c = await client();
    const { page } = await tab(c);
    await open(page, c, 'webhooks');
    await page.getByRole('switch', { name: 'Active' }).check({ force: true });
    await page.getByLabel('URL').fill('http://hooks.shop.example/snag');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Please enter an address that starts with https://').waitFor();
    await page.getByLabel('URL').fill('https://hooks.shop.example/snag');
    await page.getByLabel('Token').fill('whsec-0123456789abcdef');
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    await page.reload();
    const token = await page.getByLabel('Token').inputValue();
    expect(token.startsWith('••••')).toBe(true);
    expect(token).not.toContain('0123456789');
  });

  it('authorises GitLab with a token, preselects the first project, and resets', async () => {
    const c = await client();
    const { page } = await tab(c);
    await open(page, c, 'gitlab');
    await page.getByLabel('Personal access token').fill('glpat-e2e-token');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText('Authorized', { exact: true }).waitFor();
    expect(await page.getByLabel('Project', { exact: true }).first().inputValue()).toBe('Snag / Website');
    await page.getByRole('switch', { name: 'Active' }).check({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    await shot(page, 'integrations-gitlab-en-1280');

    await page.getByRole('button', { name: 'Reset authorization' }).click();
    // Unauthorised again: Authorize is back and the token is gone (SPEC.md section 4).
    await page.getByRole('button', { name: 'Authorize' }).waitFor();
    expect(await page.getByLabel('Personal access token').inputValue()).toBe('');
  });

  it('says Authorization failed for a refused Jira token, then authorises with project and issue type', async () => {
    const c = await client();
    const { page } = await tab(c);
    const jira = suite.stack.vendorFakes!.jira.url;
    await open(page, c, 'jira');
    await page.getByLabel('Jira site').fill(jira);
    await page.getByLabel('Username (email)').fill('dev@shop.example');
    await page.getByLabel('API token or password').fill('invalid-token');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByRole('alert').getByText('Authorization failed').waitFor();
    await page.getByRole('alert').getByRole('button', { name: 'Reset authorization' }).waitFor();

    await page.getByLabel('API token or password').fill('jira-e2e-token');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByText('Authorized', { exact: true }).waitFor();
    expect(await page.getByLabel('Project', { exact: true }).first().inputValue()).toBe('Website');
    await eventually(
      async () =>
        (await page.getByLabel('Issue type', { exact: true }).first().inputValue()) ? true : undefined,
      10_000,
      'issue type chosen',
    );
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Field key').fill('labels');
    await page.getByLabel('Value').fill('snag');
    await page.getByRole('switch', { name: 'Active' }).check({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
  });

  it('connects Slack through its consent page and chooses a channel', async () => {
    const c = await client();
    const { page } = await tab(c);
    await open(page, c, 'slack');
    await page.getByRole('button', { name: 'Connect to Slack' }).click();
    await page.locator('#allow').click();
    // Back through /profile/slack_redirect, the code exchanged, and the address cleaned.
    await waitForPath(page, `/profile/integrations/${c.id}/slack`, '');
    await page.getByText('Authorized', { exact: true }).waitFor();
    await page.getByLabel('Channel', { exact: true }).first().click();
    await page.getByRole('option', { name: '#general' }).click();
    await page.getByText('/invite @Snag').waitFor();
    await page.getByRole('switch', { name: 'Active' }).check({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    await shot(page, 'integrations-slack-en-1280');
  });

  it('connects Asana through /profile/asana_redirect and chooses a project', async () => {
    const c = await client();
    const { page } = await tab(c);
    await open(page, c, 'asana');
    await page.getByRole('button', { name: 'Connect to Asana' }).click();
    await page.locator('#allow').click();
    await waitForPath(page, `/profile/integrations/${c.id}/asana`, '');
    await page.getByLabel('Project', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Website bugs' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
  });

  it('shows the not-available message with an upgrade link on Free, and keeps email open', async () => {
    const c = await client('FREE_PLAN');
    const { page } = await tab(c);
    for (const name of ['gitlab', 'jira', 'slack', 'asana', 'webhooks']) {
      await open(page, c, name);
      await page.getByTestId('integration-unavailable').waitFor();
      expect(await page.getByText('The integration is currently not available').count()).toBe(1);
    }
    await page.getByRole('link', { name: 'See plans' }).click();
    await waitForPath(page, '/profile/billing');
    await open(page, c, 'email');
    await page.getByLabel('Email address').waitFor();
    expect(await page.getByTestId('integration-unavailable').count()).toBe(0);
  });

  it('repairs a ticket email never received with Sync', async () => {
    const c = await client();
    // A new project mails its owner; this one's owner switched that off before the issue came in.
    await c.api.patch(`/api/client/integration/${c.id}`, [{ name: 'email', active: 0, data: {} }]);
    const number = await fileReport(suite.stack.url, c.id, SITE, {
      fields: {
        msg: 'Button missing on the cart page',
        username: 'visitor@example.org',
        href: `${SITE}/cart`,
      },
    });
    const { page } = await tab(c);
    await open(page, c, 'email');
    // Email was off when the issue came in: it is a new ticket of the email list.
    const fresh = page.getByTestId('sync-new');
    await fresh.getByText('Button missing on the cart page').waitFor();
    const sync = page.getByRole('button', { name: /^Sync( \d+ issues?)?$/ });
    expect(await sync.isDisabled()).toBe(true);

    await page.getByLabel('Email address').fill('team@shop.example');
    await page.getByRole('switch', { name: 'Active' }).check({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    await fresh.getByRole('checkbox').first().check();
    await waitEnabled(sync);
    await shot(page, 'integrations-sync-en-1280');
    await sync.click();
    // The page reloads; the delivery then sends the mail and the ticket leaves the list.
    await eventually(
      async () => ((await latestMail(suite.stack.url, 'team@shop.example')) ? true : undefined),
      30_000,
      'email delivered',
    );
    expect((await latestMail(suite.stack.url, 'team@shop.example'))?.subject).toContain(`#${number}`);
    await page.reload();
    await fresh.getByText('No new issues.').waitFor();
  });

  it('reads in German on a phone, without sideways scrolling', async () => {
    const c = await client();
    const { page } = await tab(c, { locale: 'de-DE', phone: true });
    for (const name of ['email', 'gitlab', 'slack', 'webhooks']) {
      await open(page, c, name);
      await page.getByRole('tab', { name: 'E-Mail' }).waitFor();
      await page.getByRole('heading', { name: 'Synchronisieren' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, name).toBeLessThanOrEqual(0);
      // The tab row scrolls on a phone; the selected tab is scrolled into sight, not cut off.
      const selected = await page.getByRole('tab', { selected: true }).boundingBox();
      expect(selected && selected.x >= 0 && selected.x + selected.width <= phone.width, name).toBe(true);
      await shot(page, `integrations-${name}-de-390`);
    }
  });

  it("keeps another client out of the project's integrations", async () => {
    const owner = await client();
    const other = await client();
    const { page } = await tab(other);
    await open(page, owner, 'email');
    await waitForPath(page, '/profile');
    const res = await other.api.patch(`/api/client/integration/${owner.id}`, [
      { name: 'email', active: 1, data: { email: 'x@evil.example', cc: [], contactFields: [] } },
    ]);
    expect(res.status).toBe(404);
  });
});
