/**
 * The outbox's flush (every minute) and the daily digest (docs/data-model.md 4.13 "Notifications";
 * decisions Tr-N2, Tr-N4). Keys are notify.ts's.
 *
 * Flush, step 1, entries → recipient items: a page of entries (≤ 100) is CLAIMED (one transaction of
 * conditional updates `claimUntil`; when another run holds some, one by one), their recipients resolved
 * now (notify-recipients.ts), each recipient's part written as `M#<uid>#<entry>` (or `D#…` for a daily
 * digest), and only then the entries deleted. A run that dies mid-way leaves claimed entries that the next
 * run takes again once the claim lapses (2 minutes); the recipient items it rewrites have the same keys,
 * so nothing is lost and nothing is doubled.
 * Step 2, one mail per person: the people with `M#` items are read; for each, the run takes that person's
 * LEASE (a conditional Put), reads their items again (consistently, so a run that just sent them finds
 * none), sends ONE mail listing them all, deletes exactly the items it sent, and lets the lease go. Two
 * runs therefore never mail one person the same items. The one window left: a run that dies after SES
 * accepted the mail and before the delete; its lease lapses and the next run mails those items again (at
 * most one duplicate per crash, never a loss; a failed send keeps the items for the next minute).
 * The digest is step 2 over the `D#` items of the days before today (UTC), with the recipient's settings
 * and access checked again when it is sent.
 */
import { randomUUID } from 'node:crypto';
import {
  BatchWriteCommand,
  DeleteCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { db } from '#runtime/aws/dynamo';
import {
  batchDelete,
  getItems,
  isConditionFailure,
  isTransactionConflict,
  type Key,
  queryAll,
  tableName,
} from '#runtime/db';
import type { Logger } from '#runtime/log';
import { sendMail } from '#runtime/mail';
import { DAY, epochSeconds, MINUTE, nowMs } from '#runtime/time';
import { settingsOf } from '../accounts/notifications';
import { userKey } from '../accounts/user';
import { authorize } from '../projects/access';
import { projectKey } from '../projects/project';
import { teamsKey, toTeamsItem } from '../teams/member';
import {
  DIGEST,
  digestItemKey,
  ENTRY,
  entryIdOf,
  leaseKey,
  MAIL,
  mailItemKey,
  OUTBOX_PARTITION,
  outboxLifetimeMs,
  recipientOf,
} from './notify';
import { batchMail, digestMail } from './notify-mails';
import {
  type Delivery,
  type Entry,
  type MailEvent,
  type Recipient,
  resolveDeliveries,
} from './notify-recipients';

/** An entry (or a person's mail) held by a run that died is taken again after this. */
export const CLAIM_MS = 2 * MINUTE;
const PAGE = 100;
/** People mailed at once. */
const PARALLEL = 4;

export interface FlushResult {
  /** Outbox entries turned into recipient items. */
  entries: number;
  /** Mails sent. */
  mails: number;
  /** People whose mail failed this time (their items wait for the next run). */
  failed: number;
}

type Item = Record<string, unknown>;
const keyOf = (i: Item): Key => ({ pk: String(i.pk), sk: String(i.sk) });

/** Puts `items` 25 at a time, again for what DynamoDB leaves unprocessed. */
async function batchPut(items: Item[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let requests: { PutRequest: { Item: Item } }[] = items
      .slice(i, i + 25)
      .map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (out.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
      if (attempt > 8 && requests.length > 0) throw new Error('batch put did not complete');
    }
  }
}

function claimUpdate(item: Item, run: string, now: number) {
  return {
    TableName: tableName(),
    Key: keyOf(item),
    UpdateExpression: 'SET claim = :run, claimUntil = :until',
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(claimUntil) OR claimUntil < :now)',
    ExpressionAttributeValues: { ':run': run, ':until': now + CLAIM_MS, ':now': now },
  };
}

/** The items of `page` this run now holds: all in one transaction, else one by one (another run holds some). */
export async function claimEntries(page: Item[], run: string): Promise<Item[]> {
  const now = nowMs();
  const open = page.filter((i) => !(typeof i.claimUntil === 'number' && i.claimUntil >= now));
  if (open.length === 0) return [];
  try {
    await db().send(
      new TransactWriteCommand({ TransactItems: open.map((i) => ({ Update: claimUpdate(i, run, now) })) }),
    );
    return open;
  } catch (err) {
    if (!isConditionFailure(err) && !isTransactionConflict(err)) throw err;
  }
  const won = await Promise.all(
    open.map(async (i) => {
      try {
        await db().send(new UpdateCommand(claimUpdate(i, run, now)));
        return i;
      } catch (err) {
        if (isConditionFailure(err)) return null;
        throw err;
      }
    }),
  );
  return won.filter((i): i is Item => i !== null);
}

/** The recipient item of one delivery. */
function recipientItem(d: Delivery): Item {
  const key = d.when === 'daily' ? digestItemKey(d.userId, d.entryId) : mailItemKey(d.userId, d.entryId);
  // A digest item waits up to a day longer than a mail item.
  const lifetime = outboxLifetimeMs + (d.when === 'daily' ? DAY : 0);
  return { ...key, recipient: d.recipient, event: d.event, ttl: epochSeconds(nowMs() + lifetime) };
}

/** Step 1 over every entry there is (until `deadline`): answers how many entries were turned. */
async function turnEntries(run: string, deadline: number): Promise<number> {
  let turned = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :e)',
        ExpressionAttributeValues: { ':pk': OUTBOX_PARTITION, ':e': ENTRY },
        ConsistentRead: true,
        Limit: PAGE,
        ExclusiveStartKey: startKey,
      }),
    );
    startKey = page.LastEvaluatedKey;
    const mine = await claimEntries(page.Items ?? [], run);
    if (mine.length === 0) continue;
    const entries: Entry[] = mine.map((i) => ({
      id: entryIdOf(String(i.sk)),
      event: i.event as Entry['event'],
    }));
    await batchPut((await resolveDeliveries(entries)).map(recipientItem));
    await batchDelete(mine.map(keyOf));
    turned += mine.length;
  } while (startKey && Date.now() < deadline);
  return turned;
}

async function takeLease(kind: 'mail' | 'digest', userId: string, run: string): Promise<boolean> {
  const now = nowMs();
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...leaseKey(kind, userId), run, until: now + CLAIM_MS, ttl: epochSeconds(now + DAY) },
        ConditionExpression: 'attribute_not_exists(pk) OR #u < :now',
        ExpressionAttributeNames: { '#u': 'until' },
        ExpressionAttributeValues: { ':now': now },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

async function releaseLease(kind: 'mail' | 'digest', userId: string, run: string): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: leaseKey(kind, userId),
        ConditionExpression: 'run = :run',
        ExpressionAttributeValues: { ':run': run },
      }),
    );
  } catch (err) {
    // Lapsed and taken by another run: theirs now.
    if (!isConditionFailure(err)) throw err;
  }
}

const itemsUnder = (prefix: string) =>
  queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': OUTBOX_PARTITION, ':p': prefix },
    ConsistentRead: true,
  });

interface SendStep {
  kind: 'mail' | 'digest';
  prefix: string;
  /** Which of a person's items this run sends (the digest: the days before today). */
  wanted: (sk: string) => boolean;
  /** Sends one person's mail of `items`; answers false when nothing was left to send. */
  send: (userId: string, items: Item[]) => Promise<boolean>;
}

/** Step 2: one mail per person with wanted items, each under that person's lease. */
async function sendPerPerson(step: SendStep, run: string, deadline: number, log: Logger) {
  const pending = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': OUTBOX_PARTITION, ':p': step.prefix },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true,
  });
  const people = [
    ...new Set(pending.filter((i) => step.wanted(String(i.sk))).map((i) => recipientOf(String(i.sk)))),
  ];
  let mails = 0;
  let failed = 0;
  const one = async (userId: string) => {
    if (Date.now() > deadline || !(await takeLease(step.kind, userId, run))) return;
    try {
      const items = (await itemsUnder(`${step.prefix}${userId}#`)).filter((i) => step.wanted(String(i.sk)));
      if (items.length === 0) return;
      if (await step.send(userId, items)) mails++;
      await batchDelete(items.map(keyOf));
    } catch (err) {
      failed++;
      log.error(`${step.kind} to a member failed; kept for the next run`, { userId, error: String(err) });
    } finally {
      await releaseLease(step.kind, userId, run);
    }
  };
  for (let i = 0; i < people.length; i += PARALLEL) await Promise.all(people.slice(i, i + PARALLEL).map(one));
  return { mails, failed };
}

const eventsOf = (items: Item[]) => items.map((i) => i.event as MailEvent);

/** The flush (every minute): step 1, then step 2 for the instant mails. */
export async function flushNotifications(log: Logger, budgetMs = 45_000): Promise<FlushResult> {
  const run = randomUUID();
  const deadline = Date.now() + budgetMs;
  const entries = await turnEntries(run, deadline);
  const sent = await sendPerPerson(
    {
      kind: 'mail',
      prefix: MAIL,
      wanted: () => true,
      send: async (userId, items) => {
        // The newest item's address and language (they were read when it was resolved).
        const to = items[items.length - 1]?.recipient as Recipient;
        await sendMail(await batchMail(userId, to, eventsOf(items)));
        return true;
      },
    },
    run,
    deadline + 10_000,
    log,
  );
  return { entries, ...sent };
}

const today = () => new Date(nowMs()).toISOString().slice(0, 10);

/**
 * A digest's items still wanted when it is sent: the member still asks for a daily digest and may still
 * read each issue's project (one BatchGetItem of USER, TEAMS and the projects' METAs).
 */
async function stillWanted(userId: string, events: MailEvent[]) {
  const pids = [...new Set(events.map((e) => e.projectId))];
  const keys = [userKey(userId), teamsKey(userId), ...pids.map(projectKey)];
  const [user, teamsItem, ...metas] = await getItems(keys);
  if (!user || typeof user.email !== 'string' || settingsOf(user).newIssue !== 'daily') return null;
  const caller = { userId, teams: teamsItem ? toTeamsItem(teamsItem) : null };
  const readable = new Set(
    pids.filter((_, i) => {
      try {
        authorize(caller, metas[i], 'read');
        return true;
      } catch {
        return false;
      }
    }),
  );
  const to: Recipient = {
    email: user.email,
    firstName: String(user.firstName ?? ''),
    lang: user.lang === 'de' ? 'de' : 'en',
  };
  return { to, events: events.filter((e) => readable.has(e.projectId)) };
}

/** The daily digest: one mail per member with the new issues of the days before today (UTC). */
export async function sendDigests(log: Logger, budgetMs = 270_000): Promise<FlushResult> {
  const run = randomUUID();
  const day = today();
  const sent = await sendPerPerson(
    {
      kind: 'digest',
      prefix: DIGEST,
      wanted: (sk) => (sk.split('#')[2] ?? '') < day,
      send: async (userId, items) => {
        const wanted = await stillWanted(userId, eventsOf(items));
        if (!wanted || wanted.events.length === 0) return false;
        await sendMail(await digestMail(userId, wanted.to, wanted.events));
        return true;
      },
    },
    run,
    Date.now() + budgetMs,
    log,
  );
  return { entries: 0, ...sent };
}
