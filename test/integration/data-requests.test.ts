/**
 * Requests about a person's data (docs/privacy.md "Requests about a person's data") through the local
 * stack: an OWNER or ADMIN finds what a visitor sent to the team's projects by the address they left,
 * exports it as a ZIP (JSON plus the files) behind a signed link, and erases it (files deleted, the
 * address, the description, the title and the visitor's replies "erased"); another team's issue from the
 * same address and another visitor's issue stay whole; MEMBER and GUEST are refused, an outsider finds
 * nothing; each request leaves an audit entry naming the address only by its hash.
 */
import { createHash } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import {
  DATA_EXPORT_BATCH,
  DATA_EXPORT_MAX_BYTES,
  type DataExportStatus,
  type DataRequestIssue,
} from '#contracts/data-requests';
import { db } from '#runtime/aws/dynamo';
import { s3 } from '#runtime/aws/s3';
import { batchDelete, getItems, tableName } from '#runtime/db';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { exportStep } from '../../functions/issues/data-requests';
import { auditPartition } from '../../functions/teams/audit';
import { teamKey } from '../../functions/teams/team';
import type { ApiClient } from '../support/api-client';
import { join, person } from '../support/members-teams';
import { png } from '../support/png';
import { newSite } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { fileReport } from '../support/widget';

const stack = setUpTestStack();
const ORIGIN = 'https://shop.example';

const msgOf = <T>(res: { status: number; body: unknown }): T => {
  const b = res.body as { status: string; msg: T };
  if (b.status !== 'success') throw new Error(`refused: ${res.status} ${JSON.stringify(b)}`);
  return b.msg;
};

const objects = async (pid: string) =>
  (
    (await (await s3()).send(new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: `p/${pid}/` })))
      .Contents ?? []
  ).map((o) => o.Key ?? '');

/** A report with a screenshot, its page snapshot and a file, from `username`. */
const reportFrom = (pid: string, username: string, msg: string) =>
  fileReport(stack.url, pid, ORIGIN, {
    fields: { msg, username },
    screenshots: [{ type: 'image/png', content: png(40, 30, [200, 10, 10]), snapshot: `<p>${msg}</p>` }],
    files: [{ name: 'notes.txt', type: 'text/plain', content: new TextEncoder().encode(`${msg} notes`) }],
  });

async function mailsTo(email: string): Promise<{ text: string }[]> {
  const res = await fetch(new URL(`/api/dev/emails?to=${encodeURIComponent(email)}`, stack.url));
  return ((await res.json()) as { msg: { text: string }[] }).msg;
}

const privacy = (tid: string, what: string) => `/api/client/team/${tid}/privacy/${what}`;
const lookup = async (client: ApiClient, tid: string, email: string) =>
  msgOf<{ issues: DataRequestIssue[] }>(await client.post(privacy(tid, 'lookup'), { email })).issues;

async function issueOf(client: ApiClient, pid: string, n: number) {
  return msgOf<Record<string, unknown>>(await client.get(`/api/client/website/${pid}/request/${n}`));
}

/** Polls an export as the screen does until it is no longer running (the consumer runs it on the queue). */
async function exportFinished(client: ApiClient, tid: string, id: string): Promise<DataExportStatus> {
  const until = Date.now() + 60_000;
  for (;;) {
    const status = msgOf<DataExportStatus>(await client.get(privacy(tid, `export/${id}`)));
    if (status.state !== 'running' || Date.now() > until) return status;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('a request about a person’s data', () => {
  it('lets an ADMIN ask, refuses a MEMBER and a GUEST, and hides the team and its jobs from an outsider', async () => {
    const owner = await newSite(stack.url, 'BUSINESS_PLAN');
    const tid = (await findUserIdByEmail(owner.email)) as string;
    const p1 = owner.id;
    const visitor = `roles-${Date.now()}@mail.example`;
    await fileReport(stack.url, p1, ORIGIN, { fields: { msg: 'Roles', username: visitor } });
    // A MEMBER and a GUEST are refused, an outsider finds no team at all.
    const member = await join(stack.url, owner.client, tid, 'MEMBER');
    const guest = await join(stack.url, owner.client, tid, 'GUEST', [p1]);
    const admin = await join(stack.url, owner.client, tid, 'ADMIN');
    const stranger = await person(stack.url);
    for (const [who, status] of [
      [member, 403],
      [guest, 403],
      [stranger, 404],
    ] as const) {
      expect((await who.client.post(privacy(tid, 'lookup'), { email: visitor })).status).toBe(status);
      expect((await who.client.post(privacy(tid, 'export'), { email: visitor })).status).toBe(status);
      expect(
        (await who.client.post(privacy(tid, 'erase'), { email: visitor, confirm: visitor })).status,
      ).toBe(status);
    }
    expect((await lookup(admin.client, tid, visitor)).map((i) => i.projectId)).toEqual([p1]);
    const { id } = msgOf<{ id: string }>(await admin.client.post(privacy(tid, 'export'), { email: visitor }));
    expect((await stranger.client.get(privacy(tid, `export/${id}`))).status).toBe(404);
    expect((await member.client.get(privacy(tid, `export/${id}`))).status).toBe(403);
    expect((await exportFinished(admin.client, tid, id)).state).toBe('done');
  });

  it('finds, exports and erases a visitor’s issues across two projects, and nothing of anyone else', async () => {
    const owner = await newSite(stack.url, 'BUSINESS_PLAN');
    const tid = (await findUserIdByEmail(owner.email)) as string;
    const p1 = owner.id;
    const created = await owner.client.post<{ id: string }>('/api/client/website', {
      name: 'Blog',
      url: 'shop.example',
    });
    const p2 = (created.body as { msg: { id: string } }).msg.id;
    const visitor = `ada-${Date.now()}@mail.example`;
    const bystander = `bob-${Date.now()}@mail.example`;

    // Status mails on in the first project only, so the one status page the visitor gets is n1's.
    msgOf(await owner.client.patch(`/api/client/website/${p1}`, { data: { reporterUpdates: true } }));
    msgOf(await owner.client.patch(`/api/client/website/${p2}`, { data: { reporterUpdates: false } }));
    const n1 = await reportFrom(p1, visitor, 'Checkout fails for Grace Hopper');
    const n2 = await reportFrom(p2, visitor, 'Blog comments vanish');
    const nb = await reportFrom(p1, bystander, 'Bob’s own report');

    msgOf(
      await owner.client.post(`/api/client/website/${p1}/request/${n1}/comments`, {
        body: 'We are on it',
        visibility: 'public',
      }),
    );
    await stack.runSchedule('notifications');
    const link = (await mailsTo(visitor))
      .map((m) => m.text.match(/\/r\/([A-Za-z0-9_-]{22})\b/)?.[1])
      .find(Boolean);
    expect(link, 'the status page link in the confirmation').toBeTruthy();
    const replied = await fetch(new URL(`/api/reporter/${link}/reply`, stack.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cloudfront-viewer-address': '10.9.9.9:1000' },
      body: JSON.stringify({ body: 'Still broken, my card ends 4242' }),
    });
    expect(replied.status).toBe(200);
    // Another team, the same address: not this team's to answer for (filed after the flush, so the one
    // status page the visitor was mailed is n1's).
    const other = await newSite(stack.url, 'BUSINESS_PLAN');
    const otherTid = (await findUserIdByEmail(other.email)) as string;
    const no = await reportFrom(other.id, visitor, 'Ada at another shop');

    // Bad input is a 4xx with a code, never a 500.
    expect((await owner.client.post(privacy(tid, 'lookup'), { email: 'not an address' })).status).toBe(400);
    // A malformed job id is no job: 404, as an unknown one.
    expect((await owner.client.get(privacy(tid, 'export/zzz'))).status).toBe(404);
    const unknown = await owner.client.get(privacy(tid, `export/${'0'.repeat(32)}`));
    expect([unknown.status, (unknown.body as { code: string }).code]).toEqual([404, 'DATA_EXPORT_NOT_FOUND']);

    // Find: both projects, the counts, the address in any case; the bystander's issue is not listed.
    const found = await lookup(owner.client, tid, visitor.toUpperCase());
    expect(found.map((i) => [i.projectId, i.number]).sort()).toEqual(
      [
        [p1, n1],
        [p2, n2],
      ].sort(),
    );
    expect(found.find((i) => i.projectId === p1)).toMatchObject({
      projectName: 'Shop',
      title: 'Checkout fails for Grace Hopper',
      comments: 1,
      replies: 1,
    });

    // An issue filed before the index existed (its entry and the project's marker gone, as before the
    // deploy): the next request adds it back, once.
    const hash = createHash('sha256').update(visitor).digest('hex');
    await batchDelete([
      { pk: `PRIVACY#${tid}#${hash}`, sk: `${p2}#${String(n2).padStart(10, '0')}` },
      { pk: `PROJECT#${p2}`, sk: 'PRIVACYINDEX' },
    ]);
    expect((await lookup(owner.client, tid, visitor)).map((i) => i.projectId).sort()).toEqual(
      [p1, p2].sort(),
    );
    expect((await getItems([{ pk: `PROJECT#${p2}`, sk: 'PRIVACYINDEX' }]))[0]).toBeTruthy();

    // Export: a job, its progress, then a signed link to a ZIP with the JSON and every file.
    const started = await owner.client.post<{ id: string }>(privacy(tid, 'export'), { email: visitor });
    expect(started.status).toBe(202);
    const { id } = msgOf<{ id: string }>(started);
    // The request answers at once; the privacy queue's consumer writes the ZIP, the screen polls.
    const status = await exportFinished(owner.client, tid, id);
    expect(status).toMatchObject({ state: 'done', done: 2, total: 2 });
    expect(status.url).toMatch(/X-Amz-Expires=300/);
    const zipRes = await fetch(status.url as string);
    expect(zipRes.status).toBe(200);
    const zip = await JSZip.loadAsync(await zipRes.arrayBuffer());
    const data = JSON.parse(await (zip.file('data.json') as JSZip.JSZipObject).async('string'));
    expect(data.issues).toHaveLength(2);
    const first = data.issues.find((i: { number: number; project: { id: string } }) => i.project.id === p1);
    expect(first.description).toBe('Checkout fails for Grace Hopper');
    expect(first.replies.map((r: { body: string }) => r.body)).toEqual(['Still broken, my card ends 4242']);
    expect(first.comments.map((r: { body: string }) => r.body)).toEqual(['We are on it']);
    // A screenshot, its snapshot and the file per issue, each in the archive.
    const files = Object.keys(zip.files).filter((f) => f.startsWith('files/') && !zip.files[f]?.dir);
    expect(files.length).toBeGreaterThanOrEqual(6);
    expect(
      await (zip.file(first.files.find((f: string) => f.endsWith('.txt'))) as JSZip.JSZipObject).async(
        'string',
      ),
    ).toBe('Checkout fails for Grace Hopper notes');

    // Copies of the visitor's words: a team comment quoting their reply and naming them, an activity entry
    // quoting their title, a digest mail still waiting with their reply's excerpt, a status mail owed to them.
    msgOf(
      await owner.client.post(`/api/client/website/${p1}/request/${n1}/comments`, {
        body: `> Still broken, my card ends 4242\nThanks ${visitor.toUpperCase()}, we will refund.`,
        visibility: 'internal',
      }),
    );
    const replyId = msgOf<{ entries: { id: string; body: string }[] }>(
      await owner.client.get(`/api/client/website/${p1}/request/${n1}/comments`),
    ).entries.find((c) => c.body.startsWith('Still broken'))?.id;
    expect(replyId).toBeTruthy();
    const n10 = (n: number) => String(n).padStart(10, '0');
    const activityKey = { pk: `PROJECT#${p1}`, sk: `ISSUE#${n10(n1)}#T#${'0'.repeat(9)}zzzzzzzzzzz` };
    const digest = (pid: string, n: number, title: string) => ({
      pk: 'NOTIFY',
      sk: `D#u-${pid}-${n}#2026-11-29#${'1'.repeat(20)}`,
      recipient: { email: 'admin@shop.example', firstName: 'Admin', lang: 'en' },
      event: {
        kind: 'comment',
        projectId: pid,
        number: n,
        title,
        excerpt: 'Still broken, my card ends 4242',
        commentId: replyId,
        at: 1,
      },
    });
    for (const Item of [
      {
        ...activityKey,
        kind: 'activity',
        id: `${'0'.repeat(9)}zzzzzzzzzzz`,
        number: n1,
        type: 'delivery.failed',
        actor: { kind: 'system', name: 'Snag' },
        at: '2026-11-29T00:00:00.000Z',
        integration: 'jira',
        reason: 'Jira refused “Checkout fails for Grace Hopper”',
      },
      digest(p1, n1, 'Checkout fails for Grace Hopper'),
      digest(p1, nb, 'Bob’s own report'),
      { pk: 'REPORTER_OUTBOX', sk: `${p1}#${n10(n1)}`, projectId: p1, number: n1, due: 1, status: true },
    ])
      await db().send(new PutCommand({ TableName: tableName(), Item }));

    // Erase: a mistyped confirmation erases nothing.
    const mistyped = await owner.client.post(privacy(tid, 'erase'), { email: visitor, confirm: bystander });
    expect(mistyped.status).toBe(400);
    expect((mistyped.body as { code: string }).code).toBe('ERASE_CONFIRM_MISMATCH');
    expect(await lookup(owner.client, tid, visitor)).toHaveLength(2);

    const storage = async () => Number((await getItems([teamKey(tid)]))[0]?.storageBytes ?? 0);
    const storedBefore = await storage();
    const before1 = await objects(p1);
    const before2 = await objects(p2);
    const erased = msgOf<{ erased: number }>(
      await owner.client.post(privacy(tid, 'erase'), { email: visitor, confirm: visitor.toUpperCase() }),
    );
    expect(erased.erased).toBe(2);
    // Files gone: p2 held only Ada's; p1 keeps exactly Bob's.
    expect(await objects(p2)).toEqual([]);
    expect(before2.length).toBeGreaterThanOrEqual(3);
    const after1 = await objects(p1);
    expect(after1.length).toBeGreaterThan(0);
    expect(after1.length).toBeLessThan(before1.length);
    expect(after1.every((k) => before1.includes(k))).toBe(true);
    // The bytes of the deleted files are the team's quota again; Bob's still count.
    const storedAfter = await storage();
    expect(storedAfter).toBeLessThan(storedBefore);
    expect(storedAfter).toBeGreaterThan(0);

    const detail = JSON.stringify(await issueOf(owner.client, p1, n1));
    expect(detail).not.toContain(visitor);
    expect(detail).not.toContain('Grace Hopper');
    expect(detail).toContain('"msg":"erased"');
    // The team's own comment stays; the visitor's reply reads "erased".
    const thread = msgOf<{ entries: { body: string }[] }>(
      await owner.client.get(`/api/client/website/${p1}/request/${n1}/comments`),
    );
    expect(thread.entries.map((c) => c.body)).toEqual([
      'We are on it',
      'erased',
      '> erased\nThanks erased, we will refund.',
    ]);
    // The copies: the activity's reason, the waiting digest (Bob's stays), the owed status mail gone.
    const [act, mine, bobs, owed] = await getItems([
      activityKey,
      { pk: 'NOTIFY', sk: digest(p1, n1, '').sk },
      { pk: 'NOTIFY', sk: digest(p1, nb, '').sk },
      { pk: 'REPORTER_OUTBOX', sk: `${p1}#${n10(n1)}` },
    ]);
    expect(act?.reason).toBe('Jira refused “erased”');
    expect(mine?.event).toMatchObject({ title: 'erased', excerpt: 'erased' });
    expect(bobs?.event).toMatchObject({ title: 'Bob’s own report' });
    expect(owed).toBeUndefined();
    expect(JSON.stringify(await issueOf(owner.client, p2, n2))).not.toContain('Blog comments vanish');
    expect(await lookup(owner.client, tid, visitor)).toEqual([]);

    // Bob's issue and the other team's issue from the same address are whole.
    const bob = JSON.stringify(await issueOf(owner.client, p1, nb));
    expect(bob).toContain(bystander);
    expect(bob).toContain('Bob’s own report');
    const elsewhere = await lookup(other.client, otherTid, visitor);
    expect(elsewhere.map((i) => i.number)).toEqual([no]);
    expect(JSON.stringify(await issueOf(other.client, other.id, no))).toContain(visitor);
    expect((await objects(other.id)).length).toBeGreaterThanOrEqual(3);

    // The audit log: both requests, by whom, the address only as its hash.
    const log = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': auditPartition(tid) },
        ConsistentRead: true,
      }),
    );
    const entries = (log.Items ?? []).filter((e) => String(e.kind).startsWith('privacy.'));
    expect(entries.map((e) => [e.kind, e.detail])).toEqual([
      ['privacy.export', { emailHash: hash, issues: 2 }],
      ['privacy.erase', { emailHash: hash, issues: 2 }],
    ]);
    expect(entries.every((e) => (e.actor as { kind: string }).kind === 'member')).toBe(true);
    expect(JSON.stringify(log.Items)).not.toContain(visitor);
    const otherLog = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': auditPartition(otherTid) },
        ConsistentRead: true,
      }),
    );
    expect((otherLog.Items ?? []).filter((e) => String(e.kind).startsWith('privacy.'))).toEqual([]);
  });
});

describe('an export of many issues', () => {
  it('runs in batches that a crash or a second delivery repeats without a duplicate or a loss, and stops at its cap', async () => {
    const owner = await newSite(stack.url, 'BUSINESS_PLAN');
    const tid = (await findUserIdByEmail(owner.email)) as string;
    const visitor = `many-${Date.now()}@mail.example`;
    const count = DATA_EXPORT_BATCH + 2;
    const numbers: number[] = [await reportFrom(owner.id, visitor, 'The one with files')];
    for (let i = 1; i < count; i++) {
      numbers.push(
        await fileReport(stack.url, owner.id, ORIGIN, { fields: { msg: `Report ${i}`, username: visitor } }),
      );
    }
    const issues = (await lookup(owner.client, tid, visitor)).map((i) => ({
      projectId: i.projectId,
      projectName: i.projectName,
      number: i.number,
    }));
    expect(issues).toHaveLength(count);
    // A job as the request writes it, run step by step here instead of by the queue's consumer.
    const job = async (id: string, list: typeof issues, bytes = 0) =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            pk: `PRIVACYJOB#${tid}`,
            sk: id,
            state: 'running',
            done: 0,
            total: list.length,
            bytes,
            issues: list,
            email: visitor,
            at: Date.now(),
          },
        }),
      );
    const id = 'a'.repeat(32);
    await job(id, issues);
    expect(await exportStep(tid, id)).toBe('next');
    // The second batch dies after writing its last part, before the progress moved: nothing counted.
    await expect(
      exportStep(tid, id, {
        afterPart: (i) => {
          if (i === count - 1) throw new Error('crash');
        },
      }),
    ).rejects.toThrow('crash');
    expect(msgOf<DataExportStatus>(await owner.client.get(privacy(tid, `export/${id}`)))).toMatchObject({
      state: 'running',
      done: DATA_EXPORT_BATCH,
      total: count,
    });
    // The message comes back, and is delivered twice at once: one delivery moves on, the other stops.
    expect((await Promise.all([exportStep(tid, id), exportStep(tid, id)])).sort()).toEqual([
      'next',
      'stopped',
    ]);
    expect(await exportStep(tid, id)).toBe('stopped');
    const status = msgOf<DataExportStatus>(await owner.client.get(privacy(tid, `export/${id}`)));
    expect(status).toMatchObject({ state: 'done', done: count, total: count });
    const zip = await JSZip.loadAsync(await (await fetch(status.url as string)).arrayBuffer());
    const data = JSON.parse(await (zip.file('data.json') as JSZip.JSZipObject).async('string'));
    // Every issue exactly once, in the job's order; the first one's files in the archive.
    expect(data.issues.map((i: { number: number }) => i.number)).toEqual(issues.map((i) => i.number));
    expect(data.issues[0].files.length).toBeGreaterThanOrEqual(3);
    for (const f of data.issues[0].files) expect(zip.file(f), f).toBeTruthy();
    // The batch parts are gone once the ZIP is written; only the ZIP stays under the job's prefix.
    const left = await (await s3()).send(
      new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: `x/privacy/${tid}/${id}` }),
    );
    expect((left.Contents ?? []).map((o) => o.Key)).toEqual([`x/privacy/${tid}/${id}.zip`]);

    // Past the cap of files' bytes: the job fails with the reason the screen shows, its parts deleted.
    const big = 'b'.repeat(32);
    await job(big, issues.slice(0, 1), DATA_EXPORT_MAX_BYTES);
    expect(await exportStep(tid, big)).toBe('stopped');
    expect(msgOf<DataExportStatus>(await owner.client.get(privacy(tid, `export/${big}`)))).toMatchObject({
      state: 'failed',
      reason: 'too_large',
    });
    const parts = await (await s3()).send(
      new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: `x/privacy/${tid}/${big}` }),
    );
    expect(parts.Contents ?? []).toEqual([]);
  });
});

describe('a member who leaves or is removed', () => {
  it('has their comments signed “former member”, without their name or id; the others’ stay', async () => {
    const owner = await newSite(stack.url, 'BUSINESS_PLAN');
    const tid = (await findUserIdByEmail(owner.email)) as string;
    const n = await fileReport(stack.url, owner.id, ORIGIN, { fields: { msg: 'Cart empties itself' } });
    const member = await join(stack.url, owner.client, tid, 'MEMBER');
    const leaver = await join(stack.url, owner.client, tid, 'MEMBER');
    const deleter = await join(stack.url, owner.client, tid, 'ADMIN');
    const comments = `/api/client/website/${owner.id}/request/${n}/comments`;
    for (const [who, body] of [
      [member, 'I can reproduce it'],
      [leaver, 'Fixed in the next release'],
      [owner, 'Thanks both'],
      [deleter, 'Closing after the release'],
    ] as const)
      msgOf(await who.client.post(comments, { body, visibility: 'public' }));
    const authors = async () =>
      msgOf<{ entries: { body: string; author: { kind: string; id?: string; name: string } }[] }>(
        await owner.client.get(comments),
      ).entries.map((c) => [c.body, c.author]);
    const before = await authors();
    expect(JSON.stringify(before)).toContain(leaver.id);

    // While a member, a request about their address finds no reported issue, says they are a member, and
    // its export holds the comments they wrote (run by the queue's consumer), nobody else's.
    const privacyOf = (w: string) => `/api/client/team/${tid}/privacy/${w}`;
    expect(msgOf(await owner.client.post(privacyOf('lookup'), { email: leaver.email }))).toEqual({
      issues: [],
      member: true,
    });
    expect(
      msgOf<{ member: boolean }>(
        await owner.client.post(privacyOf('lookup'), { email: 'nobody@mail.example' }),
      ).member,
    ).toBe(false);
    const started = msgOf<{ id: string }>(
      await owner.client.post(privacyOf('export'), { email: leaver.email }),
    );
    const done = await exportFinished(owner.client, tid, started.id);
    expect(done.state).toBe('done');
    const zip = await JSZip.loadAsync(await (await fetch(done.url as string)).arrayBuffer());
    const data = JSON.parse(await (zip.file('data.json') as JSZip.JSZipObject).async('string'));
    expect(data.issues).toEqual([]);
    expect(data.member.comments.map((c: { body: string; number: number }) => [c.body, c.number])).toEqual([
      ['Fixed in the next release', n],
    ]);

    // Removed by the owner; the job runs on the privacy queue: poll as a reader would.
    expect((await owner.client.delete(`/api/client/team/${tid}/members/${leaver.id}`)).status).toBe(200);
    let after = before;
    for (let i = 0; i < 120 && JSON.stringify(after).includes(leaver.id); i++) {
      await new Promise((r) => setTimeout(r, 250));
      after = await authors();
    }
    expect(after).toEqual([
      before[0],
      ['Fixed in the next release', { kind: 'member', name: 'former member' }],
      before[2],
      before[3],
    ]);
    // Leaving on one's own: the same.
    expect((await member.client.delete(`/api/client/team/${tid}/members/${member.id}`)).status).toBe(200);
    for (let i = 0; i < 120 && JSON.stringify(after).includes(member.id); i++) {
      await new Promise((r) => setTimeout(r, 250));
      after = await authors();
    }
    expect(after[0]).toEqual(['I can reproduce it', { kind: 'member', name: 'former member' }]);
    expect(after[2]).toEqual(before[2]);
    // Deleting one's account leaves every team: the same.
    expect((await deleter.client.delete('/api/client/profile')).status).toBe(200);
    for (let i = 0; i < 120 && JSON.stringify(after).includes(deleter.id); i++) {
      await new Promise((r) => setTimeout(r, 250));
      after = await authors();
    }
    expect(after[3]).toEqual(['Closing after the release', { kind: 'member', name: 'former member' }]);
    expect(after[2]).toEqual(before[2]);
  });
});
