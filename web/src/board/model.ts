/**
 * The board's pure rules (issue 23): one column per status, each a paged slice of the list endpoint
 * (`status=<s>`, newest first), and what a move does to two columns before the server has answered. Kept
 * free of React so unit tests cover them directly.
 *
 * Paging after moves: a column's loaded cards are a prefix of the server's order (number descending), so
 * the next page is the one after the prefix. A card moved out shortens the prefix, a card moved in
 * lengthens it, unless it sorts below the last card the server sent (`floor`): it is shown at the end of
 * the column but not counted, so "Show more" neither skips nor repeats a card (duplicates are dropped too).
 */

import { limits } from '#contracts/limits';
import type { IssueListAnswer, IssueRow } from '#contracts/review';
import type { IssueStatus, Priority } from '#contracts/triage';
import { isOpenStatus, issueStatuses } from '#contracts/triage';

export type BoardCard = IssueRow;

/** The list's filters the board applies to every column (status is the columns themselves). */
export interface BoardFilters {
  priority?: Priority | undefined;
  assignee?: string | undefined;
  label?: string | undefined;
}

export interface Column {
  cards: BoardCard[];
  /** The column's count (the list's `total_requests`, kept in step with moves). */
  total: number;
  /** The lowest number the server has sent for this column; 0 once the whole column is loaded. */
  floor: number;
  /** Pages asked for and not yet answered (first load or "Show more"). */
  loading: boolean;
  /** The last load failed (the column offers to try again). */
  failed: boolean;
  /** Set when a filtered column was answered from a bounded window of issues (`filterWindow`). */
  window?: number | undefined;
}

export type Board = Record<IssueStatus, Column>;

export const emptyColumn = (): Column => ({
  cards: [],
  total: 0,
  floor: Number.POSITIVE_INFINITY,
  loading: true,
  failed: false,
});

export const emptyBoard = (): Board =>
  Object.fromEntries(issueStatuses.map((s) => [s, emptyColumn()])) as Board;

/** Cards the column shows that are part of the server's order loaded so far (see the module comment). */
export const prefixLength = (column: Column) => column.cards.filter((c) => c.number >= column.floor).length;

/** The page "Show more" (or the first load) asks for. */
export const nextPage = (column: Column) => Math.floor(prefixLength(column) / limits.issuesPerPage) + 1;

export const hasMore = (column: Column) => column.cards.length < column.total;

/** The widest `filterWindow` any column was answered with (combined filters), for one notice on the board. */
export function boardWindow(board: Board): number | undefined {
  const windows = Object.values(board).flatMap((c) => (c.window === undefined ? [] : [c.window]));
  return windows.length ? Math.max(...windows) : undefined;
}

/** The list call of one column's page: the filters, the status, and `resolved` for the last two. */
export function columnQuery(status: IssueStatus, filters: BoardFilters, page: number) {
  return {
    page,
    status,
    resolved: isOpenStatus(status) ? undefined : '1',
    priority: filters.priority,
    assignee: filters.assignee,
    label: filters.label,
  };
}

const byNumberDesc = (a: BoardCard, b: BoardCard) => b.number - a.number;

export type BoardAction =
  | { type: 'reset' }
  | { type: 'loading'; status: IssueStatus }
  | { type: 'failed'; status: IssueStatus }
  | { type: 'loaded'; status: IssueStatus; answer: IssueListAnswer }
  | { type: 'moved'; card: BoardCard; from: IssueStatus; to: IssueStatus };

export function boardReducer(board: Board, action: BoardAction): Board {
  switch (action.type) {
    case 'reset':
      return emptyBoard();
    case 'loading':
      return { ...board, [action.status]: { ...board[action.status], loading: true, failed: false } };
    case 'failed':
      return { ...board, [action.status]: { ...board[action.status], loading: false, failed: true } };
    case 'loaded':
      return { ...board, [action.status]: withPage(board[action.status], action.answer) };
    case 'moved':
      if (action.from === action.to) return board;
      return {
        ...board,
        [action.from]: without(board[action.from], action.card.number),
        [action.to]: withCard(board[action.to], { ...action.card, status: action.to }),
      };
  }
}

/** A page merged in: new cards appended in order, duplicates (shifted by moves) dropped. */
function withPage(column: Column, answer: IssueListAnswer): Column {
  const known = new Set(column.cards.map((c) => c.number));
  const cards = [...column.cards, ...answer.requests.filter((r) => !known.has(r.number))].sort(byNumberDesc);
  const last = answer.requests.at(-1)?.number;
  const floor = last === undefined ? column.floor : Math.min(column.floor, last);
  const complete = cards.length >= answer.total_requests || answer.requests.length < limits.issuesPerPage;
  return {
    cards,
    total: Math.max(answer.total_requests, cards.length),
    floor: complete ? 0 : floor,
    loading: false,
    failed: false,
    window: answer.filterWindow,
  };
}

function without(column: Column, n: number): Column {
  if (!column.cards.some((c) => c.number === n)) return { ...column, total: Math.max(0, column.total - 1) };
  return {
    ...column,
    cards: column.cards.filter((c) => c.number !== n),
    total: Math.max(0, column.total - 1),
  };
}

function withCard(column: Column, card: BoardCard): Column {
  const cards = [...column.cards.filter((c) => c.number !== card.number), card].sort(byNumberDesc);
  return { ...column, cards, total: column.total + 1 };
}

/** The column a keyboard move goes to: the one left or right of `status`, none past either end. */
export function neighbourStatus(status: IssueStatus, step: -1 | 1): IssueStatus | null {
  return issueStatuses[issueStatuses.indexOf(status) + step] ?? null;
}

/** The query names the list and the board share: switching between them keeps these (not page, search, sort). */
export const sharedFilterNames = ['priority', 'assignee', 'label'] as const;

/** `?priority=high&page=3` → `?priority=high`: the address query the other view is opened with. */
export function carriedFilters(search: string): string {
  const from = new URLSearchParams(search);
  const to = new URLSearchParams();
  for (const name of sharedFilterNames) {
    const value = from.get(name);
    if (value) to.set(name, value);
  }
  const rest = to.toString();
  return rest ? `?${rest}` : '';
}
