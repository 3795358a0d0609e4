/** The merge index's pure parts (issue 37, docs/data-model.md 4.19 "Merge index"): its writes and its counts. */
import { describe, expect, it } from 'vitest';
import {
  exactTotal,
  type MergeIndexState,
  mergeIndexActions,
  reportTags,
  restCounts,
} from '../../../functions/issues/merge-index';

const pid = '0f8fad5b-d9cb-469f-a165-70867728950e';
const alone: MergeIndexState = { list: 'open', duplicate: false, reports: 1 };

type Action = {
  Update?: { Key: { sk: string }; UpdateExpression: string; ExpressionAttributeNames?: object };
};
const described = (actions: unknown[]) =>
  (actions as Action[]).map((a) => [
    a.Update?.Key.sk,
    a.Update?.UpdateExpression.split(' ')[0],
    Object.values(a.Update?.ExpressionAttributeNames ?? {}).sort(),
  ]);

describe('merge index writes', () => {
  it('moves a merge of two issues of one list with ONE MSTATS update (a transaction names an item once)', () => {
    const actions = mergeIndexActions(pid, [
      { n: 3, before: alone, after: { ...alone, duplicate: true } },
      { n: 1030, before: { ...alone, reports: 2 }, after: { ...alone, reports: 3 } },
    ]);
    expect(described(actions)).toEqual([
      ['MSTATS#open', 'ADD', ['d_000000', 'r0002_000001', 'r0003_000001']],
      ['MBLOCK#open#d#000000', 'ADD', []],
      ['MBLOCK#open#r0002#000001', 'DELETE', []],
      ['MBLOCK#open#r0003#000001', 'ADD', []],
    ]);
  });

  it("carries a primary's tags to the other list when it moves, and takes them away when it is deleted", () => {
    const primary: MergeIndexState = { list: 'open', duplicate: false, reports: 4 };
    const moved = described(
      mergeIndexActions(pid, [{ n: 9, before: primary, after: { ...primary, list: 'resolved' } }]),
    );
    expect(moved.map((m) => m[0]).sort()).toEqual([
      'MBLOCK#open#p#000000',
      'MBLOCK#open#r0004#000000',
      'MBLOCK#resolved#p#000000',
      'MBLOCK#resolved#r0004#000000',
      'MSTATS#open',
      'MSTATS#resolved',
    ]);
    expect(described(mergeIndexActions(pid, [{ n: 9, before: primary, after: null }])).length).toBe(3);
    // An issue nothing was merged into is in no tag: no action at all.
    expect(mergeIndexActions(pid, [{ n: 9, before: alone, after: { ...alone, list: 'resolved' } }])).toEqual(
      [],
    );
  });
});

describe('merge index reads', () => {
  const mstats = { d_000000: 3, d_000001: 1, p_000000: 2, r0002_000000: 1, r0005_000000: 1, r0003_000001: 0 };
  it('orders the counts most reports first and leaves empty ones out', () => {
    expect(reportTags(mstats)).toEqual(['r0005', 'r0002']);
  });
  it("counts the list's rest per block less the excluded tags, and the totals", () => {
    const stats = { open_000000: 10, open_000001: 4, resolved_000000: 7 };
    expect(restCounts(stats, mstats, 'open', ['p', 'd'])).toEqual([
      [0, 5],
      [1, 3],
    ]);
    expect(exactTotal(14, mstats, { reportsFirst: true, exclude: ['d'], dir: 'newest' })).toBe(10);
    expect(exactTotal(14, mstats, { reportsFirst: true, exclude: [], dir: 'newest' })).toBe(14);
    expect(exactTotal(14, mstats, { reportsFirst: false, exclude: ['d'], dir: 'oldest' })).toBe(10);
  });
});
