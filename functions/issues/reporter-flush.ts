/**
 * The reporter's outbox flush (issue 24; docs/data-model.md 4.14), run with the notification flush every
 * minute (functions/schedules/notifications.ts). For each entry that is due:
 *   1. claim it (a conditional update of `claimUntil`), so two runs never mail the same entry;
 *   2. read the project, the issue's header and the reporter (one BatchGetItem) and the public comments
 *      after the last one mailed (one Query); an entry whose project is off, whose reporter unsubscribed,
 *      or that has nothing to say any more is dropped. News of the status is the status now against what
 *      the reporter last heard (`toldResolved`): resolved, reopened, or nothing when changes netted out;
 *   3. in one transaction: delete the entry as it was read (`v`, so a comment or resolution that arrived
 *      meanwhile stays owed), store the fresh token's hash, and record the mail on the reporter
 *      (`lastMailAt`, `mailedThrough`, `toldResolved`);
 *   4. send. A failed send puts back what it owed (due a minute later) and the reporter's record as it was.
 * A run that dies between 3 and 4 loses that one mail (the status page still shows everything); mailing a
 * visitor twice is the worse failure for a product that speaks for its client (decision Rp-3).
 * Comments wait for `reporterMailGapMs` after the last mail, however they were owed.
 */
import { DeleteCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { reporterMailGapMs } from '#contracts/reporter';
import { isOpenStatus } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { getItems, isConditionFailure, isTransactionConflict, type Key, tableName } from '#runtime/db';
import type { Logger } from '#runtime/log';
import { sendMail } from '#runtime/mail';
import { MINUTE, nowMs } from '#runtime/time';
import { projectKey, toProject } from '../projects/project';
import { issueHeaderKey } from './issue';
import { followedHeader } from './merge-state';
import {
  hashReporterToken,
  newReporterToken,
  outboxKey,
  REPORTER_OUTBOX,
  type Reporter,
  reporterKey,
  tokenKey,
  toReporter,
} from './reporter';
import { reporterMail } from './reporter-mails';
import { publicComments } from './reporter-status';
import { stateOf } from './triage';

type Item = Record<string, unknown>;

/** An entry held by a run that died is taken again after this. */
const CLAIM_MS = 2 * MINUTE;
const PARALLEL = 4;

export interface ReporterFlushResult {
  /** Mails sent. */
  mails: number;
  /** Entries dropped with nothing to send (updates off, unsubscribed, nothing new). */
  dropped: number;
  /** Entries whose mail failed (owed again a minute later). */
  failed: number;
}

async function claim(item: Item, run: string, now: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: String(item.pk), sk: String(item.sk) },
        UpdateExpression: 'SET claim = :run, claimUntil = :until',
        ConditionExpression: 'v = :v AND (attribute_not_exists(claimUntil) OR claimUntil < :now)',
        ExpressionAttributeValues: { ':run': run, ':until': now + CLAIM_MS, ':now': now, ':v': item.v },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Deletes the entry as read (its `v`); when something was owed meanwhile it stays for the next run. */
async function drop(key: Key, v: unknown): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: key,
        ConditionExpression: 'v = :v',
        ExpressionAttributeValues: { ':v': v },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/** Lets go of this run's claim on an entry (another run's, or none, stays as it is). */
async function release(key: Key, run: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'REMOVE claim, claimUntil',
        ConditionExpression: 'claim = :run',
        ExpressionAttributeValues: { ':run': run },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/** Postpones an entry of comments to the end of the reporter's quiet time (its claim released). */
async function postpone(key: Key, v: unknown, due: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET due = :due REMOVE claim, claimUntil',
        ConditionExpression: 'v = :v',
        ExpressionAttributeValues: { ':due': due, ':v': v },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/**
 * The news of the status a mail carries, when the entry owes a confirmation or a change of the status:
 * the status now, as the reporter reads it, against what they last heard. A resolution taken back before
 * the flush, or a reopening resolved again, tells nothing; a reopening after "resolved" tells "reopened".
 */
export function statusNews(
  owed: boolean,
  header: Item,
  reporter: Pick<Reporter, 'toldResolved'>,
): 'resolved' | 'reopened' | null {
  if (!owed) return null;
  const resolvedNow = !isOpenStatus(stateOf(header).fields.status);
  if (resolvedNow === reporter.toldResolved) return null;
  return resolvedNow ? 'resolved' : 'reopened';
}

/** One entry: claimed, read, recorded, mailed. Answers what became of it. */
async function flushEntry(item: Item, run: string, log: Logger): Promise<'mail' | 'dropped' | 'skip'> {
  const now = nowMs();
  if (!(await claim(item, run, now))) return 'skip';
  const key = { pk: String(item.pk), sk: String(item.sk) };
  const projectId = String(item.projectId);
  const n = Number(item.number);
  const [meta, header, reporterItem] = await getItems([
    projectKey(projectId),
    issueHeaderKey(projectId, n),
    reporterKey(projectId, n),
  ]);
  const reporter = toReporter(reporterItem);
  const project = meta ? toProject(meta) : null;
  if (project?.active !== 1 || !project.data.reporterUpdates || !header || !reporter?.email) {
    await drop(key, item.v);
    return 'dropped';
  }
  if (reporter.unsubscribed) {
    await drop(key, item.v);
    return 'dropped';
  }
  const confirm = item.confirm === true;
  // `resolved` is what entries written before reopenings were told said.
  const statusOwed = item.status === true || item.resolved === true;
  // A duplicate's reporter follows its primary (issue 37): the news is the primary's status.
  const news = statusNews(confirm || statusOwed, await followedHeader(projectId, header), reporter);
  const resolved = news === 'resolved';
  const reopened = news === 'reopened';
  // Comments keep the quiet time even when the event that owed them read an older `lastMailAt`.
  if (!confirm && !news && reporter.lastMailAt + reporterMailGapMs > now) {
    await postpone(key, item.v, reporter.lastMailAt + reporterMailGapMs);
    return 'skip';
  }
  const all = await publicComments(projectId, n, reporter.mailedThrough);
  const last = all[all.length - 1];
  const comments = all
    .filter((c) => (c.author as { kind?: string } | undefined)?.kind !== 'reporter')
    .map((c) => ({ author: String((c.author as { name?: string }).name ?? ''), body: String(c.body ?? '') }));
  if (!confirm && !news && comments.length === 0) {
    await drop(key, item.v);
    return 'dropped';
  }
  const token = newReporterToken();
  const before: Reporter = reporter;
  const mailedThrough = last ? String(last.id) : reporter.mailedThrough;
  const toldResolved = news ? resolved : reporter.toldResolved;
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: key,
              ConditionExpression: 'v = :v',
              ExpressionAttributeValues: { ':v': item.v },
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...tokenKey(hashReporterToken(token)), projectId, number: n, createdAt: now },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: reporterKey(projectId, n),
              // `tokens`: the hashes of the tokens this issue's mails carried, so deleting the issue
              // (delete-issue.ts) finds its RTOKEN items without a Scan.
              UpdateExpression: 'SET lastMailAt = :now, mailedThrough = :m, toldResolved = :r ADD tokens :t',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: {
                ':now': now,
                ':m': mailedThrough,
                ':r': toldResolved,
                ':t': new Set([hashReporterToken(token)]),
              },
            },
          },
        ],
      }),
    );
  } catch (err) {
    // Owed more meanwhile (or another transaction on these items): the next run sends it all, without
    // waiting for this run's claim to lapse.
    if (isConditionFailure(err) || isTransactionConflict(err)) {
      await release(key, run);
      return 'skip';
    }
    throw err;
  }
  const mail = reporterMail({
    lang: reporter.lang ?? project.data.widgetLanguage,
    to: reporter.email,
    fromName: project.data.reporterSenderName || project.name,
    projectName: project.name,
    number: n,
    confirm,
    resolved,
    reopened,
    comments,
    token,
  });
  try {
    await sendMail(mail);
    return 'mail';
  } catch (err) {
    log.error('reporter mail failed; owed again in a minute', { projectId, number: n, error: String(err) });
    await restore(projectId, n, before, { confirm, status: statusOwed }, now + MINUTE);
    throw err;
  }
}

/** After a failed send: the entry owed again, and the reporter's record as it was before. */
async function restore(
  projectId: string,
  n: number,
  before: Reporter,
  what: { confirm: boolean; status: boolean },
  due: number,
) {
  const flags = [what.confirm ? 'confirm = :t' : '', what.status ? '#s = :t' : ''].filter(Boolean);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: outboxKey(projectId, n),
      UpdateExpression: `SET projectId = :p, #n = :n, due = :due${flags.map((f) => `, ${f}`).join('')} ADD v :one`,
      ExpressionAttributeNames: { '#n': 'number', ...(what.status ? { '#s': 'status' } : {}) },
      ExpressionAttributeValues: {
        ':p': projectId,
        ':n': n,
        ':due': due,
        ':one': 1,
        ...(flags.length > 0 ? { ':t': true } : {}),
      },
    }),
  );
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: reporterKey(projectId, n),
      UpdateExpression: 'SET lastMailAt = :l, mailedThrough = :m, toldResolved = :r',
      ExpressionAttributeValues: {
        ':l': before.lastMailAt,
        ':m': before.mailedThrough,
        ':r': before.toldResolved,
      },
    }),
  );
}

/** Every entry due now, one mail each (until `budgetMs` is spent; the rest waits for the next run). */
export async function flushReporterMails(log: Logger, budgetMs = 40_000): Promise<ReporterFlushResult> {
  const run = `${nowMs()}-${Math.random().toString(36).slice(2)}`;
  const deadline = Date.now() + budgetMs;
  const result: ReporterFlushResult = { mails: 0, dropped: 0, failed: 0 };
  let startKey: Item | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: 'due <= :now',
        ExpressionAttributeValues: { ':pk': REPORTER_OUTBOX, ':now': nowMs() },
        ConsistentRead: true,
        Limit: 100,
        ExclusiveStartKey: startKey,
      }),
    );
    startKey = page.LastEvaluatedKey;
    const items = page.Items ?? [];
    for (let i = 0; i < items.length && Date.now() < deadline; i += PARALLEL) {
      await Promise.all(
        items.slice(i, i + PARALLEL).map(async (item) => {
          try {
            const outcome = await flushEntry(item, run, log);
            if (outcome === 'mail') result.mails++;
            if (outcome === 'dropped') result.dropped++;
          } catch (err) {
            result.failed++;
            log.error('reporter outbox entry failed', { sk: String(item.sk), error: String(err) });
          }
        }),
      );
    }
  } while (startKey && Date.now() < deadline);
  return result;
}
