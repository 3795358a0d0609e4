import { describe, expect, it } from 'vitest';
import type { IssueAnswer } from '#contracts/review';
import {
  afterLeaving,
  backTarget,
  downloadUrl,
  formatBytes,
  integrationRows,
  isShortcutIgnored,
  issueListPath,
  listNeighbours,
  listQueryOf,
  listSearchParams,
  oneLineTitle,
  pageCount,
  previewAfterTitle,
  snapshotFrameBox,
  snapshotPath,
  undoOf,
  viewerFor,
} from '../../../web/src/issues/model';

const id = '0b5a0c5e-6a43-4a5e-9a43-7c1f00000001';

describe('the list in the address', () => {
  it('reads page and search, falling back to page 1 for anything malformed', () => {
    expect(listQueryOf(new URLSearchParams('page=3&search=cart'))).toEqual({ page: 3, search: 'cart' });
    for (const bad of [
      'page=0',
      'page=-1',
      'page=2.5',
      'page=abc',
      'page=',
      'page=1e3',
      'page=9999999',
      'page=100001',
    ])
      expect(listQueryOf(new URLSearchParams(bad)).page).toBe(1);
    expect(listQueryOf(new URLSearchParams(`search=${'x'.repeat(80)}`)).search).toHaveLength(50);
    // The last page the API answers.
    expect(listQueryOf(new URLSearchParams('page=100000')).page).toBe(100000);
  });

  it('writes only what differs from the plain list', () => {
    expect(listSearchParams({ page: 1, search: '' }).toString()).toBe('');
    expect(listSearchParams({ page: 1, search: '  ' }).toString()).toBe('');
    expect(listSearchParams({ page: 2, search: ' Blue cart ' }).toString()).toBe('search=Blue+cart&page=2');
  });

  it('asks the API for the page, the trimmed search and the resolved list', () => {
    expect(issueListPath(id, false, { page: 1, search: '' })).toBe(`/client/website/${id}/request?page=1`);
    expect(issueListPath(id, true, { page: 4, search: ' a&b ' })).toBe(
      `/client/website/${id}/request?page=4&search=a%26b&resolved=1`,
    );
  });

  it('has at least one page, and 10 issues a page', () => {
    expect([0, 1, 10, 11, 20, 21].map(pageCount)).toEqual([1, 1, 1, 2, 2, 3]);
  });

  it('does not repeat the title in the preview', () => {
    expect(previewAfterTitle('Broken cart', 'Broken cart\nThe button does nothing')).toBe(
      'The button does nothing',
    );
    expect(previewAfterTitle('Own title', 'The description')).toBe('The description');
    expect(previewAfterTitle('Only line', 'Only line')).toBe('');
  });
});

describe('the issue screen', () => {
  const issue = (statuses: Partial<Record<string, number | string>>) =>
    ({
      email_status: 0,
      gitlab_status: 0,
      jira_status: 0,
      slack_status: 0,
      asana_status: 0,
      webhooks_status: 0,
      ...statuses,
    }) as unknown as IssueAnswer;

  it('hides integrations at status 0 and names the others (SPEC.md section 4 codes)', () => {
    expect(integrationRows(issue({}))).toEqual([]);
    expect(integrationRows(issue({ email_status: 2, jira_status: 3, webhooks_status: 1 }))).toEqual([
      { name: 'email', status: 'passed' },
      { name: 'jira', status: 'failed' },
      { name: 'webhooks', status: 'inProgress' },
    ]);
    // The reason of a permanent failure shows with the failed row only.
    expect(
      integrationRows(
        issue({ slack_status: 3, slack_reason: 'Invite the app', email_status: 2, email_reason: 'stale' }),
      ),
    ).toEqual([
      { name: 'email', status: 'passed' },
      { name: 'slack', status: 'failed', reason: 'Invite the app' },
    ]);
  });

  it('says "posted" for a destination that answers no id (Teams), with no link even if one were stored', () => {
    expect(
      integrationRows(
        issue({
          teams_status: 2,
          teams_url: 'https://teams.example/x',
          discord_status: 2,
          teams_reason: 'x',
        }),
      ),
    ).toEqual([
      { name: 'teams', status: 'posted' },
      { name: 'discord', status: 'passed' },
    ]);
    expect(integrationRows(issue({ teams_status: 3, teams_reason: 'Refused (401)' }))).toEqual([
      { name: 'teams', status: 'failed', reason: 'Refused (401)' },
    ]);
  });

  it('links the item a delivery created, and only an http(s) address (it came from a vendor)', () => {
    expect(
      integrationRows(
        issue({
          github_status: 2,
          github_url: 'https://github.com/octo-org/shop/issues/12',
          slack_status: 2,
          slack_url: 'javascript:alert(1)',
          asana_status: 2,
          email_status: 2,
        }),
      ),
    ).toEqual([
      { name: 'email', status: 'passed' },
      { name: 'slack', status: 'passed' },
      { name: 'asana', status: 'passed' },
      { name: 'github', status: 'passed', url: 'https://github.com/octo-org/shop/issues/12' },
    ]);
  });

  it('downloads through the API, escaping the parts, with ?download=1 to force a download', () => {
    expect(downloadUrl('file', id, 'a.pdf', true)).toBe(`/api/client/download/file/${id}/a.pdf?download=1`);
    expect(downloadUrl('screenshot', id, '../x')).toBe(`/api/client/download/screenshot/${id}/..%2Fx`);
  });

  it('views images and text only; an HTML file is text', () => {
    expect(viewerFor('image/png')).toBe('image');
    expect(viewerFor('image/webp')).toBe('image');
    expect(viewerFor('text/html')).toBe('text');
    expect(viewerFor('application/json')).toBe('text');
    for (const type of ['application/pdf', 'image/svg+xml', 'application/zip', 'video/mp4', ''])
      expect(viewerFor(type)).toBeNull();
  });

  it("shows the snapshot at the visitor's window size, scaled down to fit and never up", () => {
    const view = { scrollX: 0, scrollY: 900, width: 390, height: 844, devicePixelRatio: 3 };
    expect(snapshotFrameBox(view, { width: 1200, height: 700 })).toEqual({
      width: 390,
      height: 844,
      scale: 700 / 844,
    });
    expect(snapshotFrameBox({ ...view, width: 1280, height: 720 }, { width: 640, height: 700 })).toEqual({
      width: 1280,
      height: 720,
      scale: 0.5,
    });
    expect(snapshotFrameBox({ ...view, width: 800, height: 600 }, { width: 1200, height: 900 }).scale).toBe(
      1,
    );
    // Without the widget's record it fills the space.
    expect(snapshotFrameBox(null, { width: 700.5, height: 500 })).toEqual({
      width: 700,
      height: 500,
      scale: 1,
    });
    expect(snapshotPath(id, 'a.html')).toBe(`/client/snapshot/${id}/a.html`);
  });

  it("walks Previous and Next in the list's order, newest first (issue 19)", () => {
    // Issue 12 is the newest: nothing above it, 11 below.
    expect(listNeighbours({ prev_number: 11, next_number: null })).toEqual({ previous: null, next: 11 });
    expect(listNeighbours({ prev_number: 3, next_number: 7 })).toEqual({ previous: 7, next: 3 });
    // After a resolve: the issue below, else the one above, else the list.
    expect(afterLeaving({ prev_number: 3, next_number: 7 })).toBe(3);
    expect(afterLeaving({ prev_number: null, next_number: 7 })).toBe(7);
    expect(afterLeaving({ prev_number: null, next_number: null })).toBeNull();
  });

  it('reads the Undo of the last move from the history state, and nothing else', () => {
    expect(undoOf({ from: '/x', undo: { number: 4, resolved: true } })).toEqual({
      number: 4,
      resolved: true,
    });
    for (const state of [null, undefined, 'x', { from: '/x' }, { undo: { number: '4', resolved: true } }])
      expect(undoOf(state)).toBeNull();
  });

  it("goes back to the list it came from when that is one of this project's lists, else the issue's own", () => {
    const open = `/profile/site/${id}`;
    const resolved = `/profile/resolved/${id}`;
    expect(backTarget({ from: `${open}?page=2&search=cart` }, id, 0)).toBe(`${open}?page=2&search=cart`);
    expect(backTarget({ from: resolved }, id, 0)).toBe(resolved);
    // No list, another project's list, a look-alike path or another site: the issue's own list.
    for (const state of [null, 'x', { from: 4 }, { from: '/profile/site/other' }, { from: `${open}x` }])
      expect(backTarget(state, id, 0)).toBe(open);
    expect(backTarget({ from: 'https://evil.example/' }, id, 1)).toBe(resolved);
  });

  it('heads the issue with one line of its title', () => {
    expect(oneLineTitle('Checkout broken')).toBe('Checkout broken');
    expect(oneLineTitle('First line\nSecond line')).toBe('First line');
    const long =
      'The checkout button on the cart page does nothing when I click it and the page just sits there';
    const cut = oneLineTitle(long);
    expect(cut.length).toBeLessThanOrEqual(72);
    expect(cut).toBe('The checkout button on the cart page does nothing when I click it and…');
    expect(oneLineTitle('x'.repeat(100))).toBe(`${'x'.repeat(71)}…`);
  });

  it('ignores shortcuts while typing or with a modifier', () => {
    const key = (target: unknown, mods: Partial<Record<'altKey' | 'ctrlKey' | 'metaKey', boolean>> = {}) =>
      isShortcutIgnored({
        target: target as EventTarget,
        altKey: false,
        ctrlKey: false,
        metaKey: false,
        ...mods,
      });
    expect(key({ tagName: 'BODY' })).toBe(false);
    expect(key(null)).toBe(false);
    expect(key({ tagName: 'INPUT' })).toBe(true);
    expect(key({ tagName: 'TEXTAREA' })).toBe(true);
    expect(key({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(key({ tagName: 'BODY' }, { ctrlKey: true })).toBe(true);
    expect(key({ tagName: 'BODY' }, { metaKey: true })).toBe(true);
  });

  it('shows sizes in the user locale', () => {
    expect(formatBytes(29, 'en')).toBe('29 B');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(1536, 'de')).toBe('1,5 KB');
    expect(formatBytes(25 * 1024 * 1024, 'en')).toBe('25 MB');
  });
});
