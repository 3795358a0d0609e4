/**
 * The save state of each triage field of the side panel: every change saves on its own, and a field's
 * writes go out one after another, so an older answer can never overwrite a newer edit (decision Tr-C14).
 */
import { useCallback, useState } from 'react';
import type { IssuePatch } from '#contracts/triage';
import { errorCodeOf } from '../api';
import type { SaveState } from '../components/FieldState';
import { patchIssue } from './data';

export type TriageField = 'status' | 'priority' | 'assignee' | 'labels' | 'dueDate';

/**
 * Writes per key, one after another in the order they were made. A write superseded by a newer one of its
 * key while it waited is skipped (the newer one sets the value anyway), except for keys whose writes each
 * count (`keepAll`: label additions and removals). `isLatest` tells whether a write is still its key's newest.
 */
export function writeQueue<K extends string>(keepAll: (key: K) => boolean) {
  const latest = new Map<K, number>();
  const tails = new Map<K, Promise<unknown>>();
  return {
    add(key: K, write: () => Promise<unknown>): { run: number; done: Promise<void> } {
      const run = (latest.get(key) ?? 0) + 1;
      latest.set(key, run);
      const done = (tails.get(key) ?? Promise.resolve()).then(async () => {
        if (keepAll(key) || latest.get(key) === run) await write();
      });
      tails.set(
        key,
        done.catch(() => undefined),
      );
      return { run, done };
    },
    isLatest: (key: K, run: number) => latest.get(key) === run,
  };
}

export function useFieldSaves(projectId: string, n: number) {
  const [states, setStates] = useState<Partial<Record<TriageField, SaveState>>>({});
  const [queue] = useState(() => writeQueue<TriageField>((field) => field === 'labels'));
  const save = useCallback(
    async (field: TriageField, body: IssuePatch): Promise<boolean> => {
      const { run, done } = queue.add(field, () => patchIssue(projectId, n, body));
      // Only the latest change of a field sets its state: a slow earlier answer must not say "saved" last.
      const set = (s: SaveState) => {
        if (queue.isLatest(field, run)) setStates((all) => ({ ...all, [field]: s }));
      };
      set({ state: 'saving' });
      try {
        await done;
        set({ state: 'saved' });
        return true;
      } catch (error) {
        set({ state: 'failed', code: errorCodeOf(error) });
        return false;
      }
    },
    [projectId, n, queue],
  );
  return { states, save };
}
