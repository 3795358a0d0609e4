/**
 * Widget loader: runs on every page view of every customer site, so it stays tiny (≤ 3 KB gzip), has no
 * framework and touches nothing until used. It defines `window.Snag` (a command queue) and injects the app
 * bundle on the first `Snag.open()`; the app drains the queue when it starts.
 */

/** Replaced at build time with the content-hashed app file name (widget/build.ts). */
declare const __SNAG_APP__: string;

type Command = [name: string, args: unknown[]];

interface SnagGlobal {
  q: Command[];
  open: (...args: unknown[]) => void;
  /** Base URL of the widget files (origin of this script + /widget/), for the app's own assets. */
  base?: string;
  loaded?: boolean;
}

declare global {
  interface Window {
    Snag?: Partial<SnagGlobal>;
  }
}

(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  // The loader may be served from /api/website/{id}/code, so the app is addressed from the origin.
  const origin = script?.src ? new URL(script.src).origin : location.origin;
  const existing = window.Snag ?? {};
  if (existing.open && existing.base) return; // Loaded twice on one page: keep the first.

  const snag: SnagGlobal = {
    q: existing.q ?? [],
    base: `${origin}/widget/`,
    open(...args: unknown[]) {
      snag.q.push(['open', args]);
      load();
    },
  };
  window.Snag = snag;

  function load(): void {
    if (snag.loaded) return;
    snag.loaded = true;
    const el = document.createElement('script');
    el.src = snag.base + __SNAG_APP__;
    el.async = true;
    el.onerror = () => {
      snag.loaded = false; // A later click may retry.
    };
    document.head.appendChild(el);
  }

  // Commands queued by the snippet before the loader arrived (e.g. an immediate open).
  if (snag.q.some(([name]) => name === 'open')) load();
})();

export {};
