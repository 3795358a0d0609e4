/**
 * Moving through a list from the issue screen (issue 19): Previous and Next in the list's order, Resolve
 * or Reopen (then on to the next issue of the list, which offers Undo), and the shortcuts j (next),
 * k (previous) and e (resolve). The list to go back to travels in the history state.
 */
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { IssueAnswer } from '#contracts/review';
import { errorCodeOf } from '../api';
import { toastError } from '../components/toast';
import { errorText } from '../i18n';
import { paths } from '../paths';
import { setIssueState } from './data';
import { afterLeaving, backTarget, type FromList, isShortcutIgnored, listNeighbours } from './model';

export interface IssueMoves {
  /** The list to go back to. */
  back: string;
  previous: string | null;
  next: string | null;
  /** The history state that moving on keeps. */
  keep: FromList | null;
  busy: boolean;
  toggle: () => Promise<void>;
}

/**
 * `paused` while something covers the screen (the media viewer): the shortcuts then belong to it.
 * `triage`: the caller may resolve and reopen (not a GUEST); without it e does nothing.
 */
export function useIssueMoves(
  projectId: string,
  issue: IssueAnswer,
  paused: boolean,
  triage = true,
): IssueMoves {
  const navigate = useNavigate();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const back = backTarget(location.state, projectId, issue.deleted);
  const resolved = issue.deleted === 1;
  const neighbour = (n: number | null) => (n ? paths.ticket(projectId, String(n)) : null);
  const order = listNeighbours(issue);
  const previous = neighbour(order.previous);
  const next = neighbour(order.next);
  // Moving on keeps the list to go back to, without the Undo of an earlier move.
  const keep: FromList | null = (location.state as Partial<FromList> | null)?.from ? { from: back } : null;

  async function toggle() {
    setBusy(true);
    try {
      await setIssueState(projectId, issue.number, resolved, () => {
        // On to the next issue of this list (or the list when it was the last), which offers Undo.
        const target = neighbour(afterLeaving(issue));
        const state: FromList = { from: back, undo: { number: issue.number, resolved: !resolved } };
        navigate(target ?? back, { state });
      });
    } catch (error) {
      setBusy(false);
      toastError(errorText(errorCodeOf(error)));
    }
  }

  // Shortcuts: not while typing, not with modifiers, not under an open viewer.
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (paused || busy || isShortcutIgnored(event)) return;
      const go = (to: string | null) => to && navigate(to, { state: keep });
      if (event.key === 'j') go(next);
      else if (event.key === 'k') go(previous);
      else if (event.key === 'e' && !resolved && triage) void toggle();
      else return;
      event.preventDefault();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return { back, previous, next, keep, busy, toggle };
}
