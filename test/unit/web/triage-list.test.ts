import { describe, expect, it } from 'vitest';
import { csvExportPath, issueListPath } from '../../../web/src/issues/model';
import {
  assignableMembers,
  contrastRatio,
  formatDueDate,
  initials,
  isOverdue,
  labelTextColor,
  luminance,
} from '../../../web/src/issues/triage-model';

const id = '0b5a0c5e-6a43-4a5e-9a43-7c1f00000001';

describe('label chips', () => {
  it('write black or white, whichever reads at 4.5:1 or more on any colour', () => {
    expect(labelTextColor('#ffffff')).toBe('#000000');
    expect(labelTextColor('#000000')).toBe('#ffffff');
    expect(labelTextColor('#ffeb3b')).toBe('#000000');
    expect(labelTextColor('#4f4eae')).toBe('#ffffff');
    // Every colour on a coarse grid, the mid-greys where the two are closest included.
    const steps = [0, 0x33, 0x66, 0x76, 0x77, 0x78, 0x99, 0xcc, 0xff];
    for (const r of steps)
      for (const g of steps)
        for (const b of steps) {
          const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
          const text = labelTextColor(hex) === '#000000' ? 0 : 1;
          expect(contrastRatio(luminance(hex), text), hex).toBeGreaterThanOrEqual(4.5);
        }
  });
});

describe('assignees', () => {
  const m = (userId: string, firstName: string, lastName: string, role?: 'OWNER' | 'GUEST' | 'MEMBER') => ({
    userId,
    firstName,
    lastName,
    ...(role ? { role } : {}),
  });

  it('are the members who may triage, by name (never a GUEST)', () => {
    const list = assignableMembers([
      m('3', 'Zoe', 'Z', 'MEMBER'),
      m('1', 'Gast', 'G', 'GUEST'),
      m('2', 'Ada', 'L', 'OWNER'),
    ]);
    expect(list.map((x) => x.userId)).toEqual(['2', '3']);
    // A GUEST's team answer has no roles: names only, all of them.
    expect(assignableMembers([m('1', 'B', 'B'), m('2', 'A', 'A')]).map((x) => x.userId)).toEqual(['2', '1']);
  });

  it('show initials of any script', () => {
    expect(initials(m('1', 'ada', 'Lovelace'))).toBe('AL');
    expect(initials(m('1', 'Özlem', ''))).toBe('Ö');
    expect(initials(m('1', '𝒜lice', 'Ωmega'))).toBe('𝒜Ω');
    expect(initials(m('1', ' ', ''))).toBe('?');
  });
});

describe('due dates', () => {
  it('show the calendar day wherever the browser is, and are overdue only after it', () => {
    expect(formatDueDate('2026-12-03', 'en-US')).toBe('Dec 3, 2026');
    expect(formatDueDate('2026-12-03', 'de-DE')).toBe('03.12.2026');
    const now = new Date(2026, 11, 3, 23, 59);
    expect(isOverdue('2026-12-03', now)).toBe(false);
    expect(isOverdue('2026-12-02', now)).toBe(true);
  });
});

describe('the list call and the CSV export carry the view', () => {
  it('asks the list with the filters after page, search and list', () => {
    expect(issueListPath(id, true, { page: 2, search: 'x' }, { status: 'closed', sort: 'oldest' })).toBe(
      `/client/website/${id}/request?page=2&search=x&resolved=1&status=closed&sort=oldest`,
    );
  });

  it('exports every page of the view: search, list and filters, no page', () => {
    expect(csvExportPath(id, false, '', {})).toBe(`/api/client/website/${id}/requests.csv`);
    expect(csvExportPath(id, true, ' a&b ', { assignee: 'me', label: 'abcd1234' })).toBe(
      `/api/client/website/${id}/requests.csv?search=a%26b&resolved=1&assignee=me&label=abcd1234`,
    );
    // Grouped duplicates and "Most reports" are the list's view too: the file follows them.
    expect(csvExportPath(id, false, '', { collapse: '1', sort: 'reports' })).toBe(
      `/api/client/website/${id}/requests.csv?collapse=1&sort=reports`,
    );
  });
});
