/**
 * How a failed zod parse becomes the API's answer and a form's marks (schemas.ts's module comment): a rule
 * whose failure has its own catalogue code carries that code as its issue message. Apart from schemas.ts,
 * so that the HTTP pipeline, which every function carries, carries no schema it does not use.
 */
import type * as z from 'zod';
import { type ErrorCode, isErrorCode } from './errors';

/** The catalogue code a failed parse maps to. */
export function firstErrorCode(error: z.ZodError): ErrorCode {
  for (const issue of error.issues) if (isErrorCode(issue.message)) return issue.message;
  return 'INVALID_PARAMETERS';
}

/** Field paths of a failed parse, for forms that mark the offending input. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    out[key] ??= isErrorCode(issue.message) ? issue.message : 'INVALID_PARAMETERS';
  }
  return out;
}
