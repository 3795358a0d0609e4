/**
 * The triage parts' pure rules (issue 23): label chip text colour, member names and initials, the colours
 * of statuses and priorities, who may be assigned. Free of React, so unit tests cover them directly.
 */

import type { Role, TeamMemberEntry } from '#contracts/teams';
import type { IssueStatus, Priority } from '#contracts/triage';

/** WCAG 2 relative luminance of `#rrggbb`. */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

export const contrastRatio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/**
 * Black or white text on a label's colour, whichever contrasts more. The two ratios multiply to 21, so the
 * better one is at least √21 ≈ 4.58: every colour a team picks gets text that passes WCAG AA (4.5:1).
 */
export function labelTextColor(hex: string): '#000000' | '#ffffff' {
  const l = luminance(hex);
  return contrastRatio(l, 0) >= contrastRatio(l, 1) ? '#000000' : '#ffffff';
}

export interface Person {
  userId: string;
  firstName: string;
  lastName: string;
}

export const personName = (p: Person) => `${p.firstName} ${p.lastName}`.trim();

/** "Ada Lovelace" → "AL"; one name → its first letter (letters of any script, surrogate pairs kept whole). */
export function initials(p: Person): string {
  const first = (s: string) => Array.from(s.trim())[0] ?? '';
  return `${first(p.firstName)}${first(p.lastName)}`.toUpperCase() || '?';
}

/** The roles an issue may be assigned to: the ones that may triage (a GUEST may not, DESIGN 10). */
const assignableRoles: readonly Role[] = ['OWNER', 'ADMIN', 'MEMBER'];

/**
 * The members an issue can be assigned to, by name. A GUEST caller's team answer has no roles: it lists
 * everyone (it cannot assign anyway; the names are for the filter and the rows).
 */
export function assignableMembers(members: readonly TeamMemberEntry[]): TeamMemberEntry[] {
  return members
    .filter((m) => m.role === undefined || assignableRoles.includes(m.role))
    .sort((a, b) => personName(a).localeCompare(personName(b)));
}

/** Palettes of the theme whose text shades pass AA (app/theme.ts): one hue per status, done ones teal/grey. */
export const statusColor: Record<IssueStatus, string> = {
  new: 'blue',
  in_progress: 'brand',
  in_review: 'orange',
  resolved: 'teal',
  closed: 'gray',
};

export const priorityColor: Record<Priority, string> = {
  none: 'gray',
  low: 'blue',
  medium: 'yellow',
  high: 'orange',
  urgent: 'red',
};

/** A due date (a calendar day, no zone) in the user's locale: read as that day, wherever the browser is. */
export function formatDueDate(date: string, locale: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).toLocaleDateString(locale, {
    dateStyle: 'medium',
    timeZone: 'UTC',
  });
}

/** Past its day in the user's own calendar (due today is not overdue). */
export function isOverdue(date: string, now: Date): boolean {
  const pad = (n: number) => String(n).padStart(2, '0');
  const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return date < today;
}
