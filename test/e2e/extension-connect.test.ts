/**
 * The browser extension's connection (contracts/extension.ts) in Chromium against the built dashboard and
 * the local stack: a signed-in member opens the connect page as the extension opens it (a computed PKCE
 * challenge), approves, and lands on the done page with a code; the test exchanges it as the extension's
 * worker would and reads the member's projects with the token; Profile → Browser extension lists the
 * connection; Revoke (confirmed) ends it at once (401). Signed out, the page goes to sign-in and comes back
 * with its query; Cancel ends on "Not connected"; a broken address says so with nothing to press. A new
 * user without an account goes from the connect page to Register, confirms through the emailed link (the
 * local SES stand-in's mailbox) and comes back to the connect page with its challenge and state.
 * English at 1280 px and German at 390 px, axe-core clean.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { latestMail, linkIn } from '../support/api-client';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, signedInTab, waitEnabled, waitForPath } from '../support/browser';
import { eventually } from '../support/local-stack';
import { signedIn } from '../support/users';

const suite = setUpBrowserSuite();
const phone = { width: 390, height: 844 };

function pkce() {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');
  return { verifier, challenge, state };
}

const connectUrl = (p: { challenge: string; state: string }, browser: string) =>
  `/connect/extension?${new URLSearchParams({ challenge: p.challenge, state: p.state, browser })}`;

/** As the extension's background worker: its own origin, no cookie. */
async function exchange(code: string, verifier: string) {
  const res = await fetch(new URL('/api/extension/token', suite.stack.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
    },
    body: JSON.stringify({ code, verifier }),
  });
  return { status: res.status, body: (await res.json()) as { msg: { token: string } } };
}

async function projectsWith(token: string) {
  const res = await fetch(new URL('/api/v1/projects', suite.stack.url), {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { status: string; msg: { projects: { name: string }[] } };
  return { status: res.status, names: body.status === 'success' ? body.msg.projects.map((p) => p.name) : [] };
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

describe('/connect/extension', () => {
  it('connects a signed-in member, who then sees and revokes the connection under Profile (English, 1280 px)', async () => {
    const { page, tab, api } = await signedInTab(suite);
    await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
    const p = pkce();
    await page.goto(connectUrl(p, 'Chrome'));
    const card = page.getByTestId('extension-approval');
    await card.waitFor();
    await page.getByRole('heading', { name: 'Connect the Snag browser extension', level: 1 }).waitFor();
    const text = await card.innerText();
    expect(text).toContain('Chrome');
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('see your password or use your sign-in');
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'extension-connect-en-1280');

    // Keyboard: Approve is reachable and works with Enter.
    await button(page, 'Approve').focus();
    await page.keyboard.press('Enter');
    await waitForPath(page, '/connect/extension/done');
    const done = new URL(page.url());
    expect(done.searchParams.get('state')).toBe(p.state);
    const code = done.searchParams.get('code') ?? '';
    expect(code).toMatch(/^[A-Za-z0-9_-]{32,64}$/);
    await page.getByText('Connected. You can close this tab.').waitFor();
    // The page informs; it never shows the code.
    expect(await page.locator('main').innerText()).not.toContain(code);
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'extension-done-en-1280');

    const exchanged = await exchange(code, p.verifier);
    expect(exchanged.status).toBe(200);
    const { token } = exchanged.body.msg;
    expect(await projectsWith(token)).toEqual({ status: 200, names: ['Shop'] });

    await page.goto('/profile/edit');
    await page.getByRole('tab', { name: 'Browser extension' }).click();
    await waitForPath(page, '/profile/edit/extension');
    const row = page.getByTestId(`extension-${token.slice(9, 21)}`);
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Chrome[\s\S]*Connected .* · last used .* · expires /);
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'extension-profile-en-1280');

    await row.getByRole('button', { name: 'Revoke the connection of Chrome' }).click();
    const dialog = page.getByTestId('extension-revoke');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('stops working at once');
    expect([await axeFindings(page)]).toEqual([[]]);
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    expect(await page.getByTestId('extension-list').innerText()).toContain('No browser is connected.');
    expect((await projectsWith(token)).status).toBe(401);
    expect(tab.errors).toEqual([]);
  });

  it('signed out, goes to sign-in and back; Cancel ends on "Not connected" (German, 390 px)', async () => {
    const { email, password } = await signedIn(suite.stack.url);
    const tab = await suite.newTab({ locale: 'de-DE', viewport: phone });
    const { page } = tab;
    const p = pkce();
    await page.goto(connectUrl(p, 'Firefox'));
    await waitForPath(page, '/login');
    await page.getByRole('textbox', { name: 'E-Mail', exact: true }).fill(email);
    await page.getByRole('textbox', { name: 'Passwort', exact: true }).fill(password);
    await button(page, 'Anmelden').click();
    await waitForPath(page, '/connect/extension');
    const back = new URL(page.url());
    expect(Object.fromEntries(back.searchParams)).toEqual({
      challenge: p.challenge,
      state: p.state,
      browser: 'Firefox',
    });
    await page.getByRole('heading', { name: 'Die Snag-Browsererweiterung verbinden', level: 1 }).waitFor();
    expect(await page.getByTestId('extension-approval').innerText()).toContain('Firefox');
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'extension-connect-de-390');

    await button(page, 'Abbrechen').click();
    await waitForPath(page, '/connect/extension/done');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ error: 'denied', state: p.state });
    await page.getByText('Nicht verbunden. Die Erweiterung hat keinen Zugriff auf Ihr Konto.').waitFor();
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'extension-denied-de-390');

    // An address the extension did not make: a clear message, nothing to approve.
    await page.goto('/connect/extension?challenge=short&state=x');
    await page.getByTestId('extension-invalid').waitFor();
    expect(await page.getByTestId('extension-invalid').innerText()).toContain(
      'Dieser Verbindungslink ist ungültig',
    );
    expect(await button(page, 'Zulassen').count()).toBe(0);
    expect([await axeFindings(page)]).toEqual([[]]);

    // No connection was made: Profile → Browsererweiterung says how to make one.
    await page.goto('/profile/edit/extension');
    await page.getByTestId('extension-list').waitFor();
    await page.getByText('Kein Browser ist verbunden.').waitFor();
    await page.getByText('installieren Sie die Snag-Erweiterung', { exact: false }).waitFor();
    expect(await page.getByRole('tab', { name: 'Browsererweiterung' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'extension-profile-de-390');
    // Nothing on the phone scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(tab.errors).toEqual([]);
  });

  it('brings a new user back to the connect page after registering and confirming by mail (English, 1280 px)', async () => {
    const tab = await suite.newTab();
    const { page, context } = tab;
    const p = pkce();
    const email = `ext-new-${Date.now()}@example.com`;
    const password = 'a-new-secret';
    await page.goto(connectUrl(p, 'Chrome'));
    await waitForPath(page, '/login');
    // No account yet: Register keeps the way back.
    await page.getByRole('link', { name: 'Create an account', exact: true }).click();
    await waitForPath(page, '/registration');
    await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Grace');
    await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Hopper');
    await page.getByRole('textbox', { name: 'Work email', exact: true }).fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    const submit = button(page, 'Create account');
    await waitEnabled(submit);
    await submit.click();
    await waitForPath(page, '/confirm_registration');
    // "Back to sign in" would return to the connect page too.
    const back = new URL(
      (await page.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')) ?? '',
      suite.stack.url,
    );
    expect(back.pathname).toBe('/login');
    expect(back.searchParams.get('next')).toBe(connectUrl(p, 'Chrome'));
    await shot(page, 'extension-register-confirm-en-1280');

    // The emailed link, opened in a new tab of the same browser, as a mail client does.
    const mail = await eventually(
      async () => latestMail(suite.stack.url, email),
      15_000,
      `the confirmation mail to ${email}`,
    );
    const link = linkIn(mail, '/confirm_email');
    const mailTab = await context.newPage();
    await mailTab.goto(`${link.pathname}${link.search}`);
    await waitForPath(mailTab, '/login');
    await mailTab.getByText('Your account is confirmed. You can sign in now.').waitFor();
    await mailTab.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await mailTab.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await button(mailTab, 'Sign in').click();
    await waitForPath(mailTab, '/connect/extension');
    expect(Object.fromEntries(new URL(mailTab.url()).searchParams)).toEqual({
      challenge: p.challenge,
      state: p.state,
      browser: 'Chrome',
    });
    const card = mailTab.getByTestId('extension-approval');
    await card.waitFor();
    expect(await card.innerText()).toContain('Grace Hopper');
    await button(mailTab, 'Approve').click();
    await waitForPath(mailTab, '/connect/extension/done');
    const done = new URL(mailTab.url());
    expect(done.searchParams.get('state')).toBe(p.state);
    const exchanged = await exchange(done.searchParams.get('code') ?? '', p.verifier);
    expect(exchanged.status).toBe(200);
    expect((await projectsWith(exchanged.body.msg.token)).status).toBe(200);
    // Remembered once: the page is forgotten after the link used it.
    expect(await mailTab.evaluate(() => localStorage.getItem('snag.afterConfirm'))).toBeNull();
    await mailTab.close();
    expect(tab.errors).toEqual([]);
  });
});
