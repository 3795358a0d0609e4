/**
 * `npm run ops -- migrate` (docs/data-model.md 4.12 "Migration of pre-team data"): gives every account
 * without `USER#uid/TEAMS` its personal team. Off the request path, so it Scans: a paged, parallel Scan of
 * the USER items, its position saved after each page in `MIGRATION#teams/CURSOR#<segment>` so a stopped run
 * resumes there. Every write is conditional on the item being absent and the team id is the user's id,
 * so a second run, a parallel run or a user's first call in between change nothing more.
 *
 * Step 1 (here) gives the team the plan, billing details and counters of USER and moves the expiry index;
 * step 3 (the billing items, `billing/migrate.ts`) runs per account through `each`, as billing ranks above
 * teams (`npm run ops -- migrate` composes both).
 */
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  ScanCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { db } from '#runtime/aws/dynamo';
import { getItems, isConditionFailure, retryConflicts, retryRaces, tableName } from '#runtime/db';
import { userKey } from '../accounts/user';
import { teamsKey } from './member';
import { createPersonalTeam, teamCopyOf, teamKey, userMovedUpdate } from './team';

/**
 * Step 1 for one account, on first use or from the script: the personal team with the copy (no TEAMS
 * yet), or the copy alone onto a team made before billing moved to TEAM (TEAM without `plan`). Each write
 * is conditional on the state read; a refusal reads again. What it did: created, copied, or nothing.
 */
export async function migrateAccount(userId: string): Promise<'created' | 'copied' | 'existing' | 'gone'> {
  // A refused write means the account changed since it was read: read again, 5 times in all.
  const changed = new Error(`account ${userId} changed during its migration`);
  return retryRaces(
    (err) => err === changed,
    async () => {
      const [user, teams, team] = await getItems([userKey(userId), teamsKey(userId), teamKey(userId)]);
      if (!user) return 'gone';
      if (!teams) {
        if (await createPersonalTeam(user)) return 'created';
      } else if (team && team.plan === undefined && user.teamId === undefined) {
        if (await copyToTeam(user)) return 'copied';
      } else return 'existing';
      throw changed;
    },
    5,
  );
}

/** The copy onto an existing TEAM (cond: still without a plan) with step 1's USER update. */
async function copyToTeam(user: Record<string, unknown>): Promise<boolean> {
  const copy = teamCopyOf(user);
  const names: Record<string, string> = { '#plan': 'plan' };
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const adds: string[] = [];
  for (const [i, [field, value]] of Object.entries(copy).entries()) {
    names[`#c${i}`] = field;
    values[`:c${i}`] = value;
    // The counters are added: a report may have counted its bytes on this team since it was made.
    if (field === 'projectCount' || field === 'storageBytes') adds.push(`#c${i} :c${i}`);
    else sets.push(`#c${i} = :c${i}`);
  }
  try {
    await retryConflicts(() =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: teamKey(String(user.id)),
                UpdateExpression: `SET ${sets.join(', ')} ADD ${adds.join(', ')}`,
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#plan)',
                ExpressionAttributeNames: names,
                ExpressionAttributeValues: values,
              },
            },
            { Update: userMovedUpdate(user) },
          ],
        }),
      ),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

export interface MigrationResult {
  /** USER items read. */
  accounts: number;
  /** Accounts that had no team and got one (with `dryRun`: would get one). */
  created: number;
  /** Accounts whose team (made before billing moved to TEAM) got the plan and billing copy. */
  copied: number;
  /** Accounts that had their team already (or got it from a parallel run or request meanwhile). */
  existing: number;
}

export interface MigrationOptions {
  segments?: number;
  dryRun?: boolean;
  /** The later steps per account whose TEAM has no `billingMovedAt` yet (billing's step 3). */
  each?: (userId: string) => Promise<void>;
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

async function migrateSegment(
  segment: number,
  segments: number,
  opts: MigrationOptions,
  result: MigrationResult,
) {
  const dryRun = opts.dryRun ?? false;
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
    // Which of this page's accounts are done already (TEAMS, a TEAM with the plan, the billing items
    // moved): one batch read per 50 accounts, so a re-run costs reads, not cancelled transactions.
    const keys = users.flatMap((u) => [teamsKey(String(u.id)), teamKey(String(u.id))]);
    const read = await getItems(keys);
    for (const [i, user] of users.entries()) {
      const id = String(user.id);
      const [teams, team] = [read[2 * i], read[2 * i + 1]];
      const teamDone = !!teams && (!team || team.plan !== undefined);
      if (teamDone && (!team || team.billingMovedAt !== undefined || !opts.each)) {
        result.existing++;
        continue;
      }
      if (dryRun) {
        if (!teams) result.created++;
        else if (!teamDone) result.copied++;
        else result.existing++;
        continue;
      }
      const outcome = await migrateAccount(id);
      if (outcome === 'created') result.created++;
      else if (outcome === 'copied') result.copied++;
      else result.existing++;
      if (outcome !== 'gone') await opts.each?.(id);
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
export async function migrateTeams(opts: MigrationOptions = {}): Promise<MigrationResult> {
  const segments = opts.segments ?? 4;
  const dryRun = opts.dryRun ?? false;
  const result: MigrationResult = { accounts: 0, created: 0, copied: 0, existing: 0 };
  await Promise.all(
    Array.from({ length: segments }, (_, segment) => migrateSegment(segment, segments, opts, result)),
  );
  if (!dryRun) {
    for (let segment = 0; segment < segments; segment++) {
      await db().send(new DeleteCommand({ TableName: tableName(), Key: cursorKey(segment) }));
    }
  }
  return result;
}
