/**
 * The board's pure rules (issue 23, web/src/board/model.ts): a column's query, paging that neither skips nor
 * repeats a card after moves, what a move and its rollback do to two columns, keyboard neighbours, the
 * filter window notice and the filters carried between list and board.
 */
import { describe, expect, it } from 'vitest';
import type { IssueListAnswer, IssueRow } from '#contracts/review';
import type { IssueStatus } from '#contracts/triage';
import {
  type Board,
  boardReducer,
  boardWindow,
  carriedFilters,
  columnQuery,
  emptyBoard,
  hasMore,
  neighbourStatus,
  nextPage,
} from '../../../web/src/board/model';
import { backTarget } from '../../../web/src/issues/model';

const row = (number: number, status: IssueStatus = 'new'): IssueRow => ({
  number,
  title: `Issue ${number}`,
  preview: '',
  date_created: { date: '2026-01-01T00:00:00.000Z' },
  total_files: 0,
  total_screenshots: 0,
  status,
  priority: 'none',
  assignee: null,
  labels: [],
  dueDate: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** Page `page` (10 a page, newest first) of a column holding `numbers`. */
function page(numbers: number[], p: number, status: IssueStatus = 'new'): IssueListAnswer {
  const sorted = [...numbers].sort((a, b) => b - a);
  return {
    requests: sorted.slice((p - 1) * 10, p * 10).map((n) => row(n, status)),
    total_requests: numbers.length,
    page: p,
  };
}

const load = (board: Board, status: IssueStatus, answer: IssueListAnswer) =>
  boardReducer(board, { type: 'loaded', status, answer });
const numbers = (board: Board, status: IssueStatus) => board[status].cards.map((c) => c.number);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('the board model', () => {
  it('asks each column for its status, with resolved=1 for the last two and the shared filters', () => {
    expect(columnQuery('new', {}, 1)).toEqual({ page: 1, status: 'new' });
    expect(columnQuery('closed', { priority: 'high', assignee: 'me', label: 'abcdefgh' }, 3)).toEqual({
      page: 3,
      status: 'closed',
      resolved: '1',
      priority: 'high',
      assignee: 'me',
      label: 'abcdefgh',
    });
  });

  it('loads one page at first and appends the next on "Show more"', () => {
    const server = range(1, 25);
    let board = load(emptyBoard(), 'new', page(server, 1));
    expect(numbers(board, 'new')).toEqual(range(16, 25).reverse());
    expect(board.new.total).toBe(25);
    expect(hasMore(board.new)).toBe(true);
    expect(nextPage(board.new)).toBe(2);
    board = load(board, 'new', page(server, 2));
    board = load(board, 'new', page(server, 3));
    expect(numbers(board, 'new')).toEqual(range(1, 25).reverse());
    expect(hasMore(board.new)).toBe(false);
    expect(board.new.floor).toBe(0);
  });

  it('moves a card between columns with both counts, and a rollback restores both exactly', () => {
    let board = load(emptyBoard(), 'new', page([1, 2, 3], 1));
    board = load(board, 'in_progress', page([4], 1, 'in_progress'));
    const before = board;
    const card = board.new.cards.find((c) => c.number === 2)!;
    board = boardReducer(board, { type: 'moved', card, from: 'new', to: 'in_progress' });
    expect(numbers(board, 'new')).toEqual([3, 1]);
    expect(numbers(board, 'in_progress')).toEqual([4, 2]);
    expect([board.new.total, board.in_progress.total]).toEqual([2, 2]);
    expect(board.in_progress.cards[1]!.status).toBe('in_progress');
    const moved = board.in_progress.cards[1]!;
    board = boardReducer(board, { type: 'moved', card: moved, from: 'in_progress', to: 'new' });
    expect(board).toEqual(before);
  });

  it('pages a column after cards left it without skipping one', () => {
    // 25 new issues, page 1 shown (25…16); #20 moves out: the server's page 2 now starts at #14, not #15.
    let server = range(1, 25);
    let board = load(emptyBoard(), 'new', page(server, 1));
    board = boardReducer(board, { type: 'moved', card: row(20), from: 'new', to: 'in_review' });
    server = server.filter((n) => n !== 20);
    expect(nextPage(board.new)).toBe(1);
    board = load(board, 'new', page(server, nextPage(board.new)));
    expect(numbers(board, 'new')).toEqual([25, 24, 23, 22, 21, 19, 18, 17, 16, 15]);
    board = load(board, 'new', page(server, nextPage(board.new)));
    board = load(board, 'new', page(server, nextPage(board.new)));
    expect(numbers(board, 'new')).toEqual(server.toSorted((a, b) => b - a));
    expect(board.new.total).toBe(24);
  });

  it('pages a column after a card came in below its loaded part without repeating or skipping one', () => {
    // 25 in progress, 25…16 shown; #3 comes in from New: shown at the end, but not counted as loaded.
    let server = range(4, 28).filter((n) => n !== 3);
    let board = load(emptyBoard(), 'in_progress', page(server, 1, 'in_progress'));
    board = boardReducer(board, { type: 'moved', card: row(3), from: 'new', to: 'in_progress' });
    server = [...server, 3];
    expect(numbers(board, 'in_progress').at(-1)).toBe(3);
    expect(nextPage(board.in_progress)).toBe(2);
    // And one in the loaded part (#29 from New) counts as loaded: page 2 shifts by one and is deduplicated.
    board = boardReducer(board, { type: 'moved', card: row(29), from: 'new', to: 'in_progress' });
    server = [...server, 29];
    while (hasMore(board.in_progress))
      board = load(board, 'in_progress', page(server, nextPage(board.in_progress), 'in_progress'));
    expect(numbers(board, 'in_progress')).toEqual(server.toSorted((a, b) => b - a));
  });

  it('keeps a column count at zero or more when a card it never showed leaves it', () => {
    const board = boardReducer(emptyBoard(), { type: 'moved', card: row(7), from: 'new', to: 'closed' });
    expect(board.new.total).toBe(0);
    expect(board.closed.total).toBe(1);
  });

  it('finds the column left and right for the keyboard, none past either end', () => {
    expect(neighbourStatus('new', -1)).toBeNull();
    expect(neighbourStatus('new', 1)).toBe('in_progress');
    expect(neighbourStatus('in_review', 1)).toBe('resolved');
    expect(neighbourStatus('closed', 1)).toBeNull();
  });

  it('names the widest filter window of the columns, none when every column was answered whole', () => {
    let board = load(emptyBoard(), 'new', page([1], 1));
    expect(boardWindow(board)).toBeUndefined();
    board = load(board, 'closed', { ...page([2], 1, 'closed'), filterWindow: 500 });
    expect(boardWindow(board)).toBe(500);
  });

  it('carries priority, assignee and label between list and board, and nothing else', () => {
    expect(
      carriedFilters('?priority=high&assignee=me&label=abcdefgh&page=3&search=x&sort=oldest&status=new'),
    ).toBe('?priority=high&assignee=me&label=abcdefgh');
    expect(carriedFilters('?page=2')).toBe('');
  });

  it('lets "back" from an issue return to the board it was opened from', () => {
    const board = '/profile/site/p1/board';
    expect(backTarget({ from: `${board}?priority=high` }, 'p1', 0)).toBe(`${board}?priority=high`);
    expect(backTarget({ from: '/profile/site/p2/board' }, 'p1', 0)).toBe('/profile/site/p1');
  });
});
