/**
 * What a duplicate owes its primary's status (functions/issues/follow.ts, docs/similar.md "Following the
 * primary"): resolved with it while open, back to what it had when the primary reopens or it is unmerged,
 * and left alone when it was resolved on its own or a member set its status since.
 */
import { describe, expect, it } from 'vitest';
import { followDecision } from '../../../functions/issues/follow';

const dup = (status: string, extra: Record<string, unknown> = {}) => ({ status, duplicateOf: 12, ...extra });

describe('a duplicate of #12', () => {
  it('is resolved with its primary from any open status, remembering it', () => {
    for (const s of ['new', 'in_progress', 'in_review'])
      expect(followDecision(dup(s), 12, 'resolved')).toEqual({
        status: 'resolved',
        follow: { primary: 12, had: s },
      });
    // Closing the primary resolves it too (the primary left the open list).
    expect(followDecision(dup('new'), 12, 'closed')?.status).toBe('resolved');
  });

  it('is left alone when resolved or closed on its own, or while the primary is open', () => {
    expect(followDecision(dup('resolved'), 12, 'resolved')).toBeNull();
    expect(followDecision(dup('closed'), 12, 'resolved')).toBeNull();
    expect(followDecision(dup('new'), 12, 'in_progress')).toBeNull();
    // Reopening the primary: resolved on its own (nothing remembered), it stays resolved.
    expect(followDecision(dup('resolved'), 12, 'new')).toBeNull();
  });

  it('goes back to what it had when the primary reopens, and only when still resolved with it', () => {
    const followed = dup('resolved', { followedFrom: 'in_review' });
    expect(followDecision(followed, 12, 'new')).toEqual({ status: 'in_review', follow: { primary: 12 } });
    expect(followDecision(followed, 12, 'resolved')).toBeNull();
    // A member closed it since (which would have removed followedFrom): never back.
    expect(followDecision(dup('closed', { followedFrom: 'new' }), 12, 'new')).toBeNull();
    // Merged elsewhere meanwhile: not this primary's.
    expect(followDecision({ ...followed, duplicateOf: 13 }, 12, 'new')).toBeNull();
  });

  it('goes back to what it had when unmerged after following, and is left alone otherwise', () => {
    const alone = { status: 'resolved', followedFrom: 'new' };
    expect(followDecision(alone, 12, null)).toEqual({
      status: 'new',
      follow: { primary: 12, alone: true },
    });
    expect(followDecision({ status: 'resolved' }, 12, null)).toBeNull();
    // Still a duplicate (merged again meanwhile): the unmerge's step is not its to take.
    expect(followDecision(dup('resolved', { followedFrom: 'new' }), 12, null)).toBeNull();
  });
});
