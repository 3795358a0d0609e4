/**
 * The index of data requests (issues/data-requests.ts): PRIVACY#<teamId>#<sha256 of the lower-cased address>
 * / <projectId>#<n10>. Apart from the requests themselves so that the filing core, which writes an entry
 * with each issue, carries only these few lines.
 */
import { createHash } from 'node:crypto';
import { tableName } from '#runtime/db';
import { n10 } from './issue';

/** The hash the index and the audit log name an address by (never the address itself). */
export const emailHash = (email: string) =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

export const indexPartition = (teamId: string, hash: string) => `PRIVACY#${teamId}#${hash}`;

/** The key of an issue's index entry when it was filed with an address (`email`), else null. */
export function dataIndexKey(teamId: string, projectId: string, n: number, email: unknown) {
  if (typeof email !== 'string' || !email.includes('@')) return null;
  return { pk: indexPartition(teamId, emailHash(email)), sk: `${projectId}#${n10(n)}` };
}

/** The index entry of an issue filed with `email` (a Put for the filing transaction), or none. */
export function dataIndexPut(teamId: string, projectId: string, n: number, email: unknown) {
  const key = dataIndexKey(teamId, projectId, n, email);
  return key ? [{ Put: { TableName: tableName(), Item: { ...key, projectId, number: n } } }] : [];
}
