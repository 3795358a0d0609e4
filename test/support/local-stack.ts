/**
 * The local stack for integration and e2e tests: free port, a fresh data dir, no build, quiet logs.
 * Use it in beforeAll/afterAll; one stack per test file (vitest runs each file in its own process).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quietLog } from '../../lib/local/log';
import type { QueueOverrides } from '../../lib/local/sqs';
import { type LocalStack, startLocalStack } from '../../lib/local/stack';
import { SHARED_DYNAMO_ENDPOINT, SHARED_DYNAMO_PID } from './shared-dynamodb';

export interface TestStackOptions {
  /** A dist dir with web/ and widget/ to serve; without it only /api answers. */
  distDir?: string;
  /** Keep the data of an earlier stack (persistence tests); a fresh temp dir otherwise. */
  dataDir?: string;
  queues?: QueueOverrides;
  /** Start the vendor fakes with the stack, as `npm start` does (`stack.vendorFakes`). */
  vendorFakes?: boolean;
  /**
   * Start a DynamoDB Local JVM of its own rather than use the run's shared one
   * (test/support/shared-dynamodb.ts): for tests of the JVM's life. Implied by `dataDir`.
   */
  ownDynamo?: boolean;
}

/** The run's shared DynamoDB Local, when the suite's global setup started one and the test may use it. */
function sharedDynamo(opts: TestStackOptions) {
  const endpoint = process.env[SHARED_DYNAMO_ENDPOINT];
  const pid = Number(process.env[SHARED_DYNAMO_PID]);
  if (!endpoint || !pid || opts.ownDynamo || opts.dataDir) return undefined;
  return { endpoint, pid };
}

export type TestStack = LocalStack;

export async function startTestStack(opts: TestStackOptions = {}): Promise<TestStack> {
  // The handlers log every refused request and failed message; tests assert on outcomes instead.
  process.env.LOG_LEVEL ??= 'silent';
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'snag-it-')));
  const shared = sharedDynamo(opts);
  const stack = await startLocalStack({
    port: 0,
    dataDir,
    build: false,
    serveStatic: opts.distDir !== undefined,
    ...(opts.distDir ? { distDir: opts.distDir } : {}),
    ...(opts.queues ? { queues: opts.queues } : {}),
    ...(opts.vendorFakes ? { vendorFakes: true } : {}),
    ...(shared ? { sharedDynamo: shared } : {}),
    log: quietLog,
  });
  // The stack itself, not a copy: `dynamodbPid` is a getter that follows a restarted JVM.
  const stop = stack.stop;
  stack.stop = async () => {
    await stop();
    if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
  };
  return stack;
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  what = 'condition',
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
