/**
 * The load run of issue 10 ("Faults and load"), on loopback against the local stack, bounded in count and
 * time: the loader (`GET website/{id}/code`) at a steady rate, the intake from many visitors (distinct
 * `CloudFront-Viewer-Address` values, each report with a screenshot and its page snapshot uploaded through
 * presigned forms), and the dashboard's issue list at a steady rate while the intake runs. Afterwards every
 * accepted report must be stored exactly once. Then each operation runs alone with the AWS meter on, for
 * the requests, capacity units and payload sizes docs/cost.md prices. The figures are those of local
 * stand-ins on a shared 2-CPU machine: they show correctness under concurrency and relative cost, not
 * AWS's latency.
 */
import { pathToFileURL } from 'node:url';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#runtime/aws/dynamo';
import { handler as fanout } from '../../functions/consumers/fanout';
import { startTestStack, type TestStack } from '../support/local-stack';
import { activateIntegration, newSite, type Site } from '../support/sites';
import { cheapCostsEnv } from '../support/users';
import { uploadFile, widgetCall } from '../support/widget';
import { startMeter, type Tally } from './aws-meter';

/** The bounds: the intake's reports (2 projects, 3 per visitor), the other streams' rates, a deadline. */
export const loadPlan = {
  reports: 120,
  reportsPerVisitor: 3,
  intakeConcurrency: 6,
  loaderPerSecond: 25,
  listsPerSecond: 4,
  deadlineMs: 50_000,
  screenshotBytes: 200 * 1024,
  snapshotBytes: 30 * 1024,
};

export interface StreamFigures {
  stream: string;
  requests: number;
  ok: number;
  /** Non-2xx answers by class; a 5xx fails the run. */
  errors4xx: number;
  errors5xx: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

class Stream {
  readonly times: number[] = [];
  ok = 0;
  e4 = 0;
  e5 = 0;
  private first = Number.POSITIVE_INFINITY;
  private last = 0;
  constructor(readonly name: string) {}

  /** Times `call` (which answers an HTTP status) and counts its class. */
  async time<T extends { status: number }>(call: () => Promise<T>): Promise<T> {
    const start = performance.now();
    this.first = Math.min(this.first, start);
    const res = await call();
    const end = performance.now();
    this.last = Math.max(this.last, end);
    this.times.push(end - start);
    if (res.status < 300) this.ok++;
    else if (res.status < 500) this.e4++;
    else this.e5++;
    return res;
  }

  figures(): StreamFigures {
    const sorted = [...this.times].sort((a, b) => a - b);
    const rank = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
    const seconds = Math.max(0.001, (this.last - this.first) / 1000);
    return {
      stream: this.name,
      requests: sorted.length,
      ok: this.ok,
      errors4xx: this.e4,
      errors5xx: this.e5,
      perSecond: Math.round((this.ok / seconds) * 10) / 10,
      p50Ms: Math.round(rank(0.5)),
      p99Ms: Math.round(rank(0.99)),
    };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls at a fixed rate (open loop: a slow answer does not delay the next call) until `done()`. */
async function steady(perSecond: number, done: () => boolean, call: () => Promise<unknown>) {
  const start = performance.now();
  const inflight: Promise<unknown>[] = [];
  for (let i = 0; !done(); i++) {
    const wait = start + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await sleep(wait);
    inflight.push(call());
  }
  await Promise.all(inflight);
}

const SITE = 'https://shop.example';
const content = (n: number, seed: number) => new Uint8Array(n).map((_, i) => (i * 31 + seed) & 255);

/** One report as the widget files it: two forms, two S3 POSTs, the report. Answers the report call's reply. */
async function fileOne(url: string, site: Site, visitor: string, streams?: Record<string, Stream>) {
  const opts = { origin: SITE, visitor };
  const up = (kind: 'screenshot' | 'snapshot', type: string, bytes: Uint8Array) =>
    uploadFile(url, site.id, kind, type, bytes, opts);
  const shot = await up('screenshot', 'image/png', content(loadPlan.screenshotBytes, 1));
  const page = await up('snapshot', 'text/html', content(loadPlan.snapshotBytes, 2));
  const body = { msg: `Load ${visitor}`, screenshots: [{ key: shot, type: 'png', snapshotKey: page }] };
  const report = () => widgetCall(url, site.id, 'request', body, opts);
  return streams ? streams.report!.time(report) : report();
}

/** The issue numbers stored in a project (headers and details apart), and its counters. */
async function storedIssues(tableName: string, projectId: string) {
  const headers: number[] = [];
  let details = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':sk': 'ISSUE#' },
        ProjectionExpression: 'sk, #n',
        ExpressionAttributeNames: { '#n': 'number' },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      if (String(item.sk).endsWith('#DETAIL')) details++;
      else headers.push(Number(item.number));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  const meta = await db().send(
    new GetCommand({
      TableName: tableName,
      Key: { pk: `PROJECT#${projectId}`, sk: 'META' },
      ConsistentRead: true,
    }),
  );
  return { headers, details, openCount: Number(meta.Item?.openCount ?? 0), seq: Number(meta.Item?.seq ?? 0) };
}

export interface LoadResult {
  streams: StreamFigures[];
  accepted: number;
  /** Reports sent before the deadline (all of loadPlan.reports unless the machine was slow). */
  sent: number;
  /** Accepted reports whose number is stored exactly once (header and detail), and the counters agree. */
  storedOnce: boolean;
  problems: string[];
  /** What one operation asks of AWS, averaged over `samples` runs alone (docs/cost.md). */
  perOperation: { operation: string; samples: number; medianMs: number; aws: Tally; httpBytes: number }[];
  /** Approximate DynamoDB sizes (names + values, bytes) of the items a report writes, for write units. */
  itemBytes: Record<string, number>;
}

async function runLoad(
  stack: TestStack,
): Promise<Pick<LoadResult, 'streams' | 'accepted' | 'sent' | 'storedOnce' | 'problems'>> {
  const sites = [await newSite(stack.url, 'BUSINESS_PLAN'), await newSite(stack.url, 'BUSINESS_PLAN')];
  for (const s of sites) await activateIntegration(stack.tableName, s.id, 'email');
  const streams = {
    loader: new Stream('loader GET website/{id}/code'),
    upload: new Stream('intake POST website/{id}/upload'),
    report: new Stream('intake POST website/{id}/request'),
    list: new Stream('dashboard GET client/website/{id}/request'),
  };
  const deadline = performance.now() + loadPlan.deadlineMs;
  let intakeDone = false;
  const stop = () => intakeDone || performance.now() > deadline;

  // The intake: workers take the next report; report i comes from visitor floor(i / 3) of project i mod 2.
  let next = 0;
  const numbers: Map<string, number[]> = new Map(sites.map((s) => [s.id, []]));
  const instrumented = { ...streams };
  const worker = async () => {
    while (next < loadPlan.reports && performance.now() < deadline) {
      const i = next++;
      const site = sites[i % sites.length]!;
      const v = Math.floor(i / loadPlan.reportsPerVisitor);
      // Each visitor in a /24 of its own: the network's flood limit (30 per project) is not what is measured.
      const visitor = `198.18.${v % 256}.${(Math.floor(v / 256) % 250) + 1}:${20000 + i}`;
      const res = await fileOne(stack.url, site, visitor, instrumented).catch(() => ({
        status: 599,
        body: undefined,
      }));
      if (res.status === 200 && res.body)
        numbers.get(site.id)!.push((res.body.msg as { number: number }).number);
    }
  };
  // Upload calls are timed inside uploadFile's fetch; time them by wrapping the global fetch for this run.
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    return url.endsWith('/upload')
      ? streams.upload.time(() => realFetch(input, init))
      : realFetch(input, init);
  };
  try {
    const owner = sites[0]!;
    await Promise.all([
      Promise.all(Array.from({ length: loadPlan.intakeConcurrency }, worker)).then(() => {
        intakeDone = true;
      }),
      steady(loadPlan.loaderPerSecond, stop, () =>
        streams.loader.time(() => realFetch(`${stack.url}/api/website/${sites[1]!.id}/code`).then(drain)),
      ),
      steady(loadPlan.listsPerSecond, stop, () =>
        streams.list.time(() => owner.client.get(`/api/client/website/${owner.id}/request`)),
      ),
    ]);
  } finally {
    globalThis.fetch = realFetch;
  }

  const problems: string[] = [];
  let accepted = 0;
  for (const s of sites) {
    const answered = numbers.get(s.id)!;
    accepted += answered.length;
    const stored = await storedIssues(stack.tableName, s.id);
    const unique = new Set(stored.headers);
    if (unique.size !== stored.headers.length) problems.push(`${s.id}: a number stored twice`);
    if (stored.details !== stored.headers.length) problems.push(`${s.id}: headers and details differ`);
    if (new Set(answered).size !== answered.length) problems.push(`${s.id}: a number answered twice`);
    if (answered.some((n) => !unique.has(n))) problems.push(`${s.id}: an accepted report is not stored`);
    if (stored.headers.length !== answered.length)
      problems.push(`${s.id}: stored issues nobody was answered`);
    if (stored.openCount !== answered.length) problems.push(`${s.id}: openCount ${stored.openCount}`);
  }
  const figures = Object.values(streams).map((s) => s.figures());
  for (const f of figures) if (f.errors5xx > 0) problems.push(`${f.stream}: ${f.errors5xx} 5xx`);
  // A deadline reached on a busy machine sends fewer reports; what was accepted is still checked.
  return { streams: figures, accepted, sent: next, storedOnce: problems.length === 0, problems };
}

async function drain(res: Response) {
  await res.arrayBuffer();
  return res;
}

/**
 * Each operation alone, `samples` times, with the meter on: the AWS requests and capacity per operation,
 * the bytes on the wire between browser and API, and the median time at the API (an upper bound of the
 * Lambda duration: it includes the local gateway's hop).
 */
async function perOperation(
  stack: TestStack,
  samples = 20,
): Promise<{ perOperation: LoadResult['perOperation']; projectId: string }> {
  const site = await newSite(stack.url, 'BUSINESS_PLAN');
  await activateIntegration(stack.tableName, site.id, 'email');
  const meter = await startMeter();
  const out: LoadResult['perOperation'] = [];
  /** `settled`: what the asynchronous part (the fan-out through the queue) has done once it is over. */
  const measure = async (
    operation: string,
    run: (i: number) => Promise<number>,
    settled: (t: Tally) => boolean = () => true,
  ) => {
    meter.take();
    const times: number[] = [];
    let httpBytes = 0;
    for (let i = 0; i < samples; i++) {
      const start = performance.now();
      httpBytes += await run(i);
      times.push(performance.now() - start);
    }
    for (let waited = 0; !settled(meter.peek()) && waited < 15_000; waited += 100) await sleep(100);
    const aws = meter.take();
    for (const t of Object.values(aws)) {
      for (const k of ['count', 'requestBytes', 'readUnits', 'writeUnits'] as const) t[k] = t[k] / samples;
    }
    times.sort((a, b) => a - b);
    out.push({
      operation,
      samples,
      medianMs: Math.round(times[Math.floor(samples / 2)]!),
      aws,
      httpBytes: httpBytes / samples,
    });
  };
  try {
    await measure('loader view (GET website/{id}/code)', async () => {
      const res = await fetch(`${stack.url}/api/website/${site.id}/code`);
      return (await res.arrayBuffer()).byteLength;
    });
    await measure(
      'report: 2 forms, 2 S3 POSTs, the report, and its fan-out through the queue',
      async (i) => {
        const res = await fileOne(stack.url, site, `198.19.0.${i + 1}:7000`);
        if (res.status !== 200) throw new Error(`report failed: ${JSON.stringify(res.body)}`);
        return loadPlan.screenshotBytes + loadPlan.snapshotBytes;
      },
      (t) => (t['sqs:SendMessageBatch']?.count ?? 0) >= samples,
    );
    // The fan-out of one issue.created with one active integration, invoked as Lambda would.
    await measure('fan-out of one issue (1 active integration)', async (i) => {
      const body = JSON.stringify({ type: 'issue.created', projectId: site.id, issueNumber: i + 1 });
      const res = await fanout(sqsEvent(body));
      if (res.batchItemFailures.length) throw new Error('fan-out failed');
      return 0;
    });
    await measure('dashboard issue list (GET client/website/{id}/request)', async () => {
      const res = await site.client.get(`/api/client/website/${site.id}/request`);
      if (res.status !== 200) throw new Error('list failed');
      return JSON.stringify(res.body).length;
    });
  } finally {
    meter.stop();
  }
  return { perOperation: out, projectId: site.id };
}

function sqsEvent(body: string) {
  const record = { messageId: 'bench', body, attributes: { ApproximateReceiveCount: '1' } };
  return { Records: [record] } as unknown as Parameters<typeof fanout>[0];
}

/** DynamoDB's item size rule, roughly: attribute names plus values (strings and numbers as text). */
export function itemSize(value: unknown): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  if (value instanceof Set) return [...value].reduce((n, v) => n + itemSize(v), 0);
  if (Array.isArray(value)) return 3 + value.reduce((n, v) => n + 1 + itemSize(v), 0);
  return Object.entries(value as Record<string, unknown>).reduce(
    (n, [k, v]) => n + 1 + k.length + itemSize(v),
    3,
  );
}

/** The sizes of a project's items after its first issue, and of its owner's USER item. */
async function itemSizes(tableName: string, projectId: string): Promise<Record<string, number>> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}` },
    }),
  );
  const items = out.Items ?? [];
  const kind = (sk: string) => sk.replace(/[0-9a-f-]{36}|\d{6,10}/g, 'n').replace(/#n#n$/, '#n');
  const sizes: Record<string, number> = {};
  for (const item of items) sizes[kind(String(item.sk))] ??= itemSize(item);
  const owner = items.find((i) => i.sk === 'META')?.ownerId;
  const user = await db().send(
    new GetCommand({ TableName: tableName, Key: { pk: `USER#${owner}`, sk: 'USER' } }),
  );
  sizes.USER = itemSize(user.Item);
  return sizes;
}

export async function loadBench(): Promise<LoadResult> {
  Object.assign(process.env, cheapCostsEnv);
  const stack = await startTestStack();
  try {
    const load = await runLoad(stack);
    const { perOperation: ops, projectId } = await perOperation(stack);
    return { ...load, perOperation: ops, itemBytes: await itemSizes(stack.tableName, projectId) };
  } finally {
    await stack.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await loadBench();
  console.table(r.streams);
  console.log({ sent: r.sent, accepted: r.accepted, storedOnce: r.storedOnce, problems: r.problems });
  console.log(JSON.stringify({ perOperation: r.perOperation, itemBytes: r.itemBytes }, null, 2));
}
