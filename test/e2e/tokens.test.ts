/**
 * The team's API tokens screen (issue 25) in Chromium against the built dashboard and the local stack: an
 * owner creates a token, sees it once with a copy button, the token works against /api/v1, the list shows
 * it without its secret and with its creator, and Revoke ends it at once; the issue it changed says who,
 * through which token.
 * English at 1280 px and German at 390 px, axe-core clean; a MEMBER is not offered the screen.
 */
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, signedInTab } from '../support/browser';
import { seedIssues } from '../support/issues';
import { addToTeam } from '../support/teams';
import { signedIn } from '../support/users';
import { userIdOf } from '../support/webteam';

const suite = setUpBrowserSuite();
const phone = { width: 390, height: 844 };

const v1Status = async (token: string) =>
  (
    await fetch(new URL('/api/v1/projects', suite.stack.url), {
      headers: { authorization: `Bearer ${token}` },
    })
  ).status;

describe('/profile/team/tokens', () => {
  it('creates a token shown once, which works until it is revoked (English, 1280 px)', async () => {
    const { page, tab, api } = await signedInTab(suite);
    const site = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
    const projectId = (site.body as { msg: { id: string } }).msg.id;
    await seedIssues(projectId, 1);
    await page.goto('/profile/team');
    await page.getByTestId('team-tokens-link').click();
    await page.getByTestId('tokens-screen').waitFor();
    expect(await page.getByTestId('token-list').innerText()).toContain('This team has no API tokens.');
    expect([await axeFindings(page)]).toEqual([[]]);

    await page.getByRole('textbox', { name: 'Name' }).fill('Release script');
    await page
      .getByRole('checkbox', { name: 'Change status, priority, assignee, labels and due dates' })
      .check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByTestId('token-shown');
    await shown.waitFor();
    expect(await shown.innerText()).toContain('Copy it now: it is shown only this once.');
    const token = (await page.getByTestId('token-value').innerText()).trim();
    expect(token).toMatch(/^snag_pat_[A-Za-z0-9_-]{55}$/);
    await shown.getByRole('button', { name: 'Copy token' }).waitFor();

    const row = page.getByTestId('token-Release script');
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain(token.slice(0, 21));
    expect(text).not.toContain(token.slice(21));
    expect(text).toMatch(/issues:write/);
    expect(text).toMatch(/last used never/);
    // Its creator: removing or demoting them revokes it (issue 31).
    expect(text).toContain('Made by Ada Lovelace');
    expect(await v1Status(token)).toBe(200);
    const patched = await fetch(new URL(`/api/v1/projects/${projectId}/issues/1`, suite.stack.url), {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ priority: 'high' }),
    });
    expect(patched.status).toBe(200);
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'tokens-en-1280');

    // Once dismissed, the token is gone from the page: only its prefix remains.
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(token.slice(21));

    await row.getByRole('button', { name: 'Revoke the token Release script' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await v1Status(token)).toBe(401);

    // The token's change reads as its creator's, through the token; revoking it keeps the record.
    await page.goto(`/profile/site/${projectId}/ticket/1`);
    await page
      .getByTestId('activity-line')
      .getByText('Ada Lovelace via API token Release script set priority to High')
      .waitFor();
    expect(tab.errors).toEqual([]);
  });

  it('reads in German on a phone, and the tokens stay refused to a MEMBER', async () => {
    const { page, email } = await signedInTab(suite, { locale: 'de-DE', viewport: phone });
    await page.goto('/profile/team/tokens');
    await page.getByTestId('tokens-screen').waitFor();
    await page.getByRole('heading', { name: 'API-Tokens', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('MCP');
    await page.getByRole('button', { name: 'Token erstellen' }).click();
    await page.getByTestId('token-shown').waitFor();
    expect(await page.getByTestId('token-shown').innerText()).toContain('nur dieses eine Mal');
    await page.getByTestId('token-MCP').waitFor();
    expect(await page.getByTestId('token-MCP').innerText()).toContain('Erstellt von Ada Lovelace');
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'tokens-de-390');

    const member = await signedIn(suite.stack.url);
    await addToTeam(await userIdOf(email), await userIdOf(member.email), 'MEMBER');
    const refused = await member.client.get(`/api/client/team/${await userIdOf(email)}/tokens`);
    expect(refused.status).toBe(403);
  });
});
