/**
 * The built dashboard served by the local stack, in Chromium: the login page renders, the API and the
 * local mailbox answer through the same origin, and signed-out visitors end at /login.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpBrowserSuite, shot, type TestPage, waitForPath } from '../support/browser';

const suite = setUpBrowserSuite();
let tab: TestPage;

beforeAll(async () => {
  tab = await suite.newTab();
});

describe('dashboard foundation', () => {
  it('renders the login page with its heading and fields', async () => {
    const { page } = tab;
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in to Snag' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Email', exact: true }).getAttribute('type')).toBe(
      'email',
    );
    const password = page.getByRole('textbox', { name: 'Password', exact: true });
    expect(await password.getAttribute('type')).toBe('password');
    // The show/hide toggle reveals the password and is labelled for screen readers.
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.title()).toBe('Sign in · Snag');
    await shot(page, 'login-en');
  });

  it('answers /api/health with success', async () => {
    const res = await tab.page.request.get('/api/health');
    expect(res.status()).toBe(200);
    expect((await res.json()).status).toBe('success');
  });

  it('answers /api/dev/emails (the local mailbox)', async () => {
    const res = await tab.page.request.get('/api/dev/emails');
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.status).toBe('success');
    expect(Array.isArray(body.msg)).toBe(true);
  });

  it('sends an unknown top-level path to /login when signed out', async () => {
    await tab.page.goto('/no-such-page');
    await waitForPath(tab.page, '/login');
    await tab.page.getByRole('heading', { name: 'Sign in to Snag' }).waitFor();
  });

  it('sends /profile to /login when signed out', async () => {
    await tab.page.goto('/profile');
    await waitForPath(tab.page, '/login');
    await tab.page.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('loads without page errors', () => {
    // A refused profile load (401) is logged by Chromium as a failed resource; nothing else may be.
    expect(tab.errors.filter((e) => !e.includes('401'))).toEqual([]);
  });
});
