/**
 * The per-issue delivery state of the integrations (docs/data-model.md 4.8). This module owns:
 *   PROJECT#<pid> / ISSUE#<n10>#DETAIL   `st.<name>` (0 new, 1 in progress, 2 passed, 3 failed),
 *                                        `vendor_<name>` (the vendor's id, for idempotency),
 *                                        `url_<name>` (the created item's web address, http(s) only:
 *                                        the issue page links it; absent for email, webhooks and
 *                                        deliveries made before it was kept),
 *                                        `reason_<name>` (why a permanent failure failed),
 *                                        `since_<name>` (epoch ms when status 1 was set: Sync may start
 *                                        a status 1 again once it is stale),
 *                                        `attempt_<name>` ({at, message, receive}: a vendor call began and
 *                                        no outcome is recorded yet; a retry that finds it knows the last
 *                                        attempt's outcome is unknown)
 *   PROJECT#<pid> / SYNC#<name>#<n10>    marker while `st.<name>` is 0 or 3: {s, number, title, createdAt, reason?}
 * and, with a tracker's success, that tracker's link item (sync/hook.ts `trackerLinkPut`).
 * Every write to an issue item is conditioned on `attribute_exists(pk)`, so a late consumer never
 * resurrects a deleted issue.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deliveredUrl, type IntegrationName, type SyncTicket } from '#contracts/integrations';
import { trackerVendors } from '#contracts/sync';
import { db } from '#runtime/aws/dynamo';
import {
  failedConditions,
  getItems,
  isConditionFailure,
  retryConflicts,
  tableName,
  transactWrite,
} from '#runtime/db';
import { nowMs } from '#runtime/time';
import { issueDetailKey, issueHeaderKey, issueHeadOf, syncKey } from '../issues/issue';
import { activity, timelinePut } from '../issues/timeline';
import { projectPartition } from '../projects/project';
import { trackerLinkKey, trackerLinkPut } from './sync/hook';

const isTrackerVendor = (name: IntegrationName) => (trackerVendors as readonly string[]).includes(name);

const vendorAttr = (name: IntegrationName) => `vendor_${name}`;
const reasonAttr = (name: IntegrationName) => `reason_${name}`;
const sinceAttr = (name: IntegrationName) => `since_${name}`;
const attemptAttr = (name: IntegrationName) => `attempt_${name}`;
const urlAttr = (name: IntegrationName) => `url_${name}`;

/** The vendor id a delivery recorded for this issue, if any (read from the detail item). */
export const recordedVendorId = (
  detail: Record<string, unknown>,
  name: IntegrationName,
): string | undefined => {
  const v = detail[vendorAttr(name)];
  return typeof v === 'string' && v !== '' ? v : undefined;
};
/**
 * The tracker link items (sync/hook.ts) an issue's deliveries wrote, from its detail: what deleting the
 * issue must delete beside its own items (docs/retention.md), so a tracker's later hook finds nothing.
 */
export function trackerLinkKeysOf(projectId: string, detail: Record<string, unknown>) {
  return trackerVendors.flatMap((name) => {
    const id = recordedVendorId(detail, name);
    return id ? [trackerLinkKey(projectId, name, id)] : [];
  });
}

/** A vendor call that began: when, by which SQS message and on which of its receives. */
export interface AttemptMark {
  at: number;
  message: string;
  receive: number;
}

/** A vendor call whose outcome no write recorded (its consumer died, timed out, or lost the database). */
export const unsettledAttempt = (
  detail: Record<string, unknown>,
  name: IntegrationName,
): AttemptMark | undefined => {
  const v = detail[attemptAttr(name)] as Partial<AttemptMark> | undefined;
  if (!v || typeof v !== 'object') return undefined;
  return { at: Number(v.at ?? 0), message: String(v.message ?? ''), receive: Number(v.receive ?? 0) };
};
/**
 * Whether an unsettled attempt is over, seen from receive `receive` of message `messageId`: it was an earlier
 * receive of the same message (its invocation ended before the message came back), or it began longer ago
 * than one invocation may run (`leaseMs`). A younger mark of another message (a duplicate copy of the
 * delivery) may still be in flight.
 */
export const attemptOver = (mark: AttemptMark, by: { messageId: string; receive: number }, leaseMs: number) =>
  (mark.message === by.messageId && mark.receive < by.receive) || nowMs() - mark.at > leaseMs;

/** The stored reason of a permanent failure. */
export const failureReason = (detail: Record<string, unknown>, name: IntegrationName): string | undefined => {
  const v = detail[reasonAttr(name)];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/**
 * Fan-out: sets `st.<name>` to 1 (and `since_<name>` to now) and deletes the sync markers, in one
 * transaction for all `names`, for the ones not already passed (2). A redelivered fan-out (or a racing
 * one) finds them 1 and sends again; the deliveries are idempotent. Returns the names started; [] when the issue is gone.
 */
export async function startDeliveries(
  projectId: string,
  n: number,
  names: IntegrationName[],
): Promise<IntegrationName[]> {
  let todo = names;
  for (let attempt = 0; todo.length > 0; attempt++) {
    const T = tableName();
    const attrNames: Record<string, string> = {};
    const sets: string[] = [];
    const conds = ['attribute_exists(pk)'];
    todo.forEach((name, i) => {
      attrNames[`#x${i}`] = name;
      attrNames[`#s${i}`] = sinceAttr(name);
      sets.push(`st.#x${i} = :one`, `#s${i} = :now`);
      conds.push(`(attribute_not_exists(st.#x${i}) OR st.#x${i} <> :two)`);
    });
    try {
      await retryConflicts(() =>
        transactWrite(
          [
            {
              Update: {
                TableName: T,
                Key: issueDetailKey(projectId, n),
                UpdateExpression: `SET ${sets.join(', ')}`,
                ConditionExpression: conds.join(' AND '),
                ExpressionAttributeNames: attrNames,
                ExpressionAttributeValues: { ':one': 1, ':two': 2, ':now': nowMs() },
              },
            },
            ...todo.map((name) => ({ Delete: { TableName: T, Key: syncKey(projectId, name, n) } })),
          ],
          () => undefined,
        ),
      );
      return todo;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      if (attempt > 0) return [];
      // Gone, or some already passed: read the statuses and start only the others.
      const out = await db().send(
        new GetCommand({ TableName: T, Key: issueDetailKey(projectId, n), ConsistentRead: true }),
      );
      if (!out.Item) return [];
      const st = (out.Item.st ?? {}) as Record<string, number>;
      todo = todo.filter((name) => Number(st[name] ?? 0) !== 2);
    }
  }
  return [];
}

/**
 * A write to the issue's detail on condition that the issue still exists: one deleted meanwhile (the
 * project or the issue removed while a delivery ran) is nothing left to do, not a failure.
 */
async function unlessIssueGone(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/** One SET/REMOVE on the issue's detail, unless the issue is gone. */
const updateIssueDetail = (
  projectId: string,
  n: number,
  update: { expression: string; names: Record<string, string>; values: Record<string, unknown> },
) =>
  unlessIssueGone(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: issueDetailKey(projectId, n),
        UpdateExpression: update.expression,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: update.names,
        // DynamoDB refuses an empty map (a REMOVE alone has no values).
        ...(Object.keys(update.values).length ? { ExpressionAttributeValues: update.values } : {}),
      }),
    ),
  );

/**
 * Records that a vendor call begins, before it is made: a retry that still finds the mark knows the
 * attempt ended without a recorded outcome (the vendor may have the delivery). Every outcome removes it.
 */
export const beginAttempt = (
  projectId: string,
  name: IntegrationName,
  n: number,
  mark: Omit<AttemptMark, 'at'>,
) =>
  updateIssueDetail(projectId, n, {
    expression: 'SET #a = :mark',
    names: { '#a': attemptAttr(name) },
    values: { ':mark': { at: nowMs(), ...mark } },
  });

/** A failure the consumer saw (the vendor answered or refused): the outcome is known, nothing was sent. */
export const endAttempt = (projectId: string, name: IntegrationName, n: number) =>
  updateIssueDetail(projectId, n, {
    expression: 'REMOVE #a',
    names: { '#a': attemptAttr(name) },
    values: {},
  });

/**
 * Records the vendor's id before anything else can fail, so a retry never creates a second object; with
 * it the created item's web address, when the vendor gave an http(s) one (anything else is dropped).
 */
export const recordVendorId = (
  projectId: string,
  name: IntegrationName,
  n: number,
  vendorId: string,
  url?: string,
) => {
  const link = deliveredUrl(url);
  return updateIssueDetail(projectId, n, {
    expression: link ? 'SET #v = :v, #u = :u' : 'SET #v = :v',
    names: { '#v': vendorAttr(name), ...(link ? { '#u': urlAttr(name) } : {}) },
    values: { ':v': vendorId, ...(link ? { ':u': link } : {}) },
  });
};

/**
 * The issue's timeline entry of a delivery's outcome (issue 23, 4.13), written in the same transaction as
 * the status: by Snag itself, and internal (a GUEST sees no integrations, decision Tr-M5).
 */
const deliveryActivityPut = (projectId: string, n: number, name: IntegrationName, reason?: string) =>
  timelinePut(
    projectId,
    activity(
      n,
      reason === undefined ? 'delivered' : 'delivery.failed',
      { kind: 'system', name: 'Snag' },
      { integration: name, ...(reason !== undefined ? { reason } : {}), visibility: 'internal' },
    ),
  );

/**
 * Success: `st.<name>` = 2, the vendor id and the created item's web address (http(s) only) kept, any
 * earlier reason dropped (A51), and the `delivered` activity entry, in one transaction. Never twice: a
 * status already 2 (a duplicate) writes nothing. Without an address, one recorded earlier stays.
 */
export const markDelivered = (
  projectId: string,
  name: IntegrationName,
  n: number,
  vendorId?: string,
  url?: string,
) => {
  const link = deliveredUrl(url);
  return unlessIssueGone(() =>
    retryConflicts(() =>
      transactWrite(
        [
          {
            Update: {
              TableName: tableName(),
              Key: issueDetailKey(projectId, n),
              UpdateExpression: `SET st.#x = :two${vendorId ? ', #v = :v' : ''}${link ? ', #u = :u' : ''} REMOVE #r, #a`,
              ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(st.#x) OR st.#x <> :two)',
              ExpressionAttributeNames: {
                '#x': name,
                '#r': reasonAttr(name),
                '#a': attemptAttr(name),
                ...(vendorId ? { '#v': vendorAttr(name) } : {}),
                ...(link ? { '#u': urlAttr(name) } : {}),
              },
              ExpressionAttributeValues: {
                ':two': 2,
                ...(vendorId ? { ':v': vendorId } : {}),
                ...(link ? { ':u': link } : {}),
              },
            },
          },
          deliveryActivityPut(projectId, n, name),
          // The tracker issue → this issue, for the two-way sync's inbound hooks (issue 24).
          ...(vendorId && isTrackerVendor(name) ? [trackerLinkPut(projectId, name, vendorId, n)] : []),
        ],
        () => undefined,
      ),
    ),
  );
};

/**
 * Back into a sync list in one transaction: status 3 (failed, with `reason` when permanent) or 0 (new: the
 * integration was switched off or the plan lost it), and the marker Put with the same `s`. Never over a
 * passed delivery (a late failure of a duplicate must not undo a success); with `onlyInProgressSince`
 * (the dead-letter consumer: epoch ms) only over a status 1 set no later than that, so it keeps the reason
 * the consumer already wrote, and leaves alone a delivery a later Sync started again.
 */
export async function markForSync(
  projectId: string,
  name: IntegrationName,
  issue: { number: number; title: string; createdAt: string },
  s: 0 | 3,
  reason?: string,
  opts: { onlyInProgressSince?: number } = {},
): Promise<void> {
  const T = tableName();
  const n = issue.number;
  await unlessIssueGone(() =>
    retryConflicts(() =>
      transactWrite(
        [
          {
            Update: {
              TableName: T,
              Key: issueDetailKey(projectId, n),
              UpdateExpression: reason ? 'SET st.#x = :s, #r = :r REMOVE #a' : 'SET st.#x = :s REMOVE #r, #a',
              ConditionExpression:
                opts.onlyInProgressSince !== undefined
                  ? 'attribute_exists(pk) AND st.#x = :one AND (attribute_not_exists(#s) OR #s <= :since)'
                  : 'attribute_exists(pk) AND (attribute_not_exists(st.#x) OR st.#x <> :two)',
              ExpressionAttributeNames: {
                '#x': name,
                '#r': reasonAttr(name),
                '#a': attemptAttr(name),
                ...(opts.onlyInProgressSince !== undefined ? { '#s': sinceAttr(name) } : {}),
              },
              ExpressionAttributeValues: {
                ':s': s,
                ...(opts.onlyInProgressSince !== undefined
                  ? { ':one': 1, ':since': opts.onlyInProgressSince }
                  : { ':two': 2 }),
                ...(reason ? { ':r': reason } : {}),
              },
            },
          },
          {
            Put: {
              TableName: T,
              Item: {
                ...syncKey(projectId, name, n),
                s,
                number: n,
                title: issue.title,
                createdAt: issue.createdAt,
                ...(reason ? { reason } : {}),
              },
            },
          },
          // A failure is on the issue's timeline (issue 23); a switched-off integration (0) is not news.
          ...(s === 3 ? [deliveryActivityPut(projectId, n, name, reason ?? '')] : []),
        ],
        () => undefined,
      ),
    ),
  );
}

/** The newest 50 markers of `name`'s sync list (A49), split by status; titles of older markers are read. */
export async function listSyncTickets(
  projectId: string,
  name: IntegrationName,
): Promise<{ new: SyncTicket[]; failed: SyncTicket[] }> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': projectPartition(projectId), ':p': `SYNC#${name}#` },
      ScanIndexForward: false,
      Limit: 50,
    }),
  );
  const items = out.Items ?? [];
  // Markers written before they carried the title: read those headers (one more request, only then).
  const untitled = items.filter((i) => typeof i.title !== 'string');
  if (untitled.length > 0) {
    const headers = await getItems(untitled.map((i) => issueHeaderKey(projectId, Number(i.number))));
    untitled.forEach((i, k) => {
      const { title, createdAt } = issueHeadOf(Number(i.number), headers[k] ?? {});
      i.title = title;
      i.createdAt = createdAt;
    });
  }
  const answer = { new: [] as SyncTicket[], failed: [] as SyncTicket[] };
  for (const i of items) {
    const ticket: SyncTicket = {
      number: Number(i.number),
      title: String(i.title ?? ''),
      createdAt: String(i.createdAt ?? ''),
      ...(typeof i.reason === 'string' ? { reason: i.reason } : {}),
    };
    (Number(i.s) === 3 ? answer.failed : answer.new).push(ticket);
  }
  return answer;
}

/**
 * Sync (A50): for each ticket, `st.<name>` 0|3 → 1 and its marker deleted, in one transaction. A status 1
 * set before `staleBefore` (epoch ms), or by a version that kept no time, counts as failed too: that
 * delivery outlived every retry and its dead-letter consumer (docs/decisions.md "Deliveries always
 * finish"). Sync is the client's decision to send again, so it also clears an unsettled attempt. Tickets
 * whose condition fails (no longer new, failed or stale, or gone) are dropped and the rest tried once more.
 * Returns the numbers that were set in progress (the caller fans them out).
 */
export async function syncTickets(
  projectId: string,
  name: IntegrationName,
  numbers: number[],
  staleBefore: number,
): Promise<number[]> {
  let todo = [...new Set(numbers)];
  for (let attempt = 0; attempt < 2 && todo.length > 0; attempt++) {
    const T = tableName();
    const items = todo.flatMap((n) => [
      {
        Update: {
          TableName: T,
          Key: issueDetailKey(projectId, n),
          UpdateExpression: 'SET st.#x = :one, #s = :now REMOVE #a',
          ConditionExpression:
            'attribute_exists(pk) AND (st.#x = :zero OR st.#x = :three OR ' +
            '(st.#x = :one AND (attribute_not_exists(#s) OR #s < :stale)))',
          ExpressionAttributeNames: { '#x': name, '#s': sinceAttr(name), '#a': attemptAttr(name) },
          ExpressionAttributeValues: {
            ':one': 1,
            ':zero': 0,
            ':three': 3,
            ':now': nowMs(),
            ':stale': staleBefore,
          },
        },
      },
      { Delete: { TableName: T, Key: syncKey(projectId, name, n) } },
    ]);
    try {
      await transactWrite(items, () => undefined);
      return todo;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const failed = new Set(failedConditions(err).map((i) => Math.floor(i / 2)));
      todo = todo.filter((_n, i) => !failed.has(i));
    }
  }
  return [];
}
