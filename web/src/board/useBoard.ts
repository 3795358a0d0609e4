/**
 * The board's data (issue 23): five columns loaded a page each (the list endpoint with `status=`), "Show
 * more" per column, and moves: the card changes column at once, the PATCH follows, and a refusal puts it
 * back with a notice. Every result is also written to the board's live region.
 *
 * Not SWR: a move changes two columns at once and must be undone exactly, and "Show more" appends to a
 * column whose pages moves have shifted (model.ts); a reducer over plain loads says that directly. The
 * loads and the move are the issues' data module's, whose table keeps the list screen and counts right.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { type IssueStatus, issueStatuses } from '#contracts/triage';
import { ApiError, errorCodeOf } from '../api';
import { toastError } from '../components/toast';
import { errorText } from '../i18n';
import { loadBoardColumn, moveIssue } from '../issues/data';
import { type BoardCard, type BoardFilters, boardReducer, columnQuery, emptyBoard, nextPage } from './model';

export function useBoard(projectId: string, filters: BoardFilters) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [board, dispatch] = useReducer(boardReducer, undefined, emptyBoard);
  const [announcement, setAnnouncement] = useState('');
  /** The card to focus once it is drawn in its new column (after a keyboard move). */
  const [focusNumber, setFocusNumber] = useState<number | null>(null);
  const current = useRef(board);
  current.current = board;
  // A load answered after the filters changed belongs to the board before: dropped.
  const generation = useRef(0);
  const filterKey = JSON.stringify(filters);

  const load = useCallback(
    async (status: IssueStatus, page: number) => {
      const gen = generation.current;
      dispatch({ type: 'loading', status });
      try {
        const answer = await loadBoardColumn(projectId, columnQuery(status, JSON.parse(filterKey), page));
        if (gen === generation.current) dispatch({ type: 'loaded', status, answer });
      } catch (error) {
        if (gen !== generation.current) return;
        if (error instanceof ApiError && error.unauthorized) navigate('/login', { replace: true });
        dispatch({ type: 'failed', status });
      }
    },
    [projectId, filterKey, navigate],
  );

  useEffect(() => {
    generation.current++;
    dispatch({ type: 'reset' });
    for (const status of issueStatuses) void load(status, 1);
  }, [load]);

  const loadMore = useCallback(
    (status: IssueStatus) => void load(status, nextPage(current.current[status])),
    [load],
  );

  const move = useCallback(
    async (card: BoardCard, to: IssueStatus, byKeyboard = false) => {
      const from = card.status;
      if (from === to) return;
      const names = { number: card.number, column: t(`triage.status.${to}`) };
      dispatch({ type: 'moved', card, from, to });
      if (byKeyboard) setFocusNumber(card.number);
      try {
        await moveIssue(projectId, card.number, to);
        setAnnouncement(t('board.moved', names));
      } catch (error) {
        dispatch({ type: 'moved', card: { ...card, status: to }, from: to, to: from });
        const message = t('board.moveFailed', { ...names, reason: errorText(errorCodeOf(error)) });
        setAnnouncement(message);
        toastError(message);
      }
    },
    [projectId, t],
  );

  return {
    board,
    loadMore,
    retry: (status: IssueStatus) => void load(status, nextPage(current.current[status])),
    move,
    announcement,
    focusNumber,
    focused: () => setFocusNumber(null),
  };
}

export type BoardState = ReturnType<typeof useBoard>;
