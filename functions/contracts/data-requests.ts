/**
 * Requests about a person's data (issue 35; docs/privacy.md "Requests about a person's data"): an OWNER or
 * ADMIN finds, exports and erases what a reporter (known by the email address they left) sent to the team.
 * What the team's Privacy screen and the privacy routes agree on.
 */
import * as z from 'zod';
import { correlationIdSchema } from './correlation';
import { emailField } from './schemas';
import { teamIdParam } from './teams';

export const dataRequestParams = z.object({ teamId: teamIdParam });
/** A job id: 32 hex characters. */
export const dataExportParams = z.object({ teamId: teamIdParam, id: z.string().regex(/^[0-9a-f]{32}$/) });
export const dataRequestBody = z.object({ email: emailField });
/** The address typed again: an erasure cannot be undone, so a slip of the finger must not start one. */
export const dataEraseBody = z.object({ email: emailField, confirm: emailField });

/** One issue tied to the address. */
export interface DataRequestIssue {
  projectId: string;
  projectName: string;
  number: number;
  title: string;
  createdAt: string;
  /** Comments by the team on it. */
  comments: number;
  /** The reporter's own replies (from their status page). */
  replies: number;
}

export interface DataExportStatus {
  id: string;
  state: 'running' | 'done' | 'failed';
  /** Issues written so far, and in all. */
  done: number;
  total: number;
  /** A signed link, valid DATA_EXPORT_LINK_SECONDS, once done. */
  url?: string;
  /** Why a failed export failed: `too_large` past DATA_EXPORT_MAX_BYTES of files (the issues' cap is checked at the start). */
  reason?: 'too_large';
}

/**
 * The caps of one export (decision DR-7): at most this many issues (refused at the start with
 * DATA_EXPORT_TOO_LARGE), and at most this many bytes of files (the job fails with `too_large` when its
 * batches find more). The ZIP is packed in the consumer's memory (1,024 MB), files stored uncompressed.
 */
export const DATA_EXPORT_MAX_ISSUES = 500;
export const DATA_EXPORT_MAX_BYTES = 200 * 1024 * 1024;
/** Issues one batch of the export's consumer reads before handing on to the next message. */
export const DATA_EXPORT_BATCH = 10;

/** The export queue's message: one step of job `jobId` (functions/consumers/privacy.ts). */
export const dataExportMessageSchema = z.object({
  teamId: teamIdParam,
  jobId: z.string().regex(/^[0-9a-f]{32}$/),
  correlationId: correlationIdSchema.optional(),
});
export type DataExportMessage = z.infer<typeof dataExportMessageSchema>;

/** How long the signed link of an export's ZIP works. */
export const DATA_EXPORT_LINK_SECONDS = 300;
/** The text that replaces what the reporter wrote (and their address) on erasure. */
export const ERASED = 'erased';
