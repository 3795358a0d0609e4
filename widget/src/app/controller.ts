/**
 * What the panel's buttons do: screenshots, files, recording and sending, on the store (state.ts). No
 * markup here; the components (ui/*.tsx) render the store and call these actions.
 */
import { reportLimits } from '#contracts/intake';
import type { WidgetConfig } from '#contracts/widget-config';
import type { Activity, OpenOptions, ReplayTake, ReportOptions } from '../api';
import type { CaptureApi, Recording } from '../capture/types';
import { type Messages, messagesWith } from '../i18n';
import { emptyDoc, type History, startHistory } from './annotate/model';
import { flatten, thumbnail } from './annotate/render';
import { codeOf, SnagError } from './errors';
import type { Outgoing, Transport } from './report';
import { sendReport } from './report';
import { createStore, emptyDraft, hasContent, type Note, type State, type Store } from './state';
import { refuseUpload } from './uploads';
import { isValid, validateForm } from './validate';

export interface Page {
  /** The elements a screenshot leaves out: the panel's host and the launcher's. */
  widgetElements(): HTMLElement[];
  /** Hides or shows the widget's own UI around a capture. */
  hideWidget(hidden: boolean): Promise<void>;
  href(): string;
  logs(): NonNullable<Window['Snag']>['_b'];
  /** Steps and the session recorder (the idle-loaded activity chunk), once they run. */
  activity(): Activity | undefined;
}

export type Controller = ReturnType<typeof createController>;

const initialState = (config: WidgetConfig): State => ({
  screen: config.welcomeScreen ? 'welcome' : 'form',
  draft: emptyDraft(),
  progress: 0,
  error: null,
  number: null,
  busy: null,
  recordingSince: null,
  notes: [],
  tried: false,
  editing: null,
  confirm: false,
});

let nextId = 1;

export function createController(
  config: WidgetConfig,
  capture: CaptureApi,
  transport: Transport,
  page: Page,
) {
  const t: Messages = messagesWith(config.language, config.texts);
  const store: Store = createStore(initialState(config));
  let recording: Recording | null = null;

  const note = (n: Note) => store.set({ notes: [...store.get().notes, n] });
  const context = () => ({ config, capture, transport, href: page.href(), logs: page.logs() ?? [] });

  const screenshots = config.screenshot;
  // A strict project (docs/privacy.md) asks for no email: none is shown, checked, prefilled or sent.
  const strict = config.strictPrivacy === true;
  const canScreen = screenshots && capture.canCaptureScreen();
  const canRecord = config.video && capture.canRecord();

  async function takeScreenshot(real: boolean): Promise<void> {
    const { draft, busy } = store.get();
    if (busy || draft.shots.length >= reportLimits.screenshotsMax) return;
    store.set({ busy: 'capture', notes: [] });
    const exclude = page.widgetElements();
    await page.hideWidget(true);
    try {
      let base: HTMLCanvasElement | null;
      let html: string;
      let placeholders = 0; // The real screen is the real pixels: nothing replaced.
      if (real) {
        base = await capture.captureScreen();
        html = base ? capture.snapshotHtml({ exclude }) : '';
      } else {
        ({ canvas: base, html, placeholders } = await capture.captureViewport({ exclude }));
      }
      if (base) {
        const thumb = thumbnail(base, emptyDoc);
        const shot = { id: nextId++, base, html, placeholders, history: startHistory(), thumb };
        store.setDraft({ shots: [...store.get().draft.shots, shot] });
        store.set({ editing: shot.id }); // Straight into the editor: marking the problem is the point.
      }
    } catch (error) {
      console.warn('Snag: screenshot failed', error);
      note({ at: 'shots', key: 'screenshotFailed' });
    } finally {
      await page.hideWidget(false);
      store.set({ busy: null });
    }
  }

  function saveShot(id: number, history: History): void {
    const shots = store
      .get()
      .draft.shots.map((s) => (s.id === id ? { ...s, history, thumb: thumbnail(s.base, history.doc) } : s));
    store.setDraft({ shots });
  }

  function addFiles(list: Iterable<File>): void {
    const files = [...store.get().draft.files];
    const notes: Note[] = [];
    for (const file of list) {
      const refusal = refuseUpload('file', file);
      if (refusal) notes.push({ at: 'files', ...refusal });
      else if (files.length >= reportLimits.filesMax) {
        notes.push({ at: 'files', key: 'filesFull' });
        break;
      } else files.push(file);
    }
    store.setDraft({ files });
    store.set({ notes });
  }

  async function record(): Promise<void> {
    if (store.get().busy || !canRecord) return;
    store.set({ busy: 'record', notes: [] });
    try {
      recording = await capture.startRecording({ maxMs: reportLimits.videoMaxMs });
      if (!recording) return store.set({ busy: null }); // The visitor cancelled the browser's prompt.
      store.set({ recordingSince: recording.startedAt });
      const blob = await recording.result;
      setVideo({ blob, url: URL.createObjectURL(blob) });
    } catch (error) {
      console.warn('Snag: recording failed', error);
      note({ at: 'video', key: 'recordingFailed' });
    } finally {
      recording = null;
      store.set({ busy: null, recordingSince: null });
    }
  }

  function setVideo(video: State['draft']['video']): void {
    const old = store.get().draft.video;
    if (old) URL.revokeObjectURL(old.url);
    store.setDraft({ video });
  }

  function validation() {
    const { draft } = store.get();
    return validateForm(strict ? { ...draft, email: '' } : draft);
  }

  /** Whether a recording exists that the visitor may attach (the form then offers the checkbox). */
  const hasReplay = () => !!page.activity()?.replay?.has();

  /** The recording to attach, compressed; null when there is none or it could not be packed. */
  async function takeReplay(): Promise<ReplayTake | null> {
    try {
      return (await page.activity()?.replay?.take()) ?? null;
    } catch (error) {
      console.warn('Snag: the session replay could not be attached', error);
      return null;
    }
  }

  /** Sends the draft; on failure returns to the form with the error and the draft intact. */
  async function send(): Promise<void> {
    const { draft, screen } = store.get();
    if (screen === 'sending') return;
    if (!isValid(validation())) return store.set({ tried: true });
    store.set({ screen: 'sending', progress: 0, error: null, tried: true, notes: [] });
    try {
      const out: Outgoing = {
        description: draft.description,
        email: draft.email,
        shots: await Promise.all(
          draft.shots.map(async (s) => ({ png: await flatten(s.base, s.history.doc), html: s.html })),
        ),
        video: draft.video?.blob ?? null,
        files: draft.files,
        steps: page.activity()?.steps(),
        // Left out when the visitor unticked it: then nothing of the recording leaves the page.
        replay: draft.replay ? await takeReplay() : null,
      };
      const number = await sendReport(out, context(), (progress) => store.set({ progress }));
      setVideo(null);
      store.set({ screen: 'done', number, draft: emptyDraft(), tried: false });
    } catch (error) {
      console.warn('Snag: sending failed', error);
      store.set({ screen: 'form', error: codeOf(error) });
    }
  }

  /** Starts over: after a sent report, or when the visitor discards the draft. */
  function reset(): void {
    recording?.cancel();
    setVideo(null);
    store.set({ ...initialState(config), screen: 'form' });
  }

  /** `Snag.open({description, email})`: fills the given fields, starting a new report after a sent one. */
  function prefill(options: OpenOptions | undefined): void {
    if (!options) return;
    if (store.get().screen === 'done') reset();
    const patch: { description?: string; email?: string } = {};
    if (typeof options.description === 'string') patch.description = options.description;
    if (typeof options.email === 'string' && !strict) patch.email = options.email;
    store.setDraft(patch);
  }

  /** `Snag.report({...})`: a report without the panel; resolves to the issue number. */
  async function report(options: ReportOptions): Promise<number> {
    const form = {
      description: String(options?.description ?? ''),
      email: strict ? '' : String(options?.email ?? ''),
    };
    if (!isValid(validateForm(form))) throw new SnagError('INVALID_PARAMETERS');
    const shots: Outgoing['shots'] = [];
    if (options.screenshot && screenshots) {
      const shot = await capture.captureViewport({ exclude: page.widgetElements() });
      shots.push({ png: await flatten(shot.canvas, emptyDoc), html: shot.html });
    }
    const customFields = Array.isArray(options.customFields) ? options.customFields : [];
    // Steps, never the replay: a report without the panel is one the visitor did not see (as screenshots).
    const steps = page.activity()?.steps();
    return sendReport({ ...form, shots, video: null, files: [], customFields, steps }, context());
  }

  return {
    t,
    config,
    store,
    screenshots,
    canScreen,
    canRecord,
    validation,
    hasReplay,
    hasDraft: () => hasContent(store.get().draft),
    takeScreenshot,
    saveShot,
    removeShot: (id: number) => store.setDraft({ shots: store.get().draft.shots.filter((s) => s.id !== id) }),
    addFiles,
    removeFile: (file: File) => store.setDraft({ files: store.get().draft.files.filter((f) => f !== file) }),
    record,
    stopRecording: () => recording?.stop(),
    removeVideo: () => setVideo(null),
    send,
    reset,
    prefill,
    report,
  };
}
