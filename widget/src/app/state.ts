/**
 * The app's state outside the component tree: it outlives the panel, so a draft survives an accidental
 * close (until the page reloads) and a report keeps sending while the panel is closed.
 */
import type { MessageKey } from '../i18n';
import type { History } from './annotate/model';

export interface Shot {
  id: number;
  /** The capture as taken, at device pixels; never drawn on. */
  base: HTMLCanvasElement;
  /** The page's HTML snapshot taken with it. */
  html: string;
  /** Images from other sites the capture could only show as grey boxes (the editor says so). */
  placeholders: number;
  /** Its annotations (undo history included, so reopening the editor can still undo). */
  history: History;
  /** Data URL of the annotated thumbnail shown in the form. */
  thumb: string;
}

export interface Draft {
  description: string;
  email: string;
  shots: Shot[];
  files: File[];
  video: { blob: Blob; url: string } | null;
  /** Attach the last minute of activity (where a recording exists); on unless the visitor unticks it. */
  replay: boolean;
}

export type Screen = 'welcome' | 'form' | 'sending' | 'done';

/** A message shown under a section of the form (a refused file, a failed capture). */
export interface Note {
  at: 'shots' | 'files' | 'video';
  key: MessageKey;
  vars?: Record<string, string | number>;
}

export interface State {
  screen: Screen;
  draft: Draft;
  /** Send progress, 0…1. */
  progress: number;
  /** The code of the last failed send, shown above the Send button. */
  error: string | null;
  /** The issue number after a successful send. */
  number: number | null;
  /** What the form is busy with: taking a screenshot or recording. */
  busy: 'capture' | 'record' | null;
  /** `performance.now()` when the running recording began. */
  recordingSince: number | null;
  notes: Note[];
  /** Whether the form was submitted once, so field errors show from then on. */
  tried: boolean;
  /** The id of the screenshot open in the annotation editor. */
  editing: number | null;
  /** The in-panel "close without sending?" question is showing. */
  confirm: boolean;
}

export const emptyDraft = (): Draft => ({
  description: '',
  email: '',
  shots: [],
  files: [],
  video: null,
  replay: true,
});

/** Something would be lost by discarding the draft. */
export const hasContent = (d: Draft) =>
  !!(d.description.trim() || d.email.trim() || d.shots.length || d.files.length || d.video);

export interface Store {
  get(): State;
  set(patch: Partial<State>): void;
  setDraft(patch: Partial<Draft>): void;
  subscribe(fn: () => void): () => void;
}

export function createStore(initial: State): Store {
  let state = initial;
  const listeners = new Set<() => void>();
  const set = (patch: Partial<State>) => {
    state = { ...state, ...patch };
    for (const fn of listeners) fn();
  };
  return {
    get: () => state,
    set,
    setDraft: (patch) => set({ draft: { ...state.draft, ...patch } }),
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
