/**
 * The public API's issue list on a big project (issue 25): a project seeded with BENCH_ISSUES triaged issues
 * (test/support/triage-seed.ts, 100,000 by default), then cursor page 1 and page 500 of the list without a
 * filter, with one filter, and in each sort, through `GET /api/v1/projects/{id}/issues` with a bearer token:
 * DynamoDB requests and median latency through the local stack. The page size is BENCH_ISSUES / 500 (100 at
 * 100,000; at least 1); on a smaller seed a view may end before page 500, and its last page is read. Page 500 must cost what page 1 costs (docs/api.md
 * "Cost per call": the token and the rate window, then ≤ 3 of the list's own for one filter or sort).
 * Alone: `BENCH_ISSUES=3000 npx tsx test/bench/v1.ts`.
 */
import { pathToFileURL } from 'node:url';
import { encodeCursor } from '#contracts/api-v1';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { type ListBenchRow, withBusyProject } from './busy-project';

export type V1Row = ListBenchRow;

export async function v1Bench(issues = Number(process.env.BENCH_ISSUES ?? 100_000), runs = 5) {
  return withBusyProject(issues, async ({ stack, client, email, id, seed, measure }) => {
    const teamId = await findUserIdByEmail(email.toLowerCase());
    const made = await client.post(`/api/client/team/${teamId}/tokens`, {
      name: 'Bench',
      scopes: ['issues:read'],
    });
    const token = (made.body as { msg: { token: string } }).msg.token;
    const limit = Math.max(1, Math.min(100, Math.floor(issues / 500)));
    const get = async (q: string) => {
      const res = await fetch(new URL(`/api/v1/projects/${id}/issues?limit=${limit}${q}`, stack.url), {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as { msg: { issues: unknown[]; total: number } };
      if (res.status !== 200) throw new Error(`${q} answered ${res.status} ${JSON.stringify(body)}`);
      return { rows: body.msg.issues.length, total: body.msg.total };
    };
    const out: V1Row[] = [];
    const views: [string, string][] = [
      ['sort=newest', ''],
      ['sort=oldest', '&sort=oldest'],
      ['sort=priority', '&sort=priority'],
      ['sort=updated', '&sort=updated'],
      ['status=in_progress', '&status=in_progress'],
      ['label (Bug)', `&label=${seed.labels[0]}`],
    ];
    for (const [name, q] of views) {
      // On a smaller seed page 500 may be past the view's end: its last page is read then (named in the row).
      const last = Math.max(1, Math.ceil((await get(q)).total / limit));
      for (const page of [1, Math.min(500, last)]) {
        const cursor = page === 1 ? '' : `&cursor=${encodeCursor((page - 1) * limit)}`;
        const label = `${name}: page ${page}${page > 1 && page < 500 ? ' (last)' : ''} (limit ${limit})`;
        out.push(await measure(label, runs, async () => (await get(`${q}${cursor}`)).rows));
      }
    }
    return { issues, limit, rows: out };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await v1Bench();
  console.log(`v1 list on ${r.issues} triaged issues, ${r.limit} a page`);
  console.table(r.rows);
}
