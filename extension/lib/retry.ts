/**
 * Filing an issue again after a lost answer (decision EXT-6): the same call, the same `Idempotency-Key`,
 * so the server answers the first call's issue instead of filing a second. Only failures that may have
 * left the call unanswered are retried: no connection (NETWORK) or a server error (5xx); a refusal is final.
 */
import { ApiError } from './api';

export async function withRetries<T>(
  attempt: () => Promise<T>,
  { tries = 3, pauseMs = 500 }: { tries?: number; pauseMs?: number } = {},
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const unanswered = error instanceof ApiError && (error.code === 'NETWORK' || error.status >= 500);
      if (!unanswered || n >= tries) throw error;
      await new Promise((r) => setTimeout(r, pauseMs * n));
    }
  }
}
