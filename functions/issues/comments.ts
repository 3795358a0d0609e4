/**
 * Comments and the issue's timeline (issue 23; docs/data-model.md 4.13 "Comments and activity"): write,
 * edit and delete comments, page them, and page the whole timeline (comments interleaved with activity).
 *
 * Who sees what (DESIGN section 10): a GUEST writes and reads PUBLIC comments only; internal comments and
 * the activity only the team sees (`visibility: 'internal'` on the item: an internal comment's deletion, the
 * integrations' deliveries) are left out of every answer a GUEST gets, by the reads' FilterExpression, and
 * pages still fill (up to `MAX_READS` Queries per page).
 *
 * A new comment is one transaction: the comment, the header's `updatedAt` (the `updated` order), the
 * outbox entries (`mentioned`, `comment` for the assignee), the caller's rate-limit count and the
 * access guard, so nothing is mailed for a comment that failed. `comment.created` goes to the fan-out
 * after the transaction (the webhooks that subscribe to it).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type {
  Actor,
  CommentAnswer,
  CommentDeletedAnswer,
  CommentView,
  CommentVisibility,
  TimelineEntry,
  TimelinePage,
} from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { getItems, type TransactItems, tableName, transactWrite } from '#runtime/db';
import { AppError } from '#runtime/errors';
import type { Logger } from '#runtime/log';
import { publish } from '#runtime/publish';
import { type RateLimit, rateLimitWrite } from '#runtime/rate-limit';
import { MINUTE, nowMs } from '#runtime/time';
import { displayName, type User, userKey } from '../accounts/user';
import { accessGuard, type Caller, may, type ProjectAction, readProjectAs } from '../projects/access';
import { projectKey } from '../projects/project';
import { teamOf } from '../teams/member';
import { readMembers } from '../teams/team';
import { tokenActor } from '../teams/token';
import { issueHeaderKey } from './issue';
import { notifyPut } from './notify';
import { allocateUpdates, indexActions, placeCondition } from './rank-index';
import {
  activity,
  type StoredActivity,
  type StoredComment,
  timelineId,
  timelineKey,
  timelinePut,
  timelineRange,
} from './timeline';
import { stateOf } from './triage';

type Item = Record<string, unknown>;

/**
 * Comment posting per person: 20 a minute is far above anyone typing, and stops a script (or a stolen
 * session) from flooding a team's timelines and mailboxes (decision Tr-M3).
 */
export const commentRate = (userId: string): Omit<RateLimit, 'key'> & { key: string } => ({
  action: 'comment',
  key: userId,
  max: 20,
  windowMs: MINUTE,
});

/** Queries one page may take when a filter leaves entries out (a GUEST's page, comments only). */
export const MAX_READS = 4;
/** Items one filtered Query reads at most (the filter runs after the read). */
const FILTERED_READ = 200;

/** The member the caller is, as an activity or comment names them (the name as it is now, kept). */
function actorOf(userId: string, user: Item | undefined): Actor {
  const name = user ? displayName(user as unknown as User) : '';
  return { kind: 'member', id: userId, name: name || 'Member' };
}

export function commentView(c: Item): CommentView {
  return {
    id: String(c.id),
    author: c.author as Actor,
    body: String(c.body ?? ''),
    visibility: c.visibility === 'internal' ? 'internal' : 'public',
    createdAt: String(c.createdAt ?? ''),
    editedAt: typeof c.editedAt === 'string' ? c.editedAt : null,
    mentions: Array.isArray(c.mentions) ? c.mentions.map(String) : [],
  };
}

function entryView(i: Item): TimelineEntry {
  if (i.kind === 'comment') return { type: 'comment', ...commentView(i) };
  const a = i as unknown as StoredActivity;
  return {
    type: 'activity',
    id: a.id,
    kind: a.type,
    actor: a.actor,
    at: a.at,
    ...('from' in a ? { from: a.from } : {}),
    ...('to' in a ? { to: a.to } : {}),
    ...(a.integration !== undefined ? { integration: a.integration } : {}),
    ...(a.reason !== undefined ? { reason: a.reason } : {}),
    ...(a.visibility === 'internal' ? { internal: true as const } : {}),
  };
}

/**
 * One page of an issue's timeline, oldest first, after `cursor`: comments only or everything, with or
 * without what only the team sees. Unfiltered, one Query of `limit + 1` items (the extra one says whether
 * there is more). Filtered, Queries of up to 200 items until the page is full, at most `MAX_READS`; a page
 * cut short by that bound still carries the cursor where the reads stopped, so the next page goes on.
 */
export async function pageTimeline(
  projectId: string,
  n: number,
  q: { cursor?: string | undefined; limit: number },
  opts: { commentsOnly: boolean; internal: boolean },
): Promise<{ items: Item[]; next: string | null }> {
  const filters: string[] = [];
  const values: Item = { ...timelineRange(projectId, n) };
  const names: Record<string, string> = {};
  if (opts.commentsOnly) {
    filters.push('#k = :comment');
    names['#k'] = 'kind';
    values[':comment'] = 'comment';
  }
  if (!opts.internal) {
    filters.push('(attribute_not_exists(#v) OR #v = :public)');
    names['#v'] = 'visibility';
    values[':public'] = 'public';
  }
  const filtered = filters.length > 0;
  const items: Item[] = [];
  let start: Item | undefined = q.cursor ? timelineKey(projectId, n, q.cursor) : undefined;
  for (let read = 0; read < (filtered ? MAX_READS : 1); read++) {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :t)',
        ExpressionAttributeValues: values,
        ...(filtered ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names } : {}),
        ...(start ? { ExclusiveStartKey: start } : {}),
        Limit: filtered ? FILTERED_READ : q.limit + 1,
        ConsistentRead: true,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
    if (items.length > q.limit) {
      const page = items.slice(0, q.limit);
      return { items: page, next: String(page[page.length - 1]?.id) };
    }
    if (!start) return { items, next: null };
  }
  // The read bound ran out (or, unfiltered, exactly `limit` came with more behind): go on from there.
  const last = String(start?.sk ?? '');
  return { items, next: last.slice(last.lastIndexOf('#') + 1) || null };
}

/** GET …/request/{ticketId}/comments: the issue's comments, oldest first (a GUEST's without internal ones). */
export async function listComments(
  userId: string,
  projectId: string,
  n: number,
  q: { cursor?: string | undefined; limit: number },
  action: ProjectAction = 'read',
): Promise<TimelinePage<CommentView>> {
  const page = await readTimeline(userId, projectId, n, q, action, true);
  return { entries: page.items.map(commentView), next: page.next };
}

/** GET …/request/{ticketId}/activity: the whole timeline, comments interleaved with activity, oldest first. */
export async function listActivity(
  userId: string,
  projectId: string,
  n: number,
  q: { cursor?: string | undefined; limit: number },
  action: ProjectAction = 'read',
): Promise<TimelinePage<TimelineEntry>> {
  const page = await readTimeline(userId, projectId, n, q, action, false);
  return { entries: page.items.map(entryView), next: page.next };
}

async function readTimeline(
  userId: string,
  projectId: string,
  n: number,
  q: { cursor?: string | undefined; limit: number },
  action: ProjectAction,
  commentsOnly: boolean,
) {
  // The access read (with the header: an issue that does not exist is NOT_FOUND) runs first: whether the
  // caller sees internal entries decides the Query's filter.
  const {
    project,
    items: [h],
  } = await readProjectAs(userId, projectId, action, [issueHeaderKey(projectId, n)]);
  if (!h) throw new AppError('NOT_FOUND');
  return pageTimeline(projectId, n, q, { commentsOnly, internal: may(project.role, 'internal') });
}

/** A member a comment may mention: their user id and name (`First Last`). */
export interface Mentionable {
  id: string;
  name: string;
}

const wordChar = /[\p{L}\p{N}_]/u;

/**
 * The user ids `body` mentions: `@` + a person's name, case-insensitive, the longest name first (so
 * "@Ann Lee-Smith" is not taken for "@Ann Lee"), where the `@` starts a word (not an email address) and
 * the name ends one. Each person once, in the order first mentioned.
 */
export function findMentions(body: string, people: readonly Mentionable[]): string[] {
  const candidates = people
    .filter((p) => p.name.trim() !== '')
    .map((p) => ({ id: p.id, name: p.name.trim(), lower: p.name.trim().toLowerCase() }))
    .sort((a, b) => b.name.length - a.name.length);
  const found: string[] = [];
  for (let i = body.indexOf('@'); i >= 0; i = body.indexOf('@', i + 1)) {
    if (i > 0 && (wordChar.test(body[i - 1] ?? '') || body[i - 1] === '.')) continue;
    for (const c of candidates) {
      const text = body.slice(i + 1, i + 1 + c.name.length);
      if (text.toLowerCase() !== c.lower) continue;
      if (wordChar.test(body[i + 1 + c.name.length] ?? '')) continue;
      if (!found.includes(c.id)) found.push(c.id);
      break;
    }
  }
  return found;
}

/**
 * Who a comment in `projectId` may mention: the team's members that may read the project, and a GUEST of
 * this project only in a public comment (a GUEST never sees internal ones). Two requests (the team's
 * members, their USER items), made only when the body holds an `@` (decision Tr-M4).
 */
async function mentionable(
  teamId: string,
  projectId: string,
  visibility: CommentVisibility,
): Promise<Mentionable[]> {
  const { members } = await readMembers(teamId);
  const allowed = members.filter((m) =>
    m.role === 'GUEST' ? visibility === 'public' && (m.projects ?? []).includes(projectId) : true,
  );
  const users = await getItems(allowed.map((m) => userKey(m.userId)));
  return allowed.flatMap((m, i) => {
    const u = users[i];
    return u ? [{ id: m.userId, name: displayName(u as unknown as User) }] : [];
  });
}

const mentionsIn = async (body: string, teamId: string, projectId: string, visibility: CommentVisibility) =>
  body.includes('@') ? findMentions(body, await mentionable(teamId, projectId, visibility)) : [];

/** The caller's write-time access check for `action` (4.12, T4): a member removed meanwhile is refused. */
function guardItems(caller: Caller, project: Item, projectId: string, action: ProjectAction): TransactItems {
  const guard = accessGuard(caller, teamOf(project as { teamId?: unknown }), action, projectId);
  return [
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: projectKey(projectId),
        ConditionExpression: guard.expression,
        ExpressionAttributeValues: guard.values,
      },
    },
    ...(guard.checks ?? []),
  ];
}

/**
 * The header's move in the `updated` order (4.13): `updatedAt`, the next place `u` of `META.useq`, and the
 * rank index's entries moved by core's write builder (`indexActions`), so the index cannot drift. The
 * header's condition holds while nothing else moved the issue since it was read (its `u`, or none before
 * triage): a concurrent change is read again and the comment's place allocated anew (`postComment`).
 */
function touchIssue(projectId: string, n: number, h: Item, u: number, at: string): TransactItems {
  const cur = stateOf(h);
  const next = { ...cur, u };
  const place = placeCondition(cur.u);
  return [
    {
      Update: {
        TableName: tableName(),
        Key: issueHeaderKey(projectId, n),
        UpdateExpression: 'SET updatedAt = :at, u = :u',
        ConditionExpression: `attribute_exists(pk) AND ${place.expression}`,
        ExpressionAttributeValues: { ':at': at, ':u': u, ...place.values },
      },
    },
    ...indexActions(projectId, n, cur, next),
  ];
}

/**
 * The issue's assignee hears of a new comment on it: one notification item for the comment's transaction,
 * none without an assignee or when the assignee is in `skip` (the author, or someone the comment mentions).
 */
function assigneeNotice(
  projectId: string,
  h: Item,
  comment: StoredComment,
  skip: readonly string[] = [],
): TransactItems {
  const assignee = typeof h.assignee === 'string' && h.assignee ? h.assignee : null;
  if (!assignee || skip.includes(assignee)) return [];
  return [
    notifyPut({
      kind: 'comment',
      projectId,
      number: comment.number,
      assignee,
      by: comment.author,
      commentId: comment.id,
      visibility: comment.visibility,
    }),
  ];
}

/** Attempts of a comment's write when concurrent changes of the issue keep moving it (each reads it again). */
const ATTEMPTS = 5;

/** POST …/request/{ticketId}/comments. */
export async function postComment(
  userId: string,
  projectId: string,
  n: number,
  input: { body: string; visibility: CommentVisibility },
  action: ProjectAction = 'comment',
  opts: { log?: Logger; correlationId?: string } = {},
): Promise<CommentAnswer> {
  const {
    project,
    caller,
    items: [h, user],
  } = await readProjectAs(userId, projectId, action, [issueHeaderKey(projectId, n), userKey(userId)]);
  if (!h) throw new AppError('NOT_FOUND');
  const internal = input.visibility === 'internal';
  // A GUEST writes public comments only (DESIGN section 10).
  if (internal && !may(project.role, 'internal')) throw new AppError('FORBIDDEN');
  const author = caller.token ? tokenActor(caller.token) : actorOf(userId, user);
  const mentions = await mentionsIn(
    input.body,
    teamOf(project as { teamId?: unknown }),
    projectId,
    input.visibility,
  );
  const ms = nowMs();
  const at = new Date(ms).toISOString();
  const comment: StoredComment = {
    kind: 'comment',
    id: timelineId(ms),
    number: n,
    author,
    body: input.body,
    visibility: input.visibility,
    createdAt: at,
    mentions,
  };
  const notify: TransactItems = [];
  const toMention = mentions.filter((id) => id !== userId);
  if (toMention.length > 0)
    notify.push(
      notifyPut({
        kind: 'mentioned',
        projectId,
        number: n,
        to: toMention,
        by: author,
        commentId: comment.id,
      }),
    );
  // The assignee hears of a comment once: as a mention when mentioned, else as a comment on their issue.
  notify.push(...assigneeNotice(projectId, h, comment, [userId, ...toMention]));
  const guard = guardItems(caller, project, projectId, internal ? 'internal' : action);
  await commitComment(projectId, n, h, comment, {
    once: rateLimitWrite(commentRate(userId)),
    onceRefusal: 'RATE_LIMITED',
    checks: [...guard, ...notify],
    ...opts,
  });
  return { comment: commentView(comment as unknown as Item) };
}

/**
 * The comment's transaction and its `comment.created`, shared by a member's comment, the reporter's reply
 * (functions/issues/reporter-status.ts) and a tracker's comment (issue 24), so all move the issue, count and
 * notify the same way: [0] the comment, [1] the header's move in the `updated` order, [2] `once` (the member's rate count;
 * the tracker comment's "taken once" item), then the index, `checks` (guards, outbox). A moved header is
 * read again and the place allocated anew; a failed `once` is `onceRefusal`, or false with none.
 */
export async function commitComment(
  projectId: string,
  n: number,
  h: Item,
  comment: StoredComment,
  w: {
    once: TransactItems[number];
    onceRefusal?: 'RATE_LIMITED';
    checks: TransactItems;
    log?: Logger;
    correlationId?: string;
  },
): Promise<boolean> {
  const at = comment.createdAt;
  let header: Item | undefined = h;
  for (let attempt = 1; ; attempt++) {
    if (!header) throw new AppError('NOT_FOUND');
    // The comment's place in the `updated` order: one request more (the budget exception of section 6).
    const u = await allocateUpdates(projectId);
    const [headerWrite, ...index] = touchIssue(projectId, n, header, u, at);
    const items: TransactItems = [
      timelinePut(projectId, comment),
      ...(headerWrite ? [headerWrite] : []),
      w.once,
      ...index,
      ...w.checks,
    ];
    let moved = false;
    let taken = false;
    await transactWrite(items, (failed) => {
      if (failed.includes(2)) {
        if (w.onceRefusal) return w.onceRefusal;
        taken = true;
        return undefined;
      }
      if (failed.length === 1 && failed[0] === 1) {
        // Moved again on the last try: the issue is busy, not gone.
        if (attempt >= ATTEMPTS) return 'BUSY';
        moved = true;
        return undefined;
      }
      return 'NOT_FOUND';
    }).catch((err) => {
      if (!moved && !taken) throw err;
    });
    if (taken) return false;
    if (!moved) break;
    // The issue changed since it was read: read it again (gone is NOT_FOUND above).
    header = (await getItems([issueHeaderKey(projectId, n)]))[0];
  }
  // After the commit (never for a comment that failed): the webhooks that subscribe to comment.created.
  // A failed publish loses that event only, never the comment: logged, and the answer is still success.
  await publish('fanout', [
    {
      groupId: projectId,
      message: {
        type: 'comment.created',
        projectId,
        issueNumber: n,
        actor: comment.author,
        at,
        commentId: comment.id,
        ...(w.correlationId ? { correlationId: w.correlationId } : {}),
      },
    },
  ]).catch((err) => w.log?.warn('comment.created not published', { err, projectId, issueNumber: n }));
  return true;
}

/**
 * A comment from a linked tracker (issue 24's two-way sync), by `author` (kind tracker), through the same
 * transaction and `comment.created` as a member's: the assignee hears of it, the webhooks and the reporter's
 * mails follow the event. `once` is the "taken once" item of the tracker comment's id: a comment taken
 * before writes nothing and answers false. No access check: the verified hook is the authority; the
 * project must still exist.
 */
export async function postTrackerComment(
  projectId: string,
  n: number,
  author: Actor,
  input: { body: string; visibility: CommentVisibility },
  once: TransactItems[number],
  opts: { log?: Logger; correlationId?: string } = {},
): Promise<boolean> {
  const [h] = await getItems([issueHeaderKey(projectId, n)]);
  if (!h) return false;
  const ms = nowMs();
  const comment: StoredComment = {
    kind: 'comment',
    id: timelineId(ms),
    number: n,
    author,
    body: input.body,
    visibility: input.visibility,
    createdAt: new Date(ms).toISOString(),
    mentions: [],
  };
  const checks: TransactItems = [
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: projectKey(projectId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    ...assigneeNotice(projectId, h, comment),
  ];
  return commitComment(projectId, n, h, comment, { once, checks, ...opts });
}

/**
 * The comment the caller names, if they may see it: gone, not a comment, or internal for a caller without
 * `internal` (a GUEST learns nothing of it) is COMMENT_NOT_FOUND.
 */
async function readComment(
  userId: string,
  projectId: string,
  n: number,
  commentId: string,
  action: ProjectAction,
) {
  const got = await readProjectAs(userId, projectId, action, [
    timelineKey(projectId, n, commentId),
    userKey(userId),
  ]);
  const [c, user] = got.items;
  if (c?.kind !== 'comment') throw new AppError('COMMENT_NOT_FOUND');
  if (c.visibility === 'internal' && !may(got.project.role, 'internal'))
    throw new AppError('COMMENT_NOT_FOUND');
  return { ...got, comment: c, user };
}

const authorOf = (c: Item) => (c.author as Actor | undefined)?.id;

/** PATCH …/comments/{commentId}: the author only; a name newly mentioned is told. */
export async function editComment(
  userId: string,
  projectId: string,
  n: number,
  commentId: string,
  body: string,
  action: ProjectAction = 'comment',
): Promise<CommentAnswer> {
  const { project, caller, comment, user } = await readComment(userId, projectId, n, commentId, action);
  if (authorOf(comment) !== userId) throw new AppError('FORBIDDEN');
  const visibility: CommentVisibility = comment.visibility === 'internal' ? 'internal' : 'public';
  const mentions = await mentionsIn(body, teamOf(project as { teamId?: unknown }), projectId, visibility);
  const before = new Set(commentView(comment).mentions);
  const fresh = mentions.filter((id) => id !== userId && !before.has(id));
  const editedAt = new Date(nowMs()).toISOString();
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: timelineKey(projectId, n, commentId),
          UpdateExpression: 'SET body = :b, editedAt = :e, mentions = :m',
          ConditionExpression: 'attribute_exists(pk) AND author.id = :uid',
          ExpressionAttributeValues: { ':b': body, ':e': editedAt, ':m': mentions, ':uid': userId },
        },
      },
      ...guardItems(caller, project, projectId, visibility === 'internal' ? 'internal' : action),
      ...(fresh.length > 0
        ? [
            notifyPut({
              kind: 'mentioned',
              projectId,
              number: n,
              to: fresh,
              by: actorOf(userId, user),
              commentId,
            }),
          ]
        : []),
    ],
    (failed) => (failed.includes(0) ? 'COMMENT_NOT_FOUND' : 'NOT_FOUND'),
  );
  return { comment: commentView({ ...comment, body, editedAt, mentions }) };
}

/**
 * DELETE …/comments/{commentId}: the author, or an OWNER/ADMIN (`moderate`). The comment goes; a
 * `comment.deleted` activity entry stays (internal when the comment was), in the same transaction.
 */
export async function deleteComment(
  userId: string,
  projectId: string,
  n: number,
  commentId: string,
  action: ProjectAction = 'comment',
): Promise<CommentDeletedAnswer> {
  const { project, caller, comment, user } = await readComment(userId, projectId, n, commentId, action);
  const own = authorOf(comment) === userId;
  if (!own && !may(project.role, 'moderate')) throw new AppError('FORBIDDEN');
  const internal = comment.visibility === 'internal';
  const entry = activity(n, 'comment.deleted', actorOf(userId, user), {
    from: { author: (comment.author as Actor | undefined)?.name ?? '' },
    ...(internal ? { visibility: 'internal' as const } : {}),
  });
  const guardAction: ProjectAction = !own ? 'moderate' : internal ? 'internal' : action;
  await transactWrite(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: timelineKey(projectId, n, commentId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      timelinePut(projectId, entry),
      ...guardItems(caller, project, projectId, guardAction),
    ],
    (failed) => (failed.includes(0) ? 'COMMENT_NOT_FOUND' : 'NOT_FOUND'),
  );
  return { deleted: commentId };
}
