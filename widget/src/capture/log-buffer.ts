/**
 * The loader's console and error buffer (issue 7 "Console and errors"): the last 50 console errors and
 * warnings, uncaught errors, unhandled rejections and failed fetch/XHR requests since the loader ran, as
 * `LogEntry` items the app sends with a report. Runs on every page view of a project with 'collect data'
 * on, inside the loader's 3 KB (it adds about 0.5 KB gzip), so it is terse, targets ES2019 without
 * optional chaining, and does nothing but push an entry when something happens.
 *
 * Its wrappers keep the page's behaviour exactly: the same `this`, arguments (and their number), return
 * value and exceptions. Never recorded: request bodies, headers, query strings and fragments.
 */
import type { LogEntry } from '#contracts/intake';

/** reportLimits.logsMax and .logMessageMax, written out: importing the object would ship all of it. */
export const LOGS_MAX = 50;
export const MESSAGE_MAX = 1000;

/** A console argument as text (an Error as "Name: message", through its own toString). */
function text(value: unknown): string {
  try {
    return typeof value === 'object' && value && !(value instanceof Error)
      ? JSON.stringify(value)
      : String(value);
  } catch {
    return String(value); // Cyclic or hostile objects.
  }
}

/** A URL without its query string and fragment. */
const bare = (url: unknown) => String(url).split(/[?#]/)[0];

type Any = (...args: unknown[]) => unknown;

/** Starts buffering on `win` and returns the buffer (newest last), which the loader keeps as `Snag._b`. */
export function startLogBuffer(win: Window & typeof globalThis): LogEntry[] {
  const entries: LogEntry[] = [];
  const push = (level: LogEntry['level'], kind: LogEntry['kind'], msg: string) => {
    if (entries.push({ t: Date.now(), level, kind, msg: msg.slice(0, MESSAGE_MAX) }) > LOGS_MAX)
      entries.shift();
  };
  // While the widget captures the page (`Snag._m`), the image fetches of the screenshot itself fail for
  // cross-origin images by design: those are ours, not the page's, and stay out of the report.
  const failed = (method: unknown, url: unknown, status: number) =>
    // biome-ignore lint/complexity/useOptionalChain: ES2019 output; `?.` compiles to twice the bytes
    (win.Snag || {})._m || push('error', 'network', `${String(method).toUpperCase()} ${bare(url)} ${status}`);
  /** Replaces `obj[name]` with a wrapper that calls `before` and then the original, unchanged. */
  const wrap = (obj: object, name: string, before: (self: never, args: unknown[]) => void) => {
    const o = obj as Record<string, Any>;
    const original = o[name];
    if (original)
      o[name] = function (this: never, ...args: unknown[]) {
        before(this, args); // Cannot throw: text() catches, the rest is plain pushing.
        return original.apply(this, args);
      };
  };

  for (const level of ['error', 'warn'] as const) {
    wrap(win.console, level, (_, args) => push(level, 'console', args.map(text).join(' ')));
  }
  win.addEventListener('error', (e) => {
    // Failed resource loads are plain Events, and reach window listeners only when capturing.
    if (e instanceof ErrorEvent) push('error', 'exception', `${e.message} ${bare(e.filename)}:${e.lineno}`);
  });
  win.addEventListener('unhandledrejection', (e) => push('error', 'rejection', text(e.reason)));

  // fetch: the page gets the original promise; our branch handles its own outcome.
  const fetch = win.fetch;
  if (fetch)
    win.fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
      const result = fetch.apply(this, args);
      const [input, init] = args as [Request & string, RequestInit | undefined];
      // A Request has .method and .url; a string or URL has neither.
      // biome-ignore lint/complexity/useOptionalChain: ES2019 output; `?.` compiles to twice the bytes
      const method = (init && init.method) || input.method || 'GET';
      const url = input.url || input;
      result.then(
        (res) => res.status >= 400 && failed(method, url, res.status),
        () => failed(method, url, 0),
      );
      return result;
    };

  // biome-ignore lint/complexity/useOptionalChain: ES2019 output; `?.` compiles to twice the bytes
  const xhr = win.XMLHttpRequest && win.XMLHttpRequest.prototype;
  if (xhr) {
    const opened = new WeakMap<XMLHttpRequest, unknown[]>();
    wrap(xhr, 'open', (self: XMLHttpRequest, args) => opened.set(self, args));
    wrap(xhr, 'send', (self: XMLHttpRequest) => {
      const [method, url] = opened.get(self) || [];
      // Status 0 at the end: a network error, a timeout, or (rarely worth telling apart) an abort.
      self.addEventListener(
        'loadend',
        () => (!self.status || self.status >= 400) && failed(method, url, self.status),
      );
    });
  }
  return entries;
}
