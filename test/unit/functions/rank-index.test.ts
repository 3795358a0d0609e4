/** The facet rank index's pure parts (issue 23, docs/data-model.md 4.13) and the triage state arithmetic. */
import { describe, expect, it } from 'vitest';
import {
  blockNumbers,
  countsOf,
  facetsOf,
  type IndexState,
  indexActions,
  pagePlan,
  priorityOrder,
  ublockNumbers,
} from '../../../functions/issues/rank-index';
import { changesOf, type IssueState, nextState } from '../../../functions/issues/triage';

const pid = '0f8fad5b-d9cb-469f-a165-70867728950e';
const open: IndexState = { fields: { status: 'new', priority: 'none', assignee: null, labels: [] }, u: 5 };
const keyOf = (a: Record<string, { Key?: { sk: string } } | undefined>) =>
  String(Object.values(a).find((x) => x?.Key)?.Key?.sk);

describe('facets', () => {
  it('names one facet per field and per label, in the list the status puts the issue in', () => {
    expect(
      facetsOf({ status: 'in_review', priority: 'high', assignee: 'u1', labels: ['a', 'b', 'a'] }),
    ).toEqual([
      'open.status.in_review',
      'open.priority.high',
      'open.assignee.u1',
      'open.label.a',
      'open.label.b',
    ]);
    expect(facetsOf({ status: 'closed', priority: 'none', assignee: null, labels: [] })).toEqual([
      'resolved.status.closed',
      'resolved.priority.none',
      'resolved.assignee.none',
    ]);
    expect(priorityOrder('open')[0]).toBe('open.priority.urgent');
    expect(priorityOrder('open')[4]).toBe('open.priority.none');
  });
});

describe('the write builder', () => {
  it('indexes a new issue: three facets (count and offset) and its u', () => {
    const actions = indexActions(pid, 1025, null, open);
    const sks = actions.map((a) => keyOf(a as never));
    expect(sks).toEqual([
      'FSTATS#open.status.new',
      'FBLOCK#open.status.new#000001',
      'FSTATS#open.priority.none',
      'FBLOCK#open.priority.none#000001',
      'FSTATS#open.assignee.none',
      'FBLOCK#open.assignee.none#000001',
      'UBLOCK#open#000000',
      'USTATS#open',
    ]);
    expect(actions[1]?.Update?.ExpressionAttributeValues).toEqual({ ':off': new Set([0]) });
    expect(actions[6]?.Update?.ExpressionAttributeValues).toEqual({ ':off': 4 });
  });

  it('moves only the facets that change, and overwrites u within its u-block', () => {
    const after: IndexState = { fields: { ...open.fields, priority: 'high' }, u: 9 };
    const sks = indexActions(pid, 3, open, after).map((a) => keyOf(a as never));
    expect(sks).toEqual([
      'FSTATS#open.priority.none',
      'FBLOCK#open.priority.none#000000',
      'FSTATS#open.priority.high',
      'FBLOCK#open.priority.high#000000',
      'UBLOCK#open#000000',
    ]);
  });

  it('never writes one item twice, even moving between the lists with ten labels and across u-blocks', () => {
    const labels = Array.from({ length: 10 }, (_, i) => `label${i}xx`);
    const before: IndexState = {
      fields: { status: 'in_progress', priority: 'low', assignee: 'a', labels },
      u: 1000,
    };
    const after: IndexState = {
      fields: { status: 'closed', priority: 'low', assignee: 'a', labels },
      u: 5000,
    };
    const actions = indexActions(pid, 77, before, after);
    const sks = actions.map((a) => keyOf(a as never));
    expect(new Set(sks).size).toBe(sks.length);
    expect(actions.length).toBe(2 * 2 * 13 + 4);
    expect(actions.length).toBeLessThanOrEqual(30 + 26);
  });
});

describe('page reads', () => {
  it('counts blocks ascending and ignores empty ones', () => {
    expect(countsOf({ pk: 'x', sk: 'y', '000002': 3, '000000': 0, '000001': 5 })).toEqual([
      [1, 5],
      [2, 3],
    ]);
  });

  it('plans a page across blocks and across concatenated facets, newest or oldest first', () => {
    const a: [number, number][] = [
      [0, 4],
      [1, 3],
    ];
    const b: [number, number][] = [[0, 5]];
    // Newest first: a's block 1 (3), a's block 0 (4), then b.
    expect(pagePlan([a, b], 2, 4, 'newest')).toEqual([
      { segment: 0, b: 1, from: 2, take: 1 },
      { segment: 0, b: 0, from: 0, take: 3 },
    ]);
    expect(pagePlan([a, b], 6, 10, 'newest')).toEqual([
      { segment: 0, b: 0, from: 3, take: 1 },
      { segment: 1, b: 0, from: 0, take: 5 },
    ]);
    expect(pagePlan([a], 0, 2, 'oldest')).toEqual([{ segment: 0, b: 0, from: 0, take: 2 }]);
    expect(pagePlan([a, b], 12, 10, 'newest')).toEqual([]);
  });

  it('reads the numbers of an FBLOCK and the order of a UBLOCK', () => {
    expect(blockNumbers({ o: new Set([0, 5, 2]) }, 1, 'newest')).toEqual([1030, 1027, 1025]);
    expect(blockNumbers({ o: new Set([0, 5, 2]) }, 0, 'oldest')).toEqual([1, 3, 6]);
    expect(ublockNumbers({ pk: 'p', sk: 's', i7: 3, i2: 9, i40: 1 }, 'newest')).toEqual([2, 7, 40]);
  });
});

describe('triage state', () => {
  const cur: IssueState = {
    fields: { status: 'new', priority: 'none', assignee: null, labels: ['live1', 'gone1'] },
    dueDate: null,
    u: 1,
  };
  const live = new Set(['live1', 'live2']);

  it('restore follows SPEC: false resolves an open issue, true reopens as new; a closed one stays closed', () => {
    expect(nextState(cur, { restore: false }, live).fields.status).toBe('resolved');
    const closed = { ...cur, fields: { ...cur.fields, status: 'closed' as const } };
    expect(nextState(closed, { restore: false }, live).fields.status).toBe('closed');
    expect(nextState(closed, { restore: true }, live).fields.status).toBe('new');
    expect(nextState(cur, { restore: true }, live).fields.status).toBe('new');
  });

  it('adds and removes labels, dropping deleted ones on the way', () => {
    const next = nextState(cur, { labels: { add: ['live2'], remove: ['live1'] } }, live);
    expect(next.fields.labels).toEqual(['live2']);
    expect(changesOf(cur, next)).toEqual({ labels: { from: ['live1', 'gone1'], to: ['live2'] } });
    // Nothing asked of the labels: they stay as stored.
    expect(nextState(cur, { priority: 'low' }, live).fields.labels).toEqual(['live1', 'gone1']);
  });

  it('reports no change when everything is already so (idempotent)', () => {
    expect(changesOf(cur, nextState(cur, { status: 'new', assignee: null, dueDate: null }, live))).toEqual(
      {},
    );
  });
});
