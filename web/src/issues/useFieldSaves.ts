/**
 * The save state of each triage field of the side panel: every change saves on its own, and a field's
 * writes go out one after another, so an older answer can never overwrite a newer edit (decision Tr-C14).
 */
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
  // Each field's writes, chained: the server applies them in the order they were made.
  const queues = useRef<Partial<Record<TriageField, Promise<unknown>>>>({});
  const save = useCallback(
    async (field: TriageField, body: IssuePatch): Promise<boolean> => {
      const run = (latest.current[field] ?? 0) + 1;
      latest.current[field] = run;
      const set = (s: SaveState) => {
        if (latest.current[field] === run) setStates((all) => ({ ...all, [field]: s }));
      };
      set({ state: 'saving' });
      const write = (queues.current[field] ?? Promise.resolve()).then(() => {
        // A value superseded while it waited is not sent: the newer one sets the field anyway. Label
        // additions and removals each count, so they are all sent.
        if (field !== 'labels' && latest.current[field] !== run) return;
        return patchIssue(projectId, n, body);
      });
      queues.current[field] = write.catch(() => undefined);
      try {
        await write;
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
