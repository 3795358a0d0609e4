/**
 * The integration entity and the per-issue delivery state (docs/data-model.md 4.8). This module owns:
 *   PROJECT#<pid> / INTEGRATION#<name>   one integration: active, authorized, data (secrets), oauth tokens
 *   PROJECT#<pid> / META                 `activeIntegrations` (SS), kept by every save
 *   PROJECT#<pid> / ISSUE#<n10>#DETAIL   `st.<name>` (0 new, 1 in progress, 2 passed, 3 failed),
 *                                        `vendor_<name>` (the vendor's id, for idempotency),
 *                                        `reason_<name>` (why a permanent failure failed),
 *                                        `since_<name>` (epoch ms when status 1 was set: Sync may start
 *                                        a status 1 again once it is stale),
 *                                        `attempt_<name>` ({at, message, receive}: a vendor call began and
 *                                        no outcome is recorded yet; a retry that finds it knows the last
 *                                        attempt's outcome is unknown)
 *   PROJECT#<pid> / SYNC#<name>#<n10>    marker while `st.<name>` is 0 or 3: {s, number, title, createdAt, reason?}
 * Every write to an issue item is conditioned on `attribute_exists(pk)`, so a late consumer never
 * resurrects a deleted issue.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  emailDataSchema,
  type IntegrationData,
  type IntegrationInput,
  type IntegrationName,
  type IntegrationsAnswer,
  type IntegrationView,
  integrationDataSchemas,
  integrationNames,
  isMasked,
  maskSecret,
  resolveFlag,
  type SyncTicket,
  sameSecretBinding,
  secretFields,
} from '#contracts/integrations';
import { type PlanName, plans } from '#contracts/plans';
import { db } from '#runtime/aws/dynamo';
import {
  failedConditions,
  getItems,
  isConditionFailure,
  retryConflicts,
  tableName,
  transactWrite,
} from '#runtime/db';
import { AppError } from '#runtime/errors';
import { nowMs } from '#runtime/time';
import { userKey } from '../accounts/user';
import { issueDetailKey, issueHeaderKey, n10, syncKey } from '../issues/issue';
import { accessCondition, authorize, type ProjectAction } from '../projects/access';
import { type Project, planOf, projectKey, projectPartition, toProject } from '../projects/project';

/** OAuth tokens of Slack and Asana (server-side only; never in any answer). */
export interface OAuthTokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms when the access token expires (Asana: 1 hour). */
  expiresAt?: number;
  /** Vendor extras (Slack team id, bot user id, Asana workspace). */
  extra?: Record<string, string>;
}

/** One integration as stored, UNMASKED: only delivery and the vendor calls see it. */
export interface IntegrationRecord<N extends IntegrationName = IntegrationName> {
  name: N;
  active: 0 | 1;
  authorized: 0 | 1;
  data: IntegrationData[N];
  oauth?: OAuthTokens;
  updatedAt?: number;
}

export const integrationKey = (projectId: string, name: IntegrationName) => ({
  pk: projectPartition(projectId),
  sk: `INTEGRATION#${name}`,
});

/**
 * A new project's email integration: on, to the owner's address, so that the owner hears of new reports
 * from the first one (an opt-out: the email tab switches it off or points it elsewhere). The item and
 * META's `activeIntegrations` are written in the project's creation transaction (docs/decisions.md
 * "The owner hears of new reports").
 */
export function ownerNotification(ownerEmail: string) {
  const rec: IntegrationRecord<'email'> = {
    name: 'email',
    active: 1,
    authorized: 0,
    data: emailDataSchema.parse({ email: ownerEmail }),
  };
  return {
    activeIntegrations: [rec.name],
    items: (projectId: string) => [
      {
        Put: {
          TableName: tableName(),
          Item: { ...integrationKey(projectId, rec.name), ...rec, updatedAt: nowMs() },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
  };
}

/** The plan allows this integration now (email always; the others need the plan's `integrations` flag). */
export const allowedByPlan = (name: IntegrationName, plan: PlanName): boolean =>
  name === 'email' || plans[plan].integrations;

export function defaultIntegration<N extends IntegrationName>(name: N): IntegrationRecord<N> {
  return {
    name,
    active: 0,
    authorized: 0,
    data: integrationDataSchemas[name].parse({}) as IntegrationData[N],
  };
}

/** A stored item as a record; data written by older versions gains the defaults of newer fields. */
export function toIntegration(item: Record<string, unknown>): IntegrationRecord {
  const name = item.name as IntegrationName;
  const parsed = integrationDataSchemas[name].safeParse(item.data ?? {});
  return {
    name,
    active: Number(item.active) === 1 ? 1 : 0,
    authorized: Number(item.authorized) === 1 ? 1 : 0,
    // Data the schema refuses (written by a tool or an older rule, e.g. a local http receiver) is kept as
    // stored, over the defaults: a read never loses what was saved.
    data: (parsed.success
      ? parsed.data
      : {
          ...integrationDataSchemas[name].parse({}),
          ...(item.data as object),
        }) as IntegrationData[typeof name],
    ...(item.oauth ? { oauth: item.oauth as OAuthTokens } : {}),
    ...(item.updatedAt ? { updatedAt: Number(item.updatedAt) } : {}),
  };
}

/** What the dashboard may see of a record: secrets masked, OAuth tokens dropped. */
export function maskIntegration(rec: IntegrationRecord, available: boolean): IntegrationView {
  const data: Record<string, unknown> = { ...rec.data };
  for (const f of secretFields[rec.name] as readonly string[]) data[f] = maskSecret(String(data[f] ?? ''));
  return {
    name: rec.name,
    active: rec.active,
    authorized: rec.authorized,
    available,
    data: { ...data, active: rec.active, authorized: rec.authorized },
  } as IntegrationView;
}

/** `msg.integrations`: all six in order, masked, defaults for the ones never saved. */
export function integrationsAnswer(
  records: Partial<Record<IntegrationName, IntegrationRecord>>,
  plan: PlanName,
): IntegrationsAnswer {
  return integrationNames.map((name) =>
    maskIntegration(records[name] ?? defaultIntegration(name), allowedByPlan(name, plan)),
  );
}

/**
 * The project (if `userId` may do `action` on it, projects/access.ts), its owner's profile item, and its
 * six integrations in ONE consistent BatchGetItem (A30). Someone else's project, or none, is NOT_FOUND.
 */
export async function readOwnedIntegrations(
  projectId: string,
  userId: string,
  action: ProjectAction,
): Promise<{
  project: Project;
  owner: Record<string, unknown> | undefined;
  integrations: Partial<Record<IntegrationName, IntegrationRecord>>;
}> {
  const keys = [
    projectKey(projectId),
    userKey(userId),
    ...integrationNames.map((n) => integrationKey(projectId, n)),
  ];
  const [meta, owner, ...items] = await getItems(keys);
  authorize(userId, meta, action);
  const integrations: Partial<Record<IntegrationName, IntegrationRecord>> = {};
  for (const item of items) if (item) integrations[item.name as IntegrationName] = toIntegration(item);
  return { project: toProject(meta!), owner, integrations };
}

/** One integration, unmasked (delivery, vendor calls); the default record when never saved. */
export async function getIntegration<N extends IntegrationName>(
  projectId: string,
  name: N,
): Promise<IntegrationRecord<N>> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: integrationKey(projectId, name), ConsistentRead: true }),
  );
  return out.Item ? (toIntegration(out.Item) as IntegrationRecord<N>) : defaultIntegration(name);
}

/**
 * A secret as sent: a masked value means the stored one, but only toward the receiver it was saved for.
 * With a changed host, URL or username the stored secret would go somewhere new, so it is refused
 * (`INVALID_PARAMETERS`, the field `errorPath` marked `SECRET_REQUIRED`) and must be typed again.
 */
export function sentSecret(
  name: IntegrationName,
  stored: Record<string, unknown>,
  sent: Record<string, unknown>,
  field: string,
  errorPath: string,
): string {
  const value = sent[field];
  if (!isMasked(value)) return String(value ?? '');
  if (!sameSecretBinding(name, stored, sent))
    throw new AppError('INVALID_PARAMETERS', { [errorPath]: 'SECRET_REQUIRED' });
  return String(stored[field] ?? '');
}

/**
 * The record a save produces from the stored one and the dashboard's input: a masked secret sent back
 * keeps the stored value (for the same receiver only, `sentSecret`); `authorized` is taken from the input for GitLab and Jira only (Slack and Asana
 * are authorised by their OAuth exchange, `authorizeIntegration`). Validation of the merged data is the
 * caller's (`activeRequirement`).
 */
export function mergeInput(current: IntegrationRecord, input: IntegrationInput): IntegrationRecord {
  const data: Record<string, unknown> = { ...(input.data as Record<string, unknown>) };
  const stored = current.data as Record<string, unknown>;
  for (const f of secretFields[input.name] as readonly string[]) {
    data[f] = sentSecret(input.name, stored, data, f, `data.${f}`);
  }
  const selfAuthorized = input.name === 'gitlab' || input.name === 'jira';
  const authorized = resolveFlag(input.authorized, current.authorized);
  return {
    ...current,
    name: input.name,
    // The schema makes sure one of the two copies of `active` is there.
    active: resolveFlag(input.active, current.active) ?? current.active,
    authorized: selfAuthorized && authorized !== undefined ? authorized : current.authorized,
    data: data as IntegrationData[typeof input.name],
  };
}

/**
 * Writes an integration and keeps META's `activeIntegrations` in one transaction (A32): ADD the name when
 * active, DELETE it otherwise; refused (NOT_FOUND) unless `userId` may still set up the project's
 * integrations (projects/access.ts). With
 * `readAt` (the `updatedAt` the record was read with, null for none) the write happens only if nobody
 * wrote in between; otherwise it throws the condition failure for the caller to read again.
 */
export async function saveIntegration(
  projectId: string,
  userId: string,
  rec: IntegrationRecord,
  readAt?: number | null,
): Promise<void> {
  const T = tableName();
  const { oauth, ...rest } = rec;
  const access = accessCondition(userId, 'integrations');
  const unchanged =
    readAt === undefined
      ? {}
      : readAt === null
        ? { ConditionExpression: 'attribute_not_exists(updatedAt)' }
        : { ConditionExpression: 'updatedAt = :read', ExpressionAttributeValues: { ':read': readAt } };
  await transactWrite(
    [
      {
        Put: {
          TableName: T,
          Item: {
            ...integrationKey(projectId, rec.name),
            ...rest,
            ...(oauth ? { oauth } : {}),
            updatedAt: nowMs(),
          },
          ...unchanged,
        },
      },
      {
        Update: {
          TableName: T,
          Key: projectKey(projectId),
          UpdateExpression: `${rec.active === 1 ? 'ADD' : 'DELETE'} activeIntegrations :name`,
          ConditionExpression: access.expression,
          ExpressionAttributeValues: { ':name': new Set([rec.name]), ...access.values },
        },
      },
    ],
    // Only the record's own condition is the caller's to handle; the project's is NOT_FOUND.
    (failed) => (failed.includes(0) && !failed.includes(1) ? undefined : 'NOT_FOUND'),
  );
}

/**
 * For the vendor flows (GitLab/Jira projects call, Slack/Asana OAuth exchange, reset): sets `authorized`,
 * the OAuth tokens (null removes them) and any data fields, server-side, then saves like the dashboard
 * does. Reset is `{ authorized: 0, active: 0, oauth: null, data: { key: '', id: '' } }`. Answers the
 * masked list of all six, as the save call does.
 */
export async function authorizeIntegration(
  projectId: string,
  userId: string,
  name: IntegrationName,
  change: { authorized: 0 | 1; active?: 0 | 1; oauth?: OAuthTokens | null; data?: Record<string, unknown> },
  attempt = 1,
): Promise<IntegrationsAnswer> {
  const { project, integrations } = await readOwnedIntegrations(projectId, userId, 'integrations');
  const current = integrations[name] ?? defaultIntegration(name);
  const data = integrationDataSchemas[name].parse({ ...current.data, ...change.data });
  const next: IntegrationRecord = {
    ...current,
    authorized: change.authorized,
    active: change.active ?? current.active,
    data: data as IntegrationData[typeof name],
  };
  if (change.oauth === null) delete next.oauth;
  else if (change.oauth) next.oauth = change.oauth;
  try {
    await saveIntegration(projectId, userId, next, current.updatedAt ?? null);
  } catch (err) {
    // The record read above is written back whole: a dashboard save that landed since (Active switched
    // on while a project list ran) is read again and kept, not overwritten with what came before it.
    if (attempt < 5 && isConditionFailure(err))
      return authorizeIntegration(projectId, userId, name, change, attempt + 1);
    throw err;
  }
  const plan = planOf({ plan: project.ownerPlan, planExpire: project.ownerPlanExpire });
  return integrationsAnswer({ ...integrations, [name]: next }, plan);
}

/** A refreshed OAuth access token (Asana), stored without a user: delivery refreshes on its own. */
export async function storeOAuthTokens(
  projectId: string,
  name: IntegrationName,
  oauth: OAuthTokens,
): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: integrationKey(projectId, name),
      UpdateExpression: 'SET oauth = :o',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':o': oauth },
    }),
  );
}

// ---------------------------------------------------------------------------------------------------
// Per-issue delivery state (4.8)

const vendorAttr = (name: IntegrationName) => `vendor_${name}`;
const reasonAttr = (name: IntegrationName) => `reason_${name}`;
const sinceAttr = (name: IntegrationName) => `since_${name}`;
const attemptAttr = (name: IntegrationName) => `attempt_${name}`;

/** The vendor id a delivery recorded for this issue, if any (read from the detail item). */
export const recordedVendorId = (
  detail: Record<string, unknown>,
  name: IntegrationName,
): string | undefined => {
  const v = detail[vendorAttr(name)];
  return typeof v === 'string' && v !== '' ? v : undefined;
};
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

/** Records the vendor's id before anything else can fail, so a retry never creates a second object. */
export const recordVendorId = (projectId: string, name: IntegrationName, n: number, vendorId: string) =>
  updateIssueDetail(projectId, n, {
    expression: 'SET #v = :v',
    names: { '#v': vendorAttr(name) },
    values: { ':v': vendorId },
  });

/** Success: `st.<name>` = 2, the vendor id kept, any earlier reason dropped (A51). */
export const markDelivered = (projectId: string, name: IntegrationName, n: number, vendorId?: string) =>
  updateIssueDetail(projectId, n, {
    expression: `SET st.#x = :two${vendorId ? ', #v = :v' : ''} REMOVE #r, #a`,
    names: {
      '#x': name,
      '#r': reasonAttr(name),
      '#a': attemptAttr(name),
      ...(vendorId ? { '#v': vendorAttr(name) } : {}),
    },
    values: { ':two': 2, ...(vendorId ? { ':v': vendorId } : {}) },
  });

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
      i.title = String(headers[k]?.title ?? '');
      i.createdAt = String(headers[k]?.createdAt ?? '');
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

/** `n10` for callers that build vendor ids or links. */
export { n10 };
