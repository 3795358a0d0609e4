/**
 * Widget loader: runs on every page view of every customer site, so it stays tiny (≤ 3 KB gzip), has no
 * framework and creates nothing global beyond `window.Snag` (docs/widget-api.md).
 *
 * `GET /api/website/{id}/code` wraps this file in `(function(__SNAG_CONFIG__){…})(config)`. Loaded bare
 * (from /widget/loader.js) there is no configuration: it only defines the API, which then does nothing.
 * With one, it shows the launcher when the page passes the project's rules (rules.ts), replays calls the
 * page queued before it arrived, and injects the app on the first `open()`. There it also queues the
 * page's events for the steps to reproduce and, once the page is idle, injects the activity chunk: steps,
 * with the session recorder where the configuration has `replay` (docs/replay.md "Recorder"; it never
 * holds the recorder itself).
 */
import type { WidgetConfig } from '#contracts/widget-config';
import type { Command, OpenOptions, ReportOptions, SnagGlobal, WidgetApp } from './api';
import { startLogBuffer } from './capture/log-buffer';
import { withLanguage } from './language';
import { createLauncher, type Launcher } from './launcher';
import { isPhone, launcherAllowed } from './rules';

/**
 * Replaced at build time with the file name pattern `app.<hash>.*.js` (widget/build.ts): `*` is the app's
 * language, or `steps` / `recorder` for the activity chunks.
 */
declare const __SNAG_APP__: string;
/** The wrapper's parameter; a free (undefined) name when the file is loaded on its own. */
declare const __SNAG_CONFIG__: WidgetConfig | undefined;

(() => {
  // `||` and `&&` rather than `?.` and `??` in this file: ES2019 output, where those cost twice the bytes.
  const prev = window.Snag || {};
  if (prev._l) return; // Loaded twice on one page: the first one stays in charge.
  // The language is settled before anything loads: it names the app file (`*` below).
  const config =
    typeof __SNAG_CONFIG__ === 'object' ? withLanguage(__SNAG_CONFIG__, navigator.languages) : undefined;
  const script = document.currentScript as HTMLScriptElement | null;
  // biome-ignore lint/complexity/useOptionalChain: ES2019 output; `?.` compiles to twice the bytes
  const origin = script && script.src ? new URL(script.src).origin : config && config.api;

  const on =
    !!config &&
    launcherAllowed(config, { host: location.hostname, search: location.search, phone: isPhone(window) });
  // Console errors and failed requests, from now on, for reports (only where the widget runs).
  const logs = on ? startLogBuffer(window) : undefined;

  let launcher: Launcher | undefined;
  let app: WidgetApp | undefined;
  let hidden = false;
  let opened = false;
  let wantOpen = false;
  let openArgs: OpenOptions | undefined;
  let loading = false;
  /** `Snag.report` calls made before the app arrived, settled once it has (or has failed to load). */
  let reports: [ReportOptions, (n: Promise<number>) => void, (e: Error) => void][] = [];
  /** An Error with a catalogue-style code, as `Snag.report` rejects (docs/widget-api.md). */
  const fail = (code: string) => Object.assign(new Error(code), { code });

  const ready = (fn: () => void) => {
    if (document.body) fn();
    else document.addEventListener('DOMContentLoaded', fn, { once: true });
  };

  const sync = () => {
    if (!launcher) return;
    launcher.host.hidden = hidden;
    launcher.button.setAttribute('aria-expanded', String(opened));
  };

  const closed = (hadFocus: boolean) => {
    opened = false;
    sync();
    if (hadFocus && !hidden && launcher) launcher.button.focus();
  };

  const openNow = () => {
    if (!app) return;
    wantOpen = false;
    opened = true;
    sync();
    app.open(config!, closed, openArgs); // `on` holds, so there is a configuration.
    openArgs = undefined;
  };

  /** Adds `<script async src="{origin}/widget/{name}">`. */
  const inject = (name: string) => {
    const el = document.createElement('script');
    el.src = `${origin}/widget/${name}`;
    el.async = true;
    return document.head.appendChild(el);
  };

  const load = () => {
    if (loading || !origin) return;
    loading = true;
    // `on` holds: there is a configuration.
    const el = inject(__SNAG_APP__.replace('*', config!.language));
    el.onerror = () => {
      loading = false; // A later click may retry.
      el.remove();
      for (const [, , reject] of reports) reject(fail('NETWORK'));
      reports = [];
    };
  };

  const snag: SnagGlobal = {
    q: [],
    _l: 1,
    _b: logs,
    _e: [],
    _c: config,
    open(options) {
      if (!on) return;
      wantOpen = true;
      openArgs = options;
      if (app) openNow();
      else ready(load);
    },
    report(options) {
      if (!on) return Promise.reject(fail('NOT_AVAILABLE'));
      if (app) return app.report(config!, options);
      return new Promise((resolve, reject) => {
        reports.push([options, resolve, reject]);
        ready(load);
      });
    },
    hide() {
      hidden = true;
      sync();
    },
    show() {
      hidden = false; // Undoes hide() only: the page rules still decide whether there is a launcher.
      sync();
    },
    _r(registered) {
      app = registered;
      for (const [options, resolve] of reports) resolve(snag.report(options));
      reports = [];
      if (wantOpen) openNow();
    },
  };

  const run = (command: Command | string) => {
    const [name, args] = Array.isArray(command) ? command : [command];
    if (name === 'open' || name === 'hide' || name === 'show') snag[name](args as OpenOptions);
    // A queued report has nobody to answer: its outcome is dropped rather than left unhandled.
    if (name === 'report') snag.report(args as ReportOptions).catch(() => {});
  };
  // From now on a push runs at once, so `Snag.q.push(['open'])` works before and after loading.
  snag.q.push = (...commands: Command[]) => {
    for (const c of commands) run(c);
    return 0;
  };
  window.Snag = snag;

  if (on) {
    // Steps to reproduce: the page's events from now on, queued for the activity chunk, which the page
    // fetches once it is idle (the recorder chunk where the project records sessions, else the steps chunk).
    for (const type of 'click focusin change submit popstate'.split(' '))
      addEventListener(type, (e) => snag._e!.push(e), true);
    (window.requestIdleCallback || setTimeout)(
      () => inject(__SNAG_APP__.replace('*', config!.replay ? 'recorder' : 'steps')),
      { timeout: 3000 },
    );
    ready(() => {
      launcher = createLauncher(document, config!, () => {
        // biome-ignore lint/complexity/useOptionalChain: ES2019 output; `?.` compiles to twice the bytes
        if (opened) app && app.close();
        else snag.open();
      });
      sync();
      document.body.appendChild(launcher.host);
    });
  }
  for (const c of prev.q || []) run(c);
})();
