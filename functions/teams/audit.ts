/**
 * Writing the team's audit log (contracts/audit.ts). An entry is written in the same transaction as the
 * change it records where the change is one transaction (`auditPut`), so a change without its entry, or
 * an entry without its change, cannot be stored; otherwise right after it (`recordAudit`).
 *
 * Items: `AUDIT#<teamId>` / `<ms, 13 digits>#<random>`: one partition per team, time-ordered, so the
 * screen reads the newest first with one Query a page. Never updated or deleted by the application.
 */
import { randomBytes } from 'node:crypto';
import type { AuditInput } from '#contracts/audit';
import { type TransactItems, tableName, transactWrite } from '#runtime/db';
import { nowMs } from '#runtime/time';

export const auditPartition = (teamId: string) => `AUDIT#${teamId}`;

/** A time-ordered id: the time in ms, then 8 random hex characters (two entries of one ms both stay). */
const auditSortKey = (at: number) => `${String(at).padStart(13, '0')}#${randomBytes(4).toString('hex')}`;

/** The Put of one entry, to add to the transaction of the change it records. */
export function auditPut(teamId: string, entry: AuditInput): TransactItems[number] {
  const at = nowMs();
  return {
    Put: {
      TableName: tableName(),
      Item: {
        pk: auditPartition(teamId),
        sk: auditSortKey(at),
        at: new Date(at).toISOString(),
        ...entry,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Records one entry on its own. */
export async function recordAudit(teamId: string, entry: AuditInput): Promise<void> {
  // The key is new by construction (time and random bits): a refusal is no caller's error.
  await transactWrite([auditPut(teamId, entry)], () => undefined);
}
