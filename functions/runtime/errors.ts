/** Domain errors carry a catalogue code; the HTTP layer turns them into the error envelope. */
import type { ErrorCode } from '#contracts/errors';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly fields?: Record<string, string>,
    options?: { cause?: unknown },
  ) {
    super(code, options);
    this.name = 'AppError';
  }
}

export function fail(code: ErrorCode, fields?: Record<string, string>): never {
  throw new AppError(code, fields);
}
