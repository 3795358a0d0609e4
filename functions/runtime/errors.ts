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
