/**
 * What the list benches on a big triaged project share (triage.ts: the dashboard's lists; v1.ts: the
 * public API's): the local stack in this process, a signed-in client, a project "Busy" seeded with
 * `issues` triaged issues (test/support/triage-seed.ts, three assignees), and `measure`: a call's DynamoDB
 * requests and median latency over a number of runs. One setup, so the two benches measure alike.
 */
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../support/api-client';
import { watchDynamo } from '../support/dynamo-calls';
import { startTestStack, type TestStack } from '../support/local-stack';
import { bulkSeedTriaged, type TriagedSeed } from '../support/triage-seed';
import { cheapCostsEnv, signedIn } from '../support/users';

/** One measured call: DynamoDB requests of the last run, median latency, and the rows it answered. */
export interface ListBenchRow {
  call: string;
  requests: number;
  medianMs: number;
  rows: number;
}

export interface BusyProject {
  stack: TestStack;
  client: ApiClient;
  /** The signed-in user's address. */
  email: string;
  /** The project's id. */
  id: string;
  seed: TriagedSeed;
  seedMs: number;
  /**
   * Runs `send` `runs` times and makes its row: the DynamoDB requests of the last run (every client of
   * this process), the median latency, and the rows the last run answered (what `send` returns).
   */
  measure(call: string, runs: number, send: () => Promise<number>): Promise<ListBenchRow>;
}

/** Runs `bench` on a freshly seeded busy project, and stops the stack after it, whatever happens. */
export async function withBusyProject<T>(
  issues: number,
  bench: (busy: BusyProject) => Promise<T>,
): Promise<T> {
  Object.assign(process.env, cheapCostsEnv);
  const stack = await startTestStack();
  try {
    const { client, email } = await signedIn(stack.url);
    const created = await client.post('/api/client/website', { name: 'Busy', url: 'busy.example' });
    const id = (created.body as { msg: { id: string } }).msg.id;
    const seedStart = performance.now();
    const seed = await bulkSeedTriaged(id, issues, { assignees: [randomUUID(), randomUUID(), randomUUID()] });
    const seedMs = performance.now() - seedStart;
    // Counted from here on: the seed's own writes are not the calls' requests.
    const { calls: sent } = watchDynamo();
    const measure = async (call: string, runs: number, send: () => Promise<number>) => {
      const times: number[] = [];
      let requests = 0;
      let rows = 0;
      for (let i = 0; i < runs; i++) {
        sent.length = 0;
        const t = performance.now();
        rows = await send();
        times.push(performance.now() - t);
        requests = sent.length;
      }
      return { call, requests, medianMs: median(times), rows };
    };
    return await bench({ stack, client, email, id, seed, seedMs, measure });
  } finally {
    await stack.stop();
  }
}

/** The middle run (of an odd count; the upper middle of an even one), rounded to a millisecond. */
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)] ?? 0);
};
