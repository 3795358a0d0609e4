/**
 * Comments and the timeline (issue 23, docs/data-model.md 4.13 "Comments and activity") through the local
 * stack: validation, who may write, edit and delete what, a GUEST never seeing internal entries (comments,
 * activity, a deleted internal comment's trace), paging, mentions and the outbox, the rate limit, another
 * client refused.
 */
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CommentView, TimelineEntry, TimelinePage } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { rateWindow } from '#runtime/rate-limit';
import { updateUser } from '../../functions/accounts/user';
import { commentRate } from '../../functions/issues/comments';
import { issueHeaderKey } from '../../functions/issues/issue';
import { OUTBOX_PARTITION } from '../../functions/issues/notify';
import { checkRankIndex } from '../../functions/issues/rank-check';
import type { ApiClient } from '../support/api-client';
import { countFunctionRequests } from '../support/dynamo-calls';
import { seedIssues } from '../support/issues';
import { type Person, person, projectOf } from '../support/members-teams';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam, setTeamPlan } from '../support/teams';

// Hooked before the stack starts, so every client it makes counts (docs/data-model.md section 6).
const dynamoRequestsOf = countFunctionRequests('api:issues');
const stack = setUpTestStack();
let owner: Person;
let admin: Person;
let member: Person;
let guest: Person;
let outsider: Person;
let projectId = '';

const msgOf = <T>(res: { body: unknown }) => (res.body as { msg: T }).msg;
const codeOf = (res: { status: number; body: unknown }) =>
  `${res.status} ${(res.body as { code?: string }).code ?? ''}`;
const commentsPath = (n: number) => `/api/client/website/${projectId}/request/${n}/comments`;
const activityPath = (n: number) => `/api/client/website/${projectId}/request/${n}/activity`;

let nextIssue = 0;
/** A fresh issue of the project per test (numbers from 1, as seeded). */
async function newIssue(): Promise<number> {
  await seedIssues(projectId, 1);
  return ++nextIssue;
}

async function post(client: ApiClient, n: number, body: string, visibility = 'public') {
  return client.post<{ comment: CommentView }>(commentsPath(n), { body, visibility });
}
async function posted(client: ApiClient, n: number, body: string, visibility = 'public') {
  const res = await post(client, n, body, visibility);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return msgOf<{ comment: CommentView }>(res).comment;
}

/** Every page of `path`, `limit` at a time: the entries in order and the pages' sizes. */
async function allPages<T>(client: ApiClient, path: string, limit: number) {
  const entries: T[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const res: Awaited<ReturnType<ApiClient['get']>> = await client.get<TimelinePage<T>>(
      `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page: TimelinePage<T> = msgOf<TimelinePage<T>>(res);
    entries.push(...page.entries);
    sizes.push(page.entries.length);
    cursor = page.next;
    if (!cursor) break;
  }
  return { entries, sizes };
}

async function outboxFor(n: number) {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': OUTBOX_PARTITION },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? [])
    .map((i) => i.event as Record<string, unknown>)
    .filter((e) => e.projectId === projectId && e.number === n);
}

beforeAll(async () => {
  const people = await Promise.all([1, 2, 3, 4, 5].map(() => person(stack.url)));
  [owner, admin, member, guest, outsider] = people as [Person, Person, Person, Person, Person];
  await setTeamPlan(owner.id, 'BUSINESS_PLAN', null);
  projectId = await projectOf(owner.client);
  await addToTeam(owner.id, admin.id, 'ADMIN');
  await addToTeam(owner.id, member.id, 'MEMBER');
  await addToTeam(owner.id, guest.id, 'GUEST', [projectId]);
  // Everybody registers as Ada Lovelace: names of their own, for mentions.
  await updateUser(owner.id, { firstName: 'Olga', lastName: 'Owner' });
  await updateUser(admin.id, { firstName: 'Ann', lastName: 'Lee-Smith' });
  await updateUser(member.id, { firstName: 'Ann', lastName: 'Lee' });
  await updateUser(guest.id, { firstName: 'Gus', lastName: 'Guest' });
  await updateUser(outsider.id, { firstName: 'Otto', lastName: 'Outsider' });
}, 180_000);

// The tests post more than a person may in a minute: each starts with fresh windows.
beforeEach(async () => {
  for (const p of [owner, admin, member, guest]) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: rateWindow(commentRate(p.id)).key }));
  }
});

describe('writing comments', () => {
  it('refuses an empty, blank, too long or hidden-character body and a bad visibility (400)', async () => {
    const n = await newIssue();
    for (const body of ['', '   \n  ', 'x'.repeat(5001), 'evil\u202Etxt', 'nul\u0000', '\u200B\u200B']) {
      expect(codeOf(await post(member.client, n, body)), JSON.stringify(body)).toBe('400 INVALID_PARAMETERS');
    }
    expect(codeOf(await post(member.client, n, 'ok', 'secret'))).toBe('400 INVALID_PARAMETERS');
    expect(
      codeOf(await member.client.post(commentsPath(n), { body: 'ok', visibility: 'public', extra: 1 })),
    ).toBe('400 INVALID_PARAMETERS');
    // 5,000 characters is the limit itself; line breaks are kept, CRLF made LF, ends trimmed.
    expect((await post(member.client, n, 'y'.repeat(5000))).status).toBe(201);
    const c = await posted(member.client, n, '  first\r\nsecond  ');
    expect(c.body).toBe('first\nsecond');
    const listed = msgOf<TimelinePage<CommentView>>(await member.client.get(commentsPath(n)));
    expect(listed.entries.map((e) => e.body)).toEqual(['y'.repeat(5000), 'first\nsecond']);
  });

  it('says which field is refused and what it takes, in the caller’s language', async () => {
    const n = await newIssue();
    // One character over: refused whole (never cut), the message naming the field and the limit.
    expect((await post(member.client, n, 'x'.repeat(5001))).body).toEqual({
      status: 'error',
      code: 'INVALID_PARAMETERS',
      msg: 'Invalid parameters: body: expected at most 5000 characters',
      fields: { body: 'INVALID_PARAMETERS' },
      expected: { body: 'expected at most 5000 characters' },
    });
    expect((await post(member.client, n, 'ok', 'secret')).body).toMatchObject({
      msg: 'Invalid parameters: visibility: expected one of: internal, public',
      expected: { visibility: 'expected one of: internal, public' },
    });
    const german = await member.client.post(`${commentsPath(n)}?lng=de`, {
      body: 'ok',
      visibility: 'secret',
    });
    expect(german.body).toMatchObject({
      msg: 'Ungültige Parameter: visibility: erwartet einen von: internal, public',
      expected: { visibility: 'erwartet einen von: internal, public' },
    });
  });

  it('names the author from their account and moves the issue in the updated order', async () => {
    const n = await newIssue();
    const c = await posted(member.client, n, 'Seen on Safari', 'internal');
    expect(c).toMatchObject({
      author: { kind: 'member', id: member.id, name: 'Ann Lee' },
      visibility: 'internal',
      editedAt: null,
      mentions: [],
    });
    const h = await db().send(
      new GetCommand({ TableName: tableName(), Key: issueHeaderKey(projectId, n), ConsistentRead: true }),
    );
    expect(h.Item?.updatedAt).toBe(c.createdAt);
    // Its place in the `updated` order moved through the rank index's writer: the index agrees with the headers.
    const u = Number(h.Item?.u);
    await posted(owner.client, n, 'and on Firefox');
    const after = await db().send(
      new GetCommand({ TableName: tableName(), Key: issueHeaderKey(projectId, n), ConsistentRead: true }),
    );
    expect(Number(after.Item?.u)).toBeGreaterThan(u);
    expect(await checkRankIndex(projectId)).toEqual([]);
  });

  it('refuses another client (404) and a missing issue (404)', async () => {
    const n = await newIssue();
    expect(codeOf(await post(outsider.client, n, 'hi'))).toBe('404 NOT_FOUND');
    expect(codeOf(await outsider.client.get(commentsPath(n)))).toBe('404 NOT_FOUND');
    expect(codeOf(await outsider.client.get(activityPath(n)))).toBe('404 NOT_FOUND');
    expect(codeOf(await post(member.client, 999_999, 'hi'))).toBe('404 NOT_FOUND');
    expect(codeOf(await member.client.get(commentsPath(999_999)))).toBe('404 NOT_FOUND');
  });

  it('limits posting per person (429 RATE_LIMITED past 20 a minute)', async () => {
    const n = await newIssue();
    const limit = commentRate(admin.id);
    const { key } = rateWindow(limit);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET #c = :max, #ttl = :ttl',
        ExpressionAttributeNames: { '#c': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':max': limit.max, ':ttl': Math.floor(Date.now() / 1000) + 3600 },
      }),
    );
    expect(codeOf(await post(admin.client, n, 'one too many'))).toBe('429 RATE_LIMITED');
    // Nothing of the refused comment was stored.
    expect(msgOf<TimelinePage<CommentView>>(await admin.client.get(commentsPath(n))).entries).toEqual([]);
  });
});

describe('a GUEST', () => {
  it('writes public comments only and never sees internal ones (comments, activity)', async () => {
    const n = await newIssue();
    await posted(member.client, n, 'internal one', 'internal');
    await posted(owner.client, n, 'public one');
    expect(codeOf(await post(guest.client, n, 'let me in', 'internal'))).toBe('403 FORBIDDEN');
    await posted(guest.client, n, 'from the guest');
    await posted(admin.client, n, 'internal two', 'internal');

    const team = msgOf<TimelinePage<CommentView>>(await member.client.get(commentsPath(n)));
    expect(team.entries.map((e) => e.body)).toEqual([
      'internal one',
      'public one',
      'from the guest',
      'internal two',
    ]);
    const seen = msgOf<TimelinePage<CommentView>>(await guest.client.get(commentsPath(n)));
    expect(seen.entries.map((e) => e.body)).toEqual(['public one', 'from the guest']);
    const timeline = msgOf<TimelinePage<TimelineEntry>>(await guest.client.get(activityPath(n)));
    expect(JSON.stringify(timeline)).not.toContain('internal');
  });

  it("cannot reach an internal comment by its id (COMMENT_NOT_FOUND) nor see its deletion's trace", async () => {
    const n = await newIssue();
    const secret = await posted(member.client, n, 'team only', 'internal');
    const path = `${commentsPath(n)}/${secret.id}`;
    expect(codeOf(await guest.client.patch(path, { body: 'x' }))).toBe('404 COMMENT_NOT_FOUND');
    expect(codeOf(await guest.client.delete(path))).toBe('404 COMMENT_NOT_FOUND');
    expect((await member.client.delete(path)).status).toBe(200);
    const team = msgOf<TimelinePage<TimelineEntry>>(await member.client.get(activityPath(n)));
    expect(team.entries).toEqual([
      expect.objectContaining({ type: 'activity', kind: 'created' }),
      expect.objectContaining({ type: 'activity', kind: 'comment.deleted', internal: true }),
    ]);
    const seen = msgOf<TimelinePage<TimelineEntry>>(await guest.client.get(activityPath(n)));
    expect(seen.entries).toEqual([expect.objectContaining({ type: 'activity', kind: 'created' })]);
  });

  it('pages fill around the internal entries left out', async () => {
    const n = await newIssue();
    for (let i = 0; i < 12; i++) await posted(member.client, n, `c${i}`, i % 3 === 0 ? 'public' : 'internal');
    const team = await allPages<CommentView>(member.client, commentsPath(n), 5);
    expect(team.entries.map((e) => e.body)).toEqual(Array.from({ length: 12 }, (_, i) => `c${i}`));
    expect(team.sizes).toEqual([5, 5, 2]);
    const seen = await allPages<CommentView>(guest.client, commentsPath(n), 3);
    expect(seen.entries.map((e) => e.body)).toEqual(['c0', 'c3', 'c6', 'c9']);
    expect(seen.sizes).toEqual([3, 1]);
  });
});

describe('editing and deleting', () => {
  it('lets only the author edit (403 for others, even an ADMIN)', async () => {
    const n = await newIssue();
    const c = await posted(member.client, n, 'typo hree');
    const path = `${commentsPath(n)}/${c.id}`;
    expect(codeOf(await admin.client.patch(path, { body: 'not mine' }))).toBe('403 FORBIDDEN');
    expect(codeOf(await owner.client.patch(path, { body: 'not mine' }))).toBe('403 FORBIDDEN');
    expect(codeOf(await member.client.patch(path, { body: '' }))).toBe('400 INVALID_PARAMETERS');
    const res = await member.client.patch<{ comment: CommentView }>(path, { body: 'typo here' });
    expect(res.status).toBe(200);
    expect(msgOf<{ comment: CommentView }>(res).comment).toMatchObject({ body: 'typo here' });
    const listed = msgOf<TimelinePage<CommentView>>(await member.client.get(commentsPath(n))).entries;
    expect(listed).toEqual([expect.objectContaining({ body: 'typo here', editedAt: expect.any(String) })]);
    expect(codeOf(await member.client.patch(`${commentsPath(n)}/${'0'.repeat(20)}`, { body: 'x' }))).toBe(
      '404 COMMENT_NOT_FOUND',
    );
  });

  it('lets the author or an ADMIN delete, and leaves a comment.deleted entry', async () => {
    const n = await newIssue();
    const mine = await posted(guest.client, n, 'guest says');
    const theirs = await posted(admin.client, n, 'admin says');
    expect(codeOf(await member.client.delete(`${commentsPath(n)}/${theirs.id}`))).toBe('403 FORBIDDEN');
    expect(codeOf(await guest.client.delete(`${commentsPath(n)}/${theirs.id}`))).toBe('403 FORBIDDEN');
    expect((await guest.client.delete(`${commentsPath(n)}/${mine.id}`)).status).toBe(200);
    const res = await admin.client.delete(`${commentsPath(n)}/${theirs.id}`);
    expect(res.status).toBe(200);
    expect(msgOf(res)).toEqual({ deleted: theirs.id });
    expect(codeOf(await admin.client.delete(`${commentsPath(n)}/${theirs.id}`))).toBe(
      '404 COMMENT_NOT_FOUND',
    );
    const timeline = msgOf<TimelinePage<TimelineEntry>>(await guest.client.get(activityPath(n))).entries;
    expect(timeline.map((e) => (e.type === 'activity' ? `${e.kind} by ${e.actor.name}` : e.type))).toEqual([
      'created by Reporter',
      'comment.deleted by Gus Guest',
      'comment.deleted by Ann Lee-Smith',
    ]);
  });
});

describe('mentions', () => {
  it('stores the mentioned members (case-insensitive, longest name first) and writes the outbox', async () => {
    const n = await newIssue();
    const c = await posted(
      owner.client,
      n,
      '@ann lee-smith and @Ann Lee, please look; mail me@olga owner is no mention; @Gus Guest too',
      'internal',
    );
    // The guest is not mentioned in an internal comment; the email-like one is not a mention.
    expect(c.mentions).toEqual([admin.id, member.id]);
    const outbox = await outboxFor(n);
    expect(outbox).toContainEqual(
      expect.objectContaining({ kind: 'mentioned', to: [admin.id, member.id], commentId: c.id }),
    );
    const pub = await posted(member.client, n, 'thanks @GUS GUEST!');
    expect(pub.mentions).toEqual([guest.id]);
    expect(await outboxFor(n)).toContainEqual(
      expect.objectContaining({ kind: 'mentioned', to: [guest.id], commentId: pub.id }),
    );
  });

  it("tells the issue's assignee of a comment by someone else, not of their own", async () => {
    const n = await newIssue();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: issueHeaderKey(projectId, n),
        UpdateExpression: 'SET assignee = :a',
        ExpressionAttributeValues: { ':a': member.id },
      }),
    );
    const c = await posted(admin.client, n, 'any news?', 'internal');
    await posted(member.client, n, 'working on it');
    const comments = (await outboxFor(n)).filter((e) => e.kind === 'comment');
    expect(comments).toEqual([
      expect.objectContaining({ assignee: member.id, commentId: c.id, visibility: 'internal' }),
    ]);
  });
});

describe('requests per call (docs/data-model.md section 6, session included)', () => {
  it('posts in 4 (6 with a mention), edits and deletes in 3, reads a page in 3', async () => {
    const n = await newIssue();
    let id = '';
    const plain = await dynamoRequestsOf(async () => {
      id = (await posted(member.client, n, 'Seen on Safari too.', 'internal')).id;
    });
    // Session, the access read (META, TEAMS, header, USER), `ADD useq`, the transaction.
    expect(plain.length, plain.join(' ')).toBe(4);
    const mention = await dynamoRequestsOf(() => posted(owner.client, n, '@Ann Lee can you check?'));
    // + the team's members (Query) and their USER items (BatchGetItem), only when the body holds an `@`.
    expect(mention.length, mention.join(' ')).toBe(6);
    const edit = await dynamoRequestsOf(async () => {
      const res = await member.client.patch(`${commentsPath(n)}/${id}`, { body: 'Seen on Safari 18 too.' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
    expect(edit.length, edit.join(' ')).toBe(3);
    for (const [who, path] of [
      [member, activityPath(n)],
      [member, commentsPath(n)],
      [guest, activityPath(n)],
    ] as const) {
      const read = await dynamoRequestsOf(async () => {
        expect((await who.client.get(path)).status).toBe(200);
      });
      // Session, the access read with the header, one Query (a filtered page takes up to 4).
      expect(read.length, `${path}: ${read.join(' ')}`).toBe(3);
    }
    const del = await dynamoRequestsOf(async () => {
      expect((await member.client.delete(`${commentsPath(n)}/${id}`)).status).toBe(200);
    });
    expect(del.length, del.join(' ')).toBe(3);
  });
});
