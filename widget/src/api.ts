/**
 * The contract between the snippet, the loader (loader.ts) and the lazily loaded app (app.ts). Types only:
 * nothing here reaches a bundle. The public part is documented in docs/widget-api.md.
 */
import type { LogEntry, ReplayStop, Step } from '#contracts/intake';
import type { WidgetConfig } from '#contracts/widget-config';

/** Public commands; a queued call is `[name]` or `[name, args]`. */
export type CommandName = 'open' | 'hide' | 'show' | 'report';
export type Command = [name: CommandName | string, ...rest: unknown[]];

/** `Snag.open({ description, email })`: prefills the form. */
export interface OpenOptions {
  description?: string;
  email?: string;
}

/** `Snag.report({...})`: files a report without UI. Resolves to the issue number. */
export interface ReportOptions {
  description: string;
  email?: string;
  /** Attach a screenshot of the visible page (default false: no capture without the visitor seeing it). */
  screenshot?: boolean;
  /** Extra custom field values, added to those the project's selectors read. */
  customFields?: { name: string; value: string }[];
}

/** A recording the visitor may attach: the gzip of rrweb's events (contracts/intake.ts `replayLimits`). */
export interface ReplayTake {
  blob: Blob;
  /** What it covers, epoch ms. */
  start: number;
  end: number;
  stopped?: ReplayStop;
}

/** The session recorder (widget/src/activity/recorder.ts), where the plan and the project allow it. */
export interface ReplayRecorder {
  /** Whether there is anything to attach (a full snapshot at least). */
  has(): boolean;
  /** While the widget panel is open: nothing is recorded. */
  pause(): void;
  resume(): void;
  /** The last minute, compressed and within the size cap; null when nothing can be sent. */
  take(): Promise<ReplayTake | null>;
}

/** What the idle-loaded activity chunk (steps, and the recorder where replay is on) offers the app. */
export interface Activity {
  /** The visitor's last actions, oldest first. */
  steps(): Step[];
  replay?: ReplayRecorder;
}

/** What the app offers the loader once it has started. */
export interface WidgetApp {
  /** Opens the panel; `onClose(hadFocus)` runs when the visitor closes it. */
  open(config: WidgetConfig, onClose: (hadFocus: boolean) => void, options?: OpenOptions): void;
  close(): void;
  /** Files a report without UI; resolves to the issue number. */
  report(config: WidgetConfig, options: ReportOptions): Promise<number>;
}

/** `window.Snag`: the public API, plus the loader's private members. */
export interface SnagGlobal {
  q: Command[];
  open(options?: OpenOptions): void;
  hide(): void;
  show(): void;
  report(options: ReportOptions): Promise<number>;
  /** Private: marks a loader that is already running on this page. */
  _l?: 1;
  /** Private: the app registers itself here when its script has run. */
  _r?: (app: WidgetApp) => void;
  /** Private: console errors, uncaught errors and failed requests the loader buffered (newest last). */
  _b?: LogEntry[];
  /** Private: set while the widget captures the page, so its own failed image fetches are not logged. */
  _m?: 1;
  /**
   * Private: the page events (click, focusin, change, submit, popstate) the loader queues from its start,
   * and the app's `open`, until the activity chunk runs; then the chunk takes them as they come.
   */
  _e?: { push(...events: (Event | { type: 'open'; timeStamp: number })[]): unknown };
  /** Private: the project's configuration, for the activity chunk. */
  _c?: WidgetConfig;
  /** Private: the activity chunk, once it runs. */
  _a?: Activity;
}

declare global {
  interface Window {
    Snag?: Partial<SnagGlobal>;
  }
}
