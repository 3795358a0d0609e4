/**
 * Insights' cost (issue 37, DESIGN.md section 7: "the same requests at 100 and at 100,000 issues"): a
 * project of 100 issues and one of BENCH_ISSUES (100,000 by default) in DynamoDB Local, each read through
 * the local stack's `GET …/insights?period=90`: DynamoDB requests and consumed read capacity (DynamoDB
 * Local's ReturnConsumedCapacity), median latency.
 *
 * What is seeded, and how: the issues themselves by `bulkSeedIssues` (headers in the open list, STATS,
 * BLOCK, META's counters, the initial facets), so the oldest-open Query and META are real; the six facet
 * counters Insights reads (in progress, in review, four priorities) analytically, one count per block of
 * 1,024 numbers as triage would leave them; and the 90 day items identically for both projects, each at its
 * worst case (50 named pages, every family, 20 resolve buckets), since the counters' size depends on the
 * days and the cap, never on the number of issues.
 */
import { pathToFileURL } from 'node:url';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { browserFamilies, deviceFamilies, insightsLimits, systemFamilies } from '#contracts/insights';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { insightsDayKey, periodDays } from '../../functions/issues/insights';
import { fstatsKey, priorityFacet, statusFacet } from '../../functions/issues/rank-index';
import { bulkSeedIssues } from '../support/issues';
import { startTestStack } from '../support/local-stack';
import { cheapCostsEnv, signedIn } from '../support/users';
import { startMeter } from './aws-meter';

export interface InsightsRow {
  issues: number;
  requests: number;
  readUnits: number;
  medianMs: number;
}

/** A day item at its largest: every family, the page cap reached, 20 resolve buckets. */
function worstDay(pid: string, day: string) {
  const item: Record<string, unknown> = {
    ...insightsDayKey(pid, day),
    r: 500,
    pn: insightsLimits.pagesPerDay,
  };
  for (const f of browserFamilies) item[`b_${f}`] = 70;
  for (const f of systemFamilies) item[`o_${f}`] = 70;
  for (const f of deviceFamilies) item[`d_${f}`] = 125;
  for (let i = 0; i < insightsLimits.pagesPerDay; i++) {
    const h = i.toString(16).padStart(12, '0');
    item[`p_${h}`] = 9;
    item[`pl_${h}`] = `shop.example/a-rather-long-section-name-${i}/products/:id/reviews/:n`;
  }
  item.p_other = 50;
  for (let k = 10; k < 30; k++) item[`t_${k}`] = 3;
  return item;
}

async function seedCounters(pid: string, issues: number) {
  const T = tableName();
  const blocks = Math.ceil(issues / 1024);
  const counts = Object.fromEntries(
    Array.from({ length: blocks }, (_, b) => [String(b).padStart(6, '0'), Math.min(100, issues)]),
  );
  const facets = [
    statusFacet('open', 'in_progress'),
    statusFacet('open', 'in_review'),
    ...(['low', 'medium', 'high', 'urgent'] as const).map((p) => priorityFacet('open', p)),
  ];
  for (const facet of facets)
    await db().send(new PutCommand({ TableName: T, Item: { ...fstatsKey(pid, facet), ...counts } }));
  for (const day of periodDays(90))
    await db().send(new PutCommand({ TableName: T, Item: worstDay(pid, day) }));
}

export async function insightsBench(big = Number(process.env.BENCH_ISSUES ?? 100_000), runs = 7) {
  Object.assign(process.env, cheapCostsEnv);
  const stack = await startTestStack();
  try {
    const { client, email } = await signedIn(stack.url);
    // Two projects need a plan that allows two: the same team's Business plan, granted locally.
    await client.post('/api/dev/plan', { username: email, plan: 'BUSINESS_PLAN', days: 30 });
    const out: InsightsRow[] = [];
    for (const issues of [100, big]) {
      const created = await client.post('/api/client/website', { name: `P${issues}`, url: 'shop.example' });
      const id = (created.body as { msg: { id: string } }).msg.id;
      if (!id) throw new Error(`project not created: ${JSON.stringify(created.body)}`);
      await bulkSeedIssues(id, issues, { withDetail: () => false });
      await seedCounters(id, issues);
      const meter = await startMeter();
      const times: number[] = [];
      let requests = 0;
      let readUnits = 0;
      try {
        for (let i = 0; i < runs; i++) {
          meter.take();
          const t = performance.now();
          const res = await client.get(`/api/client/website/${id}/insights?period=90`);
          times.push(performance.now() - t);
          if (res.status !== 200) throw new Error(`insights answered ${res.status}`);
          const tally = Object.entries(meter.take()).filter(([k]) => k.startsWith('dynamodb:'));
          requests = tally.reduce((s, [, v]) => s + v.count, 0);
          readUnits = tally.reduce((s, [, v]) => s + v.readUnits, 0);
        }
      } finally {
        meter.stop();
      }
      times.sort((a, b) => a - b);
      out.push({
        issues,
        requests,
        readUnits,
        medianMs: Math.round(times[Math.floor(times.length / 2)] ?? 0),
      });
    }
    return out;
  } finally {
    await stack.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await insightsBench());
}
