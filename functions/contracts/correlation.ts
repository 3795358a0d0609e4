/**
 * Follows one report from the intake (its API request id) through fan-out to every delivery, so that one
 * log query finds all of its lines (docs/operations.md "Alarms"). Optional on a message: one without it
 * (sent before it existed, or by a later sender that has none) gets its SQS message id. Anything on a queue
 * is input, so its shape is bounded. Apart from messages.ts, so that the HTTP pipeline, which every
 * function carries and which takes a caller's request id as the correlation id, carries no message schema.
 */
import * as z from 'zod';

export const correlationIdSchema = z.string().regex(/^[A-Za-z0-9+/=._:-]{1,128}$/);
