/**
 * The reporter entity (issue 24; docs/data-model.md 4.14): what Snag keeps to tell a visitor who left
 * their address what became of their report. Three kinds of item:
 *   PROJECT#<pid> / ISSUE#<n10>#REPORTER      the address, the language of the report, whether they
 *                                             unsubscribed, when they were last mailed and the last
 *                                             comment that mail carried
 *   RTOKEN#<sha256 hex> / RTOKEN              one status-page token (only its hash) → the issue it opens
 *   REPORTER_OUTBOX / <pid>#<n10>             a mail owed to the reporter: `due`, and what it must say
 *                                             (`confirm`, `status`; comments and the status are read
 *                                             when it is sent)
 * A token is minted by the mail that carries it (reporter-mails.ts), never earlier, so no item ever holds
 * one in the clear; each mail brings a fresh one and the older ones keep working (decision Rp-1).
 */
import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { reporterMailGapMs } from '#contracts/reporter';
import { widgetLanguages } from '#contracts/schemas';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { nowMs } from '#runtime/time';
import { projectPartition } from '../projects/project';
import { n10 } from './issue';

type Item = Record<string, unknown>;

export const reporterKey = (projectId: string, n: number) => ({
  pk: projectPartition(projectId),
  sk: `ISSUE#${n10(n)}#REPORTER`,
});

/** 128 random bits, base64url: 22 characters (contracts/reporter.ts `reporterTokenParam`). */
export const newReporterToken = () => randomBytes(16).toString('base64url');
export const hashReporterToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const tokenKey = (hash: string) => ({ pk: `RTOKEN#${hash}`, sk: 'RTOKEN' });

export const REPORTER_OUTBOX = 'REPORTER_OUTBOX';
export const outboxKey = (projectId: string, n: number) => ({
  pk: REPORTER_OUTBOX,
  sk: `${projectId}#${n10(n)}`,
});

/** The stored part of a reporter, as reporter-mails.ts and the status page read it. */
export interface Reporter {
  email: string;
  unsubscribed: boolean;
  /** When the last mail went out (ms); 0 before the first. */
  lastMailAt: number;
  /** The id of the newest comment a mail has carried ('' before any). */
  mailedThrough: string;
  /**
   * Whether the last news of the status they were mailed was "resolved" (false: none yet, or "reopened"):
   * the flush tells a change only against this, so they never hear "resolved" twice in a row.
   */
  toldResolved: boolean;
  /**
   * The language the widget spoke when they filed the report, which their mails and status page speak;
   * absent for reports filed before the widget said it (the project's widget language then).
   */
  lang?: (typeof widgetLanguages)[number];
}

const isLang = (v: unknown): v is (typeof widgetLanguages)[number] =>
  (widgetLanguages as readonly unknown[]).includes(v);

export function toReporter(item: Item | undefined): Reporter | null {
  if (!item || typeof item.email !== 'string' || item.email === '') return null;
  return {
    email: item.email,
    unsubscribed: item.unsubscribed === true,
    lastMailAt: typeof item.lastMailAt === 'number' ? item.lastMailAt : 0,
    mailedThrough: typeof item.mailedThrough === 'string' ? item.mailedThrough : '',
    toldResolved: item.toldResolved === true,
    ...(isLang(item.lang) ? { lang: item.lang } : {}),
  };
}

/**
 * The intake's part (functions/issues/intake.ts): the reporter and the confirmation owed to them, as two
 * Puts of the issue's own transaction, so a report that failed owes nothing and one that succeeded is
 * confirmed by the next flush, off the request path.
 */
export function reporterPuts(projectId: string, n: number, email: string, lang?: Reporter['lang']) {
  const now = nowMs();
  const item = { ...reporterKey(projectId, n), email, createdAt: now, ...(lang ? { lang } : {}) };
  return [
    { Put: { TableName: tableName(), Item: item } },
    {
      Put: {
        TableName: tableName(),
        Item: { ...outboxKey(projectId, n), projectId, number: n, due: now, confirm: true, v: 1 },
      },
    },
  ];
}

/** The issue a token opens, or null: one GetItem of the token's hash (no scan, no timing beyond it). */
export async function issueOfToken(token: string): Promise<{ projectId: string; number: number } | null> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: tokenKey(hashReporterToken(token)) }),
  );
  const item = out.Item;
  if (!item || typeof item.projectId !== 'string' || typeof item.number !== 'number') return null;
  return { projectId: item.projectId, number: item.number };
}

/**
 * Owes the reporter a mail about issue `n` (the fan-out's part, reporter-events.ts): a change of the status
 * (resolved or reopened) is due at once; comments when the last mail is `reporterMailGapMs` old, so
 * comments arriving within that time travel together (decision Rp-3). An entry already owed keeps its
 * `due`; `v` counts the changes, so the flush deletes only the entry it read.
 */
export async function oweMail(
  projectId: string,
  n: number,
  reporter: Reporter,
  what: 'comment' | 'status',
): Promise<void> {
  const now = nowMs();
  const due = what === 'status' ? now : Math.max(now, reporter.lastMailAt + reporterMailGapMs);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: outboxKey(projectId, n),
      UpdateExpression:
        what === 'status'
          ? 'SET projectId = :p, #n = :n, due = :due, #s = :t ADD v :one'
          : 'SET projectId = :p, #n = :n, due = if_not_exists(due, :due) ADD v :one',
      ExpressionAttributeNames: { '#n': 'number', ...(what === 'status' ? { '#s': 'status' } : {}) },
      ExpressionAttributeValues: {
        ':p': projectId,
        ':n': n,
        ':due': due,
        ':one': 1,
        ...(what === 'status' ? { ':t': true } : {}),
      },
    }),
  );
}

/** Stops every mail about issue `n` (the unsubscribe link): idempotent, one UpdateItem. */
export async function unsubscribeReporter(projectId: string, n: number): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: reporterKey(projectId, n),
      UpdateExpression: 'SET unsubscribed = :t',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':t': true },
    }),
  );
}
