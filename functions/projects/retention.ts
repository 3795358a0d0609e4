/**
 * Which projects keep resolved issues for a limited time (docs/retention.md): one item per such project in
 * one partition, so the retention job lists them with a Query instead of reading every project.
 *   RETENTION / <pid>    `days`, `teamId`; `backfilled` once the job has indexed the issues resolved
 *                        before retention existed
 * The project's settings (`data.retentionDays` on META) stay the truth: the job reads META before it
 * deletes anything, so an entry left behind by a failed save deletes nothing the project did not ask for.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RetentionDays } from '#contracts/schemas';
import { db } from '#runtime/aws/dynamo';
import { queryAll, tableName } from '#runtime/db';

export const RETENTION_PARTITION = 'RETENTION';
export const retentionEntryKey = (projectId: string) => ({ pk: RETENTION_PARTITION, sk: projectId });

export interface RetentionEntry {
  projectId: string;
  days: number;
  teamId: string;
  backfilled: boolean;
}

/** Lists the project (days) or takes it off the list (null: forever). `backfilled` is kept across changes. */
export async function setRetentionEntry(
  projectId: string,
  teamId: string,
  days: RetentionDays,
): Promise<void> {
  if (days === null) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: retentionEntryKey(projectId) }));
    return;
  }
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: retentionEntryKey(projectId),
      UpdateExpression: 'SET #d = :d, teamId = :t',
      ExpressionAttributeNames: { '#d': 'days' },
      ExpressionAttributeValues: { ':d': days, ':t': teamId },
    }),
  );
}

/** Every listed project (one Query; the list holds only projects with a retention period). */
export async function listRetentionEntries(): Promise<RetentionEntry[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': RETENTION_PARTITION },
    ConsistentRead: true,
  });
  return items.map((i) => ({
    projectId: String(i.sk),
    days: Number(i.days),
    teamId: String(i.teamId ?? ''),
    backfilled: i.backfilled === true,
  }));
}

/** Marks the project's older resolved issues as indexed (the backfill ran to its end). */
export async function markBackfilled(projectId: string): Promise<void> {
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: retentionEntryKey(projectId),
        UpdateExpression: 'SET backfilled = :t',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':t': true },
      }),
    )
    .catch(() => {
      // Taken off the list meanwhile: nothing to mark.
    });
}

/** Takes a project that is gone, or back to forever, off the list. */
export async function dropRetentionEntry(projectId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: retentionEntryKey(projectId) }));
}
