/**
 * `npm run ops -- migrate` (docs/data-model.md 4.12 "Migration of pre-team data"): gives every account
 * without `USER#uid/TEAMS` its personal team. Off the request path, so it Scans: a paged, parallel Scan of
 * the USER items, its position saved after each page in `MIGRATION#teams/CURSOR#<segment>` so a stopped run
 * resumes there. Every write is conditional on the item being absent and the team id is the user's id,
 * so a second run, a parallel run or a user's first call in between change nothing more.
 *
 * This increment runs step 1's team part only; the billing increment adds the copy of the plan and billing
 * details to TEAM (and the expiry index move), and step 3 (the billing items).
 */
import { DeleteCommand, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#runtime/aws/dynamo';
import { getItems, tableName } from '#runtime/db';
import { teamsKey } from './member';
import { createPersonalTeam } from './team';

export interface MigrationResult {
  /** USER items read. */
  accounts: number;
  /** Accounts that had no team and got one (with `dryRun`: would get one). */
  created: number;
  /** Accounts that had their team already (or got it from a parallel run or request meanwhile). */
  existing: number;
}

const cursorKey = (segment: number) => ({ pk: 'MIGRATION#teams', sk: `CURSOR#${segment}` });

async function readCursor(segment: number, segments: number) {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: cursorKey(segment), ConsistentRead: true }),
  );
  // A cursor of a run with another segment count describes other slices: start over (still idempotent).
  if (!out.Item || out.Item.segments !== segments) return { startKey: undefined, done: false };
  return { startKey: out.Item.lastKey as Record<string, unknown> | undefined, done: out.Item.done === true };
}

async function migrateSegment(segment: number, segments: number, dryRun: boolean, result: MigrationResult) {
  let { startKey, done } = dryRun
    ? { startKey: undefined, done: false }
    : await readCursor(segment, segments);
  while (!done) {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        Segment: segment,
        TotalSegments: segments,
        ExclusiveStartKey: startKey,
        FilterExpression: 'sk = :user AND begins_with(pk, :userPrefix)',
        ExpressionAttributeValues: { ':user': 'USER', ':userPrefix': 'USER#' },
      }),
    );
    const users = page.Items ?? [];
    result.accounts += users.length;
    // Which of this page's accounts already have their TEAMS: one batch read per 100, so a re-run costs
    // reads, not cancelled transactions.
    const keys = users.map((u) => teamsKey(String(u.id)));
    const have: boolean[] = [];
    for (let i = 0; i < keys.length; i += 100) {
      have.push(...(await getItems(keys.slice(i, i + 100))).map((item) => item !== undefined));
    }
    for (const [i, user] of users.entries()) {
      if (have[i]) result.existing++;
      else if (dryRun || (await createPersonalTeam(user))) result.created++;
      else result.existing++;
    }
    startKey = page.LastEvaluatedKey;
    done = !startKey;
    if (!dryRun) {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...cursorKey(segment), segments, lastKey: startKey, done },
        }),
      );
    }
  }
}

/**
 * Runs the migration over `segments` parallel Scan segments. A run that completes removes its cursors, so
 * the next run scans everything again (finding nothing to do, or the accounts made by old code since).
 */
export async function migrateTeams(
  opts: { segments?: number; dryRun?: boolean } = {},
): Promise<MigrationResult> {
  const segments = opts.segments ?? 4;
  const dryRun = opts.dryRun ?? false;
  const result: MigrationResult = { accounts: 0, created: 0, existing: 0 };
  await Promise.all(
    Array.from({ length: segments }, (_, segment) => migrateSegment(segment, segments, dryRun, result)),
  );
  if (!dryRun) {
    for (let segment = 0; segment < segments; segment++) {
      await db().send(new DeleteCommand({ TableName: tableName(), Key: cursorKey(segment) }));
    }
  }
  return result;
}
