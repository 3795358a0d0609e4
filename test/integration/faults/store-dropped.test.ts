/**
 * Calls in flight when DynamoDB drops (issue 31): the connection resets, hangs up or is refused under a call
 * the stack already took. Injected below the SDK's retries as the HTTP handler raises them (Node's errors
 * with their `code`), on every attempt, so the handler sees what the SDK gives up with. The answer is what
 * a new call gets while the store is down: 503 NOT_READY with Retry-After, never a 500.
 */
import { afterEach, beforeAll, expect, it } from 'vitest';
import { dynamo } from '#runtime/aws/dynamo';
import { type Injected, injectFault, sdkAttempts } from '../../support/faults';
import { setUpTestStack } from '../../support/stack-fixture';
import { signedIn } from '../../support/users';

const stack = setUpTestStack();
let attempts: number;
const injected: Injected[] = [];

beforeAll(async () => {
  attempts = await sdkAttempts(dynamo());
});

afterEach(() => {
  for (const fault of injected.splice(0)) fault.remove();
});

/** Node's errors as the SDK's HTTP handler passes them on, each with its `code`. */
const dropped = {
  'connection reset': () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
  'socket hang up': () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
  'connection refused': () =>
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' }),
};

it.each(Object.entries(dropped))(
  'a %s mid-call answers 503 NOT_READY with Retry-After',
  async (_name, error) => {
    const { client } = await signedIn(stack.url);
    expect((await client.get('/api/client/website')).status).toBe(200);
    // The session read of the next call meets the dropped connection on every attempt the SDK makes.
    const fault = injectFault(dynamo(), { command: 'GetItemCommand', times: attempts, error });
    injected.push(fault);
    const res = await fetch(new URL('/api/client/website', stack.url), {
      headers: {
        'cloudfront-viewer-address': client.source,
        cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    expect(fault.fired).toBe(attempts);
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ status: 'error', code: 'NOT_READY' });
    // Once the store answers again, so does the call.
    expect((await client.get('/api/client/website')).status).toBe(200);
  },
);

it('a refusal that is not a dropped connection stays a 500', async () => {
  const { client } = await signedIn(stack.url);
  injected.push(
    injectFault(dynamo(), { command: 'GetItemCommand', times: 1, error: () => new TypeError('boom') }),
  );
  expect((await client.get('/api/client/website')).status).toBe(500);
});
