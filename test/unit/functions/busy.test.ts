/**
 * A write that lost every retry to concurrent changes of the same item (decision Tr-C15): BUSY, 409 with
 * `Retry-After`, a code the client can act on, never the raw cancellation that answered 500.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { isTransactionConflict, retryConflicts, retryRaces } from '#runtime/db';
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

describe('retryRaces with a bound in time', () => {
  it('tries again while races are lost, and is BUSY once the bound has passed', async () => {
    const seen: number[] = [];
    const started = Date.now();
    const err = await retryRaces(
      isTransactionConflict,
      async (attempt) => {
        seen.push(attempt);
        throw conflict();
      },
      { withinMs: 60 },
      () => 10,
    ).catch((e: unknown) => e);
    expect((err as AppError).code).toBe('BUSY');
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
    // Counted from 1, one more each round, several rounds within the bound.
    expect(seen.length).toBeGreaterThan(2);
    expect(seen).toEqual(seen.map((_, i) => i + 1));
  });

  it('answers what a later try returns once it wins', async () => {
    const out = await retryRaces(
      isTransactionConflict,
      async (attempt) => {
        if (attempt < 3) throw conflict();
        return `won on ${attempt}`;
      },
      { withinMs: 5000 },
    );
    expect(out).toBe('won on 3');
  });
});
