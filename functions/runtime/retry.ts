/**
 * Backoff through the visibility timeout (issue 11: "a failure retries with backoff"). A consumer whose
 * queue declares `retryDelaysSeconds` (functions/contracts/manifest.ts) sets the visibility of a message that
 * failed, so it comes back after a delay that grows with each receive, instead of after the queue's fixed
 * visibility timeout. Lambda's event source mapping leaves a failed record's visibility as it is, so the
 * delay set here holds; the receive count and the redrive to the DLQ work as before.
 *
 * If setting the delay fails, the message still comes back, after the visibility timeout: nothing is lost.
 */
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { type QueueName, queueUrlVariable } from '#contracts/manifest';
import { sqs } from './aws/sqs';
import { queueUrl } from './config';
import type { Logger } from './log';

/** The longest wait a failure may ask for (askedWaitSeconds). */
export const ASKED_WAIT_MAX_SECONDS = 900;
/** SQS's ceiling for a visibility timeout. */
const MAX_VISIBILITY_SECONDS = 12 * 3600;

/** The environment name of a queue's delays, set only by the local stack for fast tests (`1,2,4`). */
export const retryDelaysVariable = (queue: QueueName) =>
  `${queueUrlVariable(queue).replace('_URL', '')}_RETRY_DELAYS`;

/** The delays in force: the local stack's override, else the manifest's. */
export function retryDelays(queue: QueueName, declared: readonly number[] = []): readonly number[] {
  const local = process.env[retryDelaysVariable(queue)];
  if (local === undefined) return declared;
  return local
    .split(',')
    .filter((s) => s.trim() !== '')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isFinite(n) && n >= 0);
}

/**
 * The delay before the receive after failed receive `attempt` (1-based): the attempt's delay, or the last
 * one for later attempts, give or take 10 % so that the failures of one outage do not all come back at
 * once; whole seconds, at most 12 hours. Undefined when there are no delays (the visibility timeout rules).
 */
export function retryDelaySeconds(
  delays: readonly number[],
  attempt: number,
  random: () => number = Math.random,
): number | undefined {
  if (delays.length === 0) return undefined;
  const base = delays[Math.min(Math.max(attempt, 1), delays.length) - 1] ?? 0;
  const jittered = Math.round(base * (0.9 + 0.2 * random()));
  return Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, jittered));
}

/** Which receive of its message this is, 1 for the first (SQS's ApproximateReceiveCount). */
export const receiveCount = (record: SQSRecord) => Number(record.attributes?.ApproximateReceiveCount ?? 1);

export interface RetryPolicy {
  queue: QueueName;
  maxReceiveCount: number;
  retryDelaysSeconds?: readonly number[];
}

/**
 * How long the failure asks the next attempt to wait, in seconds: a vendor's rate limit carries it
 * (Discord's `retry_after`, a 429's `Retry-After`), as `retryAfterSeconds` on the error or in its
 * `details` (integrations/vendors/http.ts `VendorError`). Read by shape: the runtime knows no vendor.
 */
export function askedWaitSeconds(err: unknown): number | undefined {
  const e = err as { retryAfterSeconds?: unknown; details?: { retryAfterSeconds?: unknown } } | null;
  const asked = Number(e?.retryAfterSeconds ?? e?.details?.retryAfterSeconds);
  // At most 15 minutes, as a Retry-After header is read (vendors/http.ts): a body's figure is unbounded,
  // and the queues' schedules (and their stale-after times) assume no longer gap than their own delays.
  return Number.isFinite(asked) && asked > 0 ? Math.min(ASKED_WAIT_MAX_SECONDS, asked) : undefined;
}

/**
 * Delays the next receive of a record that failed: the retry schedule's delay, or the wait the failure
 * asked for (a vendor's rate limit, rounded up to whole seconds) when that is longer, since coming back
 * earlier would only be refused again and counts against the client with some vendors (Discord bans a
 * source after too many 429s). Not on the last receive: that message goes on to the DLQ, and delaying it
 * would only keep it from an operator.
 */
export async function delayRetry(
  policy: RetryPolicy,
  record: SQSRecord,
  log: Logger,
  err?: unknown,
): Promise<void> {
  const attempt = receiveCount(record);
  if (attempt >= policy.maxReceiveCount) return;
  const scheduled = retryDelaySeconds(retryDelays(policy.queue, policy.retryDelaysSeconds), attempt);
  const asked = askedWaitSeconds(err);
  if (scheduled === undefined && asked === undefined) return;
  const delay = Math.min(MAX_VISIBILITY_SECONDS, Math.max(scheduled ?? 0, Math.ceil(asked ?? 0)));
  try {
    await sqs().send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl(policy.queue),
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: delay,
      }),
    );
    log.info('retry delayed', {
      attempt,
      delaySeconds: delay,
      ...(asked !== undefined ? { askedSeconds: asked } : {}),
    });
  } catch (e) {
    log.warn('could not delay the retry; it comes back after the visibility timeout', { err: e });
  }
}

/** What bounds how long a message can take from its first receive to its move to the dead-letter queue. */
export interface RetrySchedule {
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
  retryDelaysSeconds?: readonly number[];
  consumer: { timeoutSeconds: number };
}

/**
 * The longest a message can stay in flight before SQS moves it to the DLQ: every receive may run the
 * consumer's whole timeout, and each gap between receives is the delayed retry (with its +10 % jitter) or,
 * when the consumer died before it could set one, the visibility timeout, whichever is longer.
 */
export function longestRetrySeconds(s: RetrySchedule): number {
  let total = s.maxReceiveCount * s.consumer.timeoutSeconds;
  for (let attempt = 1; attempt < s.maxReceiveCount; attempt++) {
    const delays = s.retryDelaysSeconds ?? [];
    const delay = delays.length ? Math.ceil(retryDelaySeconds(delays, attempt, () => 1) ?? 0) : 0;
    total += Math.max(s.visibilityTimeoutSeconds, delay);
  }
  return total;
}

/** The environment name of the local stack's override of `staleAfterSeconds` (tests shorten it). */
export const staleAfterVariable = (queue: QueueName) =>
  `${queueUrlVariable(queue).replace('_URL', '')}_STALE_AFTER_SECONDS`;

/**
 * After how long a piece of work this queue started and never finished may be started again (docs/decisions.md
 * "Deliveries always finish"): twice the longest retry schedule, so a message still waiting in a backlog or
 * for its dead-letter consumer is not overtaken by a second one. The local stack may set a shorter one.
 */
export function staleAfterSeconds(queue: QueueName, schedule: RetrySchedule): number {
  const local = Number(process.env[staleAfterVariable(queue)]);
  if (process.env[staleAfterVariable(queue)] !== undefined && Number.isFinite(local) && local >= 0)
    return local;
  return 2 * longestRetrySeconds(schedule);
}
