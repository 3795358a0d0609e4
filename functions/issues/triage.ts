/**
 * Triage writes (issue 23; docs/data-model.md 4.13): status, priority, assignee, labels and due date of one
 * issue (PATCH …/request/{ticketId}, with SPEC's `restore`) or of up to 100 (PATCH …/requests). Each issue
 * changes in ONE transaction: its header (conditioned on the `u` it was read with, so a concurrent change
 * makes it read again instead of writing over it), the list's counters when it moves between the open and
 * resolved lists (META with the caller's guard, STATS, BLOCK), the facet index and the `updated` order
 * (rank-index.ts), one activity entry per changed field and the outbox's `assigned`. Counters and index
 * therefore stay exact under any mix of parallel calls. `issue.updated` goes to the fan-out queue after.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { IssueAnswer } from '#contracts/review';
import {
  type Actor,
  type BulkAnswer,
  type BulkPatch,
  type IssuePatch,
  type IssueStatus,
  isOpenStatus,
  type Priority,
  triageLimits,
} from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { getConfig } from '#runtime/config';
import {
  failedConditions,
  getItems,
  isBusy,
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
import {
  accessGuard,
  type Caller,
  may,
  membershipOf,
  type ProjectAction,
  readProjectAs,
} from '../projects/access';
import { listProjects, projectKey, type WriteGuard } from '../projects/project';
import { teamOf, teamsKey, toTeamsItem } from '../teams/member';
import { tokenActor } from '../teams/token';
import { resolveMoveActions } from './insights';
import {
  issueDetailKey,
  issueHeaderKey,
  listMoveActions,
  listName,
  listOfDeleted,
  listPartition,
} from './issue';
import { labelsKey, liveLabelIds } from './labels';
import { mergeCondition, mergeIndexActions, mergeIndexStateOf } from './merge-index';
import { notifyPut } from './notify';
import {
  allocateUpdates,
  assigneeFacet,
  type FacetFields,
  facetPage,
  fstatsKey,
  type IndexState,
  indexActions,
  listOfStatus,
  placeCondition,
  totalOf,
} from './rank-index';
import { issueAnswer } from './review';
import { activity, type StoredActivity, timelinePut } from './timeline';
import { triageFieldsOf } from './triage-fields';

type Item = Record<string, unknown>;

/** An issue's stored triage state: the facet fields, the due date and its `u` (null before triage). */
export interface IssueState extends IndexState {
  dueDate: string | null;
}

/** The state a header holds (labels as stored, deleted ones included: the index has them too). */
export function stateOf(h: Item): IssueState {
  const f = triageFieldsOf(h);
  return {
    fields: { status: f.status, priority: f.priority, assignee: f.assignee, labels: f.labels },
    dueDate: f.dueDate,
    u: typeof h.u === 'number' || typeof h.u === 'string' ? Number(h.u) : null,
  };
}

/** What a call asks of one issue, already resolved against its current state (see `nextState`). */
export interface Change {
  status?: IssueStatus;
  priority?: Priority;
  assignee?: string | null;
  /** The whole set, or additions and removals (bulk). */
  labels?: string[] | { add?: string[]; remove?: string[] };
  dueDate?: string | null;
  /** SPEC's close/restore: false → resolved (unless already resolved or closed), true → new (unless open). */
  restore?: boolean;
  /** A duplicate following its primary (follow.ts): how the header and the activity record the move. */
  follow?: Follow;
}

/**
 * A duplicate's status moved by its primary (follow.ts, docs/similar.md "Following the primary"): resolved
 * with it (`had`: the status to return to, kept on the header as `followedFrom`) or back to `followedFrom`
 * (no `had`). Conditioned on the header still naming `primary` as `duplicateOf` (or on none at all after an
 * unmerge, `alone`): a merge or unmerge does not change `u`, so the `u` condition alone would miss it.
 */
export interface Follow {
  primary: number;
  had?: IssueStatus;
  alone?: boolean;
}

/** The state after `change`; deleted labels are dropped on the way (the lazy clean-up of decision Tr-C4). */
export function nextState(cur: IssueState, change: Change, live: ReadonlySet<string>): IssueState {
  let status = change.status ?? cur.fields.status;
  if (change.status === undefined && change.restore !== undefined) {
    const open = isOpenStatus(cur.fields.status);
    if (change.restore && !open) status = 'new';
    if (!change.restore && open) status = 'resolved';
  }
  let labels = [...cur.fields.labels];
  if (Array.isArray(change.labels)) labels = [...new Set(change.labels)];
  else if (change.labels) {
    const remove = new Set(change.labels.remove ?? []);
    labels = [...new Set([...labels.filter((id) => live.has(id)), ...(change.labels.add ?? [])])].filter(
      (id) => !remove.has(id),
    );
  }
  if (change.labels !== undefined) labels = labels.filter((id) => live.has(id));
  const fields: FacetFields = {
    status,
    priority: change.priority ?? cur.fields.priority,
    assignee: change.assignee === undefined ? cur.fields.assignee : change.assignee,
    labels,
  };
  return { fields, dueDate: change.dueDate === undefined ? cur.dueDate : change.dueDate, u: cur.u };
}

const sameLabels = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Each field `change` changed, before and after (the activity entries and `issue.updated`'s `changes`). */
export function changesOf(cur: IssueState, next: IssueState): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  const a = cur.fields;
  const b = next.fields;
  if (a.status !== b.status) out.status = { from: a.status, to: b.status };
  if (a.priority !== b.priority) out.priority = { from: a.priority, to: b.priority };
  if (a.assignee !== b.assignee) out.assignee = { from: a.assignee, to: b.assignee };
  if (!sameLabels(a.labels, b.labels)) out.labels = { from: [...a.labels], to: [...b.labels] };
  if (cur.dueDate !== next.dueDate) out.dueDate = { from: cur.dueDate, to: next.dueDate };
  return out;
}

/** The check on a call's own inputs: labels live and ≤ 10, the assignee a member who may triage. */
interface Context {
  pid: string;
  teamId: string;
  caller: Caller;
  action: ProjectAction;
  guard: WriteGuard;
  actor: Actor;
  live: Set<string>;
}

function refuse(): never {
  throw new AppError('INVALID_PARAMETERS');
}

/** The assignee must be in the project's team with a role that may triage (not a GUEST). */
function checkAssignee(teamId: string, assigneeTeams: Item | undefined) {
  const member = assigneeTeams ? membershipOf(toTeamsItem(assigneeTeams), teamId) : null;
  if (!member || !may(member.role, 'triage')) refuse();
}

/**
 * Reads what a triage call needs besides its issues, in the access check's one BatchGetItem: LABELS, the
 * caller's USER (the activity's name) and the assignee's TEAMS.
 */
async function contextOf(
  userId: string,
  pid: string,
  action: ProjectAction,
  assignee: string | null | undefined,
  issueKeys: { pk: string; sk: string }[] = [],
): Promise<{ ctx: Context; items: (Item | undefined)[] }> {
  // The caller's own TEAMS is in the access check's batch already (a BatchGetItem refuses a key twice).
  const other = assignee && assignee !== userId ? assignee : null;
  const extra = other ? [teamsKey(other)] : [];
  const {
    project,
    caller,
    items: [labels, user, ...rest],
  } = await readProjectAs(userId, pid, action, [labelsKey(pid), userKey(userId), ...extra, ...issueKeys]);
  const teamId = teamOf(project as { teamId?: unknown });
  if (assignee) {
    const member = other ? rest[0] : { teams: caller.teams?.teams ?? {} };
    checkAssignee(teamId, member);
  }
  const name = user ? displayName(user as { firstName: string; lastName: string }) : '';
  return {
    ctx: {
      pid,
      teamId,
      caller,
      action,
      guard: accessGuard(caller, teamId, action, pid),
      // An API token acts for its creator (issue 25): the activity shows "<creator> via API token <name>".
      actor: caller.token ? tokenActor(caller.token) : { kind: 'member', id: userId, name: name || 'Member' },
      live: liveLabelIds(labels),
    },
    items: other ? rest.slice(1) : rest,
  };
}

/** The restore/status pair must agree: restore false with an open status (or true with a resolved one) is refused. */
function checkRestore(patch: { restore?: boolean | undefined; status?: IssueStatus | undefined }) {
  if (patch.restore === undefined || patch.status === undefined) return;
  if (patch.restore !== isOpenStatus(patch.status)) refuse();
}

/** The transaction of one issue's change (see the module's comment). */
function changeActions(
  ctx: Context,
  n: number,
  h: Item,
  cur: IssueState,
  next: IssueState,
  changes: Record<string, { from: unknown; to: unknown }>,
  restore: boolean | undefined,
  at: string,
  follow0?: Follow,
): TransactItems {
  const { pid } = ctx;
  const from = listOfDeleted(h.deleted);
  const to = listOfStatus(next.fields.status);
  const names: Record<string, string> = { '#s': 'status' };
  const values: Item = {
    ':s': next.fields.status,
    ':p': next.fields.priority,
    ':l': next.fields.labels,
    ':at': at,
    ':u': next.u,
  };
  const sets = ['#s = :s', 'priority = :p', 'labels = :l', 'updatedAt = :at', 'u = :u'];
  const removes: string[] = [];
  if (next.fields.assignee) {
    sets.push('assignee = :a');
    values[':a'] = next.fields.assignee;
  } else removes.push('assignee');
  if (next.dueDate) {
    sets.push('dueDate = :due');
    values[':due'] = next.dueDate;
  } else removes.push('dueDate');
  if (from !== to) {
    sets.push('deleted = :d', 'gsi1pk = :g');
    values[':d'] = to === 'resolved' ? 1 : 0;
    values[':g'] = listPartition(pid, listName(to));
    if (to === 'resolved') sets.push('resolvedAt = :at');
    else removes.push('resolvedAt');
  }
  // Insights (issues/insights.ts): the time to resolve counted with the move, recorded on the header.
  const resolve = from !== to ? resolveMoveActions(pid, h, to, at) : null;
  if (resolve?.set) {
    sets.push(resolve.set.expression);
    Object.assign(values, resolve.set.values);
  }
  if (resolve?.remove) removes.push(resolve.remove);
  const place = placeCondition(cur.u);
  let condition = `attribute_exists(pk) AND deleted = :d0 AND ${place.expression}`;
  const follow = followHeader(follow0, changes);
  sets.push(...follow.sets);
  removes.push(...follow.removes);
  Object.assign(values, follow.values);
  if (follow.condition) condition += ` AND ${follow.condition}`;
  if (resolve) {
    condition += ` AND ${resolve.condition.expression}`;
    Object.assign(values, resolve.condition.values);
  }
  values[':d0'] = from === 'resolved' ? 1 : 0;
  Object.assign(values, place.values);
  // A move carries the issue's merge-index entries (merge-index.ts) to the other list: the header must still
  // be in the merge state read, so a merge or unmerge meanwhile makes this change read again.
  const merged = from !== to ? mergeCondition(h, 'm') : null;
  if (merged) {
    condition += ` AND ${merged.expression}`;
    Object.assign(values, merged.values);
  }
  const T = tableName();
  const actions: TransactItems = [
    {
      Update: {
        TableName: T,
        Key: issueHeaderKey(pid, n),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
  // A move updates META's counters under the caller's guard. A change within a list leaves META out (Tr-C11):
  // META is every triage write's hot item (each allocates its `u` there), and a ConditionCheck on it would
  // make the transactions conflict with each other; the caller's TEAMS check below still holds T4.
  if (from !== to) actions.push(...listMoveActions(pid, n, to, at, ctx.guard));
  if (resolve) actions.push(...resolve.actions);
  actions.push(...(ctx.guard.checks ?? []));
  const assignee = next.fields.assignee;
  if (changes.assignee && assignee && assignee !== ctx.caller.userId) {
    // The assignee still a member who may triage when this commits (a removal's unassign then finds it).
    actions.push(...(accessGuard({ userId: assignee, teams: null }, ctx.teamId, 'triage').checks ?? []));
    actions.push(notifyPut({ kind: 'assigned', projectId: pid, number: n, to: assignee, by: ctx.actor }));
  }
  actions.push(...indexActions(pid, n, cur, next));
  if (from !== to) {
    const before = mergeIndexStateOf(h);
    if (before) actions.push(...mergeIndexActions(pid, [{ n, before, after: { ...before, list: to } }]));
  }
  for (const entry of activityOf(n, ctx.actor, changes, restore, from !== to, at, follow0))
    actions.push(timelinePut(pid, entry));
  // 1 + 4 + 2 + 1 + 2 + 30 + 6 (the merge index's move) + 5 = 51 at most, well inside DynamoDB's 100.
  return actions;
}

function activityOf(
  n: number,
  actor: Actor,
  changes: Record<string, { from: unknown; to: unknown }>,
  restore: boolean | undefined,
  moved: boolean,
  at: string,
  follow?: Follow,
): StoredActivity[] {
  return Object.entries(changes).map(([field, c]) => {
    if (field === 'status' && follow)
      return follow.had
        ? activity(n, 'followed', actor, { from: c.from, to: follow.primary }, at)
        : activity(n, 'unfollowed', actor, { from: follow.primary, to: c.to }, at);
    // SPEC's close and restore read as such on the timeline.
    const kind =
      field === 'status' && restore !== undefined && moved
        ? restore
          ? 'restored'
          : 'closed'
        : (field as StoredActivity['type']);
    return activity(n, kind, actor, { from: c.from, to: c.to }, at);
  });
}

/**
 * The header's part of a follow (see `Follow`). Any other change of the status (a member's, the tracker
 * sync's) ends a follow: the status is theirs then, and the primary's reopening leaves it alone.
 */
function followHeader(follow: Follow | undefined, changes: Record<string, unknown>) {
  const out = { sets: [] as string[], removes: [] as string[], values: {} as Item, condition: '' };
  if (!follow) {
    if (changes.status) out.removes.push('followedFrom');
    return out;
  }
  if (follow.had) {
    out.sets.push('followedFrom = :ff');
    out.values[':ff'] = follow.had;
  } else out.removes.push('followedFrom');
  if (follow.alone) out.condition = 'attribute_not_exists(duplicateOf)';
  else {
    out.condition = 'duplicateOf = :fp';
    out.values[':fp'] = follow.primary;
  }
  return out;
}

/**
 * Tries per issue (`TRIAGE_ATTEMPTS`, 20): each refused condition means another change to the same issue
 * committed first, so N teammates' simultaneous changes to one issue need up to N; beyond that, a busy
 * issue, not a fault: BUSY, which the client may send again after `Retry-After`.
 */
const attempts = () => getConfig().TRIAGE_ATTEMPTS;

/**
 * Applies `change` to issue `n` (header `h` as read): nothing when nothing changes; otherwise the
 * transaction, reading the header again when a concurrent change beat it. `u` is a pre-allocated place in
 * the `updated` order for the first attempt (a retry allocates its own). Answers the header after and the
 * changes (null: nothing changed), or null when the issue is gone.
 */
async function applyChange(
  ctx: Context,
  n: number,
  h: Item | undefined,
  // A function decides from the header as read, and again from the one read after a lost race (follow.ts).
  change: Change | ((h: Item) => Change | null),
  u?: number,
): Promise<{ header: Item; changes: Record<string, { from: unknown; to: unknown }> | null } | null> {
  let header = h;
  let place = u;
  // The header changed since it was read (a refused condition on it, or a conflict that outlasted
  // writeTransaction's tries, BUSY already): read it again, after a short jittered pause so the changes
  // racing for it do not meet again in step. Any other refusal is the issue or the access gone: NOT_FOUND.
  return retryRaces(
    (err) => isBusy(err) || (isConditionFailure(err) && failedConditions(err).every((i) => i === 0)),
    async (attempt) => {
      if (attempt > 1)
        header = (
          await db().send(
            new GetCommand({ TableName: tableName(), Key: issueHeaderKey(ctx.pid, n), ConsistentRead: true }),
          )
        ).Item;
      if (!header) return null;
      const c = typeof change === 'function' ? change(header) : change;
      if (!c) return { header, changes: null };
      const cur = stateOf(header);
      const next = nextState(cur, c, ctx.live);
      const changes = changesOf(cur, next);
      if (Object.keys(changes).length === 0) return { header, changes: null };
      // Additions on top of a teammate's labels may pass the limit only now, against the set read last.
      if (changes.labels && next.fields.labels.length > triageLimits.labelsPerIssue) refuse();
      next.u = place ?? (await allocateUpdates(ctx.pid));
      place = undefined;
      const at = new Date(nowMs()).toISOString();
      try {
        await writeTransaction(changeActions(ctx, n, header, cur, next, changes, c.restore, at, c.follow));
      } catch (err) {
        if (isConditionFailure(err) && failedConditions(err).some((i) => i > 0))
          throw new AppError('NOT_FOUND');
        throw err;
      }
      return { header: headerAfter(header, next, at), changes };
    },
    attempts(),
    (attempt) => Math.random() * 20 * Math.min(attempt, 5),
  );
}

/**
 * The TransactWriteItems request, tried again while it only lost a race (TransactionConflict) with short
 * jittered pauses (10–60 ms) for up to 6 s, rather than the runtime's doubling ones: triage writes share
 * hot items (the lists' counters, common facets) and are short, so quick retries finish sooner under
 * contention. The caller reads a refused condition's failed indexes.
 */
async function writeTransaction(items: TransactItems) {
  await retryRaces(
    isTransactionConflict,
    () => db().send(new TransactWriteCommand({ TransactItems: items })),
    { withinMs: 6000 },
    () => 10 + Math.random() * 50,
  );
}

function headerAfter(h: Item, next: IssueState, at: string): Item {
  const out: Item = {
    ...h,
    status: next.fields.status,
    priority: next.fields.priority,
    labels: [...next.fields.labels],
    updatedAt: at,
    u: next.u,
    deleted: listOfStatus(next.fields.status) === 'resolved' ? 1 : 0,
  };
  if (next.fields.assignee) out.assignee = next.fields.assignee;
  else delete out.assignee;
  if (next.dueDate) out.dueDate = next.dueDate;
  else delete out.dueDate;
  return out;
}

type Event = { n: number; at: string; changes: Record<string, { from: unknown; to: unknown }> };

/** `issue.updated` per changed issue, after the writes (a failure only costs the webhooks these events). */
async function announce(ctx: Context, events: Event[]) {
  if (events.length === 0) return;
  try {
    await publish(
      'fanout',
      events.map((e) => ({
        message: {
          type: 'issue.updated' as const,
          projectId: ctx.pid,
          issueNumber: e.n,
          actor: ctx.actor,
          at: e.at,
          changes: e.changes,
        },
      })),
    );
  } catch (e) {
    log.error('issue.updated not sent', { projectId: ctx.pid, numbers: events.map((x) => x.n), e });
  }
}

/** PATCH …/request/{ticketId}: the change, answered with the issue as GET …/request/{ticketId} answers it. */
export async function patchIssue(
  userId: string,
  pid: string,
  n: number,
  patch: IssuePatch,
  action: ProjectAction = 'triage',
): Promise<IssueAnswer> {
  checkRestore(patch);
  const { ctx, items } = await contextOf(userId, pid, action, patch.assignee, [
    issueHeaderKey(pid, n),
    issueDetailKey(pid, n),
  ]);
  const [h, d] = items;
  if (!h || !d) throw new AppError('NOT_FOUND');
  if ([...(patch.labels ?? []), ...(patch.addLabels ?? [])].some((id) => !ctx.live.has(id))) refuse();
  const change: Change = {};
  for (const key of ['status', 'priority', 'assignee', 'labels', 'dueDate', 'restore'] as const) {
    if (patch[key] !== undefined) Object.assign(change, { [key]: patch[key] });
  }
  // Additions and removals apply to the set as it is when the change commits (decision Tr-C14).
  if (patch.addLabels || patch.removeLabels)
    change.labels = { add: patch.addLabels ?? [], remove: patch.removeLabels ?? [] };
  const done = await applyChange(ctx, n, h, change);
  if (!done) throw new AppError('NOT_FOUND');
  if (done.changes) await announce(ctx, [{ n, at: String(done.header.updatedAt), changes: done.changes }]);
  return issueAnswer(pid, n, done.header, d, ctx.live);
}

/** How many issues of a bulk change are written at once (each its own transaction). */
const BULK_CONCURRENCY = 8;

/**
 * PATCH …/requests: the same change to each listed issue, each in its own transaction (atomic per issue,
 * idempotent: an issue already so is left alone and still listed). Inputs are checked before anything is
 * written; one `useq` allocation covers the batch. Missing numbers are left out of `updated`.
 */
export async function bulkPatchIssues(
  userId: string,
  pid: string,
  body: BulkPatch,
  action: ProjectAction = 'triage',
): Promise<BulkAnswer> {
  const set = body.set;
  checkRestore({ status: set.status });
  const tickets = [...new Set(body.tickets)];
  const { ctx } = await contextOf(userId, pid, action, set.assignee);
  if (set.labels?.add?.some((id) => !ctx.live.has(id))) refuse();
  const headers = await getItems(tickets.map((n) => issueHeaderKey(pid, n)));
  const change: Change = {};
  for (const key of ['status', 'priority', 'assignee', 'labels'] as const) {
    if (set[key] !== undefined) Object.assign(change, { [key]: set[key] });
  }
  // Refused before any write: an issue the change would give more than 10 labels.
  const changing: number[] = [];
  headers.forEach((h, i) => {
    if (!h) return;
    const cur = stateOf(h);
    const next = nextState(cur, change, ctx.live);
    if (next.fields.labels.length > triageLimits.labelsPerIssue) refuse();
    if (Object.keys(changesOf(cur, next)).length > 0) changing.push(i);
  });
  const first = changing.length > 0 ? await allocateUpdates(pid, changing.length) : 0;
  const places = new Map(changing.map((i, k) => [i, first + k]));
  const updated: number[] = [];
  const events: Event[] = [];
  let failed: { error: unknown } | undefined;
  let next = 0;
  const worker = async () => {
    while (next < tickets.length && !failed) {
      const i = next++;
      const n = tickets[i] as number;
      try {
        const done = await applyChange(ctx, n, headers[i], change, places.get(i));
        if (!done) continue;
        updated.push(n);
        if (done.changes) events.push({ n, at: String(done.header.updatedAt), changes: done.changes });
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: BULK_CONCURRENCY }, worker));
  // What was written is announced even when the call fails on another issue (BUSY, the store gone): its
  // activity is stored, so its notifications, webhooks and reporter mails must follow; the call is safe
  // to send again, and issues already so are left alone then.
  await announce(ctx, events);
  if (failed) throw failed.error;
  return { updated: updated.sort((a, b) => a - b) };
}

/**
 * A linked tracker's state (issue 24's two-way sync): closed there → `resolved` here while the issue is
 * open; reopened there → `new` while it is resolved or closed; otherwise nothing. By `actor` (kind
 * tracker), through the same transaction and `issue.updated` as a member's PATCH, so the activity, the
 * counters, the notifications, the webhooks and the reporter's mails all follow. No access check: the
 * verified hook is the authority. Answers whether it changed the issue.
 */
export async function syncTrackerState(
  pid: string,
  n: number,
  actor: Actor,
  closed: boolean,
): Promise<boolean> {
  const [meta, h] = await getItems([projectKey(pid), issueHeaderKey(pid, n)]);
  if (!meta || !h) return false;
  if (isOpenStatus(stateOf(h).fields.status) !== closed) return false;
  const ctx: Context = {
    pid,
    teamId: teamOf(meta as { teamId?: unknown }),
    caller: { userId: '', teams: null },
    action: 'triage',
    guard: { expression: 'attribute_exists(pk)', values: {} },
    actor,
    live: new Set(),
  };
  const done = await applyChange(ctx, n, h, { status: closed ? 'resolved' : 'new' });
  if (!done?.changes) return false;
  await announce(ctx, [{ n, at: String(done.header.updatedAt), changes: done.changes }]);
  return true;
}

/**
 * Moves duplicate `n` as its primary's status asks (follow.ts): `decide` answers the change for the header
 * as read (and as read again after a lost race), null for none. By the system, through the same transaction
 * as a member's change, so the activity, the list and facet counters and Insights stay exact; no access
 * check: the primary's committed change is the authority. Answers what to announce as `issue.updated` (the
 * caller does, marked as following), or null when nothing changed.
 */
export async function followChange(
  pid: string,
  n: number,
  h: Item | undefined,
  decide: (h: Item) => Change | null,
): Promise<{ at: string; changes: Record<string, { from: unknown; to: unknown }> } | null> {
  const ctx: Context = {
    pid,
    // Read only to check a new assignee, which a follow never sets: META is not read for it.
    teamId: '',
    caller: { userId: '', teams: null },
    action: 'triage',
    guard: { expression: 'attribute_exists(pk)', values: {} },
    actor: systemActor,
    live: new Set(),
  };
  const done = await applyChange(ctx, n, h, decide);
  return done?.changes ? { at: String(done.header.updatedAt), changes: done.changes } : null;
}

/** Who unassigns a member who left or was removed: nobody's action, the team's change. */
const systemActor: Actor = { kind: 'system', name: 'Snag' };

/**
 * Unassigns `userId` from every issue of every project of `teamId` (they left or were removed: decision
 * Tr-C5). The issues come from the assignee facets, open and resolved, each unassigned in its own triage
 * transaction (activity, index, `issue.updated`), 8 at a time. Runs after the removal committed: from then
 * on no triage write can assign them (its ConditionCheck on their TEAMS fails), so nothing is missed.
 * Answers how many issues it unassigned.
 */
export async function unassignEverywhere(teamId: string, userId: string): Promise<number> {
  let count = 0;
  for (const project of await listProjects(teamId)) {
    const ctx: Context = {
      pid: project.id,
      teamId,
      caller: { userId: '', teams: null },
      action: 'triage',
      // The member's removal is the authority: no caller's membership to check.
      guard: { expression: 'attribute_exists(pk)', values: {} },
      actor: systemActor,
      live: new Set(),
    };
    const numbers: number[] = [];
    const facets = (['open', 'resolved'] as const).map((list) => assigneeFacet(list, userId));
    const stats = await getItems(facets.map((f) => fstatsKey(project.id, f)));
    for (const [i, facet] of facets.entries()) {
      const total = totalOf(stats[i]);
      if (total > 0) numbers.push(...(await facetPage(project.id, [facet], [stats[i]], 0, total, 'newest')));
    }
    const events: Event[] = [];
    let next = 0;
    const worker = async () => {
      while (next < numbers.length) {
        const chunk = numbers.slice(next, next + 25);
        next += 25;
        const headers = await getItems(chunk.map((n) => issueHeaderKey(project.id, n)));
        for (const [i, n] of chunk.entries()) {
          const h = headers[i];
          if (!h || h.assignee !== userId) continue;
          const done = await applyChange(ctx, n, h, { assignee: null });
          if (done?.changes) {
            count++;
            events.push({ n, at: String(done.header.updatedAt), changes: done.changes });
          }
        }
      }
    };
    await Promise.all(Array.from({ length: BULK_CONCURRENCY }, worker));
    await announce(ctx, events);
  }
  return count;
}
