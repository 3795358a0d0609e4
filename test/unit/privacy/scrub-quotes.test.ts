/**
 * Erasure's copies (docs/privacy.md "Requests about a person's data", decision DR-9): what a team comment
 * keeps of a reporter's words once they are erased.
 */
import { describe, expect, it } from 'vitest';
import { scrubQuotes } from '../../../functions/issues/data-requests';

const email = 'ada@mail.example';
const theirs = [
  'Checkout fails for Grace Hopper',
  'Still broken, my card ends 4242\nand the page reloads',
  'ok',
];

describe('scrubQuotes', () => {
  it('erases the address in any case, and their words quoted whole', () => {
    expect(
      scrubQuotes('Mailed ADA@Mail.Example about “Checkout fails for Grace Hopper”.', email, theirs),
    ).toBe('Mailed erased about “erased”.');
  });

  it('erases a quoted line taken from one of their texts, and keeps the team’s own lines', () => {
    expect(scrubQuotes('> Still broken, my card ends 4242\nWe refunded it. ok?', email, theirs)).toBe(
      '> erased\nWe refunded it. ok?',
    );
    expect(scrubQuotes('>> and the page reloads\n> Our own earlier note', email, theirs)).toBe(
      '>> erased\n> Our own earlier note',
    );
  });

  it('leaves short texts of theirs alone in others’ words (“ok” is everyone’s)', () => {
    expect(scrubQuotes('ok, fixed', email, theirs)).toBe('ok, fixed');
    expect(scrubQuotes('Nothing of theirs here', email, [])).toBe('Nothing of theirs here');
  });
});
