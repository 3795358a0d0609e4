/**
 * Similar reports (issue 37, docs/similar.md), two figures:
 * - Quality on the labelled corpus (test/fixtures/similar/corpus.ts, 346 reports in 43 groups): every report
 *   in its order of arrival goes through the consumer's own steps (signals, index keys, the newest
 *   INDEX_DEPTH entries per key, the CANDIDATES_MAX sharing most keys, the score, the best PAIRS_MAX kept, each
 *   adding the new report to its own list up to CAND_MAX) with the index in memory, then each report's list is read as the route reads it (pairs
 *   by score, the first five). Precision of the top suggestion: of the reports that get one, the share whose
 *   first is a true duplicate. Recall of the top five: of the reports that have a duplicate in the corpus,
 *   the share whose five include one.
 * - Cost per report at 100,000 issues (`similarCost`): the real consumer (computeSimilar) against DynamoDB
 *   Local, on a project whose index keys each hold HOT_ENTRIES entries (a page, an error and a description
 *   band reported that often among 100,000 issues): DynamoDB requests, capacity and time in the consumer.
 * Alone: `npx tsx test/bench/similar.ts` (quality only: `npx tsx test/bench/similar.ts quality`).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { PNG } from 'pngjs';
import { similarLimits } from '#contracts/similar';
import { db } from '#runtime/aws/dynamo';
import { s3 } from '#runtime/aws/s3';
import { bucketName, tableName } from '#runtime/config';
import { createLogger } from '#runtime/log';
import { issueDetailKey, issueHeaderKey, n10 } from '../../functions/issues/issue';
import { storedKey } from '../../functions/issues/object-keys';
import {
  CAND_MAX,
  CANDIDATES_MAX,
  computeSimilar,
  INDEX_DEPTH,
  indexKeysOf,
  PAIRS_MAX,
  READ_DEPTH,
} from '../../functions/issues/similar';
import { type Match, scorePair } from '../../functions/issues/similar-score';
import { type Signals, signalsOf } from '../../functions/issues/similar-signals';
import {
  type CorpusReport,
  corpus,
  SCREEN_HEIGHT,
  SCREEN_WIDTH,
  screenshotOf,
} from '../fixtures/similar/corpus';

/** A corpus report's signals, as the consumer computes them from the stored report and its screenshot. */
export function corpusSignals(r: CorpusReport): Signals {
  return signalsOf({
    title: r.title,
    msg: r.msg,
    href: r.href,
    logs: r.logs,
    screenshot: r.screen
      ? { gray: screenshotOf(r.screen), width: SCREEN_WIDTH, height: SCREEN_HEIGHT }
      : null,
  });
}

export interface SimilarQuality {
  reports: number;
  groups: number;
  precisionTop1: number;
  recallTop5: number;
  /** Of the five shown, the share that are true duplicates (over reports that get any). */
  precisionTop5: number;
  /** Reports that have no duplicate in the corpus, yet get a suggestion. */
  singletonsWithSuggestion: number;
  singletons: number;
}

/** The consumer's steps over the corpus with an in-memory index; each report's list as the route reads it. */
export function similarQuality(reports = corpus()): SimilarQuality {
  const index = new Map<string, number[]>();
  const signals = new Map<number, Signals>();
  // Each issue's `cand` map: its own best PAIRS_MAX, then later reports that add themselves, up to CAND_MAX.
  const pairs = new Map<number, Map<number, number>>();
  const addPair = (n: number, m: number, match: Match) => {
    const list = pairs.get(n) ?? new Map<number, number>();
    if (list.has(m) || list.size < CAND_MAX) list.set(m, match.score);
    pairs.set(n, list);
  };
  for (const r of reports) {
    const s = corpusSignals(r);
    const keys = indexKeysOf(s).map((k) => `${k.kind}\n${k.value}`);
    const shared = new Map<number, number>();
    for (const key of keys) {
      for (const m of (index.get(key) ?? []).slice(-INDEX_DEPTH)) shared.set(m, (shared.get(m) ?? 0) + 1);
    }
    const candidates = [...shared.entries()]
      .sort((a, b) => b[1] - a[1] || b[0] - a[0])
      .slice(0, CANDIDATES_MAX)
      .map(([m]) => m);
    const scored = candidates
      .flatMap((m) => {
        const match = scorePair(s, signals.get(m) as Signals);
        return match ? [{ m, match }] : [];
      })
      .sort((a, b) => b.match.score - a.match.score || a.m - b.m)
      .slice(0, PAIRS_MAX);
    for (const { m, match } of scored) {
      addPair(r.id, m, match);
      addPair(m, r.id, match);
    }
    for (const key of keys) index.set(key, [...(index.get(key) ?? []), r.id]);
    signals.set(r.id, s);
  }

  const groupOf = new Map(reports.map((r) => [r.id, r.group]));
  const sizes = new Map<string, number>();
  for (const r of reports) sizes.set(r.group, (sizes.get(r.group) ?? 0) + 1);
  let withTop = 0;
  let topRight = 0;
  let withDuplicate = 0;
  let found = 0;
  let shown = 0;
  let shownRight = 0;
  let singletons = 0;
  let singletonsWithSuggestion = 0;
  for (const r of reports) {
    // As the route reads: by score, then number, the first READ_DEPTH (all open here), the first five.
    const top = [...(pairs.get(r.id) ?? new Map<number, number>()).entries()]
      .map(([number, score]) => ({ number, score }))
      .sort((a, b) => b.score - a.score || a.number - b.number)
      .slice(0, READ_DEPTH)
      .slice(0, similarLimits.suggestions);
    const right = top.filter((p) => groupOf.get(p.number) === r.group).length;
    const hasDuplicate = (sizes.get(r.group) ?? 0) > 1;
    if (top.length > 0) {
      withTop++;
      if (groupOf.get(top[0]!.number) === r.group) topRight++;
      shown += top.length;
      shownRight += right;
    }
    if (hasDuplicate) {
      withDuplicate++;
      if (right > 0) found++;
    } else {
      singletons++;
      if (top.length > 0) singletonsWithSuggestion++;
    }
  }
  const ratio = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 1000) / 1000);
  return {
    reports: reports.length,
    groups: sizes.size,
    precisionTop1: ratio(topRight, withTop),
    recallTop5: ratio(found, withDuplicate),
    precisionTop5: ratio(shownRight, shown),
    singletonsWithSuggestion,
    singletons,
  };
}

/** Entries under each index key the measured reports use: a page, error or band reported that often. */
export const HOT_ENTRIES = 60;
/** The project's size the numbers are spread over. */
export const PROJECT_ISSUES = 100_000;

/** A grayscale PNG, as the widget's capture would upload it (RGBA). */
export function corpusPng(screen: NonNullable<CorpusReport['screen']>): Buffer {
  const gray = screenshotOf(screen);
  const image = new PNG({ width: SCREEN_WIDTH, height: SCREEN_HEIGHT });
  for (const [i, v] of gray.entries()) image.data.set([v, v, v, 255], i * 4);
  return PNG.sync.write(image);
}

async function putAll(items: Record<string, unknown>[]) {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  // Eight batches at a time: DynamoDB Local on two CPUs takes no more usefully.
  for (let i = 0; i < chunks.length; i += 8) {
    await Promise.all(
      chunks.slice(i, i + 8).map(async (chunk) => {
        let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
          pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
        }
      }),
    );
  }
}

export interface SimilarCost {
  reports: number;
  hotEntries: number;
  projectIssues: number;
  seedMs: number;
  /** DynamoDB requests per report: median and most. */
  requestsMedian: number;
  requestsMax: number;
  /** Time in computeSimilar per report (ms): median and 90th percentile. */
  msMedian: number;
  msP90: number;
  /** Suggestions stored per report, median. */
  pairsMedian: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)] ?? 0;

/**
 * The consumer's cost per report on a project of PROJECT_ISSUES issues, measured with the real consumer on
 * DynamoDB Local (started here unless the caller runs a stack). Seeded is what the measured reports touch:
 * each of their index keys holds HOT_ENTRIES entries spread over the project's numbers, every entry the
 * bounded Queries can reach has its signals item, and the reports themselves with their screenshots. The
 * rest of a 100,000-issue project is other partitions' sort-key ranges, which no Query of the consumer reads.
 */
export async function similarCost(measured = 10): Promise<SimilarCost> {
  const { startTestStack } = await import('../support/local-stack');
  const { watchDynamo } = await import('../support/dynamo-calls');
  const stack = await startTestStack();
  try {
    const pid = randomUUID();
    const pk = `PROJECT#${pid}`;
    const reports = corpus().slice(0, measured);
    const seedStart = performance.now();
    const items: Record<string, unknown>[] = [{ pk, sk: 'META', id: pid, data: { linkExactMatches: true } }];
    // Each index key with the report whose key it is: its newest entries get that report's signals.
    const keys = new Map<string, { kind: string; of: Signals }>();
    for (const [i, r] of reports.entries()) {
      const n = PROJECT_ISSUES + 1 + i;
      const name = `${randomUUID()}.png`;
      const png = r.screen ? corpusPng(r.screen) : null;
      if (png) {
        const client = await s3();
        await client.send(
          new PutObjectCommand({ Bucket: bucketName(), Key: storedKey(pid, 'screenshot', name), Body: png }),
        );
      }
      items.push(
        {
          ...issueHeaderKey(pid, n),
          number: n,
          title: r.title,
          deleted: 0,
          status: 'new',
          createdAt: new Date().toISOString(),
        },
        {
          ...issueDetailKey(pid, n),
          number: n,
          msg: r.msg,
          data: { href: r.href },
          logs: r.logs,
          screenshots: png ? [{ name, type: 'png', size: png.length }] : [],
        },
      );
      const own = corpusSignals(r);
      for (const k of indexKeysOf(own)) keys.set(`${k.kind}\n${k.value}`, { kind: k.kind, of: own });
    }
    // Each key's entries: HOT_ENTRIES numbers spread over the project; the newest INDEX_DEPTH of each have
    // signals (those of a report of the same bug), so the consumer scores and links a full candidate list.
    const { createHash } = await import('node:crypto');
    const withSignals = new Map<number, Signals>();
    for (const [key, { kind, of }] of keys) {
      const value = key.slice(kind.length + 1);
      const hash = createHash('sha256').update(value).digest('hex').slice(0, 20);
      const seed = Number.parseInt(hash.slice(0, 6), 16);
      const numbers = Array.from({ length: HOT_ENTRIES }, (_, j) => 1 + ((seed + j * 997) % PROJECT_ISSUES));
      for (const n of numbers) items.push({ pk, sk: `SIMX#${kind}#${hash}#${n10(n)}` });
      for (const n of numbers.sort((a, b) => b - a).slice(0, INDEX_DEPTH)) withSignals.set(n, of);
    }
    for (const [n, of] of withSignals) {
      items.push({
        pk,
        sk: `SIM#${n10(n)}`,
        number: n,
        page: of.page,
        error: of.error,
        request: of.request,
        mh: of.minhash.map((h) => h.toString(16).padStart(8, '0')).join(''),
        dh: of.dhash,
        cand: {},
        at: new Date().toISOString(),
      });
      items.push({ ...issueHeaderKey(pid, n), number: n, title: 'Seeded', deleted: 0, status: 'new' });
    }
    await putAll(items);
    const seedMs = Math.round(performance.now() - seedStart);

    const watch = watchDynamo();
    const requests: number[] = [];
    const times: number[] = [];
    const pairs: number[] = [];
    const log = createLogger({ bench: 'similar' });
    for (const [i] of reports.entries()) {
      watch.calls.length = 0;
      const t = performance.now();
      const run = await computeSimilar(pid, PROJECT_ISSUES + 1 + i, log);
      times.push(performance.now() - t);
      requests.push(watch.calls.length);
      pairs.push(run.pairs);
      if (run.requests !== watch.calls.length)
        throw new Error(
          `computeSimilar counted ${run.requests} requests, the client sent ${watch.calls.length}`,
        );
    }
    watch.stop();
    return {
      reports: reports.length,
      hotEntries: HOT_ENTRIES,
      projectIssues: PROJECT_ISSUES,
      seedMs,
      requestsMedian: median(requests),
      requestsMax: Math.max(...requests),
      msMedian: Math.round(median(times)),
      msP90: Math.round(p90(times)),
      pairsMedian: median(pairs),
    };
  } finally {
    await stack.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table([similarQuality()]);
  if (process.argv[2] !== 'quality') console.table([await similarCost()]);
}
