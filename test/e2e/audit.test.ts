/**
 * The team's audit log screen (issue 35) in Chromium against the built dashboard and the local stack: an
 * owner's token made and revoked appear in words with who did it; the event filter narrows the table, an
 * empty filter says so, Export CSV downloads the filtered entries with safe cells, and Older/Newer page
 * through more than 50 entries. English at 1280 px and German at 390 px (a list), axe-core clean; a MEMBER
 * is refused the log.
 */
import { describe, expect, it } from 'vitest';
import { recordAudit } from '../../functions/teams/audit';
import { axeFindings } from '../support/axe';
import { downloadText, setUpBrowserSuite, shot, signedInTab } from '../support/browser';
import { parseCsv } from '../support/csv';
import { addToTeam } from '../support/teams';
import { signedIn } from '../support/users';
import { userIdOf } from '../support/webteam';

const suite = setUpBrowserSuite();
const phone = { width: 390, height: 844 };

describe('/profile/team/audit', () => {
  it('shows who changed what, filters, exports and pages (English, 1280 px)', async () => {
    const { page, tab, api, email } = await signedInTab(suite);
    const teamId = await userIdOf(email);
    const made = await api.post(`/api/client/team/${teamId}/tokens`, {
      name: '=Deploy',
      scopes: ['issues:read'],
    });
    const token = (made.body as { msg: { token: string; entry: { id: string } } }).msg;
    expect((await api.delete(`/api/client/team/${teamId}/tokens/${token.entry.id}`)).status).toBe(200);

    await page.goto('/profile/team');
    await page.getByTestId('team-audit-link').click();
    await page.getByTestId('audit-screen').waitFor();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Audit log entries' });
    await table.getByText(`Revoked the API token “=Deploy” (snag_pat_${token.entry.id}…)`).waitFor();
    await table.getByText(`Created the API token “=Deploy” (snag_pat_${token.entry.id}…)`).waitFor();
    expect(await table.getByRole('row').nth(1).innerText()).toContain('Ada Lovelace');
    expect(await page.content()).not.toContain(token.token);
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'audit-en-1280');

    // The event filter: only the revocation is left.
    await page.getByTestId('audit-kind').click();
    await page.getByRole('option', { name: 'API token revoked', exact: true }).click();
    await expect.poll(() => page.getByTestId('audit-entry').count()).toBe(1);
    // Export CSV: the same filter, the token's name neutralised.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^snag-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parseCsv(await downloadText(download));
    expect(rows[0]?.slice(0, 3)).toEqual(['When (UTC)', 'Event', 'Who']);
    expect(rows.slice(1).map((r) => r[1])).toEqual(['token.revoked']);
    expect(rows[1]).toContain("'=Deploy");

    // By keyboard: the filter takes typing, arrows and Enter.
    await page.getByTestId('audit-kind').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Retention');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByText('No entries match these filters.').waitFor();
    expect([await axeFindings(page)]).toEqual([[]]);

    // More than a page: Older shows the rest, Newer goes back.
    const actor = { kind: 'member' as const, id: teamId, name: 'Ada Lovelace' };
    for (let i = 0; i < 52; i++) {
      await recordAudit(teamId, { kind: 'export.csv', actor, target: `Shop ${i}`, detail: { rows: i } });
    }
    await page.reload();
    await page.getByTestId('audit-screen').waitFor();
    await expect.poll(() => page.getByTestId('audit-entry').count()).toBe(50);
    await page.getByText('Exported 51 issues of Shop 51 as CSV').waitFor();
    await page.getByRole('button', { name: 'Older entries' }).click();
    await page.getByText('Exported 0 issues of Shop 0 as CSV').waitFor();
    await expect.poll(() => page.getByTestId('audit-entry').count()).toBe(4);
    await page.getByRole('button', { name: 'Newer entries' }).click();
    await page.getByText('Exported 51 issues of Shop 51 as CSV').waitFor();
    expect(tab.errors).toEqual([]);
  });

  it('reads in German as a list on a phone, and a MEMBER is refused', async () => {
    const { page, api, email, tab } = await signedInTab(suite, { locale: 'de-DE', viewport: phone });
    const teamId = await userIdOf(email);
    await api.post(`/api/client/team/${teamId}/tokens`, { name: 'MCP', scopes: ['issues:read'] });
    await page.goto('/profile/team/audit');
    await page.getByTestId('audit-screen').waitFor();
    await page.getByRole('heading', { name: 'Protokoll', level: 1 }).waitFor();
    const list = page.getByRole('list', { name: 'Einträge des Protokolls' });
    await list.getByText(/API-Token „MCP“ erstellt/).waitFor();
    expect(await list.innerText()).toContain('Ada Lovelace');
    await page.getByRole('link', { name: 'Als CSV exportieren' }).waitFor();
    // No side scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'audit-de-390');
    expect(tab.errors).toEqual([]);

    const member = await signedIn(suite.stack.url);
    await addToTeam(teamId, await userIdOf(member.email), 'MEMBER');
    const refused = await member.client.get(`/api/client/team/${teamId}/audit`);
    expect(refused.status).toBe(403);
  });
});
