/**
 * `npm start` as a process: the ready banner, two instances side by side, Ctrl-C and SIGTERM leaving
 * nothing behind, data surviving a restart, and the JVM reaped even when the stack is SIGKILLed.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCredentials } from '../../lib/local/credentials';
import { freePort } from '../../lib/local/free-port';
import { localNames } from '../../lib/local/stack';
import { eventually, isAlive } from '../support/local-stack';

const root = resolve(import.meta.dirname, '../..');
const region = 'eu-central-1';

interface Started {
  child: ChildProcess;
  url: string;
  dataDir: string;
  dynamodb: string;
  dynamodbPid: number;
  s3: string;
  /** The vendor fakes' addresses from the banner (started unless SNAG_VENDOR_FAKES=0). */
  fakes: string[];
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts bin/start.ts the way `npm start` does (through tsx), or straight on node with `direct`. */
async function start(dataDir: string, direct = false, env: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const args = direct
    ? ['--import', 'tsx', 'bin/start.ts']
    : [join(root, 'node_modules/tsx/dist/cli.mjs'), 'bin/start.ts'];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      SNAG_DATA_DIR: dataDir,
      SNAG_SKIP_BUILD: '1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c) => {
    output += c;
  });
  child.stderr?.on('data', (c) => {
    output += c;
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const banner = await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`start exited early:\n${output}`);
      return /Stand-ins\s+DynamoDB (\S+) \(pid (\d+)\), S3 ([^,\s]+),/.exec(output) ?? undefined;
    },
    90_000,
    'the ready banner',
  );
  return {
    child,
    url: `http://localhost:${port}`,
    dataDir,
    dynamodb: banner[1] ?? '',
    dynamodbPid: Number(banner[2]),
    s3: banner[3] ?? '',
    fakes: [
      /GitLab (\S+) \(host empty = this\)/,
      /Jira (\S+) \(enter as host\)/,
      /Slack (http\S+)/,
      /Asana (http\S+)/,
      /webhook receiver (\S+)\/hook/,
    ].flatMap((line) => line.exec(output)?.slice(1) ?? []),
    output: () => output,
    exited,
  };
}

/** Processes whose command line names the data dir: the JVM (-dbPath) and its watchdog. */
function processesOf(dataDir: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', dataDir], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

async function expectAllGone(s: Started) {
  await s.exited;
  await eventually(async () => (isAlive(s.dynamodbPid) ? undefined : true), 10_000, 'the JVM to exit');
  await eventually(async () => (processesOf(s.dataDir).length ? undefined : true), 10_000, 'no process left');
}

const health = async (url: string) => {
  const res = await fetch(`${url}/api/health`);
  return { status: res.status, body: await res.json() };
};

const clients = (s: Started) => ({
  db: DynamoDBDocumentClient.from(
    new DynamoDBClient({ region, endpoint: s.dynamodb, credentials: localCredentials }),
  ),
  s3: new S3Client({ region, endpoint: s.s3, forcePathStyle: true, credentials: localCredentials }),
});

/** Each test starts whole stacks (a JVM each) and waits up to 90 s for a banner: more than the default. */
const startTimeoutMs = 180_000;

let dirA: string;
let dirB: string;
const fakesOff = { SNAG_VENDOR_FAKES: '0' };
let fakesOfFirstRun: string[] = [];
const running: Started[] = [];

beforeAll(async () => {
  dirA = await mkdtemp(join(tmpdir(), 'snag-start-a-'));
  dirB = await mkdtemp(join(tmpdir(), 'snag-start-b-'));
});

afterAll(async () => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await Promise.all([dirA, dirB].map((d) => d && rm(d, { recursive: true, force: true })));
});

describe('npm start', () => {
  it(
    'runs two instances side by side; Ctrl-C and SIGTERM each leave nothing behind',
    async () => {
      // The vendor fakes start by default, marked as fakes; SNAG_VENDOR_FAKES=0 leaves them out.
      const [a, b] = await Promise.all([start(dirA), start(dirB, false, fakesOff)]);
      running.push(a, b);
      expect(a.output()).toContain(`Snag is running at ${a.url}`);
      expect(await health(a.url)).toEqual({
        status: 200,
        body: expect.objectContaining({ status: 'success' }),
      });
      expect(await health(b.url)).toEqual({
        status: 200,
        body: expect.objectContaining({ status: 'success' }),
      });
      expect(a.dynamodbPid).not.toBe(b.dynamodbPid);
      expect(a.fakes).toHaveLength(5);
      expect(a.output()).toContain('Vendor fakes   stand-ins on this machine, not the real services');
      expect(b.fakes).toEqual([]);
      expect(b.output()).not.toContain('Vendor fakes');
      fakesOfFirstRun = a.fakes;

      // Something to find again after a restart.
      const { db, s3 } = clients(a);
      await db.send(
        new PutCommand({ TableName: localNames.table, Item: { pk: 'KEEP#1', sk: 'KEEP', value: 'kept' } }),
      );
      await s3.send(
        new PutObjectCommand({ Bucket: localNames.bucket, Key: 'keep/one.txt', Body: 'kept object' }),
      );
      db.destroy();
      s3.destroy();

      a.child.kill('SIGINT');
      await expectAllGone(a);
      expect(a.output()).toContain('SIGINT: stopping');
      // The other instance is untouched.
      expect((await health(b.url)).status).toBe(200);

      b.child.kill('SIGTERM');
      await expectAllGone(b);
      expect(await b.exited).toBe(0);
    },
    startTimeoutMs,
  );

  it(
    "keeps table items, S3 objects and the vendor fakes' addresses across a restart; a SIGKILLed stack still takes its JVM along",
    async () => {
      const a = await start(dirA, true);
      running.push(a);
      // The vendor fakes are where the first run had them (a saved Jira host still points at one).
      expect(a.fakes).toHaveLength(5);
      expect(a.fakes).toEqual(fakesOfFirstRun);
      expect((await health(a.url)).status).toBe(200);
      const { db, s3 } = clients(a);
      const item = await db.send(
        new GetCommand({ TableName: localNames.table, Key: { pk: 'KEEP#1', sk: 'KEEP' } }),
      );
      expect(item.Item?.value).toBe('kept');
      const object = await s3.send(new GetObjectCommand({ Bucket: localNames.bucket, Key: 'keep/one.txt' }));
      expect(await object.Body?.transformToString()).toBe('kept object');
      db.destroy();
      s3.destroy();

      // No handler runs on SIGKILL: the watchdog child is what reaps the JVM.
      a.child.kill('SIGKILL');
      await expectAllGone(a);
    },
    startTimeoutMs,
  );
});
