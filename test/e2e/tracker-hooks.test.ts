/**
 * Two-way sync's inbound hook on the GitLab screen (issue 24), in Chromium against the built dashboard,
 * the local stack and its GitLab fake: the member makes the inbound URL and secret, sees GitLab's setup
 * steps, and registers the hook through GitLab's API; the fake then holds a project hook for exactly that
 * URL and secret, for issue and note events. In English at 1280 px and in German at 390 px, axe-clean.
 * The GitHub screen the same way against the GitHub fake (a repository hook, JSON, issues and comments).
 * Then the loop seen on the issue: closed on GitLab, the timeline says who did it there and links the
 * GitLab issue.
 */
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot } from '../support/browser';
import { eventually } from '../support/local-stack';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const suite = setUpBrowserSuite({ vendorFakes: true });

async function authorizedClient() {
  const { client: api, email } = await signedIn(suite.stack.url);
  const created = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  const id = (created.body as { msg: { id: string } }).msg.id;
  await api.post('/api/dev/plan', { username: email, plan: 'BASIC_PLAN', days: 30 });
  // Authorised on an earlier visit: the projects call stored the token and chose the first project.
  const res = await api.post('/api/client/integration/gitlab/projects', {
    siteId: id,
    host: '',
    key: 'glpat-e2e-hook',
  });
  expect(res.status).toBe(200);
  return { api, id };
}

const texts = {
  en: {
    create: 'Create the inbound URL and secret',
    url: 'Inbound URL',
    secret: 'Secret token',
    steps: 'Set it up on GitLab',
    register: 'Register the webhook on GitLab',
    registered: /^Registered on GitLab \(webhook \d+\)\.$/,
  },
  de: {
    create: 'Eingangs-URL und Secret erstellen',
    url: 'Eingangs-URL',
    secret: 'Secret-Token',
    steps: 'Einrichtung in GitLab',
    register: 'Webhook bei GitLab registrieren',
    registered: /^Bei GitLab registriert \(Webhook \d+\)\.$/,
  },
};

describe('the GitLab screen’s inbound hook', () => {
  for (const [lang, locale, viewport] of [
    ['en', 'en-US', { width: 1280, height: 900 }],
    ['de', 'de-DE', { width: 390, height: 844 }],
  ] as const) {
    it(`shows the inbound URL and secret and registers the hook on GitLab (${lang}, ${viewport.width} px)`, async () => {
      const words = texts[lang];
      const c = await authorizedClient();
      const t = await suite.newTab({ locale, viewport });
      await t.context.addCookies(
        [...c.api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
      );
      const { page } = t;
      await page.goto(`/profile/integrations/${c.id}/gitlab`);
      await page.getByText(words.steps).waitFor();
      await page.getByRole('button', { name: words.create }).click();
      const url = await page.getByLabel(words.url, { exact: true }).inputValue();
      expect(url).toMatch(new RegExp(`^${suite.stack.url}/api/hooks/gitlab/[0-9a-f]{32}$`));
      const secret = await page.getByLabel(words.secret, { exact: true }).inputValue();
      expect(secret.length).toBeGreaterThanOrEqual(32);
      expect(await axeFindings(page)).toEqual([]);

      await page.getByRole('button', { name: words.register }).click();
      await page.getByText(words.registered).waitFor();
      const hook = suite.stack.vendorFakes!.gitlab.hooks.find((h) => h.url === url);
      expect(hook).toMatchObject({ token: secret, issues_events: true, note_events: true, projectId: 101 });
      expect(await axeFindings(page)).toEqual([]);
      await shot(page, `tracker-hook-gitlab-${lang}-${viewport.width}`);
    });
  }
});

const githubTexts = {
  en: {
    steps: 'Set it up on GitHub',
    register: 'Register the webhook on GitHub',
    registered: /^Registered on GitHub \(webhook \d+\)\.$/,
  },
  de: {
    steps: 'Einrichtung in GitHub',
    register: 'Webhook bei GitHub registrieren',
    registered: /^Bei GitHub registriert \(Webhook \d+\)\.$/,
  },
};

describe('the GitHub screen’s inbound hook', () => {
  for (const [lang, locale, viewport] of [
    ['en', 'en-US', { width: 1280, height: 900 }],
    ['de', 'de-DE', { width: 390, height: 844 }],
  ] as const) {
    it(`shows the inbound URL and GitHub's steps and registers the repository hook (${lang}, ${viewport.width} px)`, async () => {
      const words = { ...texts[lang], ...githubTexts[lang] };
      const { client: api, email } = await signedIn(suite.stack.url);
      const created = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
      const id = (created.body as { msg: { id: string } }).msg.id;
      await api.post('/api/dev/plan', { username: email, plan: 'BASIC_PLAN', days: 30 });
      // Authorised on an earlier visit: the repositories call stored the token and chose the first one.
      const repos = await api.post('/api/client/integration/github/repos', {
        siteId: id,
        key: 'github_pat_11AAAe2ehook0123456789',
      });
      expect(repos.status).toBe(200);
      const t = await suite.newTab({ locale, viewport });
      await t.context.addCookies(
        [...api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
      );
      const { page } = t;
      await page.goto(`/profile/integrations/${id}/github`);
      await page.getByText(words.steps).waitFor();
      await page.getByRole('button', { name: words.create }).click();
      const url = await page.getByLabel(words.url, { exact: true }).inputValue();
      expect(url).toMatch(new RegExp(`^${suite.stack.url}/api/hooks/github/[0-9a-f]{32}$`));
      const secret = await page.getByLabel(words.secret, { exact: true }).inputValue();
      expect(secret.length).toBeGreaterThanOrEqual(32);
      expect(await axeFindings(page)).toEqual([]);

      await page.getByRole('button', { name: words.register }).click();
      await page.getByText(words.registered).waitFor();
      const hook = suite.stack.vendorFakes!.github.hooks.find((h) => h.url === url);
      expect(hook).toMatchObject({
        secret,
        contentType: 'json',
        events: ['issues', 'issue_comment'],
        active: true,
      });
      expect(await axeFindings(page)).toEqual([]);
      await shot(page, `tracker-hook-github-${lang}-${viewport.width}`);
    });
  }
});

const linearTexts = {
  en: {
    steps: 'Set it up on Linear',
    register: 'Register the webhook on Linear',
    adminOnly: /only a workspace admin’s API key register webhooks/,
    registered: /^Registered on Linear \(webhook [0-9a-f-]+\)\.$/,
  },
  de: {
    steps: 'Einrichtung in Linear',
    register: 'Webhook bei Linear registrieren',
    adminOnly: /nur dem API-Schlüssel einer Workspace-Admin/,
    registered: /^Bei Linear registriert \(Webhook [0-9a-f-]+\)\.$/,
  },
};

describe('the Linear screen’s inbound hook', () => {
  for (const [lang, locale, viewport, key] of [
    ['en', 'en-US', { width: 1280, height: 900 }, 'lin_api_member0123456789'],
    ['de', 'de-DE', { width: 390, height: 844 }, 'lin_api_admin0123456789'],
  ] as const) {
    const admin = !key.includes('member');
    it(`${admin ? 'registers the webhook with an admin key' : 'explains that a member key may not register'} (${lang}, ${viewport.width} px)`, async () => {
      const words = { ...texts[lang], ...linearTexts[lang] };
      const { client: api, email } = await signedIn(suite.stack.url);
      const created = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
      const id = (created.body as { msg: { id: string } }).msg.id;
      await api.post('/api/dev/plan', { username: email, plan: 'BASIC_PLAN', days: 30 });
      expect((await api.post('/api/client/integration/linear/teams', { siteId: id, key })).status).toBe(200);
      const t = await suite.newTab({ locale, viewport });
      await t.context.addCookies(
        [...api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
      );
      const { page } = t;
      await page.goto(`/profile/integrations/${id}/linear`);
      await page.getByText(words.steps).waitFor();
      await page.getByRole('button', { name: words.create }).click();
      const url = await page.getByLabel(words.url, { exact: true }).inputValue();
      expect(url).toMatch(new RegExp(`^${suite.stack.url}/api/hooks/linear/[0-9a-f]{32}$`));
      const before = suite.stack.vendorFakes!.linear.webhooks.length;
      await page.getByRole('button', { name: words.register }).click();
      if (admin) {
        await page.getByText(words.registered).waitFor();
        const hook = suite.stack.vendorFakes!.linear.webhooks.find((w) => w.url === url);
        expect(hook?.resourceTypes.sort()).toEqual(['Comment', 'Issue']);
      } else {
        await page.getByText(words.adminOnly).waitFor();
        expect(suite.stack.vendorFakes!.linear.webhooks.length).toBe(before);
      }
      expect(await axeFindings(page)).toEqual([]);
      await shot(page, `tracker-hook-linear-${lang}-${viewport.width}`);
    });
  }
});

describe('a change synced from GitLab on the issue’s timeline', () => {
  it('names the GitLab user and links the GitLab issue (en, 1280 px, axe)', async () => {
    const c = await authorizedClient();
    const fakes = suite.stack.vendorFakes!;
    const saved = await c.api.get(`/api/client/website/${c.id}`);
    const gitlab = (
      saved.body as { msg: { integrations: { name: string; data: object }[] } }
    ).msg.integrations.find((i) => i.name === 'gitlab');
    await c.api.patch(`/api/client/integration/${c.id}`, [{ name: 'gitlab', active: 1, data: gitlab?.data }]);
    await c.api.patch(`/api/client/integration/${c.id}`, [{ name: 'email', active: 0, data: {} }]);
    expect((await c.api.post(`/api/client/integration/gitlab/hook/${c.id}/register`)).status).toBe(200);
    const n = await fileReport(suite.stack.url, c.id, 'https://shop.example', {
      fields: { msg: 'Search is empty', title: 'Search' },
    });
    const issue = await eventually(
      async () => fakes.gitlab.issues.find((i) => i.title === `#${n} Search`),
      30_000,
      'the GitLab issue',
    );
    await eventually(
      async () => {
        const res = await c.api.get(`/api/client/website/${c.id}/request/${n}`);
        return (res.body as { msg: { gitlab_status: number } }).msg.gitlab_status === 2 ? true : undefined;
      },
      30_000,
      'delivered',
    );
    await fakes.gitlab.actAsHuman(101, issue.iid, { kind: 'close' });
    const t = await suite.newTab({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    await t.context.addCookies(
      [...c.api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
    );
    const { page } = t;
    // The hook is applied through the tracker queue: reload until the timeline has it.
    await eventually(
      async () => {
        await page.goto(`/profile/site/${c.id}/ticket/${n}`);
        const line = page.getByText('Jane Doe on GitLab set status to Resolved');
        return line.waitFor({ timeout: 3000 }).then(
          () => true,
          () => undefined,
        );
      },
      30_000,
      'the synced status on the timeline',
    );
    const link = page.getByRole('link', { name: 'Open on GitLab' });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`/-/issues/${issue.iid}$`));
    expect(await axeFindings(page)).toEqual([]);
    await shot(page, 'tracker-timeline-en-1280');
  });
});
