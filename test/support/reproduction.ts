/**
 * Steps to reproduce and a replay for the delivery tests: steps whose labels try to act in a tracker
 * (mass mentions, Slack's special mentions, a disguised link, issue references, markup, a quick action on
 * a new line), a stored replay's record, and the check that a delivered replay link opens that recording.
 */
import { expect } from 'vitest';
import type { Step } from '#contracts/intake';
import type { IssueReplay } from '../../functions/issues/issue';
import { readReplayLinkToken } from '../../functions/issues/replay-link';

/** Steps before a report made at `createdAt` (ISO), oldest first; each label written to act somewhere. */
export function hostileSteps(createdAt: string): Step[] {
  const at = Date.parse(createdAt);
  return [
    { t: at - 40_000, kind: 'load', label: 'https://shop.example/checkout' },
    { t: at - 30_000, kind: 'click', label: '@channel <!here> @all' },
    { t: at - 20_000, kind: 'click', label: '[x](javascript:alert(1))' },
    { t: at - 15_000, kind: 'change', label: '#1 GH-2 octo-org/shop#3 ENG-4' },
    { t: at - 12_000, kind: 'click', label: '**Pay now** <b>bold</b> <https://evil.example|Reset>' },
    { t: at - 5_000, kind: 'navigate', label: '/cart\n/close' },
    { t: at - 1_000, kind: 'open', label: '' },
  ];
}

/** The sentences a developer reads for `hostileSteps`, as the plain-text renderings (mail, Jira) show them. */
export const hostileStepSentences = [
  'Loaded the page https://shop.example/checkout (40 s before the report)',
  'Clicked “@channel <!here> @all” (30 s before the report)',
  'Clicked “[x](javascript:alert(1))” (20 s before the report)',
  'Changed the field “#1 GH-2 octo-org/shop#3 ENG-4” (15 s before the report)',
  'Clicked “**Pay now** <b>bold</b> <https://evil.example|Reset>” (12 s before the report)',
  'Went to /cart /close (5 s before the report)',
  'Opened the feedback widget (1 s before the report)',
];

/** A stored replay of the minute before a report made at `createdAt`. */
export function storedReplay(createdAt: string, over: Partial<IssueReplay> = {}): IssueReplay {
  const at = Date.parse(createdAt);
  return {
    name: '6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab.gz',
    size: 48_213,
    start: at - 60_000,
    end: at - 200,
    ...over,
  };
}

/**
 * The recording a delivered replay link opens: the link is the dashboard's public page, its token the
 * replay's own signed one (issues/replay-link.ts), checked as the public route checks it.
 */
export async function openedReplay(url: string, origin = process.env.APP_ORIGIN) {
  const m = /^(.*)\/replay\/([^/?#]+)$/.exec(url);
  expect(m?.[1], url).toBe(origin);
  return readReplayLinkToken(m?.[2] ?? '');
}
