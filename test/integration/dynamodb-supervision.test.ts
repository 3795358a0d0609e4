/**
 * DynamoDB Local's supervision when restarting does not help: after the allowed restarts the stack stops
 * trying, says why and what to do, and stays down (gateway.test.ts covers the restart that works).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { type LocalDynamo, startDynamo } from '../../lib/local/dynamodb';
import { eventually, isAlive } from '../support/local-stack';

let dir: string | undefined;
let dynamo: LocalDynamo | undefined;

afterAll(async () => {
  await dynamo?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('gives up once the restarts allowed within the window are spent, and says what to do', async () => {
  dir = await mkdtemp(join(tmpdir(), 'snag-dynamo-'));
  const events: string[] = [];
  let gaveUp: Error | undefined;
  dynamo = await startDynamo(dir, 'eu-central-1', {
    onDown: (line) => events.push(`down: ${line}`),
    onUp: (line) => events.push(`up: ${line}`),
    onGiveUp: (err) => {
      gaveUp = err;
    },
    restartLimit: { count: 0, windowMs: 60_000 },
  });
  const pid = dynamo.pid;
  expect(dynamo.up).toBe(true);
  process.kill(pid, 'SIGKILL');
  const err = await eventually(async () => gaveUp, 10_000, 'the supervisor to give up');
  expect(err.message).toMatch(
    /DynamoDB Local exited 1 time\(s\) within 60 s \(last: signal SIGKILL\); it stays down/,
  );
  expect(err.message).toContain('Stop the stack (Ctrl-C) and start it again');
  expect(events).toEqual([
    expect.stringMatching(new RegExp(`^down: DynamoDB Local \\(pid ${pid}\\) exited`)),
  ]);
  expect(dynamo.up).toBe(false);
  expect(isAlive(pid)).toBe(false);
  // Stopping a stack whose database is down still ends cleanly.
  await dynamo.stop();
  dynamo = undefined;
});
