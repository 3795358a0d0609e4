/**
 * What the list's triage needs besides the page (issue 23): the project's labels by name, the selection of
 * rows and the bulk change (the team's people and the writes are the data module's).
 */
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkPatch } from '#contracts/triage';
import { useProfile } from '../accounts/data';
import { errorCodeOf } from '../api';
import { toastError } from '../components/toast';
import { errorText } from '../i18n';
import { bulkUpdate, useProjectLabels, useTeamPeople } from './data';

/**
 * The project's labels by name, empty while loading or when the load failed: the list's and the board's
 * view of the one labels read (`useProjectLabels`).
 */
export function useLabels(projectId: string | undefined) {
  const labels = useProjectLabels(projectId);
  return useMemo(() => [...(labels ?? [])].sort((a, b) => a.name.localeCompare(b.name)), [labels]);
}

/**
 * The rows chosen on the page shown. `view` names that page (its address): a new page, filter or sort
 * starts with nothing selected, so an action never reaches issues the user no longer sees.
 */
export function useSelection(view: string, numbers: readonly number[]) {
  const [state, setState] = useState<{ view: string; chosen: ReadonlySet<number> }>({
    view,
    chosen: new Set(),
  });
  const chosen = state.view === view ? state.chosen : new Set<number>();
  // Only the rows still on the page count (a refresh may have moved some away).
  const selected = numbers.filter((n) => chosen.has(n));
  const toggle = useCallback(
    (n: number, on: boolean) =>
      setState((s) => {
        const next = new Set(s.view === view ? s.chosen : []);
        if (on) next.add(n);
        else next.delete(n);
        return { view, chosen: next };
      }),
    [view],
  );
  const setAll = useCallback(
    (on: boolean) => setState({ view, chosen: new Set(on ? numbers : []) }),
    [view, numbers],
  );
  const clear = useCallback(() => setState({ view, chosen: new Set() }), [view]);
  return {
    selected,
    isSelected: (n: number) => chosen.has(n),
    all: numbers.length > 0 && selected.length === numbers.length,
    some: selected.length > 0 && selected.length < numbers.length,
    toggle,
    setAll,
    clear,
  };
}
export type Selection = ReturnType<typeof useSelection>;

/**
 * The bulk change of the selection: runs it, then clears the selection and says how many were updated (the
 * notice stays until the next selection). A refusal shows the catalogue's text and keeps the selection.
 */
export function useBulkTriage(projectId: string, selection: Selection) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const count = selection.selected.length;
  async function run(set: BulkPatch['set']) {
    if (busy || count === 0) return;
    setBusy(true);
    try {
      const updated = await bulkUpdate(projectId, { tickets: selection.selected, set });
      selection.clear();
      setNotice(t('triageList.updated', { count: updated.length }));
    } catch (error) {
      toastError(errorText(errorCodeOf(error)));
    } finally {
      setBusy(false);
    }
  }
  return {
    count,
    busy,
    notice: count > 0 ? null : notice,
    run,
    clear: selection.clear,
    dismiss: () => setNotice(null),
  };
}
export type BulkTriage = ReturnType<typeof useBulkTriage>;

/**
 * Everything the list's triage parts need, for the screen to compose: the team's people, the labels (also
 * by id), the caller's own user id ("Assign to me"), the selection of the page `view` shows and its bulk
 * change. `triage` false (a GUEST) leaves the selection out.
 */
export function useListTriage(
  projectId: string | undefined,
  teamId: string | undefined,
  rows: readonly { number: number }[] | undefined,
  view: string,
) {
  const { members, people, assignable } = useTeamPeople(teamId);
  const labels = useLabels(projectId);
  const { data: profile } = useProfile();
  const numbers = useMemo(() => (rows ?? []).map((r) => r.number), [rows]);
  const selection = useSelection(view, numbers);
  const bulk = useBulkTriage(projectId ?? '', selection);
  const labelMap = useMemo(() => new Map(labels.map((l) => [l.id, l])), [labels]);
  const self = members?.find((m) => profile && m.username === profile.username)?.userId ?? null;
  return { people, assignable, labels, labelMap, self, selection, bulk };
}
