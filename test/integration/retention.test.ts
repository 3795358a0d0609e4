/**
 * Retention through the local stack (docs/retention.md): a project's resolved issues past its period are
 * deleted with every object in S3 and every item and index entry (lists, counts and pages right after),
 * everything else untouched; a run stopped in the middle loses nothing and the next completes it; each run
 * records one audit entry per project and counts the metric; the issues resolved before the index existed
 * are found by the backfill; pending uploads older than a day are swept locally.
 */
import { gzipSync } from 'node:zlib';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { s3 } from '#runtime/aws/s3';
import { resetConfig } from '#runtime/config';
import { queryAll, tableName } from '#runtime/db';
import { DAY } from '#runtime/time';
import { dataIndexKey } from '../../functions/issues/data-index';
import { deleteIssue } from '../../functions/issues/delete-issue';
import { resolvedAtKey } from '../../functions/issues/issue';
import { checkRankIndex } from '../../functions/issues/rank-check';
import { outboxKey, reporterKey } from '../../functions/issues/reporter';
import { runRetention } from '../../functions/issues/retention';
import { getProject } from '../../functions/projects/project';
import { retentionEntryKey } from '../../functions/projects/retention';
import { handler as retentionSchedule } from '../../functions/schedules/retention';
import { auditPartition } from '../../functions/teams/audit';
import { teamOf } from '../../functions/teams/member';
import { teamKey } from '../../functions/teams/team';
import { seedIssues } from '../support/issues';
import { eventually } from '../support/local-stack';
import { png } from '../support/png';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { fileReport, uploadFile } from '../support/widget';

const stack = setUpTestStack();
const ORIGIN = 'https://shop.example';
const later = (days: number) => Date.now() + days * DAY;

afterEach(() => {
  vi.restoreAllMocks();
});

const setRetention = (s: Site, retentionDays: number | null) =>
  s.client.patch(`/api/client/website/${s.id}`, { data: { retentionDays } });
const close = async (s: Site, n: number) => {
  const res = await s.client.patch(`/api/client/website/${s.id}/request/${n}`, { restore: false });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

interface Page {
  requests: { number: number }[];
  total_requests: number;
}
const list = async (s: Site, resolved: boolean, page = 1) =>
  (
    (await s.client.get(`/api/client/website/${s.id}/request?resolved=${resolved ? 1 : 0}&page=${page}`))
      .body as { msg: Page }
  ).msg;

const objects = async (pid: string) =>
  (
    (await (await s3()).send(new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: `p/${pid}/` })))
      .Contents ?? []
  )
    .map((o) => o.Key ?? '')
    .sort();

const partition = (pid: string) =>
  queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': `PROJECT#${pid}` },
    ConsistentRead: true,
  });

const getItem = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

async function auditOf(pid: string) {
  const meta = await getProject(pid);
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': auditPartition(teamOf(meta as never)) },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).filter((i) => i.projectId === pid);
}

/** A report with a screenshot and its page snapshot, a file and (Business) a session replay. */
const fullReport = (s: Site, msg: string, username = '') =>
  fileReport(stack.url, s.id, ORIGIN, {
    fields: { msg, username },
    screenshots: [{ type: 'image/png', content: png(40, 30, [200, 10, 10]), snapshot: `<p>${msg}</p>` }],
    files: [{ name: 'notes.txt', type: 'text/plain', content: new TextEncoder().encode(`${msg} notes`) }],
    replay: {
      content: new Uint8Array(gzipSync(JSON.stringify([{ type: 4, timestamp: 1, data: {} }]))),
      start: Date.now() - 60_000,
      end: Date.now(),
    },
  });

/** A Business client's project made after the plan (so replay is on), with `retentionDays` set. */
async function site(retentionDays: number | null): Promise<Site> {
  const s = await newSite(stack.url, 'BUSINESS_PLAN');
  // A second project of the same client has replay on from its creation.
  const created = await s.client.post<{ id: string }>('/api/client/website', {
    name: 'Shop 2',
    url: 'shop.example',
  });
  const id = (created.body as { msg: { id: string } }).msg.id;
  const out = { ...s, id };
  if (retentionDays !== null) {
    const res = await setRetention(out, retentionDays);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(
      (res.body as { msg: { website: { data: { retentionDays: number } } } }).msg.website.data.retentionDays,
    ).toBe(retentionDays);
  }
  return out;
}

describe('the setting', () => {
  it('takes 30, 90, 180, 365 or forever (null), refuses anything else with a 4xx, and records each change in the audit log', async () => {
    const s = await newSite(stack.url);
    for (const bad of [31, 0, -30, '30', 'forever', 1e9]) {
      const res = await setRetention(s, bad as never);
      expect(res.status, String(bad)).toBe(400);
    }
    expect((await auditOf(s.id)).length).toBe(0);
    expect((await setRetention(s, 90)).status).toBe(200);
    expect((await setRetention(s, 90)).status).toBe(200); // unchanged: no second entry
    expect((await setRetention(s, null)).status).toBe(200);
    const entries = await auditOf(s.id);
    expect(entries.map((e) => [e.kind, e.detail])).toEqual([
      ['privacy.settings', { setting: 'retentionDays', from: null, to: 90 }],
      ['privacy.settings', { setting: 'retentionDays', from: 90, to: null }],
    ]);
    expect(entries[0]?.actor).toMatchObject({ kind: 'member' });
    // Back to forever: off the job's list.
    expect(await getItem(retentionEntryKey(s.id))).toBeUndefined();
    const detail = await s.client.get(`/api/client/website/${s.id}`);
    expect(
      (detail.body as { msg: { website: { data: { retentionDays: unknown } } } }).msg.website.data
        .retentionDays,
    ).toBeNull();
  });
});

describe('a run', () => {
  it('deletes the issues resolved past the period with every object and item, and leaves everything else as it was', async () => {
    const a = await site(30);
    const keep90 = await site(90);
    const forever = await site(null);

    // #1 (with a reporter and a comment), #2 resolved; #3 stays open; #4, #5 (seeded, no files) resolved.
    const n1 = await fullReport(a, 'First', 'visitor@mail.example');
    const n2 = await fullReport(a, 'Second');
    const n3 = await fullReport(a, 'Third stays open');
    await seedIssues(a.id, 2, (n) => `Seeded ${n}`);
    const comment = await a.client.post(`/api/client/website/${a.id}/request/${n1}/comments`, {
      body: 'Looked at it',
      visibility: 'public',
    });
    expect(comment.status).toBe(201);
    // The reporter's confirmation mail mints a status-page token (RTOKEN#) for #1.
    await stack.runSchedule('notifications');
    const reporter = await getItem(reporterKey(a.id, n1));
    const tokens = [...((reporter?.tokens as Set<string> | undefined) ?? [])];
    expect(tokens.length).toBe(1);
    for (const n of [n1, n2, 4, 5]) await close(a, n);

    const k90 = await fullReport(keep90, 'Resolved, 90 days');
    await close(keep90, k90);
    const kf = await fullReport(forever, 'Resolved, forever');
    await close(forever, kf);

    // Per report: the screenshot, its page snapshot, the file and the replay.
    expect((await objects(a.id)).length).toBe(3 * 4);
    const third = await getItem({
      pk: `PROJECT#${a.id}`,
      sk: `ISSUE#${String(n3).padStart(10, '0')}#DETAIL`,
    });
    const thirdBytes = Number(third?.bytes);
    const team = teamOf((await getProject(a.id)) as never);
    const teamBefore = Number((await getItem(teamKey(team)))?.storageBytes);
    const metaBefore = await getItem({ pk: `PROJECT#${a.id}`, sk: 'META' });
    // The similar consumer (issue 37) finishes each filed report's signals after the intake: the other
    // projects are compared once it is done, and project a's deletion finds every item written.
    for (const [pid, filed] of [
      [a.id, 3],
      [keep90.id, 1],
      [forever.id, 1],
    ] as const)
      await eventually(
        async () => {
          const sims = (await partition(pid)).filter((i) => String(i.sk).startsWith('SIM#'));
          return sims.length === filed && sims.every((i) => i.at) ? true : undefined;
        },
        30_000,
        `the similar consumer's runs in ${pid}`,
      );
    const others = [
      await objects(keep90.id),
      await objects(forever.id),
      await partition(keep90.id),
      await partition(forever.id),
    ];

    // #1 is indexed under its reporter's address for data requests (issues/data-requests.ts).
    const indexed = dataIndexKey(team, a.id, n1, 'visitor@mail.example')!;
    expect(await getItem(indexed)).toBeDefined();

    // 29 days on, nothing is due yet.
    expect((await runRetention({ now: later(29) })).deleted).toBe(0);

    const lines: string[] = [];
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'info';
    resetConfig();
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      return true;
    });
    let result: Awaited<ReturnType<typeof runRetention>>;
    try {
      result = await runRetention({ now: later(31) });
    } finally {
      process.env.LOG_LEVEL = level;
      resetConfig();
      vi.restoreAllMocks();
    }
    expect(result.projects.find((p) => p.projectId === a.id)?.deleted).toBe(4);
    expect(result.projects.find((p) => p.projectId === keep90.id)?.deleted).toBe(0);

    // The metric: one embedded-metric line for the project's run, with the count.
    const metrics = lines
      .filter((l) => l.includes('"IssuesExpired"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(metrics.map((m) => m.IssuesExpired)).toEqual([4]);

    // The lists, their counts and pages: only #3, open.
    expect(await list(a, true)).toMatchObject({ requests: [], total_requests: 0 });
    const open = await list(a, false);
    expect(open.total_requests).toBe(1);
    expect(open.requests.map((r) => r.number)).toEqual([n3]);
    expect(await checkRankIndex(a.id)).toEqual([]);
    for (const n of [n1, n2, 4, 5]) {
      const res = await a.client.get(`/api/client/website/${a.id}/request/${n}`);
      expect(res.status).toBe(404);
    }
    // Not one item of a deleted issue is left, anywhere.
    const left = (await partition(a.id)).map((i) => String(i.sk));
    for (const n of [n1, n2, 4, 5]) {
      const n10 = String(n).padStart(10, '0');
      expect(left.filter((sk) => sk.includes(n10))).toEqual([]);
      expect(await getItem(outboxKey(a.id, n))).toBeUndefined();
    }
    for (const hash of tokens) expect(await getItem({ pk: `RTOKEN#${hash}`, sk: 'RTOKEN' })).toBeUndefined();
    expect(await getItem(indexed)).toBeUndefined();
    // The objects of #3 alone remain; the counters give the storage back.
    const after = await objects(a.id);
    expect(after.length).toBe(4);
    for (const key of after) expect(third && JSON.stringify(third)).toContain(key.split('/').pop());
    const meta = await getItem({ pk: `PROJECT#${a.id}`, sk: 'META' });
    expect(meta?.openCount).toBe(1);
    expect(meta?.resolvedCount).toBe(0);
    expect(Number(meta?.bytes)).toBe(thirdBytes);
    expect(Number((await getItem(teamKey(team)))?.storageBytes)).toBe(
      teamBefore - (Number(metaBefore?.bytes) - thirdBytes),
    );

    // The other projects: exactly as they were.
    expect([
      await objects(keep90.id),
      await objects(forever.id),
      await partition(keep90.id),
      await partition(forever.id),
    ]).toEqual(others);

    // One audit entry for the project's run, by the system, with the count.
    const runs = (await auditOf(a.id)).filter((e) => e.kind === 'retention.run');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ actor: { kind: 'system' }, detail: { count: 4, retentionDays: 30 } });

    // A second run finds nothing more and records nothing.
    expect((await runRetention({ now: later(31) })).projects.find((p) => p.projectId === a.id)?.deleted).toBe(
      0,
    );
    expect((await auditOf(a.id)).filter((e) => e.kind === 'retention.run')).toHaveLength(1);
  });

  it('stopped after k deletions loses nothing: the lists stay consistent and the next run completes', async () => {
    const s = await site(30);
    await seedIssues(s.id, 7);
    for (let n = 1; n <= 6; n++) await close(s, n);
    let k = 0;
    await expect(
      runRetention({
        now: later(31),
        afterDelete: (pid) => {
          if (pid === s.id && ++k === 2) throw new Error('crash');
        },
      }),
    ).rejects.toThrow('crash');
    expect(await checkRankIndex(s.id)).toEqual([]);
    expect((await list(s, true)).total_requests).toBe(4);
    expect((await list(s, false)).total_requests).toBe(1);
    // What the stopped run did is in the log.
    expect((await auditOf(s.id)).filter((e) => e.kind === 'retention.run').map((e) => e.detail)).toEqual([
      { count: 2, retentionDays: 30 },
    ]);

    const rerun = await runRetention({ now: later(31) });
    expect(rerun.projects.find((p) => p.projectId === s.id)?.deleted).toBe(4);
    expect(await checkRankIndex(s.id)).toEqual([]);
    expect((await list(s, true)).total_requests).toBe(0);
    expect((await list(s, false)).requests.map((r) => r.number)).toEqual([7]);
  });

  it('a crash inside one deletion (after its transaction, before its files) is finished by the next run', async () => {
    const s = await site(30);
    const n = await fullReport(s, 'Half deleted');
    await close(s, n);
    expect((await objects(s.id)).length).toBe(4);
    // The bucket unreachable: the run fails right after the issue left the lists, its files and items still there.
    const bucket = process.env.UPLOADS_BUCKET;
    process.env.UPLOADS_BUCKET = 'no-such-bucket';
    resetConfig();
    try {
      await expect(runRetention({ now: later(31) })).rejects.toThrow();
    } finally {
      process.env.UPLOADS_BUCKET = bucket;
      resetConfig();
    }
    expect((await list(s, true)).total_requests).toBe(0);
    expect(await checkRankIndex(s.id)).toEqual([]);
    expect((await objects(s.id)).length).toBe(4);
    expect(await getItem(resolvedAtKey(s.id, n))).toMatchObject({ purging: true });

    const rerun = await runRetention({ now: later(31) });
    // Counted once, by the run that finished it; the lists' counts changed once, in the first run's transaction.
    expect(rerun.projects.find((p) => p.projectId === s.id)?.deleted).toBe(1);
    expect((await auditOf(s.id)).filter((e) => e.kind === 'retention.run').map((e) => e.detail)).toEqual([
      { count: 1, retentionDays: 30 },
    ]);
    expect(await objects(s.id)).toEqual([]);
    const n10 = String(n).padStart(10, '0');
    expect((await partition(s.id)).map((i) => String(i.sk)).filter((sk) => sk.includes(n10))).toEqual([]);
    const meta = await getItem({ pk: `PROJECT#${s.id}`, sk: 'META' });
    expect([meta?.resolvedCount, meta?.openCount, Number(meta?.bytes)]).toEqual([0, 0, 0]);
  });

  it('bounds a run and goes on in the next; deleting an issue twice is harmless', async () => {
    const s = await site(30);
    await seedIssues(s.id, 5);
    for (let n = 1; n <= 5; n++) await close(s, n);
    const first = await runRetention({ now: later(31), maxPerRun: 2 });
    expect(first.more).toBe(true);
    expect((await list(s, true)).total_requests).toBe(3);
    expect(await deleteIssue(s.id, 1)).toBe('gone');
    expect(await checkRankIndex(s.id)).toEqual([]);
    await runRetention({ now: later(31) });
    expect((await list(s, true)).total_requests).toBe(0);
    expect(await checkRankIndex(s.id)).toEqual([]);
  });

  it('keeps an issue reopened after the index read, and finds issues resolved before the index existed', async () => {
    const s = await site(30);
    await seedIssues(s.id, 2);
    await close(s, 1);
    await close(s, 2);
    // #2 as an issue resolved before retention existed: no index entry, and the project not yet backfilled.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: resolvedAtKey(s.id, 2) }));
    const entry = await getItem(retentionEntryKey(s.id));
    expect(entry?.backfilled).toBeUndefined();
    // #1 resolved at another time than the entry says: kept.
    const stale = await getItem(resolvedAtKey(s.id, 1));
    expect(await deleteIssue(s.id, 1, { resolvedAt: '2000-01-01T00:00:00.000Z' })).toBe('kept');
    expect(stale).toBeDefined();
    const run = await runRetention({ now: later(31) });
    const mine = run.projects.find((p) => p.projectId === s.id);
    expect(mine).toMatchObject({ deleted: 2, backfilled: 1 });
    expect((await getItem(retentionEntryKey(s.id)))?.backfilled).toBe(true);
    expect(await checkRankIndex(s.id)).toEqual([]);
  });
});

describe('pending uploads', () => {
  it('older than a day are swept by the local run (the bucket lifecycle in AWS), younger ones kept', async () => {
    const s = await newSite(stack.url);
    const key = await uploadFile(stack.url, s.id, 'screenshot', 'image/png', png(8, 8, [1, 2, 3]), {
      origin: ORIGIN,
      visitor: '198.18.200.1:4000',
    });
    const pending = async () =>
      (
        (
          await (
            await s3()
          ).send(new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: `pending/${s.id}/` }))
        ).Contents ?? []
      ).map((o) => o.Key);
    await retentionSchedule({ now: later(0.5) });
    expect(await pending()).toEqual([key]);
    const r = await retentionSchedule({ now: later(1.1) });
    expect(r.pendingSwept).toBeGreaterThanOrEqual(1);
    expect(await pending()).toEqual([]);
  });
});
