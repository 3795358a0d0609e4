/**
 * Similar reports and merging (docs/similar.md). Snag suggests, a member decides: nothing is merged or hidden
 * automatically. The one automatic act is an optional project rule (`linkExactMatches`, off by default) that
 * links, never merges, a new report to an open issue with exactly the same page and the same first error.
 *
 * Two halves share this file:
 * - suggestions (`functions/issues/similar*.ts`): a consumer computes each new report's signals after the
 *   intake (never on the report's request path) and its candidates from indexes on those signals;
 * - merging (`functions/issues/merge*.ts`): a report becomes a duplicate of a primary, keeps its own status,
 *   and its reporter follows the primary; unmerge restores it exactly.
 *
 * Routes (session; v1 with a token of the named scope answers the same shapes, in the same `msg` envelope):
 * - GET    /api/client/website/{id}/request/{ticketId}/similar → msg: SimilarAnswer
 *   GET    /api/v1/projects/{projectId}/issues/{number}/similar (issues:read)
 * - POST   /api/client/website/{id}/request/{ticketId}/merge  body MergeBody → msg: MergeAnswer
 *   POST   /api/v1/projects/{projectId}/issues/{number}/merge (issues:write)
 * - DELETE /api/client/website/{id}/request/{ticketId}/merge → msg: MergeAnswer (the report stands alone again)
 *   DELETE /api/v1/projects/{projectId}/issues/{number}/merge (issues:write)
 */
import * as z from 'zod';
import type { IssueStatus } from './triage';

/**
 * Why a candidate was suggested, in words the dashboard, the API and snag-mcp all show ("same page and same
 * error", "similar description", "similar screenshot"). The order is the order of strength.
 */
export const similarReasons = [
  'same_page_and_error',
  'same_error',
  'same_failed_request',
  'same_page',
  'similar_description',
  'similar_screenshot',
] as const;
export type SimilarReason = (typeof similarReasons)[number];

export const similarLimits = {
  /** At most this many suggestions are shown, the best first, open issues only. */
  suggestions: 5,
  /** Duplicates one primary may gather (a page that breaks for everyone still fits one list). */
  duplicatesPerPrimary: 500,
} as const;

/** One suggested issue: an open issue of the same project, never the report itself or its own duplicates. */
export interface SimilarSuggestion {
  number: number;
  title: string;
  status: IssueStatus;
  /** 0..1, two decimals; the list is sorted by it, highest first. */
  score: number;
  /** At least one, strongest first. */
  reasons: SimilarReason[];
  /** ISO date of the candidate's report. */
  createdAt: string;
  /** The candidate's reports: 1 + the duplicates merged into it. */
  reports: number;
}

export interface SimilarAnswer {
  /** False while the report's signals are still being computed (the screen asks again shortly). */
  ready: boolean;
  similar: SimilarSuggestion[];
}

/** POST …/merge: make this report a duplicate of `into` (an issue of the same project, not a duplicate itself). */
export const mergeBodySchema = z.strictObject({ into: z.number().int().min(1).max(9_999_999_999) });
export type MergeBody = z.infer<typeof mergeBodySchema>;

/** A duplicate as its primary lists it. */
export interface DuplicateReport {
  number: number;
  title: string;
  status: IssueStatus;
  createdAt: string;
  reporterEmail?: string;
  browser?: string;
  os?: string;
  device?: string;
  pageUrl?: string;
}

/**
 * The merge state an issue's detail carries (additive fields of the detail answer): a duplicate names its
 * primary; a primary counts its reports and lists its duplicates, browsers and pages affected.
 */
export interface MergeState {
  duplicateOf?: number;
  /** 1 + duplicates (1 for an issue nothing was merged into). */
  reports: number;
  duplicates: DuplicateReport[];
  affected: { browsers: string[]; pages: string[] };
}

export interface MergeAnswer {
  /** The issue the call was about (the duplicate, or the report standing alone again). */
  issue: { number: number; duplicateOf?: number };
  /** The primary's state after the call. */
  primary: { number: number } & MergeState;
}
