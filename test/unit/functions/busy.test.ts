/**
 * A write that lost every retry to concurrent changes of the same item (decision Tr-C15): BUSY, 409 with
 * `Retry-After`, a code the client can act on, never the raw cancellation that answered 500.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { retryConflicts } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { errorResponse } from '#runtime/http';

const conflict = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'TransactionConflict' }],
  });

describe('a write that keeps losing races', () => {
  it('ends as BUSY after its tries, and the answer says when to try again', async () => {
    let tries = 0;
    const write = async () => {
      tries++;
      throw conflict();
    };
    const err = await retryConflicts(write, 2).catch((e: unknown) => e);
    expect(tries).toBe(2);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('BUSY');
    const res = errorResponse('BUSY', 'en');
    expect(res.statusCode).toBe(409);
    expect(res.headers?.['retry-after']).toBe('1');
    expect(JSON.parse(String(res.body))).toEqual({
      status: 'error',
      code: 'BUSY',
      msg: 'Others are changing this right now, please try again in a moment',
    });
  });

  it('passes on any other failure at once', async () => {
    let tries = 0;
    const err = await retryConflicts(async () => {
      tries++;
      throw new Error('boom');
    }).catch((e: unknown) => e);
    expect([tries, (err as Error).message]).toEqual([1, 'boom']);
  });
});
