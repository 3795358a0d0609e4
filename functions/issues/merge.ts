/**
 * Merging a report into another (issue 37; docs/similar.md "Merging", docs/data-model.md 4.19): POST …/merge
 * makes issue `n` a duplicate of `into`; DELETE …/merge makes it stand alone again. A member decides; nothing
 * here runs on its own.
 *
 * Rules (decision Mrg-1): both issues of the same project (the path's; `into` is a number in it); `into` is
 * not itself a duplicate (MERGE_INTO_DUPLICATE, its primary named in `fields.into`: a chain would make
 * "follow the primary" ambiguous); an issue that others were merged into is not merged itself
 * (MERGE_HAS_DUPLICATES: moving up to 500 duplicates is not one transaction, and the member who meant the
 * other way round merges the other issue into this one); an issue that is a duplicate already is not merged
 * elsewhere without an unmerge first (ALREADY_MERGED); a primary holds `similarLimits.duplicatesPerPrimary`
 * duplicates (MERGE_LIMIT). The same merge again, or an unmerge of an issue that stands alone, changes
 * nothing and answers the state: both calls are idempotent.
 *
 * One transaction per call: the duplicate's header (`duplicateOf`, conditioned on it standing alone and
 * gathering nothing), the primary's header (`reports` ± 1, conditioned on it not being a duplicate and under
 * the limit), the DUP item, the caller's membership check and one activity entry on each issue. The
 * conditions make two calls racing on the same issues serialise: counts stay exact, cycles cannot form. The
 * duplicate keeps its own status until its primary is resolved, when it is resolved with it (follow.ts);
 * its reporter follows the primary (reporter-status.ts, reporter-flush.ts)
 * through `issue.merged` / `issue.unmerged` on the fan-out queue, which also carries the webhooks.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type MergeAnswer, similarLimits } from '#contracts/similar';
import type { Actor } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import {
  failedConditions,
  getItems,
  isConditionFailure,
  isTransactionConflict,
  retryRaces,
  type TransactItems,
  tableName,
} from '#runtime/db';
import { AppError } from '#runtime/errors';
import { log } from '#runtime/log';
import { publish } from '#runtime/publish';
import { nowMs } from '#runtime/time';
import { displayName, userKey } from '../accounts/user';
import { accessGuard, type ProjectAction, readProjectAs } from '../projects/access';
import { teamOf } from '../teams/member';
import { tokenActor } from '../teams/token';
import { followOnUnmerge } from './follow';
import { issueDetailKey, issueHeaderKey } from './issue';
import { mergeCondition, mergeIndexActions, mergeIndexStateOf } from './merge-index';
import { duplicateKey, duplicateOfHeader, mergeStateOf, reportsOfHeader } from './merge-state';
import { activity, timelinePut } from './timeline';

/** A condition on one of the two headers or the DUP item failed: the issues changed since they were read. */
class Moved extends Error {}

const lostRace = (err: unknown) => err instanceof Moved || isTransactionConflict(err);

/** Tries per call: each lost race means another merge or unmerge of these issues committed first. */
const ATTEMPTS = 10;

interface Context {
  pid: string;
  actor: Actor;
  checks: TransactItems;
}

/** Reads the access, the caller's name and `keys` in one BatchGetItem; the write's membership check. */
async function contextOf(
  userId: string,
  pid: string,
  action: ProjectAction,
  keys: { pk: string; sk: string }[],
) {
  const {
    project,
    caller,
    items: [user, ...items],
  } = await readProjectAs(userId, pid, action, [userKey(userId), ...keys]);
  const teamId = teamOf(project as { teamId?: unknown });
  const name = user ? displayName(user as { firstName: string; lastName: string }) : '';
  const ctx: Context = {
    pid,
    // An API token acts for its creator: "<creator> via API token <name>" (as triage's changes read).
    actor: caller.token ? tokenActor(caller.token) : { kind: 'member', id: userId, name: name || 'Member' },
    checks: accessGuard(caller, teamId, action, pid).checks ?? [],
  };
  return { ctx, items };
}

/**
 * The transaction. A refused condition among the first `guarded` actions (the headers, the DUP item) is a
 * race lost to another merge or unmerge: read again and decide again. A refused membership check (the
 * `checks` that follow) is the caller's right gone meanwhile: NOT_FOUND, as the read would have answered.
 */
async function write(actions: TransactItems, guarded: number, checks: number) {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: actions }));
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const failed = failedConditions(err);
    if (failed.some((i) => i >= guarded && i < guarded + checks)) throw new AppError('NOT_FOUND');
    throw new Moved();
  }
}

/** The primary's state after a call, read again (its duplicates' list included). */
async function primaryAnswer(pid: string, primary: number): Promise<MergeAnswer['primary']> {
  const [h, d] = await getItems([issueHeaderKey(pid, primary), issueDetailKey(pid, primary)]);
  if (!h || !d) return { number: primary, reports: 1, duplicates: [], affected: { browsers: [], pages: [] } };
  return { number: primary, ...(await mergeStateOf(pid, primary, h, d)) };
}

async function announce(
  ctx: Context,
  type: 'issue.merged' | 'issue.unmerged',
  n: number,
  primary: number,
  at: string,
) {
  try {
    await publish('fanout', [
      { message: { type, projectId: ctx.pid, issueNumber: n, actor: ctx.actor, at, primary } },
    ]);
  } catch (e) {
    // The merge is stored; only its webhooks and the reporter's mail about it are lost.
    log.error(`${type} not sent`, { projectId: ctx.pid, number: n, primary, e });
  }
}

/** POST …/merge: issue `n` becomes a duplicate of `into` (see the module's rules). */
export async function mergeIssue(
  userId: string,
  pid: string,
  n: number,
  into: number,
  action: ProjectAction = 'triage',
): Promise<MergeAnswer> {
  if (into === n) throw new AppError('INVALID_PARAMETERS', { into: 'INVALID_PARAMETERS' });
  const { ctx, items } = await contextOf(userId, pid, action, [
    issueHeaderKey(pid, n),
    issueHeaderKey(pid, into),
  ]);
  let [h, p] = items;
  const T = tableName();
  const done = await retryRaces(
    lostRace,
    async (attempt) => {
      if (attempt > 1) [h, p] = await getItems([issueHeaderKey(pid, n), issueHeaderKey(pid, into)]);
      if (!h) throw new AppError('NOT_FOUND');
      if (!p) throw new AppError('MERGE_TARGET_MISSING', { into: 'MERGE_TARGET_MISSING' });
      const already = duplicateOfHeader(h);
      if (already === into) return null;
      if (already) throw new AppError('ALREADY_MERGED', { duplicateOf: String(already) });
      if (reportsOfHeader(h) > 1) throw new AppError('MERGE_HAS_DUPLICATES');
      const above = duplicateOfHeader(p);
      if (above) throw new AppError('MERGE_INTO_DUPLICATE', { into: String(above) });
      if (reportsOfHeader(p) >= 1 + similarLimits.duplicatesPerPrimary) throw new AppError('MERGE_LIMIT');
      const at = new Date(nowMs()).toISOString();
      // Both headers as read, lists included: the merge index (merge-index.ts) moves from that state, and a
      // concurrent merge, unmerge or list move refuses the write and makes this one decide again.
      const hc = mergeCondition(h, 'h');
      const pc = mergeCondition(p, 'q');
      const actions: TransactItems = [
        {
          Update: {
            TableName: T,
            Key: issueHeaderKey(pid, n),
            UpdateExpression: 'SET duplicateOf = :p',
            ConditionExpression: `attribute_exists(pk) AND ${hc.expression}`,
            ExpressionAttributeValues: { ':p': into, ...hc.values },
          },
        },
        {
          Update: {
            TableName: T,
            Key: issueHeaderKey(pid, into),
            UpdateExpression: 'SET reports = :r',
            ConditionExpression: `attribute_exists(pk) AND ${pc.expression}`,
            ExpressionAttributeValues: { ':r': reportsOfHeader(p) + 1, ...pc.values },
          },
        },
        {
          Put: {
            TableName: T,
            Item: { ...duplicateKey(pid, into, n), number: n, at },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ];
      const guarded = actions.length;
      actions.push(...ctx.checks);
      actions.push(timelinePut(pid, activity(n, 'merged', ctx.actor, { to: into }, at)));
      actions.push(timelinePut(pid, activity(into, 'duplicate.added', ctx.actor, { to: n }, at)));
      const dupBefore = mergeIndexStateOf(h);
      const primBefore = mergeIndexStateOf(p);
      actions.push(
        ...mergeIndexActions(pid, [
          { n, before: dupBefore, after: dupBefore && { ...dupBefore, duplicate: true } },
          {
            n: into,
            before: primBefore,
            after: primBefore && { ...primBefore, reports: primBefore.reports + 1 },
          },
        ]),
      );
      await write(actions, guarded, ctx.checks.length);
      return at;
    },
    ATTEMPTS,
    (attempt) => Math.random() * 20 * Math.min(attempt, 5),
  );
  if (done) await announce(ctx, 'issue.merged', n, into, done);
  return { issue: { number: n, duplicateOf: into }, primary: await primaryAnswer(pid, into) };
}

/** DELETE …/merge: issue `n` stands alone again, its own status as it was, its reporter following it. */
export async function unmergeIssue(
  userId: string,
  pid: string,
  n: number,
  action: ProjectAction = 'triage',
): Promise<MergeAnswer> {
  const { ctx, items } = await contextOf(userId, pid, action, [issueHeaderKey(pid, n)]);
  let [h] = items;
  const T = tableName();
  const done = await retryRaces(
    lostRace,
    async (attempt) => {
      if (attempt > 1) [h] = await getItems([issueHeaderKey(pid, n)]);
      if (!h) throw new AppError('NOT_FOUND');
      const primary = duplicateOfHeader(h);
      if (!primary) return null;
      const [p] = await getItems([issueHeaderKey(pid, primary)]);
      const at = new Date(nowMs()).toISOString();
      // Both headers as read (lists and merge state): the merge index moves from that state (merge.ts above).
      const hc = mergeCondition(h, 'h');
      const pc = p ? mergeCondition(p, 'q') : null;
      const actions: TransactItems = [
        {
          Update: {
            TableName: T,
            Key: issueHeaderKey(pid, n),
            UpdateExpression: 'REMOVE duplicateOf',
            ConditionExpression: `attribute_exists(pk) AND ${hc.expression}`,
            ExpressionAttributeValues: hc.values,
          },
        },
        {
          Delete: {
            TableName: T,
            Key: duplicateKey(pid, primary, n),
          },
        },
      ];
      // A primary deleted meanwhile (retention) leaves only the duplicate's pointer to remove.
      if (p)
        actions.push({
          Update: {
            TableName: T,
            Key: issueHeaderKey(pid, primary),
            UpdateExpression: 'SET reports = :r',
            ConditionExpression: `attribute_exists(pk) AND ${pc?.expression}`,
            ExpressionAttributeValues: { ':r': reportsOfHeader(p) - 1, ...pc?.values },
          },
        });
      const guarded = actions.length;
      actions.push(...ctx.checks);
      actions.push(timelinePut(pid, activity(n, 'unmerged', ctx.actor, { from: primary }, at)));
      if (p)
        actions.push(timelinePut(pid, activity(primary, 'duplicate.removed', ctx.actor, { from: n }, at)));
      const dupBefore = mergeIndexStateOf(h);
      const primBefore = mergeIndexStateOf(p);
      actions.push(
        ...mergeIndexActions(pid, [
          { n, before: dupBefore, after: dupBefore && { ...dupBefore, duplicate: false } },
          ...(primBefore
            ? [{ n: primary, before: primBefore, after: { ...primBefore, reports: primBefore.reports - 1 } }]
            : []),
        ]),
      );
      await write(actions, guarded, ctx.checks.length);
      return { at, primary };
    },
    ATTEMPTS,
    (attempt) => Math.random() * 20 * Math.min(attempt, 5),
  );
  if (done) {
    // Resolved with its primary, it goes back to the status it had (follow.ts): at once, so this answer and
    // the next read are right; the fan-out does it again from `issue.unmerged` should this fail.
    await followOnUnmerge(pid, n, done.primary).catch((e) =>
      log.error('unmerged duplicate not restored', { projectId: pid, number: n, e }),
    );
    await announce(ctx, 'issue.unmerged', n, done.primary, done.at);
    return { issue: { number: n }, primary: await primaryAnswer(pid, done.primary) };
  }
  return { issue: { number: n }, primary: await primaryAnswer(pid, n) };
}
