/**
 * Requests about a person's data (issue 35; docs/privacy.md "Requests about a person's data"): an OWNER or
 * ADMIN finds, exports and erases what a reporter (known by the email address they left) sent to the team.
 * What the team's Privacy screen and the privacy routes agree on.
 */
import * as z from 'zod';
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
}

/** How long the signed link of an export's ZIP works. */
export const DATA_EXPORT_LINK_SECONDS = 300;
/** The text that replaces what the reporter wrote (and their address) on erasure. */
export const ERASED = 'erased';
