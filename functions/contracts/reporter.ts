/**
 * The reporter hears back (issue 24; DESIGN.md section 8 "reporter status page"; docs/reporter.md): the
 * status page `GET /r/{token}` and its calls under `/api/reporter/{token}/…`. The token, mailed to the
 * address a report carried, is the only credential: 128 random bits, base64url (22 characters), stored
 * only as its SHA-256.
 */
import * as z from 'zod';
import { reportLimits } from './intake';
import { visitorText } from './intake-schemas';
import type { IssueStatus } from './triage';

/** 16 random bytes in base64url without padding. Anything else names nothing: NOT_FOUND. */
export const reporterTokenParam = z.string().regex(/^[A-Za-z0-9_-]{22}$/);
export const reporterParams = z.object({ token: reporterTokenParam });

/** POST /api/reporter/{token}/reply: the intake's text rules (a description's), as the widget's report. */
export const reporterReplySchema = z.strictObject({
  body: visitorText(reportLimits.descriptionMax, { multiline: true, required: true }),
});
export type ReporterReply = z.infer<typeof reporterReplySchema>;

/** The status as a reporter reads it (decision Rp-2): three words, not the team's workflow. */
export const reporterStatuses = ['received', 'working', 'resolved'] as const;
export type ReporterStatus = (typeof reporterStatuses)[number];

export function reporterStatusOf(status: IssueStatus): ReporterStatus {
  if (status === 'new') return 'received';
  if (status === 'resolved' || status === 'closed') return 'resolved';
  return 'working';
}

/** One public comment as the reporter sees it: a name, never an address or an id of the team. */
export interface ReporterComment {
  id: string;
  /** The member's name, or "" for the reporter's own replies (the page says "You"). */
  author: string;
  mine: boolean;
  body: string;
  createdAt: string;
}

/** GET /api/reporter/{token}: what the status page shows, and nothing else of the project or its team. */
export interface ReporterStatusAnswer {
  number: number;
  description: string;
  submittedAt: string;
  status: ReporterStatus;
  comments: ReporterComment[];
  /** Whether a later comment or the resolution is mailed (false after the unsubscribe link). */
  mails: boolean;
}

/**
 * Limits of the reporter's calls (decision Rp-5). Replies per issue: a person writing answers, not a
 * script flooding a team's timeline and the assignee's mailbox; per source over all tokens, a guesser's
 * reads and a flood of replies from one address.
 */
export const reporterRateLimits = {
  replyPerIssue: { action: 'reporter-reply', max: 5, windowMs: 10 * 60_000 },
  readPerSource: { action: 'reporter-src', max: 120, windowMs: 60 * 60_000 },
} as const;

/** Batching (decision Rp-3): at most one mail about comments per issue in this time. */
export const reporterMailGapMs = 10 * 60_000;

/** The most comments the page shows (the newest); a longer conversation belongs in the team's own tools. */
export const reporterCommentsShown = 100;

/**
 * The status page's public address `/r/{token}` as the API route that serves it, `/api/reporter/{token}/page`
 * (query kept), or null for any other path. CloudFront's viewer-request function (lib/stacks/web.ts) and the
 * local server (lib/local/stack.ts) both rewrite with this rule.
 */
export function reporterPagePath(url: string): string | null {
  const m = /^\/r\/([^/?#]+)\/?(\?.*)?$/.exec(url);
  return m ? `/api/reporter/${m[1]}/page${m[2] ?? ''}` : null;
}
