/**
 * The time budget of one delivery record (docs/decisions.md "Deliveries always finish"): the deliverer runs
 * within the invocation's time left, less a reserve for the writes; when it runs out the delivery stops
 * waiting, so a last receive still writes status 3 itself.
 */
import { deliveryQueue } from './queues';

/**
 * The budget: the invocation's time left, less a reserve (a quarter of it, at most 10 s) for the status
 * write or the hand-over after the deliverer stops. Without a Lambda context (unit tests), the consumer's
 * declared timeout.
 */
export function budgetMs(context: { getRemainingTimeInMillis(): number } | undefined): number {
  const left = context?.getRemainingTimeInMillis() ?? deliveryQueue.consumer.timeoutSeconds * 1000;
  return Math.max(0, left - Math.min(10_000, left / 4));
}

/** Thrown when the budget runs out: the deliverer may still be talking to the vendor (an unknown outcome). */
export class BudgetExceeded extends Error {
  constructor(ms: number) {
    super(`the delivery did not finish within its ${Math.round(ms / 1000)} s budget`);
    this.name = 'BudgetExceeded';
  }
}

/** Runs `work` with a signal that aborts after `ms`; rejects with BudgetExceeded then, whether or not it stops. */
export async function withinBudget<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new BudgetExceeded(ms);
      abort.abort(err);
      reject(err);
    }, ms);
  });
  try {
    return await Promise.race([work(abort.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Receives before the DLQ, as the manifest declares it (the local stack creates the queue from it too). */
export const lastReceive = () => deliveryQueue.maxReceiveCount;
