/**
 * Vitest global setup of the integration and e2e projects: one DynamoDB Local for the whole run, which
 * every test stack uses with a table of its own (lib/local/stack.ts `sharedDynamo`). Starting the JVM is
 * most of a stack's start (about 3.8 of 4.3 s on the CI machine), and each file starts a stack.
 *
 * The endpoint reaches the test files through the environment, which vitest's workers inherit. A file
 * that needs a JVM of its own (one that checks the JVM stops, or keeps data across restarts) asks
 * `startTestStack` for it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamo } from '../../lib/local/dynamodb';

export const SHARED_DYNAMO_ENDPOINT = 'SNAG_TEST_DYNAMODB_ENDPOINT';
export const SHARED_DYNAMO_PID = 'SNAG_TEST_DYNAMODB_PID';

export default async function setup() {
  // `npm test` runs the integration and e2e projects in one vitest run: the second project's setup finds
  // the first one's JVM and uses it.
  if (process.env[SHARED_DYNAMO_ENDPOINT]) return;
  const dir = await mkdtemp(join(tmpdir(), 'snag-shared-dynamodb-'));
  const dynamo = await startDynamo(dir, 'eu-central-1');
  process.env[SHARED_DYNAMO_ENDPOINT] = dynamo.endpoint;
  process.env[SHARED_DYNAMO_PID] = String(dynamo.pid);
  return async () => {
    delete process.env[SHARED_DYNAMO_ENDPOINT];
    delete process.env[SHARED_DYNAMO_PID];
    await dynamo.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
