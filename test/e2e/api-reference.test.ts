/**
 * The API reference page /docs/api (issue 25) in Chromium against the built dashboard and the local stack,
 * under the dashboard's CSP: the served OpenAPI document's operations rendered by Swagger UI, the intro in
 * English (1280 px) and German (390 px), axe-core clean with the operations collapsed and with the issue
 * list opened, an operation opened with the keyboard, "Try it out" with a real token, and Swagger UI loaded
 * on this page only (the login page never downloads it).
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { v1Api } from '../../functions/issues/manifest';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, signedInTab } from '../support/browser';
import { userIdOf } from '../support/webteam';

const suite = setUpBrowserSuite();
const phone = { width: 390, height: 844 };

/** Swagger UI's files: its bundle (a hashed asset) and the reference's own chunks (script and styles). */
const isReferenceAsset = (url: string) =>
  /\/assets\/(swagger-ui-bundle|reference)-[\w-]+\.(js|css)$/.test(url);

/** Every request the page makes from now on. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r: Request) => urls.push(r.url()));
  return urls;
}

/** The tag the document gives each operation used here (functions/contracts/openapi.ts `tagOf`). */
const tags: Record<string, string> = {
  listProjects: 'Projects',
  listIssues: 'Issues',
  getIssue: 'Issues',
  updateIssue: 'Issues',
};
/** The operation block of `operationId` (Swagger UI's id: operations-<tag>-<operationId>). */
const operation = (page: Page, operationId: string) =>
  page.locator(`#operations-${tags[operationId]}-${operationId}`);

describe('/docs/api', () => {
  it('renders the served document under the CSP, loaded on this page only, axe-clean and keyboard-operable (en, 1280 px)', async () => {
    const { page, errors, failedResponses } = await suite.newTab();
    const requests = recordRequests(page);
    await page.goto('/login');
    // The login screen (a lazy chunk itself) is shown, and nothing of the renderer came with it.
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(requests.filter((u) => u.includes('/assets/LoginScreen-'))).toHaveLength(1);
    expect(requests.filter(isReferenceAsset)).toEqual([]);

    await page.goto('/docs/api');
    await page.getByRole('heading', { name: 'Snag REST API', level: 1 }).waitFor();
    const listIssues = operation(page, 'listIssues');
    await listIssues.waitFor({ timeout: 30_000 });
    expect(requests.filter(isReferenceAsset).length).toBeGreaterThanOrEqual(3);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.title()).toBe('Snag REST API · Snag');

    const intro = await page.getByTestId('api-intro').innerText();
    expect(intro).toContain(`${suite.stack.url}/api/v1`);
    expect(intro).toContain('Authorization: Bearer snag_pat_…');
    expect(intro).toContain('300 calls a minute per token');
    expect(intro).toContain('npx snag-mcp');
    expect(await page.getByRole('link', { name: 'Team → API tokens' }).getAttribute('href')).toBe(
      '/profile/team/tokens',
    );
    expect(await page.getByRole('link', { name: '/api/v1/openapi.json' }).first().getAttribute('href')).toBe(
      '/api/v1/openapi.json',
    );

    // The document's operations, each with its method, path and summary.
    const summary = (await listIssues.locator('.opblock-summary').innerText()).replace(/\s+/g, ' ');
    expect(summary).toContain('GET /api/v1/projects/{projectId}/issues');
    expect(summary).toContain('List issues, filtered and sorted, a cursor page at a time');
    // One block per token route of the v1 declaration (the document is built from it).
    expect(await page.locator('.opblock').count()).toBe(v1Api.routes.filter((r) => 'token' in r).length);
    expect(await operation(page, 'updateIssue').locator('.opblock-summary-method').innerText()).toBe('PATCH');
    // Rendered from the served document: no "unsupported" warning or load error over it.
    expect(await page.locator('.swagger-ui .errors-wrapper, .swagger-ui .info .message').count()).toBe(0);
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'api-reference-en-1280');

    // The keyboard reaches the issue list's operation in tab order, shows where it is, and opens it.
    const control = listIssues.locator('.opblock-summary-control');
    await page.getByRole('heading', { name: 'Operations', level: 2 }).click();
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await control.evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
    expect(await control.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Enter');
    expect(await control.getAttribute('aria-expanded')).toBe('true');
    await listIssues.locator('tr[data-param-name="cursor"]').waitFor();
    await listIssues.locator('.responses-table').first().waitFor();
    // Deep linking: the address names the open operation.
    await page.waitForURL((url) => url.hash === '#/Issues/listIssues');
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'api-reference-en-1280-expanded');

    // Nothing left the origin (the validator badge and any telemetry are off) and nothing failed.
    const origin = new URL(suite.stack.url).origin;
    expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:'))).toEqual([]);
    expect(errors).toEqual([]);
    expect(failedResponses).toEqual([]);
  });

  it('reads in German on a phone, axe-clean collapsed and expanded (de, 390 px)', async () => {
    const { page, errors } = await suite.newTab({ locale: 'de-DE', viewport: phone });
    await page.goto('/docs/api#/Issues/getIssue');
    await page.getByRole('heading', { name: 'Snag REST API', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    // Swagger UI's texts are English, and marked so inside the German page.
    expect(await page.getByTestId('api-reference').getAttribute('lang')).toBe('en');
    const intro = await page.getByTestId('api-intro').innerText();
    expect(intro).toContain('Authentifizierung');
    expect(intro).toContain('300 Aufrufe pro Minute und Token');
    expect(intro).toContain('Coding-Assistenten nutzen die API über');
    await page.getByRole('link', { name: 'Team → API-Tokens' }).waitFor();
    await page.getByRole('heading', { name: 'Aufrufe', level: 2 }).waitFor();
    await page.getByRole('link', { name: 'Übersicht' }).waitFor();

    // The deep link opened its operation.
    const getIssue = operation(page, 'getIssue');
    await getIssue.locator('.opblock-body').waitFor({ timeout: 30_000 });
    await getIssue.locator('.opblock-summary-control').click();
    await getIssue.locator('.opblock-body').waitFor({ state: 'detached' });
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'api-reference-de-390');

    await operation(page, 'listIssues').locator('.opblock-summary-control').click();
    await operation(page, 'listIssues').locator('tr[data-param-name="status"] select').waitFor();
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'api-reference-de-390-expanded');
    expect(errors).toEqual([]);
  });

  it('tries GET /api/v1/projects with a real token on the same origin', async () => {
    const { api, email, page } = await signedInTab(suite);
    await api.post('/api/client/website', { name: 'Docs shop', url: 'docs-shop.example' });
    const made = await api.post(`/api/client/team/${await userIdOf(email)}/tokens`, {
      name: 'Reference page',
      scopes: ['projects:read'],
    });
    const token = (made.body as { msg: { token: string } }).msg.token;
    const calls: { url: string; auth?: string; cookie?: string }[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/projects')) {
        calls.push({ url: r.url(), auth: r.headers().authorization, cookie: r.headers().cookie });
      }
    });

    await page.goto('/docs/api');
    const listProjects = operation(page, 'listProjects');
    await listProjects.waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Available authorizations' });
    await dialog.getByRole('textbox', { name: 'Value:' }).fill(token);
    expect([await axeFindings(page)]).toEqual([[]]);
    await dialog.getByRole('button', { name: 'Authorize' }).click();
    await dialog.getByRole('button', { name: 'Logout' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    await listProjects.locator('.opblock-summary-control').click();
    await listProjects.getByRole('button', { name: 'Try it out' }).click();
    await listProjects.getByRole('button', { name: 'Execute' }).click();
    const status = listProjects.locator('.live-responses-table .response .response-col_status');
    await status.waitFor();
    expect((await status.innerText()).trim()).toBe('200');
    expect(
      await listProjects.locator('.live-responses-table .response .response-col_description').innerText(),
    ).toContain('Docs shop');
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'api-reference-en-1280-try');
    // A script's call: the bearer token, same origin, without the dashboard's session cookie.
    expect(calls).toEqual([
      { url: `${suite.stack.url}/api/v1/projects`, auth: `Bearer ${token}`, cookie: undefined },
    ]);
  });
});
