/**
 * Retention (docs/retention.md): each listed project (projects/retention.ts) loses the issues it resolved
 * more than its period ago, found through the retention index (issue.ts `RESOLVEDAT#`, gsi1
 * `PROJECT#<pid>#RESOLVEDAT` by `<resolvedAt>#<n10>`), never by reading the others, and deleted one by one
 * by delete-issue.ts. Bounded per run (`maxPerRun`, `deadline`); resumable without a cursor: what is left
 * is still in the index, and the next run queries it again (an issue half deleted by a crash is there too,
 * marked `purging`, and its clean-up runs again).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { widgetSettingsSchema } from '#contracts/schemas';
import type { Actor } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { getItems, isConditionFailure, type Key, tableName, transactWrite } from '#runtime/db';
import { countBusiness } from '#runtime/metrics';
import { DAY, nowMs } from '#runtime/time';
import { projectKey } from '../projects/project';
import {
  dropRetentionEntry,
  listRetentionEntries,
  markBackfilled,
  type RetentionEntry,
} from '../projects/retention';
import { recordAudit } from '../teams/audit';
import { teamOf } from '../teams/member';
import { deleteIssue } from './delete-issue';
import { issueHeaderKey, listPartition, resolvedAtKey, resolvedAtPartition, resolvedAtPut } from './issue';

type Item = Record<string, unknown>;

/** The actor of the job's audit entries. */
export const retentionActor: Actor = { kind: 'system', name: 'Snag' };

/**
 * The moment before which an issue must have been resolved to be deleted: `days` whole days of 24 h
 * before `now`, as ISO-8601 UTC (the retention index's sort key begins with it). An issue resolved exactly
 * then is kept until the next run.
 */
export function retentionCutoff(now: number, days: number): string {
  return new Date(now - days * DAY).toISOString();
}

/** Whether an issue resolved at `resolvedAt` (ISO) is past a `days` period at `now`. */
export const isPastRetention = (resolvedAt: string, now: number, days: number) =>
  resolvedAt < retentionCutoff(now, days);

export interface RetentionOptions {
  /** The clock (ms); the ops command's `--now` moves it locally. */
  now?: number;
  /** The most issues deleted in one run, over all projects (a run's bound; the next run goes on). */
  maxPerRun?: number;
  /** Stop starting new deletions after this time (ms, the real clock). */
  deadline?: number;
  /** The integrations' items that point at an issue (tracker links), from its detail. */
  extraKeys?: (projectId: string, detail: Item) => Key[];
  /** Called after each deleted issue (tests stop a run in the middle with it). */
  afterDelete?: (projectId: string, n: number) => void;
}

export interface ProjectRun {
  projectId: string;
  days: number;
  deleted: number;
  backfilled?: number;
}

export interface RetentionResult {
  projects: ProjectRun[];
  deleted: number;
  /** True when the bound stopped the run before everything due was deleted. */
  more: boolean;
}

const PAGE = 25;

export async function runRetention(options: RetentionOptions = {}): Promise<RetentionResult> {
  const now = options.now ?? nowMs();
  const maxPerRun = options.maxPerRun ?? 1000;
  const result: RetentionResult = { projects: [], deleted: 0, more: false };
  for (const entry of await listRetentionEntries()) {
    if (result.deleted >= maxPerRun || (options.deadline && Date.now() > options.deadline)) {
      result.more = true;
      break;
    }
    const run = await runProject(entry, now, maxPerRun - result.deleted, options);
    if (!run) continue;
    result.projects.push(run);
    result.deleted += run.deleted;
    if (run.deleted >= maxPerRun) result.more = true;
  }
  return result;
}

async function runProject(
  entry: RetentionEntry,
  now: number,
  budget: number,
  options: RetentionOptions,
): Promise<ProjectRun | null> {
  const [meta] = await getItems([projectKey(entry.projectId)]);
  const days = meta ? widgetSettingsSchema.parse(meta.data ?? {}).retentionDays : null;
  if (!meta || days === null) {
    // Gone, or back to forever: the list was behind the settings (META is the truth).
    await dropRetentionEntry(entry.projectId);
    return null;
  }
  const pid = entry.projectId;
  const run: ProjectRun = { projectId: pid, days, deleted: 0 };
  if (!entry.backfilled) {
    run.backfilled = await backfillResolvedAt(pid);
    await markBackfilled(pid);
  }
  let deleted = 0;
  try {
    const cutoff = retentionCutoff(now, days);
    let startKey: Item | undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :cutoff',
          ExpressionAttributeValues: { ':pk': resolvedAtPartition(pid), ':cutoff': cutoff },
          Limit: PAGE,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        if (deleted >= budget || (options.deadline && Date.now() > options.deadline)) return run;
        const n = Number(item.number);
        const outcome = await deleteIssue(pid, n, {
          resolvedAt: String(item.resolvedAt ?? ''),
          ...(options.extraKeys ? { extraKeys: (d: Item) => options.extraKeys?.(pid, d) ?? [] } : {}),
        });
        // Each issue counted once, by the run that finishes it (a crashed run counted none of its last).
        if (outcome === 'deleted' || outcome === 'finished') {
          deleted++;
          run.deleted = deleted;
          options.afterDelete?.(pid, n);
        }
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return run;
  } finally {
    // Recorded for what was done, even when the run stops in the middle: one entry per project per run.
    if (deleted > 0) await recordRun(meta, pid, days, deleted);
  }
}

async function recordRun(meta: Item, projectId: string, days: number, count: number) {
  countBusiness('issuesExpired', undefined, count);
  await recordAudit(teamOf(meta), {
    kind: 'retention.run',
    actor: retentionActor,
    projectId,
    detail: { count, retentionDays: days },
  });
}

/**
 * The issues resolved before the retention index existed get their entry: a Query of the resolved list
 * (keys and `resolvedAt` only), and per issue a transaction that writes the entry only while the header
 * is still resolved at that time. Once per project (its entry's `backfilled`). Answers how many it wrote.
 */
export async function backfillResolvedAt(projectId: string): Promise<number> {
  let written = 0;
  let startKey: Item | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': listPartition(projectId, 'RESOLVED') },
        ProjectionExpression: '#n, resolvedAt',
        ExpressionAttributeNames: { '#n': 'number' },
        ExclusiveStartKey: startKey,
      }),
    );
    const rows = (page.Items ?? []).filter((i) => typeof i.resolvedAt === 'string');
    const present = await getItems(rows.map((r) => resolvedAtKey(projectId, Number(r.number))));
    for (const [i, row] of rows.entries()) {
      if (present[i]) continue;
      const n = Number(row.number);
      try {
        await transactWrite(
          [
            resolvedAtPut(projectId, n, String(row.resolvedAt)),
            {
              ConditionCheck: {
                TableName: tableName(),
                Key: issueHeaderKey(projectId, n),
                ConditionExpression: 'deleted = :one AND resolvedAt = :r',
                ExpressionAttributeValues: { ':one': 1, ':r': row.resolvedAt },
              },
            },
          ],
          () => undefined,
        );
        written++;
      } catch (err) {
        // Reopened (or changed) meanwhile: its own move wrote the index right.
        if (!isConditionFailure(err)) throw err;
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return written;
}
