/** Domain errors carry a catalogue code; the HTTP layer turns them into the error envelope. */
import type { ErrorCode, ErrorDetails } from '#contracts/errors';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly fields?: Record<string, string>,
    options?: { cause?: unknown },
    /** What the envelope adds to the code (when a block ends). */
    readonly details?: ErrorDetails,
  ) {
    super(code, options);
    this.name = 'AppError';
  }
}

export function fail(code: ErrorCode, fields?: Record<string, string>, details?: ErrorDetails): never {
  throw new AppError(code, fields, undefined, details);
}

/** Node's codes for a connection that failed or broke (reset, refused, hung up, timed out, no route). */
const networkCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Whether `err` is an AWS SDK call that could not reach its service (DynamoDB dropped mid-call: connection
 * reset, socket hang up, refused), after the SDK's own retries. Such a call is "not ready, try again", as
 * every call is while the store is down, not a fault of the handler. Only SDK errors (they carry
 * `$metadata`) count: a vendor that cannot be reached has its own code.
 */
export function isStoreUnreachable(err: unknown): boolean {
  const e = err as { $metadata?: unknown; code?: unknown; name?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== 'object' || e.$metadata === undefined) return false;
  for (let at: typeof e | undefined = e, depth = 0; at && depth < 5; at = at.cause as typeof e, depth++) {
    if (typeof at.code === 'string' && networkCodes.has(at.code)) return true;
    if (at.name === 'TimeoutError') return true;
  }
  return false;
}
