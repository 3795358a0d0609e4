/**
 * Notification mails (issue 23, docs/data-model.md 4.13 "Notifications") through the local stack: the
 * settings (defaults, validation, only one's own), the outbox's flush (instant mails for assignments and
 * mentions, one mail per person per flush, a removed member and a GUEST's internal comment left out, two
 * concurrent flushes, a claim left by a dead run), the daily digest, and the signed unsubscribe link.
 * Outbox entries are written with `notifyPut`, as the triage and comment writes do in their transactions.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultNotificationSettings, type NotifyEvent } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { DAY } from '#runtime/time';
import { unsubscribeToken } from '../../functions/accounts/notifications';
import { userKey } from '../../functions/accounts/user';
import { entryKey, notifyPut, OUTBOX_PARTITION } from '../../functions/issues/notify';
import { timelineId, timelinePut } from '../../functions/issues/timeline';
import { ApiClient, latestMail, linkIn, mailCount } from '../support/api-client';
import { countFunctionRequests } from '../support/dynamo-calls';
import { seedIssues } from '../support/issues';
import { type Person, person, projectOf } from '../support/members-teams';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam, removeFromTeam } from '../support/teams';

// Hooked before the stack starts, so every client it makes counts (docs/data-model.md 4.13 request counts).
const flushRequests = countFunctionRequests('schedule:notifications');
const apiRequests = countFunctionRequests('api:notifications');
const stack = setUpTestStack();
let owner: Person;
let member: Person;
let projectId: string;
const settingsPath = '/api/client/notifications';

beforeAll(async () => {
  owner = await person(stack.url);
  member = await person(stack.url);
  projectId = await projectOf(owner.client, 'Shop <b>&</b>');
  await addToTeam(owner.id, member.id, 'MEMBER');
  await seedIssues(projectId, 3, (n) => `Checkout breaks ${n}`);
  // Filing writes a `new` entry each (nobody here asked for new-issue mails): start with an empty outbox.
  await flush();
});

const byOwner = () => ({ kind: 'member' as const, id: owner.id, name: 'Ada Lovelace' });
const write = async (...events: NotifyEvent[]) => {
  for (const e of events) await db().send(new PutCommand(notifyPut(e).Put));
};
const flush = () => stack.runSchedule('notifications') as Promise<{ entries: number; mails: number }>;
const digest = () => stack.runSchedule('digest') as Promise<{ mails: number }>;
const settingsOf = async (p: Person) => (await p.client.get<{ settings: unknown }>(settingsPath)).body;

/** A comment item as the comments increment stores it (the flush reads its body and visibility). */
async function comment(number: number, body: string, visibility: 'internal' | 'public', mentions: string[]) {
  const id = timelineId();
  await db().send(
    new PutCommand(
      timelinePut(projectId, {
        kind: 'comment',
        id,
        number,
        author: byOwner(),
        body,
        visibility,
        createdAt: new Date().toISOString(),
        mentions,
      }).Put,
    ),
  );
  return id;
}

async function outbox() {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': OUTBOX_PARTITION },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => String(i.sk));
}

describe('the settings', () => {
  it('start at the defaults, save whole and valid, and answer the saved ones', async () => {
    const p = await person(stack.url);
    // Session + one GetItem; a save is session + one UpdateItem.
    expect(await apiRequests(() => settingsOf(p))).toEqual(['GetItemCommand', 'GetItemCommand']);
    expect(await settingsOf(p)).toEqual({
      status: 'success',
      msg: { settings: defaultNotificationSettings },
    });
    const wanted = { newIssue: 'daily', assigned: false, mentioned: true, comments: false };
    const saved = await p.client.call('PUT', `${settingsPath}?lng=de`, wanted);
    expect(saved.body).toEqual({ status: 'success', msg: { settings: wanted } });
    expect(await settingsOf(p)).toEqual({ status: 'success', msg: { settings: wanted } });
    // The dashboard's language becomes the mails' (Tr-N3).
    const user = await db().send(new GetCommand({ TableName: tableName(), Key: userKey(p.id) }));
    expect(user.Item?.lang).toBe('de');
    expect(user.Item?.notify).toEqual(wanted);

    for (const bad of [
      { ...wanted, newIssue: 'weekly' },
      { ...wanted, assigned: 'yes' },
      { newIssue: 'off', assigned: true, mentioned: true },
      { ...wanted, extra: true },
      [],
      'null',
    ]) {
      const res = await p.client.call('PUT', settingsPath, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_PARAMETERS' });
    }
    expect(await settingsOf(p)).toEqual({ status: 'success', msg: { settings: wanted } });
  });

  it("are the caller's own: another client neither reads nor changes them, and no session is refused", async () => {
    const a = await person(stack.url);
    const b = await person(stack.url);
    const mine = { newIssue: 'instant', assigned: false, mentioned: false, comments: false };
    await a.client.call('PUT', settingsPath, mine);
    await b.client.call('PUT', settingsPath, { ...mine, newIssue: 'off', assigned: true });
    expect(await settingsOf(a)).toEqual({ status: 'success', msg: { settings: mine } });
    expect(await settingsOf(b)).toMatchObject({ msg: { settings: { newIssue: 'off', assigned: true } } });
    const anonymous = new ApiClient(stack.url);
    expect((await anonymous.get(settingsPath)).status).toBe(401);
    expect((await anonymous.call('PUT', settingsPath, mine)).status).toBe(401);
    expect(await settingsOf(a)).toEqual({ status: 'success', msg: { settings: mine } });
  });
});

describe('the flush', () => {
  it('mails an assignment at once, with the issue, project, link and unsubscribe link, and drops the actor’s own', async () => {
    const before = await mailCount(stack.url, member.email);
    const ownerBefore = await mailCount(stack.url, owner.email);
    await write(
      { kind: 'assigned', projectId, number: 1, to: member.id, by: byOwner() },
      // Assigning oneself tells nobody.
      { kind: 'assigned', projectId, number: 2, to: owner.id, by: byOwner() },
    );
    const r = await flush();
    expect(r.entries).toBe(2);
    expect(await mailCount(stack.url, member.email)).toBe(before + 1);
    expect(await mailCount(stack.url, owner.email)).toBe(ownerBefore);
    const mail = await latestMail(stack.url, member.email);
    expect(mail?.subject).toBe('[Shop <b>&</b>] #1 assigned to you: Checkout breaks 1');
    expect(mail?.text).toContain('Ada Lovelace assigned #1 “Checkout breaks 1” to you');
    expect(mail?.text).toContain(`${stack.url}/profile/site/${projectId}/ticket/1`);
    // Project names are user input: escaped in the HTML part.
    expect(mail?.html).toContain('Shop &#60;b&#62;&#38;&#60;/b&#62;');
    expect(mail?.html).not.toContain('<b>&</b>');
    linkIn(mail, '/api/notifications/unsubscribe');
    expect(await outbox()).toEqual([]);
  });

  it('mails a mention with the comment excerpt, in German for a German account', async () => {
    await member.client.call('PUT', `${settingsPath}?lng=de`, defaultNotificationSettings);
    const id = await comment(2, 'Could you   look at\nthis, Grace?', 'public', [member.id]);
    await write({ kind: 'mentioned', projectId, number: 2, to: [member.id], by: byOwner(), commentId: id });
    await flush();
    const mail = await latestMail(stack.url, member.email);
    expect(mail?.subject).toBe('[Shop <b>&</b>] Sie wurden bei #2 erwähnt: Checkout breaks 2');
    expect(mail?.text).toContain('Ada Lovelace hat Sie bei #2 „Checkout breaks 2“ erwähnt');
    expect(mail?.text).toContain('> Could you look at this, Grace?');
    expect(linkIn(mail, '/api/notifications/unsubscribe').searchParams.get('lng')).toBe('de');
    await member.client.call('PUT', settingsPath, defaultNotificationSettings);
  });

  it('sends one mail per person per flush: 100 assignments are one mail', async () => {
    const before = await mailCount(stack.url, member.email);
    const events: NotifyEvent[] = Array.from({ length: 100 }, (_, i) => ({
      kind: 'assigned',
      projectId,
      number: (i % 3) + 1,
      to: member.id,
      by: byOwner(),
    }));
    await write(...events);
    let r: { entries: number; mails: number } | undefined;
    const calls = await flushRequests(async () => {
      r = await flush();
    });
    expect(r).toMatchObject({ entries: 100, mails: 1 });
    // Measured 21. Step 1: Query (a full page of 100), the claim transaction, BatchGetItem (META, the 3
    // headers), BatchGetItem (USER, TEAMS), 4 BatchWriteItems of recipient items, 4 of entry deletions, the
    // next page's Query (empty); step 2: Query, lease Put, Query, 4 BatchWriteItem deletions, lease Delete;
    // then the reporter's outbox (issue 24, docs/data-model.md 4.14): one Query, empty here.
    expect(calls.length).toBe(22);
    expect(calls.filter((c) => c === 'TransactWriteItemsCommand')).toHaveLength(1);
    // Nothing to do costs three Queries (the two of the members' outbox, the reporter's one).
    expect(await flushRequests(flush)).toEqual(['QueryCommand', 'QueryCommand', 'QueryCommand']);
    expect(await mailCount(stack.url, member.email)).toBe(before + 1);
    const mail = await latestMail(stack.url, member.email);
    expect(mail?.subject).toBe('100 notifications from Snag');
    expect(mail?.text).toContain('…and 50 more in Snag.');
    expect(await outbox()).toEqual([]);
  });

  it('never mails a member who left the team', async () => {
    const leaver = await person(stack.url);
    await addToTeam(owner.id, leaver.id, 'MEMBER');
    const before = await mailCount(stack.url, leaver.email);
    await write({ kind: 'assigned', projectId, number: 1, to: leaver.id, by: byOwner() });
    await removeFromTeam(owner.id, leaver.id);
    await flush();
    expect(await mailCount(stack.url, leaver.email)).toBe(before);
    expect(await outbox()).toEqual([]);
  });

  it('never mails a GUEST about an internal comment, and does about a public one', async () => {
    const guest = await person(stack.url);
    await addToTeam(owner.id, guest.id, 'GUEST', [projectId]);
    const before = await mailCount(stack.url, guest.email);
    const internal = await comment(3, 'Internal: the refund is fraud', 'internal', [guest.id]);
    await write({
      kind: 'mentioned',
      projectId,
      number: 3,
      to: [guest.id],
      by: byOwner(),
      commentId: internal,
    });
    await flush();
    expect(await mailCount(stack.url, guest.email)).toBe(before);
    const open = await comment(3, 'Thanks for the report', 'public', [guest.id]);
    await write({ kind: 'mentioned', projectId, number: 3, to: [guest.id], by: byOwner(), commentId: open });
    await flush();
    expect(await mailCount(stack.url, guest.email)).toBe(before + 1);
    const mail = await latestMail(stack.url, guest.email);
    expect(mail?.text).toContain('Thanks for the report');
    expect(`${mail?.text}${mail?.html}`).not.toContain('fraud');
  });

  it('mails comments on my issues when asked, a new issue to instant members, and tells a comment once when it also mentions me', async () => {
    const watcher = await person(stack.url);
    await addToTeam(owner.id, watcher.id, 'MEMBER');
    await watcher.client.call('PUT', settingsPath, { ...defaultNotificationSettings, newIssue: 'instant' });
    const before = await mailCount(stack.url, watcher.email);
    const id = await comment(1, 'Fixed on staging', 'internal', [watcher.id]);
    await write(
      { kind: 'new', projectId, number: 3 },
      {
        kind: 'comment',
        projectId,
        number: 1,
        assignee: watcher.id,
        by: byOwner(),
        commentId: id,
        visibility: 'internal',
      },
      { kind: 'mentioned', projectId, number: 1, to: [watcher.id], by: byOwner(), commentId: id },
    );
    await flush();
    expect(await mailCount(stack.url, watcher.email)).toBe(before + 1);
    const mail = await latestMail(stack.url, watcher.email);
    expect(mail?.subject).toBe('2 notifications from Snag');
    expect(mail?.text).toContain('New issue #3 “Checkout breaks 3”');
    expect(mail?.text).toContain('Ada Lovelace mentioned you on #1 “Checkout breaks 1” (internal)');
    expect(mail?.text).not.toContain('commented on');
    // The member with the default (newIssue off) got nothing for the new issue.
    expect((await latestMail(stack.url, member.email))?.text).not.toContain('New issue #3');
  });

  it('is safe against two concurrent runs (each entry mailed once) and takes again what a dead run claimed', async () => {
    const busy = await person(stack.url);
    await addToTeam(owner.id, busy.id, 'MEMBER');
    const before = await mailCount(stack.url, busy.email);
    await write(
      ...Array.from({ length: 30 }, () => ({
        kind: 'assigned' as const,
        projectId,
        number: 1,
        to: busy.id,
        by: byOwner(),
      })),
    );
    const [a, b] = await Promise.all([flush(), flush()]);
    expect(a.entries + b.entries).toBe(30);
    // Each entry is mailed exactly once: usually one run holds them all (one mail); when the claims' race
    // split them, each run mails its own share (two mails, together the 30, none twice).
    const sent = a.mails + b.mails;
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThanOrEqual(2);
    expect(await mailCount(stack.url, busy.email)).toBe(before + sent);
    const res = await fetch(`${stack.url}/api/dev/emails?to=${encodeURIComponent(busy.email)}`);
    const mails = ((await res.json()) as { msg: { subject: string }[] }).msg.slice(0, sent);
    const listed = mails.map((m) => Number(/^(\d+) notifications/.exec(m.subject)?.[1] ?? 1));
    expect(listed.reduce((x, y) => x + y, 0)).toBe(30);

    // A run that died after claiming: its claim lapsed, so the next run sends; a live claim is left alone.
    const put = notifyPut({ kind: 'assigned', projectId, number: 2, to: busy.id, by: byOwner() }).Put;
    await db().send(
      new PutCommand({ ...put, Item: { ...put.Item, claim: 'dead', claimUntil: Date.now() - 1 } }),
    );
    const live = notifyPut({ kind: 'assigned', projectId, number: 3, to: busy.id, by: byOwner() }).Put;
    await db().send(
      new PutCommand({ ...live, Item: { ...live.Item, claim: 'alive', claimUntil: Date.now() + 60_000 } }),
    );
    expect(await flush()).toMatchObject({ entries: 1, mails: 1 });
    expect(await mailCount(stack.url, busy.email)).toBe(before + sent + 1);
    expect((await latestMail(stack.url, busy.email))?.subject).toContain('#2 assigned to you');
    expect(await outbox()).toEqual([live.Item.sk]);
    await db().send(new PutCommand({ ...live, Item: { ...live.Item, claimUntil: Date.now() - 1 } }));
    await flush();
    expect(await outbox()).toEqual([]);
  });
});

describe('with the producers (triage and comments)', () => {
  it('a bulk assignment of every issue is one mail; a comment on the issue mails its assignee', async () => {
    const worker = await person(stack.url);
    await addToTeam(owner.id, worker.id, 'MEMBER');
    const before = await mailCount(stack.url, worker.email);
    const bulk = await owner.client.patch(`/api/client/website/${projectId}/requests`, {
      tickets: [1, 2, 3],
      set: { assignee: worker.id },
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    await flush();
    expect(await mailCount(stack.url, worker.email)).toBe(before + 1);
    const mail = await latestMail(stack.url, worker.email);
    expect(mail?.subject).toBe('3 notifications from Snag');
    for (const n of [1, 2, 3]) expect(mail?.text).toContain(`assigned #${n} “Checkout breaks ${n}” to you`);

    const posted = await owner.client.post(`/api/client/website/${projectId}/request/2/comments`, {
      body: 'Reproduced on Safari',
      visibility: 'public',
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    await flush();
    expect(await mailCount(stack.url, worker.email)).toBe(before + 2);
    const comment = await latestMail(stack.url, worker.email);
    expect(comment?.subject).toBe('[Shop <b>&</b>] New comment on #2: Checkout breaks 2');
    expect(comment?.text).toContain('> Reproduced on Safari');
  });
});

describe('the daily digest', () => {
  it("collects a 'daily' member's new issues per day and sends the days before today in one mail", async () => {
    const reader = await person(stack.url);
    await addToTeam(owner.id, reader.id, 'MEMBER');
    await reader.client.call('PUT', settingsPath, { ...defaultNotificationSettings, newIssue: 'daily' });
    const before = await mailCount(stack.url, reader.email);
    // Two issues reported yesterday (entries of yesterday's time), one today.
    for (const number of [1, 2]) {
      const put = notifyPut({ kind: 'new', projectId, number }).Put;
      const id = timelineId(Date.now() - DAY);
      await db().send(new PutCommand({ ...put, Item: { ...put.Item, ...entryKey(id) } }));
    }
    await write({ kind: 'new', projectId, number: 3 });
    await flush();
    expect(await mailCount(stack.url, reader.email)).toBe(before);
    expect((await outbox()).filter((sk) => sk.startsWith(`D#${reader.id}#`))).toHaveLength(3);

    await digest();
    expect(await mailCount(stack.url, reader.email)).toBe(before + 1);
    const mail = await latestMail(stack.url, reader.email);
    expect(mail?.subject).toBe('Snag daily digest: 2 new issues');
    expect(mail?.text).toContain('New issue #1 “Checkout breaks 1”');
    expect(mail?.text).toContain('New issue #2 “Checkout breaks 2”');
    expect(mail?.text).not.toContain('#3');
    // Today's waits for tomorrow's digest; running it again sends nothing more.
    expect((await outbox()).filter((sk) => sk.startsWith(`D#${reader.id}#`))).toHaveLength(1);
    await digest();
    expect(await mailCount(stack.url, reader.email)).toBe(before + 1);
  });
});

describe('the unsubscribe link', () => {
  it('turns its kind off with a small page, and refuses a forged or altered token', async () => {
    const p = await person(stack.url);
    await addToTeam(owner.id, p.id, 'MEMBER');
    await write({ kind: 'assigned', projectId, number: 1, to: p.id, by: byOwner() });
    await flush();
    const mailed = await mailCount(stack.url, p.email);
    const link = linkIn(await latestMail(stack.url, p.email), '/api/notifications/unsubscribe');
    const token = link.searchParams.get('token') as string;
    expect(token).toBe(await unsubscribeToken(p.id, 'assigned'));

    const forged = [
      `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`,
      token.replace('.assigned.', '.mentioned.'),
      token.replace(p.id, member.id),
      'not-a-token',
      `${token}.x`,
    ];
    for (const t of forged) {
      const res = await fetch(`${stack.url}/api/notifications/unsubscribe?token=${encodeURIComponent(t)}`);
      expect(res.status, t).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('This unsubscribe link is not valid');
    }
    const tooLong = await fetch(`${stack.url}/api/notifications/unsubscribe?token=${'a'.repeat(500)}`);
    expect(tooLong.status).toBe(400);
    expect(await settingsOf(p)).toEqual({
      status: 'success',
      msg: { settings: defaultNotificationSettings },
    });
    expect(await settingsOf(member)).toMatchObject({
      msg: { settings: { mentioned: true, assigned: true } },
    });

    const res = await fetch(`${link}&lng=de`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await res.text();
    expect(page).toContain('Abgemeldet');
    expect(page).toContain('Ihnen zugewiesene Meldungen');
    expect(await settingsOf(p)).toEqual({
      status: 'success',
      msg: { settings: { ...defaultNotificationSettings, assigned: false } },
    });
    // Idempotent, and the next assignment is not mailed.
    expect((await fetch(link)).status).toBe(200);
    await write({ kind: 'assigned', projectId, number: 2, to: p.id, by: byOwner() });
    await flush();
    expect(await mailCount(stack.url, p.email)).toBe(mailed);
  });

  it('is rate-limited per source: 30 an hour, then RATE_LIMITED', async () => {
    const source = { 'cloudfront-viewer-address': `10.200.${Math.floor(Math.random() * 250)}.7:40000` };
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await fetch(`${stack.url}/api/notifications/unsubscribe?token=forged.assigned.x`, {
        headers: source,
      });
      statuses.push(res.status);
      if (i === 30) expect(await res.json()).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
      else await res.text();
    }
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
