/**
 * Migration step 3 (docs/data-model.md 4.12 "Migration of pre-team data"): the billing items of a pre-team
 * account (`PAYMENT#…`, `BIZREQ#…`, `BIZREQ_PENDING`) move from `USER#uid` to its personal team's partition
 * `TEAM#uid` (the same sks), then TEAM gets `billingMovedAt`. Each item moves as a pair in one transaction
 * (Put on the team cond absent, Delete on the user cond present), so a racing run's pair is cancelled
 * whole and it queries again: every item ends up once, in the team. Run lazily by the billing calls (when
 * the TEAM they read has no `billingMovedAt`) and by `npm run ops -- migrate` (`migrateAll`).
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#runtime/aws/dynamo';
import { isConditionFailure, queryAll, retryConflicts, type TransactItems, tableName } from '#runtime/db';
import { nowMs } from '#runtime/time';
import { userKey } from '../accounts/user';
import { type MigrationOptions, migrateAccount, migrateTeams } from '../teams/migrate';
import { teamKey } from '../teams/team';

/** The sks that move: the payment history, Business requests and the open request's marker. */
const moves = (sk: string) =>
  sk.startsWith('PAYMENT#') || sk.startsWith('BIZREQ#') || sk === 'BIZREQ_PENDING';

/** Pairs per transaction: 2 actions each, within DynamoDB's 100. */
const PAIRS = 50;

/** Moves the account's billing items into `TEAM#<userId>`; the number moved by this call. */
export async function moveBillingItems(userId: string): Promise<number> {
  let moved = 0;
  for (let attempt = 1; ; attempt++) {
    const items = (
      await queryAll({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': userKey(userId).pk },
        ConsistentRead: true,
      })
    ).filter((item) => moves(String(item.sk)));
    let raced = false;
    for (let i = 0; i < items.length; i += PAIRS) {
      const actions: TransactItems = items.slice(i, i + PAIRS).flatMap((item) => [
        {
          Put: {
            TableName: tableName(),
            // A Business request names its team from now on; it keeps `userId` (who asked).
            Item: {
              ...item,
              pk: teamKey(userId).pk,
              ...(String(item.sk).startsWith('BIZREQ#') ? { teamId: userId } : {}),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Delete: {
            TableName: tableName(),
            Key: { pk: String(item.pk), sk: String(item.sk) },
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ]);
      try {
        await retryConflicts(() => db().send(new TransactWriteCommand({ TransactItems: actions })));
        moved += actions.length / 2;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        raced = true;
      }
    }
    if (!raced) break;
    // Another run moved some of them first: query what is left.
    if (attempt >= 10) throw new Error(`billing items of ${userId} kept changing during the move`);
  }
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: teamKey(userId),
      UpdateExpression: 'SET billingMovedAt = if_not_exists(billingMovedAt, :now)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': nowMs() },
    }),
  );
  return moved;
}

/**
 * Steps 1 and 3 for the account whose personal team is `teamId` (a pre-team checkout's webhook, a billing
 * call's first use). False when no account has that id: not a personal team, nothing to migrate.
 */
export async function migrateBilling(teamId: string): Promise<boolean> {
  if ((await migrateAccount(teamId)) === 'gone') return false;
  await moveBillingItems(teamId);
  return true;
}

/** `npm run ops -- migrate`: every account's steps 1 and 3 (teams/migrate.ts's Scan, resumable). */
export function migrateAll(opts: Omit<MigrationOptions, 'each'> = {}) {
  return migrateTeams({
    ...opts,
    each: async (userId) => {
      await moveBillingItems(userId);
    },
  });
}
