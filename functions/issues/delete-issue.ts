/**
 * Deleting one issue completely (docs/retention.md "What is deleted"): the one place that knows every item
 * and object an issue owns. Retention calls it; anything that deletes an issue later must call it too.
 *
 * In the project's partition PROJECT#<pid>:
 *   ISSUE#<n10>                 the header, and with it its place in the lists: META's resolvedCount and
 *                               bytes, STATS/BLOCK, every facet's FSTATS/FBLOCK and the `updated` order
 *   ISSUE#<n10>#DETAIL          description, device data, file names, delivery statuses
 *   ISSUE#<n10>#REPORTER        the reporter's address and the hashes of their status-page tokens
 *   ISSUE#<n10>#T#<id>          comments and activity
 *   ISSUE#<n10>#DUP#<m10>       a primary's duplicates (issue 37); a duplicate's own entry under its
 *                               primary goes in step 1, with the primary's count. A deleted primary's
 *                               duplicates stand alone again first (their `duplicateOf` removed, an
 *                               activity entry saying why): no "Duplicate of" a gone issue
 *   SIM#<n10>, SIMX#…#<n10>     its similarity signals and index entries (4.20; the entries' keys derived
 *                               from the signals item); other reports' `cand` naming it are skipped on read
 *   SYNC#<name>#<n10>           the sync lists' markers
 *   RESOLVEDAT#<n10>            the retention index's entry
 *   TRACKER#<vendor>#<id>       the tracker links its deliveries wrote (`extraKeys`, from the integrations)
 * Elsewhere: RTOKEN#<hash> (its status-page tokens), REPORTER_OUTBOX/<pid>#<n10> (a mail owed), the team's
 * storageBytes. In S3 under p/<pid>/: screenshots, videos, page snapshots and their viewable copies, files,
 * the session replay.
 * Left to their TTL: UPLOAD# guards (2 days after the report, long gone by any retention period), the
 * notification outbox's entries (7 days; the flush drops an entry whose issue is gone), SYNCED# ids (90 days).
 *
 * Two steps, so a crash anywhere loses nothing and counts nothing twice:
 *   1. one transaction deletes the header and takes the issue out of every count and index, and marks
 *      the retention entry `purging` (it stays in the retention index, so a rerun finds the rest);
 *   2. the objects and the other items go in bounded batches (DeleteObjects of ≤ 1,000, BatchWriteItem of
 *      ≤ 25), the detail (which names the objects) and the retention entry last.
 * A rerun after step 1 finds no header and does step 2 again; deleting what is gone is no error.
 */

import { integrationNames } from '#contracts/integration-names';
import type { Actor } from '#contracts/triage';
import {
  batchDelete,
  failedConditions,
  getItems,
  isConditionFailure,
  type Key,
  queryKeys,
  type TransactItems,
  tableName,
  transactWrite,
} from '#runtime/db';
import { deleteObjects } from '#runtime/s3-objects';
import { nowMs } from '#runtime/time';
import { projectKey, projectPartition } from '../projects/project';
import { teamOf } from '../teams/member';
import { teamKey } from '../teams/team';
import { dataIndexKey } from './data-index';
import {
  blockKey,
  blockOf,
  type IssueFile,
  type IssueReplay,
  type IssueScreenshot,
  issueDetailKey,
  issueHeaderKey,
  n10,
  resolvedAtKey,
  resolvedAtPut,
  statsAttribute,
  statsKey,
  syncKey,
} from './issue';
import { type MergeIndexChange, mergeCondition, mergeIndexActions, mergeIndexStateOf } from './merge-index';
import { duplicateKey, duplicateOfHeader, duplicatesOf, reportsOfHeader } from './merge-state';
import { snapshotViewKey, storedKey } from './object-keys';
import { placeCondition, unindexActions } from './rank-index';
import { outboxKey, reporterKey, tokenKey } from './reporter';
import { signalsKey, similarKeysOf } from './similar';
import { activity, timelinePut } from './timeline';
import { stateOf } from './triage';

type Item = Record<string, unknown>;

/**
 * What happened to the issue: deleted now; its deletion finished (a crashed run had done the first step);
 * nothing was left of it; or kept (reopened or changed meanwhile, or its project is being deleted).
 */
export type DeleteOutcome = 'deleted' | 'finished' | 'gone' | 'kept';

export interface DeleteOptions {
  /**
   * Only while the issue is still resolved, and resolved at this time (the retention index's entry): a
   * reopened or re-resolved issue is kept. Absent: deleted whatever its list.
   */
  resolvedAt?: string;
  /** Items outside the issues' domain that point at it (the integrations' tracker links), from its detail. */
  extraKeys?: (detail: Item) => Key[];
}

/** The S3 keys of an issue's objects, from its detail: every screenshot, video, snapshot (and view), file, replay. */
export function issueObjectKeys(projectId: string, detail: Item): string[] {
  const keys: string[] = [];
  for (const s of (detail.screenshots ?? []) as IssueScreenshot[]) {
    if (s.name) keys.push(storedKey(projectId, 'screenshot', s.name));
    if (s.html) keys.push(storedKey(projectId, 'snapshot', s.html), snapshotViewKey(projectId, s.html));
  }
  for (const f of (detail.files ?? []) as IssueFile[])
    if (f.name) keys.push(storedKey(projectId, 'file', f.name));
  const replay = detail.replay as IssueReplay | undefined;
  if (replay?.name) keys.push(storedKey(projectId, 'replay', replay.name));
  return keys;
}

/**
 * Deletes issue `n` of project `projectId` and everything it owns. Idempotent: safe to run twice, and
 * after a crash at any point.
 */
export async function deleteIssue(
  projectId: string,
  n: number,
  options: DeleteOptions = {},
): Promise<DeleteOutcome> {
  const [meta, header, detail, reporter, retention] = await getItems([
    projectKey(projectId),
    issueHeaderKey(projectId, n),
    issueDetailKey(projectId, n),
    reporterKey(projectId, n),
    resolvedAtKey(projectId, n),
  ]);
  // The project's own deletion purges its whole partition: nothing of it is ours to count.
  if (!meta) return 'kept';
  // No header: a crashed run's first step is done (its entry still says so), or nothing is left at all.
  let outcome: DeleteOutcome = retention ? 'finished' : 'gone';
  if (header) {
    if (options.resolvedAt !== undefined && !stillDue(header, options.resolvedAt)) {
      await dropStaleEntry(projectId, n, header, retention);
      return 'kept';
    }
    const removed = await removeFromLists(projectId, n, meta, header, detail, options.resolvedAt);
    if (!removed) return 'kept';
    outcome = 'deleted';
  }
  await releaseDuplicates(projectId, n);
  // Read once the header is gone: a similarity run in flight wrote its items before (found here) or is
  // refused by its condition on the header (similar.ts), so none are left behind.
  const [signals] = await getItems([signalsKey(projectId, n)]);
  await removeRest(projectId, n, detail, reporter, signals, options.extraKeys, teamOf(meta));
  return outcome;
}

const stillDue = (header: Item, resolvedAt: string) =>
  Number(header.deleted) === 1 && header.resolvedAt === resolvedAt;

/**
 * A retention entry that no longer says when the issue was resolved (written by the backfill while the
 * issue was reopened): deleted, unless the issue is resolved now (then its own entry is right).
 */
async function dropStaleEntry(projectId: string, n: number, header: Item, entry: Item | undefined) {
  if (!entry || Number(header.deleted) === 1) return;
  await batchDelete([resolvedAtKey(projectId, n)]);
}

/**
 * Step 1: the header goes, and with it the issue's place in every list, count and index, in one
 * transaction (≤ 1 + 4 + 28 + 2 + 2 = 37 actions, the last two a duplicate's leaving its primary). False
 * when a concurrent change (a reopen, a triage change, a merge) refused it: the issue is kept this time,
 * and the next run decides again.
 */
async function removeFromLists(
  projectId: string,
  n: number,
  meta: Item,
  header: Item,
  detail: Item | undefined,
  resolvedAt: string | undefined,
): Promise<boolean> {
  const T = tableName();
  const list = Number(header.deleted) === 1 ? 'resolved' : 'open';
  const { b, off } = blockOf(n);
  const bytes = Number(detail?.bytes ?? 0);
  const state = stateOf(header);
  const place = placeCondition(state.u);
  const values: Item = { ':d': Number(header.deleted), ...place.values };
  let condition = `attribute_exists(pk) AND deleted = :d AND ${place.expression}`;
  if (resolvedAt !== undefined) {
    condition += ' AND resolvedAt = :r';
    values[':r'] = resolvedAt;
  }
  // Issue 37: a duplicate leaves its primary's count and list. The header's condition holds the merge state
  // read, so a merge or unmerge meanwhile keeps the issue this run and the next decides again.
  const primary = duplicateOfHeader(header);
  if (primary) {
    condition += ' AND duplicateOf = :dupOf';
    values[':dupOf'] = primary;
  } else condition += ' AND attribute_not_exists(duplicateOf)';
  // A primary leaves the merge index with the `reports` read: a merge into it meanwhile keeps it this run.
  const reports = reportsOfHeader(header);
  if (reports > 1) {
    condition += ' AND reports = :reports';
    values[':reports'] = reports;
  } else condition += ' AND (attribute_not_exists(reports) OR reports <= :one)';
  if (reports <= 1) values[':one'] = 1;
  const left = primary ? await leavePrimary(projectId, primary, n) : { actions: [], change: null };
  const primaryActions = left.actions;
  const actions: TransactItems = [
    {
      Delete: {
        TableName: T,
        Key: issueHeaderKey(projectId, n),
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
      },
    },
    {
      Update: {
        TableName: T,
        Key: projectKey(projectId),
        UpdateExpression: 'ADD #count :minus, #bytes :bytes',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#count': `${list}Count`, '#bytes': 'bytes' },
        ExpressionAttributeValues: { ':minus': -1, ':bytes': -bytes },
      },
    },
    {
      Update: {
        TableName: T,
        Key: statsKey(projectId),
        UpdateExpression: 'ADD #s :minus',
        ExpressionAttributeNames: { '#s': statsAttribute(list, b) },
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
    {
      Update: {
        TableName: T,
        Key: blockKey(projectId, b),
        UpdateExpression: 'DELETE #o :off',
        ExpressionAttributeNames: { '#o': `${list}Offsets` },
        ExpressionAttributeValues: { ':off': new Set([off]) },
      },
    },
    // Kept in the retention index until step 2 ends, so a rerun after a crash finds what is left.
    resolvedAtPut(projectId, n, String(header.resolvedAt ?? ''), { purging: true }),
    ...unindexActions(projectId, n, state),
    // The merge index (merge-index.ts): the issue leaves it, and a duplicate's primary moves to its count less one.
    ...mergeIndexActions(projectId, [
      { n, before: mergeIndexStateOf(header), after: null },
      ...(left.change ? [left.change] : []),
    ]),
  ];
  const mergeFrom = actions.length;
  actions.push(...primaryActions);
  const teamIndex = actions.length;
  // The storage the issue's files used is the team's again (issue 22: the quota is the team's).
  if (bytes > 0)
    actions.push({
      Update: {
        TableName: T,
        Key: teamKey(teamOf(meta)),
        UpdateExpression: 'ADD storageBytes :bytes',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':bytes': -bytes },
      },
    });
  try {
    await transactWrite(actions, () => undefined);
    return true;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const failed = failedConditions(err);
    // The header changed, or the primary was deleted or changed meanwhile: kept, decided again next run.
    if (failed.includes(0) || failed.some((i) => i >= mergeFrom && i < teamIndex)) return false;
    // A team item that is not there (an account from before teams): its storage is counted nowhere.
    if (bytes > 0 && failed.includes(teamIndex)) return removeFromListsWithout(actions.slice(0, teamIndex));
    throw err;
  }
}

/**
 * The actions that take duplicate `n` out of `primary`: its DUP entry, and the primary's count while the
 * primary is there (one GetItem to know; deleted meanwhile, the condition refuses and the run keeps `n`).
 */
async function leavePrimary(
  projectId: string,
  primary: number,
  n: number,
): Promise<{ actions: TransactItems; change: MergeIndexChange | null }> {
  const T = tableName();
  const [p] = await getItems([issueHeaderKey(projectId, primary)]);
  const actions: TransactItems = [{ Delete: { TableName: T, Key: duplicateKey(projectId, primary, n) } }];
  const before = mergeIndexStateOf(p);
  if (!p || !before) return { actions, change: null };
  // Its list and count as read (the merge index moves from them): a change meanwhile keeps `n` this run.
  const pc = mergeCondition(p, 'q');
  actions.push({
    Update: {
      TableName: T,
      Key: issueHeaderKey(projectId, primary),
      UpdateExpression: 'SET reports = :r',
      ConditionExpression: `attribute_exists(pk) AND reports > :qmin AND ${pc.expression}`,
      ExpressionAttributeValues: { ':r': before.reports - 1, ':qmin': 1, ...pc.values },
    },
  });
  return { actions, change: { n: primary, before, after: { ...before, reports: before.reports - 1 } } };
}

async function removeFromListsWithout(actions: TransactItems): Promise<boolean> {
  try {
    await transactWrite(actions, () => undefined);
    return true;
  } catch (err) {
    if (isConditionFailure(err) && failedConditions(err).includes(0)) return false;
    throw err;
  }
}

/** Deletion is the system's doing (retention), named as the other system entries are. */
const systemActor: Actor = { kind: 'system', name: 'Snag' };

/** Duplicates released per transaction round, in parallel (a primary holds at most 500). */
const RELEASE_PARALLEL = 10;

/**
 * Step 2's start: the duplicates merged into the deleted issue `n` stand alone again, each in one
 * transaction (its `duplicateOf` removed on condition it still names `n`, its DUP entry, an `unmerged`
 * activity entry with reason `primary.deleted`). Done after the header is gone, so no merge into `n` can
 * follow, and before the DUP entries go, so a rerun after a crash finds whoever is left. A duplicate
 * unmerged or deleted meanwhile refuses the condition and is skipped: nothing of it to release. No
 * `issue.unmerged` is published: the reporter already follows its own status once the primary is gone
 * (merge-state.ts `followedHeader`), and a webhook naming a deleted primary would point nowhere.
 */
async function releaseDuplicates(projectId: string, n: number) {
  const numbers = await duplicatesOf(projectId, n);
  const T = tableName();
  const at = new Date(nowMs()).toISOString();
  const release = async (m: number) => {
    // The duplicate's list as read (it leaves that list's merge index); a move meanwhile: read again.
    for (let attempt = 1; attempt <= 5; attempt++) {
      const [h] = await getItems([issueHeaderKey(projectId, m)]);
      const before = mergeIndexStateOf(h);
      if (!h || !before || duplicateOfHeader(h) !== n) return;
      const hc = mergeCondition(h, 'h');
      try {
        await transactWrite(
          [
            {
              Update: {
                TableName: T,
                Key: issueHeaderKey(projectId, m),
                // Resolved with the deleted primary, it stays resolved: the problem was; only the follow ends.
                UpdateExpression: 'REMOVE duplicateOf, followedFrom',
                ConditionExpression: `attribute_exists(pk) AND ${hc.expression}`,
                ExpressionAttributeValues: hc.values,
              },
            },
            { Delete: { TableName: T, Key: duplicateKey(projectId, n, m) } },
            timelinePut(
              projectId,
              activity(m, 'unmerged', systemActor, { from: n, reason: 'primary.deleted' }, at),
            ),
            ...mergeIndexActions(projectId, [{ n: m, before, after: { ...before, duplicate: false } }]),
          ],
          () => undefined,
        );
        return;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    }
  };
  for (let i = 0; i < numbers.length; i += RELEASE_PARALLEL)
    await Promise.all(numbers.slice(i, i + RELEASE_PARALLEL).map(release));
}

/** Step 2: the objects, then every other item, the detail, signals and retention entry last. */
async function removeRest(
  projectId: string,
  n: number,
  detail: Item | undefined,
  reporter: Item | undefined,
  signals: Item | undefined,
  extraKeys: DeleteOptions['extraKeys'],
  teamId: string,
) {
  if (detail) await deleteObjects(issueObjectKeys(projectId, detail));
  // The data requests' index names the issue under its reporter's address: it goes with the issue.
  const indexed = dataIndexKey(
    teamId,
    projectId,
    n,
    (detail?.data as { username?: unknown } | undefined)?.username,
  );
  const own = await queryKeys({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': projectPartition(projectId), ':p': `ISSUE#${n10(n)}#` },
    ConsistentRead: true,
  });
  const detailSk = issueDetailKey(projectId, n).sk;
  // The similarity index entries, then (with the detail) the signals item they were derived from.
  const similar = similarKeysOf(projectId, n, signals);
  const tokens = [...((reporter?.tokens as Set<string> | undefined) ?? [])].map((h) => tokenKey(String(h)));
  await batchDelete([
    ...own.filter((k) => k.sk !== detailSk),
    ...integrationNames.map((name) => syncKey(projectId, name, n)),
    ...tokens,
    outboxKey(projectId, n),
    ...(indexed ? [indexed] : []),
    ...(detail && extraKeys ? extraKeys(detail) : []),
    ...similar.slice(0, -1),
  ]);
  await batchDelete([issueDetailKey(projectId, n), ...similar.slice(-1), resolvedAtKey(projectId, n)]);
}
