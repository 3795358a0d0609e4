/**
 * Triage lists on a big project (issue 23): a project seeded with BENCH_ISSUES triaged issues (100,000 by
 * default; statuses, priorities, three assignees and six labels spread as a busy team's, test/support/
 * triage-seed.ts), then page 1 and page 500 of each filter and each sort, a bulk update of 100 issues and the
 * board's first load (five status columns, page 1 each, in parallel as the board asks), each with its
 * DynamoDB requests and median latency through the local stack. Page 500 of one filter or sort must cost what
 * page 1 costs (≤ 4 requests with the session's, DESIGN.md section 7). On a smaller seed page 500 may be past
 * a facet's end: the row then reads that facet's last page (named in the row).
 * Alone: `npx tsx test/bench/triage.ts` (BENCH_ISSUES=20000 for a quicker run).
 */
import { pathToFileURL } from 'node:url';
import { limits } from '#contracts/limits';
import { checkRankIndex } from '../../functions/issues/rank-check';
import { type ListBenchRow, withBusyProject } from './busy-project';

export type TriageRow = ListBenchRow;

export async function triageBench(issues = Number(process.env.BENCH_ISSUES ?? 100_000), runs = 5) {
  return withBusyProject(issues, async (busy) => {
    const { client, id, seed, seedMs } = busy;
    // The seed is what the real writes leave (checked on small seeds: the check reads the whole partition).
    if (issues <= 5000) {
      const problems = await checkRankIndex(id);
      if (problems.length) throw new Error(`seeded index inconsistent: ${problems.slice(0, 5).join('; ')}`);
    }
    const measure = (call: string, send: () => Promise<{ status: number; body: unknown }[]>) =>
      busy.measure(call, runs, async () => {
        const answers = await send();
        for (const a of answers)
          if (a.status !== 200) throw new Error(`${call} answered ${a.status} ${JSON.stringify(a.body)}`);
        return answers.reduce(
          (s, a) => s + ((a.body as { msg: { requests?: unknown[] } }).msg.requests?.length ?? 0),
          0,
        );
      });
    const base = `/api/client/website/${id}/request`;
    const get = (q: string) => client.get(`${base}${q}`);
    const total = async (q: string) =>
      ((await get(q)).body as { msg: { total_requests: number } }).msg.total_requests;
    const out: TriageRow[] = [];
    const views: [string, string][] = [
      ['status=in_progress', '?status=in_progress'],
      ['priority=high', '?priority=high'],
      ['assignee (one of three)', `?assignee=${seed.assignees[0]}`],
      ['label (Bug)', `?label=${seed.labels[0]}`],
      ['sort=newest', ''],
      ['sort=oldest', '?sort=oldest'],
      ['sort=priority', '?sort=priority'],
      ['sort=updated', '?sort=updated'],
    ];
    for (const [name, q] of views) {
      const last = Math.max(1, Math.ceil((await total(q)) / limits.issuesPerPage));
      const p = Math.min(500, last);
      const sep = q ? '&' : '?';
      out.push(await measure(`${name}: page 1`, async () => [await get(q)]));
      out.push(
        await measure(`${name}: page ${p}${p < 500 ? ' (last)' : ''}`, async () => [
          await get(`${q}${sep}page=${p}`),
        ]),
      );
    }
    out.push(
      await measure('combination status=new&priority=high&label (window of 500)', async () => [
        await get(`?status=new&priority=high&label=${seed.labels[0]}`),
      ]),
    );
    // A bulk update of 100 issues: each atomic (its transaction with the index, activity and outbox).
    let round = 0;
    out.push(
      await measure('bulk update of 100 issues (priority)', async () => {
        const tickets = Array.from({ length: 100 }, (_, i) => 1 + ((round * 100 + i) % issues));
        round++;
        const res = await client.patch(`/api/client/website/${id}/requests`, {
          tickets,
          set: { priority: round % 2 ? 'urgent' : 'low' },
        });
        return [{ status: res.status, body: { msg: { requests: [] } } }];
      }),
    );
    out.push(
      await measure('board first load: 5 status columns, page 1 each (parallel)', () =>
        Promise.all(
          ['new', 'in_progress', 'in_review', 'resolved', 'closed'].map((s) => get(`?status=${s}`)),
        ),
      ),
    );
    return { issues, seedMs: Math.round(seedMs), rows: out };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await triageBench();
  console.log(`seeded ${r.issues} triaged issues in ${r.seedMs} ms`);
  console.table(r.rows);
}
