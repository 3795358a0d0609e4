/**
 * The audit log's routes as zod schemas (`GET client/team/{teamId}/audit` and `…/audit.csv`). Apart from
 * audit.ts, which every function that writes an entry carries (the team's deletion included, so nearly all
 * of them): those need the kinds and shapes, not the schemas.
 */
import * as z from 'zod';
import { auditKinds } from './audit';
import { teamIdParam } from './teams';

/** `<ms, 13 digits>-<8 hex>`: an entry's place in the log, from which the next page starts (older). */
export const auditCursor = z.string().regex(/^[0-9]{13}-[0-9a-f]{8}$/);

export const auditParams = z.object({ teamId: teamIdParam });

/**
 * `GET client/team/{teamId}/audit` and `…/audit.csv`: `kind` one kind, `actor` an actor's id (a member's
 * user id, a token's id), `cursor` the previous page's (screen only). Not strict: every dashboard call
 * may carry `lng` (the answer's language), which the pipeline reads on its own.
 */
export const auditQuerySchema = z.object({
  kind: z.enum(auditKinds).optional(),
  actor: z
    .string()
    .regex(/^[A-Za-z0-9_:-]{1,100}$/)
    .optional(),
  cursor: auditCursor.optional(),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;
