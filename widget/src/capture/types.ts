/**
 * What the widget app (widget/src/app/) needs from the page-capture side (widget/src/capture/): the
 * screenshot of the visible page, the real-screen capture, tab recording, the HTML snapshot, device data
 * and custom field values. Types only; `widget/src/capture/index.ts` exports a `capture: CaptureApi`.
 */
import type { DeviceData } from '#contracts/intake';

export interface ViewportShot {
  /** The visible viewport at devicePixelRatio, the widget's own UI left out and masked fields masked. */
  canvas: HTMLCanvasElement;
  /** Self-contained HTML of the page as captured: no scripts, masked values, absolute URLs, styles kept. */
  html: string;
  /** How many images from other sites (without CORS) the picture shows as grey placeholders. */
  placeholders: number;
}

export interface Recording {
  /** The container the browser records (`video/webm` or `video/mp4`, codecs stripped). */
  readonly mimeType: string;
  /** `performance.now()` when recording began, for the visible timer. */
  readonly startedAt: number;
  /** Ends the recording; `result` then resolves. */
  stop(): void;
  /** Ends it and throws the recording away; `result` rejects. */
  cancel(): void;
  /** The video, once stopped by `stop()`, by the time limit, or by the visitor ending the share in the browser. */
  readonly result: Promise<Blob>;
}

export interface CaptureApi {
  /** Screenshot of the visible viewport plus its HTML snapshot, without any permission prompt. */
  captureViewport(options: { exclude: Element[] }): Promise<ViewportShot>;
  /** True where a real-screen capture can work: getDisplayMedia exists and the device is not touch-first. */
  canCaptureScreen(): boolean;
  /** One pixel-exact frame of what the visitor shares (browser prompt); null when they cancel. */
  captureScreen(): Promise<HTMLCanvasElement | null>;
  /** The page's HTML snapshot alone (goes with a real-screen capture). */
  snapshotHtml(options: { exclude: Element[] }): string;
  /** True where the browser can record a tab: getDisplayMedia and MediaRecorder with webm or mp4, not on phones. */
  canRecord(): boolean;
  /** Records the current tab for at most `maxMs`; null when the visitor cancels the browser prompt. */
  startRecording(options: { maxMs: number }): Promise<Recording | null>;
  /** Browser, OS, device type and screen resolution of this visitor. */
  deviceData(): DeviceData;
  /** For each project custom field, the text of the first element its selector matches (≤ 500 characters). */
  customFieldValues(fields: readonly { name: string; selector: string }[]): { name: string; value: string }[];
}
