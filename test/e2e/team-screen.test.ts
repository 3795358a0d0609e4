/**
 * The dashboard's teams (issue 22) in Chromium, against the built dashboard and the local stack: the top
 * bar's team switcher lists the caller's teams and switches (the snag_team cookie, the team's data
 * reloaded), /profile/team renames the team and shows its members, and a MEMBER sees none of the
 * controls of configuration, billing or team management. English at 1280 px, German at 390 px, axe-core
 * clean. Memberships are written straight into DynamoDB (test/support/webteam.ts), as the invitation
 * calls would leave them.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEAM_COOKIE } from '#contracts/cookies';
import type { ApiClient } from '../support/api-client';
import { axeFindings } from '../support/axe';
import { type PageOptions, setUpBrowserSuite, shot, type TestPage } from '../support/browser';
import { addTeam, addToTeam, inDays, setTeamPlan } from '../support/teams';
import { signedIn } from '../support/users';
import { userIdOf } from '../support/webteam';

const suite = setUpBrowserSuite();
const phone = { width: 390, height: 844 };

interface Persona {
  api: ApiClient;
  email: string;
  id: string;
}
let owner: Persona;
let member: Persona;
let projectId: string;
let agencyId: string;

/** A persona signed in through the API, and a new user of it: a tab carrying its cookies. */
async function persona(): Promise<Persona> {
  const { client, email } = await signedIn(suite.stack.url);
  return { api: client, email, id: await userIdOf(email) };
}

async function tabOf(who: Persona, opts: PageOptions = {}): Promise<TestPage> {
  const tab = await suite.newTab(opts);
  await tab.context.addCookies(
    [...who.api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  return tab;
}

async function teamCookieOf(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === TEAM_COOKIE)?.value;
}

async function expectAxeClean(page: Page, where: string) {
  expect([where, await axeFindings(page)]).toEqual([where, []]);
}

beforeAll(async () => {
  owner = await persona();
  member = await persona();
  const created = await owner.api.post<{ id: string }>('/api/client/website', {
    name: 'Shop',
    url: 'shop.example',
  });
  projectId = (created.body as { msg: { id: string } }).msg.id;
  // Starter: five member seats, so the owner and the member fit.
  await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
  // The personal team's id is its owner's id; the member joins it, and the owner has a second team.
  // The member is Grace, with a personal team of her own.
  await member.api.patch('/api/client/profile', { firstName: 'Grace', lastName: 'Hopper' });
  await member.api.patch(`/api/client/team/${member.id}`, { name: "Grace's team" });
  await addToTeam(owner.id, member.id, 'MEMBER');
  agencyId = await addTeam(owner.id, 'Agency Berlin');
});

describe('the team switcher', () => {
  it('lists the teams with their roles and switches: cookie written, the team’s projects reloaded', async () => {
    const { page, errors } = await tabOf(owner);
    await page.goto('/profile');
    const switcher = page.getByTestId('team-switcher');
    await switcher.waitFor();
    expect(await switcher.innerText()).toMatch(/Ada's team\s*Owner/);
    // No cookie before: the dashboard writes the team it shows (the personal one), so both sides agree.
    await expect.poll(() => teamCookieOf(page)).toBe(owner.id);

    await switcher.click();
    const items = page.getByRole('menuitem');
    await expect
      .poll(() => items.allInnerTexts())
      .toEqual([
        expect.stringMatching(/Ada's team\s*Owner/),
        expect.stringMatching(/Agency Berlin\s*Owner/),
        'Create team',
      ]);
    await expectAxeClean(page, 'switcher open (en, 1280)');
    await shot(page, 'team-switcher-en-1280');
    // Keyboard: Escape closes it, Enter opens it again on the first team, the arrows walk the teams.
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await switcher.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    // Opened from the keyboard, the first team has the focus. The menu moves the focus after it renders, so
    // the check waits for it (read at once, a loaded machine still saw the switcher focused).
    const focused = () =>
      page.evaluate(
        () => `${document.activeElement?.getAttribute('role')}: ${document.activeElement?.textContent}`,
      );
    await expect.poll(focused).toMatch(/^menuitem: Ada's team/);
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toMatch(/^menuitem: Agency Berlin/);

    const reload = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/client/website');
    await page.getByRole('menuitem', { name: /Agency Berlin/ }).click();
    await reload;
    expect(await teamCookieOf(page)).toBe(agencyId);
    await expect.poll(() => switcher.innerText()).toMatch(/Agency Berlin\s*Owner/);
    expect(new URL(page.url()).pathname).toBe('/profile');
    expect(errors).toEqual([]);
  });

  it('creates a team from the switcher on a phone, in German: it becomes the team in use, empty', async () => {
    const { page, errors } = await tabOf(owner, { locale: 'de-DE', viewport: phone });
    await page.context().addCookies([{ name: TEAM_COOKIE, value: owner.id, url: suite.stack.url }]);
    await page.goto('/profile');
    await expectAxeClean(page, 'dashboard (de, 390)');
    await shot(page, 'team-dashboard-de-390');
    const switcher = page.getByTestId('team-switcher');
    await switcher.click();
    await page.getByRole('menuitem', { name: 'Team erstellen' }).click();
    const dialog = page.getByRole('dialog');
    const name = dialog.getByRole('textbox', { name: 'Teamname' });
    // The names rule of the API, before anything is sent.
    await dialog.getByRole('button', { name: 'Team erstellen' }).click();
    await dialog.getByText('Dieses Feld ist erforderlich').waitFor();
    await name.fill('Agentur Süd');
    await expectAxeClean(page, 'create team dialog (de, 390)');
    await shot(page, 'team-create-de-390');
    await dialog.getByRole('button', { name: 'Team erstellen' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Team „Agentur Süd“ erstellt').waitFor();
    await expect.poll(() => switcher.innerText()).toMatch(/Agentur Süd\s*Inhaber/);
    const teams = (await owner.api.get<{ teams: { id: string; name: string }[] }>('/api/client/teams'))
      .body as {
      msg: { teams: { id: string; name: string }[] };
    };
    const created = teams.msg.teams.find((t) => t.name === 'Agentur Süd');
    expect(await teamCookieOf(page)).toBe(created?.id);
    expect(errors).toEqual([]);
  });
});

describe('/profile/team', () => {
  it('renames the team and shows its members with roles (English, 1280 px)', async () => {
    const { page, errors } = await tabOf(owner);
    await page.context().addCookies([{ name: TEAM_COOKIE, value: owner.id, url: suite.stack.url }]);
    await page.goto('/profile');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Team' })
      .click();
    await page.getByTestId('team-screen').waitFor();

    const own = page.getByTestId(`member-${owner.email}`);
    expect(await own.innerText()).toMatch(/\(You\)[\s\S]*Owner/);
    const other = page.getByTestId(`member-${member.email}`);
    expect(await other.getByRole('combobox', { name: 'Role of Grace Hopper' }).inputValue()).toBe('Member');
    expect(await page.getByTestId('team-seats').innerText()).toContain('Member seats: 2 of 5 used');
    await page.getByTestId('invite-form').waitFor();

    const name = page.getByRole('textbox', { name: 'Team name' });
    await name.fill('Lovelace Labs');
    await page.getByRole('button', { name: 'Rename team' }).click();
    await page.getByText('Team renamed').waitFor();
    await expect.poll(() => page.getByTestId('team-switcher').innerText()).toMatch(/Lovelace Labs/);
    const stored = await owner.api.get<{ team: { name: string } }>(`/api/client/team/${owner.id}`);
    expect((stored.body as { msg: { team: { name: string } } }).msg.team.name).toBe('Lovelace Labs');

    await expectAxeClean(page, 'team screen (en, 1280)');
    await shot(page, 'team-screen-en-1280');
    // An invitation: pending with its expiry, then revoked.
    const invited = `invitee${Date.now()}@example.com`;
    const form = page.getByTestId('invite-form');
    await form.getByRole('textbox', { name: 'Email' }).fill(invited);
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${invited}`).waitFor();
    const pending = page.getByTestId(`invitation-${invited}`);
    expect(await pending.innerText()).toMatch(/Member[\s\S]*Expires/);
    await pending.getByRole('button', { name: `Revoke the invitation to ${invited}` }).click();
    await pending.waitFor({ state: 'detached' });
    // Danger zone: the owner may transfer (to the member), not leave.
    await page.getByRole('button', { name: 'Transfer ownership' }).waitFor();
    expect(await page.getByRole('button', { name: 'Leave team' }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('reads in German on a phone', async () => {
    const { page } = await tabOf(owner, { locale: 'de-DE', viewport: phone });
    await page.context().addCookies([{ name: TEAM_COOKIE, value: owner.id, url: suite.stack.url }]);
    await page.goto('/profile/team');
    await page.getByTestId('team-screen').waitFor();
    await page.getByRole('heading', { name: 'Mitglieder' }).waitFor();
    expect(await page.getByTestId(`member-${owner.email}`).innerText()).toMatch(/\(Sie\)[\s\S]*Inhaber/);
    expect(await page.getByTestId('team-seats').innerText()).toContain('Mitgliederplätze: 2 von 5 belegt');
    await expectAxeClean(page, 'team screen (de, 390)');
    await shot(page, 'team-screen-de-390');
  });
});

describe('removing, demoting or an ADMIN leaving', () => {
  /** An owner's team (Starter) with an ADMIN, Alan Turing, who made the API token "CI"; its v1 status. */
  async function adminWithToken() {
    const boss = await persona();
    const admin = await persona();
    await setTeamPlan(boss.id, 'BASIC_PLAN', inDays(30));
    await admin.api.patch('/api/client/profile', { firstName: 'Alan', lastName: 'Turing' });
    await addToTeam(boss.id, admin.id, 'ADMIN');
    const made = await admin.api.post<{ token: string }>(`/api/client/team/${boss.id}/tokens`, {
      name: 'CI',
      scopes: ['projects:read'],
    });
    const token = (made.body as { msg: { token: string } }).msg.token;
    const status = async () =>
      (
        await fetch(new URL('/api/v1/projects', suite.stack.url), {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status;
    expect(await status()).toBe(200);
    return { boss, admin, status };
  }

  it('names the tokens the removal revokes, with their creator (English, 1280 px)', async () => {
    const { boss, admin, status } = await adminWithToken();
    const { page, errors } = await tabOf(boss);
    await page.goto('/profile/team');
    await page.getByTestId('team-screen').waitFor();
    await page
      .getByTestId(`member-${admin.email}`)
      .getByRole('button', { name: 'Remove Alan Turing from the team' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Remove Alan Turing from the team?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('This API token made by Alan Turing will be revoked:');
    expect(await dialog.getByRole('list', { name: /will be revoked/ }).innerText()).toBe(
      'CI (made by Alan Turing)',
    );
    await expectAxeClean(page, 'removal dialog (en, 1280)');
    await shot(page, 'team-remove-admin-en-1280');
    // Cancel changes nothing; Remove revokes the token with the membership.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await status()).toBe(200);
    await page.getByRole('button', { name: 'Remove Alan Turing from the team' }).click();
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByText('Alan Turing removed from the team').waitFor();
    expect(await status()).toBe(401);
    expect(errors).toEqual([]);
  });

  it('confirms a demotion in German on a phone, naming the token', async () => {
    const { boss, status } = await adminWithToken();
    const { page } = await tabOf(boss, { locale: 'de-DE', viewport: phone });
    await page.goto('/profile/team');
    await page.getByTestId('team-screen').waitFor();
    await page.getByRole('combobox', { name: 'Rolle von Alan Turing' }).click();
    await page.getByRole('option', { name: 'Mitglied' }).click();
    const dialog = page.getByRole('dialog', { name: 'Alan Turing zu Mitglied machen?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Dieses von Alan Turing erstellte API-Token wird widerrufen:');
    expect(await dialog.innerText()).toContain('CI (erstellt von Alan Turing)');
    await expectAxeClean(page, 'demotion dialog (de, 390)');
    await shot(page, 'team-demote-admin-de-390');
    await dialog.getByRole('button', { name: 'Rolle ändern' }).click();
    await page.getByText('Alan Turing ist jetzt Mitglied').waitFor();
    expect(await status()).toBe(401);
  });

  it('is told that their token is revoked and their invitations withdrawn, as a removal says (en, 1280)', async () => {
    const { boss, admin, status } = await adminWithToken();
    await boss.api.patch(`/api/client/team/${boss.id}`, { name: 'Bletchley Park' });
    const { page, errors } = await tabOf(admin);
    await page.context().addCookies([{ name: TEAM_COOKIE, value: boss.id, url: suite.stack.url }]);
    await page.goto('/profile/team');
    await page.getByTestId('team-screen').waitFor();
    await page.getByRole('button', { name: 'Leave team' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave Bletchley Park?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('This API token you made will be revoked:');
    expect(await dialog.getByRole('list', { name: /will be revoked/ }).innerText()).toBe(
      'CI (made by Alan Turing)',
    );
    expect(await dialog.innerText()).toContain('Pending invitations that you sent are withdrawn.');
    await expectAxeClean(page, 'leave dialog (en, 1280)');
    await shot(page, 'team-leave-admin-en-1280');
    // Leaving revokes the token with the membership.
    await dialog
      .getByRole('textbox', { name: 'Type the team name “Bletchley Park” to confirm' })
      .fill('Bletchley Park');
    await dialog.getByRole('button', { name: 'Leave team' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    expect(await status()).toBe(401);
    expect(errors).toEqual([]);
  });

  it('says it in German on a phone', async () => {
    const { boss, admin } = await adminWithToken();
    await boss.api.patch(`/api/client/team/${boss.id}`, { name: 'Bletchley Park' });
    const { page } = await tabOf(admin, { locale: 'de-DE', viewport: phone });
    await page.context().addCookies([{ name: TEAM_COOKIE, value: boss.id, url: suite.stack.url }]);
    await page.goto('/profile/team');
    await page.getByTestId('team-screen').waitFor();
    await page.getByRole('button', { name: 'Team verlassen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bletchley Park verlassen?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Dieses von Ihnen erstellte API-Token wird widerrufen:');
    expect(await dialog.innerText()).toContain('CI (erstellt von Alan Turing)');
    expect(await dialog.innerText()).toContain('Noch offene Einladungen von Ihnen werden zurückgezogen.');
    await expectAxeClean(page, 'leave dialog (de, 390)');
    await shot(page, 'team-leave-admin-de-390');
  });
});

describe('refusals', () => {
  it('shows the catalogue’s SEAT_LIMIT when a Free team has no member seat left', async () => {
    const { page } = await tabOf(owner);
    const res = await owner.api.post<{ id: string }>('/api/client/teams', { name: 'Free team' });
    const freeId = (res.body as { msg: { id: string } }).msg.id;
    await page.context().addCookies([{ name: TEAM_COOKIE, value: freeId, url: suite.stack.url }]);
    await page.goto('/profile/team');
    expect(await page.getByTestId('team-seats').innerText()).toContain('Member seats: 1 of 1 used');
    const form = page.getByTestId('invite-form');
    await form.getByRole('textbox', { name: 'Email' }).fill(`nobody${Date.now()}@example.com`);
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await form
      .getByRole('alert')
      .getByText("The team's plan has no free seat for this role. Upgrade the plan or free a seat first")
      .waitFor();
    await expectAxeClean(page, 'seat limit (en, 1280)');
    await shot(page, 'team-seat-limit-en-1280');
  });
});

describe('a MEMBER’s dashboard', () => {
  /** The member, working in the owner's team (chosen in the switcher). */
  async function memberIn(opts: PageOptions = {}) {
    const tab = await tabOf(member, opts);
    const { page } = tab;
    await page.goto('/profile');
    await page.getByTestId('team-switcher').click();
    await page.getByRole('menuitem', { name: /^(Lovelace Labs|Ada's team)/ }).click();
    await expect.poll(() => teamCookieOf(page)).toBe(owner.id);
    return tab;
  }

  it('shows no billing, project creation or team management (English, 1280 px)', async () => {
    const { page, errors } = await memberIn();
    await expect.poll(() => page.getByTestId('team-switcher').innerText()).toMatch(/Member/);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Team' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Billing' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'New project' }).count()).toBe(0);
    await expectAxeClean(page, 'member dashboard (en, 1280)');
    await shot(page, 'team-member-dashboard-en-1280');

    // The team screen: names and roles, no role selects, no invitations or invite form; leaving is allowed.
    await nav.getByRole('link', { name: 'Team' }).click();
    await page.getByTestId('team-screen').waitFor();
    expect(await page.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0);
    expect(await page.getByTestId('invite-form').count()).toBe(0);
    expect(await page.getByTestId('team-invitations').count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Team name' }).getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('button', { name: 'Rename team' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Transfer ownership' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Leave team' }).isDisabled()).toBe(false);
    await expectAxeClean(page, 'member team screen (en, 1280)');
    await shot(page, 'team-member-team-en-1280');

    // Typed addresses of screens the role does not include say so.
    await page.goto('/profile/billing');
    await page.getByTestId('role-refused').waitFor();
    expect(await page.getByTestId('current-plan').count()).toBe(0);
    await expectAxeClean(page, 'member refused (en, 1280)');
    await page.goto('/profile/create/project');
    await page.getByTestId('role-refused').waitFor();
    // The team's project: its widget screen offers a member nothing to change.
    await page.goto(`/profile/widget/${projectId}`);
    await page.getByTestId('role-refused').or(page.getByTestId('team-switcher')).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('heading', { name: 'Widget appearance' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('says so in German on a phone', async () => {
    const { page } = await memberIn({ locale: 'de-DE', viewport: phone });
    await page.goto('/profile/billing');
    await page.getByTestId('role-refused').waitFor();
    expect(await page.getByTestId('role-refused').innerText()).toContain('Mit Ihrer Rolle nicht verfügbar');
    await expectAxeClean(page, 'member refused (de, 390)');
    await shot(page, 'team-member-refused-de-390');
  });
});
