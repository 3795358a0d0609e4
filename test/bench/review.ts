/**
 * Issue review on a big project (issue 8): page 1, page 500 and a search of a project seeded with
 * BENCH_ISSUES issues (100,000 by default) through the data layer, and one issue's detail: DynamoDB
 * requests and median latency through the local stack, side by side. Page 500 must cost what page 1 costs.
 */
import { pathToFileURL } from 'node:url';
import { dynamo } from '#runtime/aws/dynamo';
import { bulkSeedIssues } from '../support/issues';
import { startTestStack } from '../support/local-stack';
import { cheapCostsEnv, signedIn } from '../support/users';

export interface ReviewRow {
  call: string;
  requests: number;
  medianMs: number;
  rows: number;
}

export async function reviewBench(issues = Number(process.env.BENCH_ISSUES ?? 100_000), runs = 7) {
  Object.assign(process.env, cheapCostsEnv);
  const stack = await startTestStack();
  try {
    const { client } = await signedIn(stack.url);
    const created = await client.post('/api/client/website', { name: 'Big', url: 'big.example' });
    const id = (created.body as { msg: { id: string } }).msg.id;
    const seedStart = performance.now();
    const detailOf = Math.ceil(issues / 2);
    await bulkSeedIssues(id, issues, { withDetail: (n) => n === detailOf });
    const seedMs = performance.now() - seedStart;
    let count = 0;
    dynamo().middlewareStack.add(
      (next) => async (args) => {
        count++;
        return next(args);
      },
      { step: 'initialize', name: 'reviewBenchCounter' },
    );
    const base = `/api/client/website/${id}/request`;
    const calls: [string, string][] = [
      ['page 1', base],
      ['page 500', `${base}?page=500`],
      [
        'search (newest 200)',
        `${base}?search=${encodeURIComponent(`issue ${Math.floor(issues / 100) - 1}`)}`,
      ],
      [`issue detail (#${detailOf})`, `${base}/${detailOf}`],
    ];
    const out: ReviewRow[] = [];
    for (const [call, path] of calls) {
      const times: number[] = [];
      let requests = 0;
      let rows = 0;
      for (let i = 0; i < runs; i++) {
        count = 0;
        const t = performance.now();
        const res = await client.get<{ requests?: unknown[] }>(path);
        times.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`${call} answered ${res.status}`);
        requests = count;
        rows = ((res.body as { msg: { requests?: unknown[] } }).msg.requests ?? [1]).length;
      }
      times.sort((a, b) => a - b);
      out.push({ call, requests, medianMs: Math.round(times[Math.floor(times.length / 2)] ?? 0), rows });
    }
    return { issues, seedMs: Math.round(seedMs), rows: out };
  } finally {
    await stack.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await reviewBench();
  console.log(`seeded ${r.issues} issues in ${r.seedMs} ms`);
  console.table(r.rows);
}
