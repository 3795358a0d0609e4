/** Backoff through the visibility timeout (functions/runtime/retry.ts) and its use by the batch handler. */
import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { batchHandler } from '#runtime/batch';
import {
  longestRetrySeconds,
  retryDelaySeconds,
  retryDelays,
  retryDelaysVariable,
  staleAfterSeconds,
  staleAfterVariable,
} from '#runtime/retry';
import { queueDecls } from '../../../functions/manifests';
import { sqsEvent } from '../../support/events';

const sqs = mockClient(SQSClient);
afterEach(() => {
  sqs.reset();
  delete process.env[retryDelaysVariable('delivery')];
  delete process.env[staleAfterVariable('delivery')];
});

const middle = () => 0.5;

describe('the retry schedule', () => {
  it('grows with each failed receive and keeps the last delay for later ones', () => {
    const delays = [60, 300, 1200, 3600];
    expect([1, 2, 3, 4, 5, 9].map((a) => retryDelaySeconds(delays, a, middle))).toEqual([
      60, 300, 1200, 3600, 3600, 3600,
    ]);
  });

  it('spreads the retries of one outage by ±10 %, in whole seconds, never past SQS’s 12 hours', () => {
    expect(retryDelaySeconds([300], 1, () => 0)).toBe(270);
    expect(retryDelaySeconds([300], 1, () => 0.999999)).toBe(330);
    expect(retryDelaySeconds([86_400], 1, middle)).toBe(43_200);
    expect(retryDelaySeconds([], 1, middle)).toBeUndefined();
  });

  it('the delivery queue backs off over more than an hour before its last receive', () => {
    const { retryDelaysSeconds = [], maxReceiveCount } = queueDecls.delivery;
    const waits = Array.from(
      { length: maxReceiveCount - 1 },
      (_, i) => retryDelaySeconds(retryDelaysSeconds, i + 1, middle) ?? 0,
    );
    expect(waits.every((w, i) => i === 0 || w > (waits[i - 1] ?? 0))).toBe(true);
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThan(3600);
  });

  it('reads the local stack’s shorter delays, and an empty list as none', () => {
    expect(retryDelays('delivery', [60])).toEqual([60]);
    process.env[retryDelaysVariable('delivery')] = '1,2, 4';
    expect(retryDelays('delivery', [60])).toEqual([1, 2, 4]);
    process.env[retryDelaysVariable('delivery')] = '';
    expect(retryDelays('delivery', [60])).toEqual([]);
  });
});

describe('when a started delivery counts as stale (Sync may start it again)', () => {
  it('outlasts every receive running its whole timeout and every gap at its longest', () => {
    // 5 receives × 60 s, then gaps of max(360 s visibility, delay + 10 %): 360, 360, 1320, 3960.
    expect(longestRetrySeconds(queueDecls.delivery)).toBe(5 * 60 + 360 + 360 + 1320 + 3960);
    // A consumer that dies without setting a delay is back after the visibility timeout.
    expect(
      longestRetrySeconds({
        visibilityTimeoutSeconds: 100,
        maxReceiveCount: 3,
        consumer: { timeoutSeconds: 10 },
      }),
    ).toBe(3 * 10 + 2 * 100);
  });

  it('is twice that (3.5 h for deliveries), unless the local stack sets a shorter one', () => {
    expect(staleAfterSeconds('delivery', queueDecls.delivery)).toBe(12_600);
    process.env[staleAfterVariable('delivery')] = '2';
    expect(staleAfterSeconds('delivery', queueDecls.delivery)).toBe(2);
    process.env[staleAfterVariable('delivery')] = 'soon';
    expect(staleAfterSeconds('delivery', queueDecls.delivery)).toBe(12_600);
  });
});

describe('a consumer with a retry policy', () => {
  const policy = { queue: 'delivery' as const, maxReceiveCount: 5, retryDelaysSeconds: [60, 300] };
  const failing = batchHandler(
    'test',
    z.object({}),
    async () => {
      throw new Error('vendor down');
    },
    policy,
  );
  const withCount = (count: string) => {
    const event = sqsEvent(['{}']);
    if (event.Records[0]) event.Records[0].attributes.ApproximateReceiveCount = count;
    return event;
  };

  it('delays the failed message by its receive count, and still reports it failed', async () => {
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    const res = await failing(withCount('2'));
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
    const input = sqs.commandCalls(ChangeMessageVisibilityCommand)[0]?.args[0].input;
    expect(input?.QueueUrl).toBe(process.env.DELIVERY_QUEUE_URL);
    expect(input?.ReceiptHandle).toBe('r0');
    expect(input?.VisibilityTimeout).toBeGreaterThanOrEqual(270);
    expect(input?.VisibilityTimeout).toBeLessThanOrEqual(330);
  });

  it('leaves the last receive alone: it goes on to the DLQ', async () => {
    await failing(withCount('5'));
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
  });

  it('still reports the failure when the delay cannot be set (the visibility timeout brings it back)', async () => {
    sqs.on(ChangeMessageVisibilityCommand).rejects(new Error('throttled'));
    const res = await failing(withCount('1'));
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
  });

  it('does not touch a message that succeeded', async () => {
    const fine = batchHandler('test', z.object({}), async () => {}, policy);
    expect((await fine(withCount('1'))).batchItemFailures).toEqual([]);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
  });

  it('waits as long as a vendor’s rate limit asked when that is longer than the schedule, at most 15 minutes', async () => {
    const limited = (asked: object) =>
      batchHandler(
        'test',
        z.object({}),
        async () => {
          throw Object.assign(new Error('rate limited'), asked);
        },
        policy,
      );
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    const visibility = () =>
      sqs.commandCalls(ChangeMessageVisibilityCommand).at(-1)?.args[0].input.VisibilityTimeout;
    // Discord's `retry_after` (seconds, a float) on the error, rounded up: 100.5 s beats the 54–66 s delay.
    await limited({ retryAfterSeconds: 100.5 })(withCount('1'));
    expect(visibility()).toBe(101);
    // A VendorError's Retry-After (details), shorter than the schedule: the schedule stands.
    await limited({ details: { retryAfterSeconds: 7.5 } })(withCount('1'));
    expect(visibility()).toBeLessThanOrEqual(66);
    expect(visibility()).toBeGreaterThanOrEqual(54);
    await limited({ retryAfterSeconds: 86_400 })(withCount('1'));
    expect(visibility()).toBe(900);
  });
});
