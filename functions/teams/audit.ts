/**
 * Writing the team's audit log (contracts/audit.ts). An entry is written in the same transaction as the
 * change it records where the change is one transaction (`auditPut`), so a change without its entry, or
 * an entry without its change, cannot be stored; otherwise right after it (`recordAudit`).
 *
 * Items: `AUDIT#<teamId>` / `<ms, 13 digits>#<random>`: one partition per team, time-ordered, so the
 * screen reads the newest first with one Query a page. Never updated or deleted by the application.
 */
import { randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { AUDIT_PAGE, type AuditEntry, type AuditInput, type AuditPage } from '#contracts/audit';
import type { AuditQuery } from '#contracts/audit-schemas';
import type { Actor } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { batchDelete, queryKeys, type TransactItems, tableName, transactWrite } from '#runtime/db';
import { nowMs } from '#runtime/time';
import { displayName, type User } from '../accounts/user';

export const auditPartition = (teamId: string) => `AUDIT#${teamId}`;

/** A time-ordered id: the time in ms, then 8 random hex characters (two entries of one ms both stay). */
const auditSortKey = (at: number) => `${String(at).padStart(13, '0')}#${randomBytes(4).toString('hex')}`;

/**
 * The member who acts, as an entry names them: their id and their name as it is now, kept (a later rename
 * or their leaving does not rewrite the log). `user` is their USER item as read with the change.
 */
export function memberActor(userId: string, user: Record<string, unknown> | undefined): Actor {
  const name = user ? displayName(user as unknown as User) : '';
  return { kind: 'member', id: userId, name: (name || 'Member').slice(0, 200) };
}

/** A member as an entry's target reads: their email address (what OWNER and ADMIN see in the list). */
export const memberTarget = (user: Record<string, unknown> | undefined, userId: string): string =>
  typeof user?.email === 'string' && user.email ? user.email : userId;

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

/** The cursor a page hands out for the entry `sk` (the `#` would need escaping in a query string). */
const cursorOf = (sk: string) => sk.replace('#', '-');
const skOf = (cursor: string) => cursor.replace('-', '#');

function toEntry(item: Record<string, unknown>): AuditEntry {
  const { pk: _pk, sk, at, kind, actor, projectId, target, detail } = item;
  return {
    id: cursorOf(String(sk)),
    at: String(at),
    kind: kind as AuditEntry['kind'],
    actor: actor as AuditEntry['actor'],
    ...(typeof projectId === 'string' ? { projectId } : {}),
    ...(typeof target === 'string' ? { target } : {}),
    ...(detail && typeof detail === 'object' ? { detail: detail as AuditEntry['detail'] } : {}),
  };
}

/** Queries one page may take when a filter leaves most entries out (each reads at most FILTERED_READ). */
const MAX_READS = 4;
const FILTERED_READ = 200;

/**
 * One page of the team's log, newest first, from `cursor` on (older): one Query, or with a filter (kind,
 * actor: DynamoDB filters after the read) up to MAX_READS of FILTERED_READ items until the page is full.
 * A page cut short by that bound still hands out its cursor, so paging goes on where the reads stopped.
 */
export async function readAudit(teamId: string, query: AuditQuery, limit = AUDIT_PAGE): Promise<AuditPage> {
  const filtered = Boolean(query.kind || query.actor);
  const filters: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': auditPartition(teamId) };
  if (query.kind) {
    filters.push('#kind = :kind');
    names['#kind'] = 'kind';
    values[':kind'] = query.kind;
  }
  if (query.actor) {
    filters.push('#actor.#id = :actor');
    names['#actor'] = 'actor';
    names['#id'] = 'id';
    values[':actor'] = query.actor;
  }
  const entries: AuditEntry[] = [];
  let start: Record<string, unknown> | undefined = query.cursor
    ? { pk: auditPartition(teamId), sk: skOf(query.cursor) }
    : undefined;
  for (let reads = 0; reads < (filtered ? MAX_READS : 1); reads++) {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: values,
        ...(filters.length
          ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names }
          : {}),
        ScanIndexForward: false,
        Limit: filtered ? FILTERED_READ : limit,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    const items = out.Items ?? [];
    for (const [i, item] of items.entries()) {
      entries.push(toEntry(item));
      if (entries.length === limit) {
        const end = i === items.length - 1 && !out.LastEvaluatedKey;
        return { entries, cursor: end ? null : cursorOf(String(item.sk)) };
      }
    }
    start = out.LastEvaluatedKey;
    if (!start) return { entries, cursor: null };
  }
  return { entries, cursor: start ? cursorOf(String(start.sk)) : null };
}

/**
 * The log goes with its team, and only then (`deleteTeam`, the team's own deletion): nobody is left to
 * read it, and its entries name people (addresses, names) that must not outlive the team. No route reaches
 * this but the deletion of the team itself (decision AU-9).
 */
export async function deleteAuditOf(teamId: string): Promise<void> {
  await batchDelete(
    await queryKeys({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': auditPartition(teamId) },
    }),
  );
}
