/**
 * The contract between the snippet, the loader (loader.ts) and the lazily loaded app (app.ts). Types only:
 * nothing here reaches a bundle. The public part is documented in docs/widget-api.md.
 */
import type { WidgetConfig } from '../../functions/shared/widget-config';

/** Public commands; a queued call is `[name]` or `[name, args]`. */
export type CommandName = 'open' | 'hide' | 'show';
export type Command = [name: CommandName | string, ...rest: unknown[]];

/** What the app offers the loader once it has started. */
export interface WidgetApp {
  /** Opens the panel; `onClose(hadFocus)` runs when the visitor closes it. */
  open(config: WidgetConfig, onClose: (hadFocus: boolean) => void): void;
  close(): void;
}

/** `window.Snag`: the public API, plus the loader's private registration hook for the app. */
export interface SnagGlobal {
  q: Command[];
  open(): void;
  hide(): void;
  show(): void;
  /** Private: marks a loader that is already running on this page. */
  _l?: 1;
  /** Private: the app registers itself here when its script has run. */
  _r?: (app: WidgetApp) => void;
}

declare global {
  interface Window {
    Snag?: Partial<SnagGlobal>;
  }
}
