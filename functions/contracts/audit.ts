/**
 * The team's audit log (docs/privacy.md "Audit log"): every access-relevant event, append-only for the
 * application (no route edits or deletes an entry). What the writers, the team's Audit screen and its CSV
 * export agree on.
 */
import type { Actor } from './triage';

/**
 * member.*: invited, joined, role changed, removed, left, ownership transferred · token.*: a team API token
 * made or revoked · extension.*: a member connected or revoked a browser extension · integration.*: an
 * integration set up, changed, authorised or removed · export.csv: a project's issues exported ·
 * privacy.*: a reporter's data exported or erased, a project's privacy settings (strict mode, retention)
 * changed · retention.run: the retention job deleted issues of a project.
 */
export const auditKinds = [
  'member.invited',
  'member.joined',
  'member.role',
  'member.removed',
  'member.left',
  'member.transfer',
  'token.created',
  'token.revoked',
  'extension.connected',
  'extension.revoked',
  'integration.changed',
  'integration.removed',
  'export.csv',
  'privacy.settings',
  'privacy.export',
  'privacy.erase',
  'retention.run',
] as const;
export type AuditKind = (typeof auditKinds)[number];

/** One entry as a writer records it. */
export interface AuditInput {
  kind: AuditKind;
  /** Who did it (the system for the retention job). */
  actor: Actor;
  /** The project it concerns, where it concerns one. */
  projectId?: string;
  /** What it was done to, in words a person reads: a member's email, a token's name, an integration. */
  target?: string;
  /** Facts of the event (a role from/to, the number of issues deleted, the reporter's email hash…). */
  detail?: Record<string, string | number | boolean | null>;
}

/** One entry as the Audit screen and the CSV read it. */
export interface AuditEntry extends AuditInput {
  id: string;
  at: string;
}

/** Entries one page of the Audit screen shows (newest first). */
export const AUDIT_PAGE = 50;
/**
 * Rows one CSV export holds at most: a team's whole history is small (a few entries a day), and the cap
 * bounds the reads of one request; the screen names the cut when it is reached.
 */
export const AUDIT_CSV_MAX = 10_000;

/** One page: the entries, newest first, and the cursor of the next (older) page, null at the end. */
export interface AuditPage {
  entries: AuditEntry[];
  cursor: string | null;
}
