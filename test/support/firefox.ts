/**
 * The browser extension in Firefox for browser tests (test/e2e/extension.test.ts, decision EXT-9): stock
 * Firefox (Debian's ESR, /usr/bin/firefox) driven over Marionette, its own automation protocol, with the
 * built Firefox extension installed as a temporary add-on (`Addon:Install`, as `about:debugging` does).
 *
 * Why Marionette and not puppeteer-core's WebDriver BiDi: the test must press the extension's keyboard
 * shortcut, which Firefox handles in its own window (chrome), not in the page. Key presses that BiDi or
 * WebDriver send to a page reach the page only (measured: the page sees a trusted Alt+Shift+S, the
 * commands API does not fire). Only the chrome window's input reaches the shortcut, and ESR 140's BiDi has
 * no chrome scope; Marionette has one (`Marionette:SetContext chrome`, with `-remote-allow-system-access`),
 * where `WebDriver:PerformActions` types into Firefox's window as a keyboard would. Marionette cannot share
 * a session that puppeteer opened over BiDi, so one protocol drives the whole test.
 *
 * The client is the protocol's whole framing (length-prefixed JSON arrays over TCP) and the commands the
 * test uses; every command is WebDriver's, so the names read as the W3C specification's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's Firefox ESR (`.ci/run` installs `firefox-esr` where it is missing); SNAG_FIREFOX overrides. */
export const firefoxPath = process.env.SNAG_FIREFOX ?? '/usr/bin/firefox';
export const firefoxAvailable = () => existsSync(firefoxPath);

/** The extension's fixed internal UUID in the test profile, so its pages have a known address. */
export const extensionUuid = '6b0a8b3e-3c4e-4a53-9d0e-5a1f0c0e7a11';
export const extensionId = 'extension@snag.dev';

/** WebDriver's key codes for the modifiers (W3C WebDriver, "Keyboard actions"). */
export const keys = { alt: '\uE00A', shift: '\uE008' } as const;

interface Waiting {
  done(value: unknown): void;
  fail(error: Error): void;
}

/** A WebDriver element reference (`{"element-6066-…": id}`) as the id the commands take. */
function elementId(element: unknown): string {
  const id = element && typeof element === 'object' ? Object.values(element)[0] : undefined;
  if (typeof id !== 'string') throw new Error(`Firefox: not an element: ${JSON.stringify(element)}`);
  return id;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function connectWhenListening(port: number, timeoutMs: number): Promise<Socket> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await new Promise<Socket>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => resolve(socket));
        socket.once('error', reject);
      });
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export interface Firefox {
  /** Sends one Marionette command and resolves with its `value` (or the whole answer when it has none). */
  send<T = unknown>(command: string, params?: Record<string, unknown>): Promise<T>;
  /** Runs `script` (a function body; `arguments` holds `args`) in the current tab; a promise is awaited. */
  run<T = unknown>(script: string, ...args: unknown[]): Promise<T>;
  /** Polls `script` until it returns something truthy, and returns that. */
  waitFor<T = unknown>(script: string, what: string, timeoutMs?: number, ...args: unknown[]): Promise<T>;
  /** Runs `script` in Firefox's own window (the browser's chrome), then returns to the tab. */
  inChrome<T>(work: () => Promise<T>): Promise<T>;
  navigate(url: string): Promise<void>;
  /** Clicks an element (a WebDriver element reference, as `run` returns one) as a mouse does. */
  click(element: unknown): Promise<void>;
  /** Types `text` into an element (cleared first) as a keyboard does. */
  type(element: unknown, text: string): Promise<void>;
  /** The open tabs' handles, and switching to one (focused, as a user's click on the tab). */
  tabs(): Promise<string[]>;
  tab(): Promise<string>;
  switchTo(handle: string): Promise<void>;
  /** A PNG of the current tab's viewport. */
  screenshot(): Promise<Buffer>;
  /** Lines Firefox wrote to its stdout and stderr (console lines of pages and of the extension among them). */
  log: string[];
  close(): Promise<void>;
}

/**
 * Starts headless Firefox with a fresh profile: `localDomains` resolve to 127.0.0.1 (as Chromium's
 * `--host-resolver-rules` in the other tests), and the optional permissions the extension asks for are
 * granted without a prompt (Firefox's `extensions.webextOptionalPermissionPrompts`, the switch its own
 * tests use; the request itself still runs, inside a click).
 */
export async function launchFirefox(opts: { localDomains?: string[] } = {}): Promise<Firefox> {
  const profile = await mkdtemp(join(tmpdir(), 'snag-firefox-'));
  const port = await freePort();
  const prefs: Record<string, string | number | boolean> = {
    'marionette.port': port,
    'extensions.webextensions.uuids': JSON.stringify({ [extensionId]: extensionUuid }),
    'extensions.webextOptionalPermissionPrompts': false,
    'network.dns.localDomains': (opts.localDomains ?? []).join(','),
    'browser.shell.checkDefaultBrowser': false,
    'browser.startup.homepage_override.mstone': 'ignore',
    'browser.aboutwelcome.enabled': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'toolkit.telemetry.reportingpolicy.firstRun': false,
    'app.update.disabledForTesting': true,
    'browser.tabs.warnOnClose': false,
    'intl.accept_languages': 'en-US',
    // Console lines of pages and of the extension go to stderr, which `log` keeps for a failing test.
    'devtools.console.stdout.content': true,
    'devtools.console.stdout.chrome': true,
  };
  await writeFile(
    join(profile, 'user.js'),
    Object.entries(prefs)
      .map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`)
      .join('\n'),
  );
  const log: string[] = [];
  const child: ChildProcess = spawn(
    firefoxPath,
    ['-headless', '-marionette', '-remote-allow-system-access', '-no-remote', '-profile', profile],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' } },
  );
  const keep = (chunk: Buffer) => log.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const socket = await connectWhenListening(port, 60_000);
  let buffer = Buffer.alloc(0);
  const waiting = new Map<number, Waiting>();
  let greeted: () => void = () => {};
  const greeting = new Promise<void>((resolve) => {
    greeted = resolve;
  });
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const colon = buffer.indexOf(58);
      if (colon < 0) return;
      const length = Number(buffer.subarray(0, colon).toString());
      if (buffer.length < colon + 1 + length) return;
      const message = JSON.parse(buffer.subarray(colon + 1, colon + 1 + length).toString()) as unknown;
      buffer = buffer.subarray(colon + 1 + length);
      if (!Array.isArray(message)) {
        greeted();
        continue;
      }
      const [, id, error, result] = message as [number, number, { message: string } | null, unknown];
      const w = waiting.get(id);
      waiting.delete(id);
      if (error) w?.fail(new Error(`Marionette: ${error.message}`));
      else w?.done(result);
    }
  });
  socket.on('close', () => {
    for (const w of waiting.values()) w.fail(new Error('Marionette: Firefox closed the connection'));
    waiting.clear();
  });
  await greeting;

  let seq = 0;
  const send = <T>(command: string, params: Record<string, unknown> = {}): Promise<T> =>
    new Promise<unknown>((done, fail) => {
      const id = ++seq;
      waiting.set(id, { done, fail });
      const body = JSON.stringify([0, id, command, params]);
      socket.write(`${Buffer.byteLength(body)}:${body}`);
    }).then((answer) =>
      answer && typeof answer === 'object' && 'value' in answer
        ? (answer as { value: T }).value
        : (answer as T),
    );

  await send('WebDriver:NewSession', {
    capabilities: { alwaysMatch: { acceptInsecureCerts: true, timeouts: { script: 60_000 } } },
  });
  // The viewport the Chromium tests use (headless Firefox starts smaller).
  await send('WebDriver:SetWindowRect', { width: 1280, height: 800 }).catch(() => {});

  const run = <T>(script: string, ...args: unknown[]) =>
    send<T>('WebDriver:ExecuteScript', { script, args, sandbox: 'default' });

  const firefox: Firefox = {
    send,
    run,
    log,
    async waitFor<T>(script: string, what: string, timeoutMs = 20_000, ...args: unknown[]) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const value = await run<T>(script, ...args).catch(() => undefined);
        if (value) return value;
        if (Date.now() > until) throw new Error(`Firefox: timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 150));
      }
    },
    async inChrome<T>(work: () => Promise<T>) {
      await send('Marionette:SetContext', { value: 'chrome' });
      try {
        return await work();
      } finally {
        await send('Marionette:SetContext', { value: 'content' });
      }
    },
    async navigate(url: string) {
      await send('WebDriver:Navigate', { url });
    },
    async click(element: unknown) {
      await send('WebDriver:ElementClick', { id: elementId(element) });
    },
    async type(element: unknown, text: string) {
      await send('WebDriver:ElementClear', { id: elementId(element) });
      await send('WebDriver:ElementSendKeys', { id: elementId(element), text });
    },
    tabs: () => send<string[]>('WebDriver:GetWindowHandles'),
    tab: () => send<string>('WebDriver:GetWindowHandle'),
    async switchTo(handle: string) {
      await send('WebDriver:SwitchToWindow', { handle, focus: true });
    },
    async screenshot() {
      return Buffer.from(await send<string>('WebDriver:TakeScreenshot', {}), 'base64');
    },
    async close() {
      await send('Marionette:Quit', { flags: ['eForceQuit'] }).catch(() => {});
      socket.destroy();
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      await rm(profile, { recursive: true, force: true });
    },
  };
  return firefox;
}

/**
 * Presses `combo` (WebDriver key values, modifiers first) in Firefox's own window, where the browser's
 * keyboard shortcuts live (the extension's `commands` among them), as a person's keyboard would, with the
 * focus in the address bar of the current tab. Measured on ESR 140: with the focus in the page, Firefox
 * hands a key to the page's process first and runs a shortcut when the page's answer comes back, which
 * keys typed by automation never get (the page sees a trusted Alt+Shift+S; the command does not fire);
 * from the address bar the same key element runs the same command, with the same `activeTab` grant for
 * the tab shown.
 */
export async function pressShortcut(firefox: Firefox, combo: string[]): Promise<void> {
  await firefox.inChrome(async () => {
    await firefox.run('gURLBar.focus();');
    await firefox.send('WebDriver:PerformActions', {
      actions: [
        {
          type: 'key',
          id: 'keyboard',
          actions: [
            ...combo.map((value) => ({ type: 'keyDown', value })),
            ...[...combo].reverse().map((value) => ({ type: 'keyUp', value })),
          ],
        },
      ],
    });
    await firefox.send('WebDriver:ReleaseActions');
  });
}
