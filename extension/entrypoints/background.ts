/**
 * The extension's background worker (docs/extension.md "Architecture"): holds the connection, answers the
 * popup and the in-page reporter, and makes every call to the Snag server. It injects the reporter only
 * when the user acts (the popup's button or the keyboard shortcut: `activeTab` covers that tab then).
 *
 * Test entry (test/e2e/extension.test.ts): the browser test cannot click the toolbar button, so it opens
 * the popup with the DevTools protocol's `Extensions.triggerAction` (the same popup, the same `activeTab`
 * grant) and clicks in it; nothing here exists for tests alone.
 */

import { type Browser, browser } from '@wxt-dev/browser';
import { defineBackground } from 'wxt/utils/define-background';
import type { V1IssueCreated, V1Project } from '#contracts/api-v1';
import type { ExtensionTokenAnswer } from '#contracts/extension';
import type { WidgetConfig } from '#contracts/widget-config';
import { ApiError, call, markEnded } from '../lib/api';
import { bytesOf } from '../lib/chunks';
import type {
  Answer,
  ContentRequest,
  OpenMessage,
  PopupRequest,
  ProjectsAnswer,
  Status,
} from '../lib/messages';
import { challengeOf, newState, newVerifier } from '../lib/pkce';
import { withRetries } from '../lib/retry';
import { hostPattern, pageOrigin, parseServer, preselectProject } from '../lib/server';
import { load, loadPending, save, savePending } from '../lib/storage';

/** The files the build writes for the two injected scripts (entrypoints/report.ts, page-logs.ts). */
const REPORTER_FILE = '/report.js';
const PAGE_LOGS_FILE = '/page-logs.js';
/** Registered MAIN-world scripts are named by this prefix plus the origin. */
const LOGS_SCRIPT_PREFIX = 'snag-logs-';

const browserName = () => (import.meta.env.FIREFOX ? 'Firefox' : 'Chromium');

async function tabOf(tabId: number | null): Promise<Browser.tabs.Tab | null> {
  if (tabId === null) return null;
  return browser.tabs.get(tabId).catch(() => null);
}

async function status(tabId: number | null): Promise<Status> {
  let stored = await load();
  // Past its 90 days the server refuses the token anyway: say so before the user tries.
  if (stored.token && stored.expiresAt && Date.parse(stored.expiresAt) <= Date.now()) {
    await save({ token: null, expiresAt: null, ended: true });
    await markEnded(true);
    stored = await load();
  }
  const tab = await tabOf(tabId);
  const origin = pageOrigin(tab?.url);
  const serverGranted = await browser.permissions
    .contains({ origins: [hostPattern(stored.server)] })
    .catch(() => false);
  return {
    server: stored.server,
    serverGranted,
    connection: stored.token ? 'connected' : stored.ended ? 'ended' : 'none',
    user: stored.user,
    site: origin ? { origin, host: new URL(origin).hostname } : null,
    logsFromLoad: !!origin && stored.logOrigins.includes(origin),
  };
}

// --- Connecting (functions/contracts/extension.ts: PKCE code flow) -------------------------------------

async function connect(): Promise<void> {
  const { server } = await load();
  const verifier = newVerifier();
  const state = newState();
  const query = new URLSearchParams({
    challenge: await challengeOf(verifier),
    state,
    browser: browserName(),
  });
  const tab = await browser.tabs.create({ url: `${server}/connect/extension?${query}` });
  await savePending({ verifier, state, server, tabId: tab.id ?? null });
}

/** The connect page's last stop: `{server}/connect/extension/done?code&state` (or `?error=denied`). */
async function connectTabChanged(tabId: number, url: string): Promise<void> {
  const pending = await loadPending();
  if (!pending) return;
  let at: URL;
  try {
    at = new URL(url);
  } catch {
    return;
  }
  if (at.origin !== pending.server || at.pathname !== '/connect/extension/done') return;
  // Another tab or a stale state is not this connect: a page cannot hand the extension a code of its own.
  if (at.searchParams.get('state') !== pending.state) return;
  await savePending(null);
  const code = at.searchParams.get('code');
  if (!code) return; // Denied: the page says so; the popup still says "Not connected".
  try {
    const answer = await call<ExtensionTokenAnswer>('/api/extension/token', {
      method: 'POST',
      body: { code, verifier: pending.verifier },
    });
    // The server is the judge of its tokens (contracts/extension.ts); only a string is kept. The shape's
    // pattern stays out of this bundle: its module carries zod, whose eval probe AMO's linter flags.
    if (typeof answer.token !== 'string' || !answer.token) throw new ApiError('GENERIC');
    await save({ token: answer.token, expiresAt: answer.expiresAt, user: answer.user, ended: false });
    await markEnded(false);
    await browser.tabs.remove(tabId).catch(() => {});
  } catch (error) {
    console.warn('Snag: the connection could not be completed', error);
  }
}

// --- Projects and reporting ------------------------------------------------------------------------------

async function projects(tabId: number | null): Promise<ProjectsAnswer> {
  const { projects } = await call<{ projects: V1Project[] }>('/api/v1/projects', { token: true });
  const list = projects
    .filter((p) => p.active)
    .map((p) => ({ id: p.id, name: p.name, domain: p.domain }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const origin = pageOrigin((await tabOf(tabId))?.url);
  const host = origin ? new URL(origin).hostname : '';
  const { sites } = await load();
  return { projects: list, selected: host ? (preselectProject(host, list, sites[host]) ?? null) : null };
}

/**
 * Reports on `tab`: the one path of the popup's button and the keyboard shortcut. Injects the page-log
 * script (MAIN world, once per page) and the reporter (isolated world), then tells the reporter to open.
 */
async function reportOnTab(tab: Browser.tabs.Tab, projectId?: string): Promise<void> {
  const origin = pageOrigin(tab.url);
  if (tab.id === undefined || !origin) throw new ApiError('PAGE_NOT_REPORTABLE');
  const host = new URL(origin).hostname;
  const stored = await load();
  if (!stored.token) throw new ApiError(stored.ended ? 'CONNECTION_ENDED' : 'NOT_CONNECTED');
  let chosen = projectId;
  if (!chosen) chosen = (await projects(tab.id)).selected ?? undefined;
  if (!chosen) throw new ApiError('NO_PROJECT');
  await save({ sites: { ...stored.sites, [host]: chosen } });
  const config = await call<WidgetConfig>(`/api/v1/projects/${encodeURIComponent(chosen)}/widget`, {
    token: true,
  });
  const target = { tabId: tab.id };
  await browser.scripting.executeScript({ target, files: [PAGE_LOGS_FILE], world: 'MAIN' });
  await browser.scripting.executeScript({ target, files: [REPORTER_FILE] });
  const open: OpenMessage = { type: 'snag-open', projectId: chosen, config };
  await browser.tabs.sendMessage(tab.id, open);
}

/** The shortcut: report where a project is known, else open the popup to choose (where the browser can). */
async function shortcut(tab: Browser.tabs.Tab | undefined): Promise<void> {
  if (!tab) return;
  try {
    await reportOnTab(tab);
  } catch (error) {
    console.warn('Snag: cannot report on this page yet', error);
    await browser.action.openPopup?.().catch(() => {});
  }
}

/** Turns "capture logs from page load" on or off for `origin` (the popup asked for the permission). */
async function setLogs(tabId: number, on: boolean): Promise<void> {
  const origin = pageOrigin((await tabOf(tabId))?.url);
  if (!origin) throw new ApiError('PAGE_NOT_REPORTABLE');
  const id = `${LOGS_SCRIPT_PREFIX}${origin}`;
  const stored = await load();
  await browser.scripting.unregisterContentScripts({ ids: [id] }).catch(() => {});
  if (on) {
    await browser.scripting.registerContentScripts([
      {
        id,
        // Scheme and host, as the permission: match patterns carry no port in every browser.
        matches: [hostPattern(origin)],
        js: [PAGE_LOGS_FILE.slice(1)],
        runAt: 'document_start',
        world: 'MAIN',
        allFrames: false,
        persistAcrossSessions: true,
      },
    ]);
  }
  const logOrigins = stored.logOrigins.filter((o) => o !== origin);
  await save({ logOrigins: on ? [...logOrigins, origin] : logOrigins });
  if (!on) await browser.permissions.remove({ origins: [hostPattern(origin)] }).catch(() => {});
}

// --- Uploads: the reporter sends blobs in base64 chunks; here they become the presigned POST's file --------

const uploads = new Map<string, string[]>();

async function postForm(upload: string, post: { url: string; fields: Record<string, string> }, type: string) {
  const parts = uploads.get(upload) ?? [];
  uploads.delete(upload);
  const form = new FormData();
  for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
  form.append('file', new Blob([bytesOf(parts)], { type })); // S3 ignores fields after `file`.
  let res: Response;
  try {
    res = await fetch(post.url, { method: 'POST', body: form, credentials: 'omit' });
  } catch {
    throw new ApiError('NETWORK');
  }
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new ApiError(/EntityTooLarge/.test(text) ? 'FILE_TOO_LARGE' : 'INVALID_UPLOAD', res.status);
  }
}

/** Files the issue; a lost answer is retried with the same key (lib/retry.ts), so nothing is filed twice. */
function create(projectId: string, body: unknown, idempotencyKey: string): Promise<V1IssueCreated> {
  return withRetries(() =>
    call<V1IssueCreated>(`/api/v1/projects/${encodeURIComponent(projectId)}/issues`, {
      method: 'POST',
      body,
      token: true,
      headers: { 'idempotency-key': idempotencyKey },
    }),
  );
}

// --- Messages -------------------------------------------------------------------------------------------

async function fromPopup(m: PopupRequest): Promise<unknown> {
  switch (m.type) {
    case 'status':
      return status(m.tabId);
    case 'set-server': {
      const server = parseServer(m.server);
      if (!server) throw new ApiError('INVALID_SERVER');
      const stored = await load();
      // Another server: the old token means nothing there.
      if (server !== stored.server)
        await save({ server, token: null, user: null, expiresAt: null, ended: false });
      return status(null);
    }
    case 'connect':
      return connect();
    case 'disconnect':
      await save({ token: null, user: null, expiresAt: null, ended: false });
      await markEnded(false);
      return null;
    case 'projects':
      return projects(m.tabId);
    case 'report': {
      const tab = await tabOf(m.tabId);
      if (!tab) throw new ApiError('PAGE_NOT_REPORTABLE');
      return reportOnTab(tab, m.projectId);
    }
    case 'set-logs':
      return setLogs(m.tabId, m.on);
  }
}

async function fromContent(m: ContentRequest, sender: Browser.runtime.MessageSender): Promise<unknown> {
  const tab = sender.tab;
  if (!tab?.id) throw new ApiError('GENERIC');
  switch (m.type) {
    case 'capture':
      // PNG: lossless, so the picture is exactly what the browser showed.
      return browser.tabs.captureVisibleTab(tab.windowId, { format: 'png' });
    case 'presign':
      return call(`/api/v1/projects/${encodeURIComponent(m.projectId)}/uploads`, {
        method: 'POST',
        body: m.body,
        token: true,
      });
    case 'chunk':
      uploads.set(m.upload, [...(uploads.get(m.upload) ?? []), m.data]);
      return null;
    case 'post-form':
      return postForm(m.upload, m.post, m.contentType);
    case 'create':
      return create(m.projectId, m.body, m.idempotencyKey);
  }
}

const popupTypes = new Set([
  'status',
  'set-server',
  'connect',
  'disconnect',
  'projects',
  'report',
  'set-logs',
]);

export default defineBackground({
  type: 'module',
  main() {
    browser.runtime.onMessage.addListener((message, sender, respond) => {
      const m = message as PopupRequest | ContentRequest;
      // Popup requests come from the extension's own pages only; a content script never sends them.
      const own = sender.id === browser.runtime.id && !!sender.url?.startsWith(browser.runtime.getURL('/'));
      const work = popupTypes.has(m.type)
        ? own
          ? fromPopup(m as PopupRequest)
          : Promise.reject(new ApiError('FORBIDDEN'))
        : fromContent(m as ContentRequest, sender);
      work.then(
        (value) => respond({ ok: true, value: value ?? null } satisfies Answer<unknown>),
        (error: unknown) => {
          if (!(error instanceof ApiError)) console.warn('Snag:', error);
          respond({
            ok: false,
            code: error instanceof ApiError ? error.code : 'GENERIC',
          } satisfies Answer<never>);
        },
      );
      return true; // Answers asynchronously.
    });

    browser.tabs.onUpdated.addListener((tabId, change) => {
      if (change.url) void connectTabChanged(tabId, change.url);
    });

    browser.commands.onCommand.addListener((command, tab) => {
      if (command === 'report-bug') void shortcut(tab);
    });
  },
});
