/** The save state of each triage field of the side panel: every change saves at once, on its own. */
import { useCallback, useRef, useState } from 'react';
import type { IssuePatch } from '#contracts/triage';
import { errorCodeOf } from '../api';
import type { SaveState } from '../components/FieldState';
import { patchIssue } from './triage-api';

export type TriageField = 'status' | 'priority' | 'assignee' | 'labels' | 'dueDate';

export function useFieldSaves(projectId: string, n: number) {
  const [states, setStates] = useState<Partial<Record<TriageField, SaveState>>>({});
  // Only the latest change of a field sets its state: a slow earlier answer must not say "saved" last.
  const latest = useRef<Partial<Record<TriageField, number>>>({});
  const save = useCallback(
    async (field: TriageField, body: IssuePatch): Promise<boolean> => {
      const run = (latest.current[field] ?? 0) + 1;
      latest.current[field] = run;
      const set = (s: SaveState) => {
        if (latest.current[field] === run) setStates((all) => ({ ...all, [field]: s }));
      };
      set({ state: 'saving' });
      try {
        await patchIssue(projectId, n, body);
        set({ state: 'saved' });
        return true;
      } catch (error) {
        set({ state: 'failed', code: errorCodeOf(error) });
        return false;
      }
    },
    [projectId, n],
  );
  return { states, save };
}
