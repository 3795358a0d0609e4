/**
 * The toolbar popup: the server address, the connection ("Connected as …", "Not connected", "Your
 * connection has ended: connect again"), the project for this site, "Report a bug on this page" and the
 * "capture logs from page load on this site" switch. Texts from _locales (English, German). Permission
 * requests run first in their click handlers: browsers grant them only within the user's gesture.
 */
import { browser } from '@wxt-dev/browser';
import type { Answer, PopupRequest, ProjectsAnswer, Status } from '../../lib/messages';
import { hostPattern, parseServer } from '../../lib/server';

const t = (key: string, ...subs: string[]) => browser.i18n.getMessage(key, subs) || key;

/** The popup's text for a background refusal; unknown codes read as the generic one. */
const errorText: Record<string, string> = {
  INVALID_SERVER: 'popupServerInvalid',
  PERMISSION: 'popupPermission',
  NETWORK: 'popupNetwork',
  CONNECTION_ENDED: 'popupEnded',
  NOT_CONNECTED: 'popupNotConnected',
  NO_PROJECT: 'popupChooseProject',
  PAGE_NOT_REPORTABLE: 'popupNotReportable',
};

async function ask<T>(m: PopupRequest): Promise<T> {
  const answer = (await browser.runtime.sendMessage(m)) as Answer<T>;
  if (!answer.ok) throw new Error(answer.code);
  return answer.value;
}

type Child = Node | string | null | false | undefined;
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string | boolean | ((e: Event) => void)>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else if (typeof value === 'string') el.setAttribute(name, value);
  }
  for (const c of children) if (c) el.append(c);
  return el;
}

const root = document.getElementById('app')!;
// The language of the texts shown (the _locales file the browser picked), for screen readers.
document.documentElement.lang = t('locale');
let tabId: number | null = null;
let status: Status | null = null;
let projects: ProjectsAnswer | null = null;
let selected = '';
/** A message under a section, by section: 'server', 'connection', 'report', 'logs'. */
let errors: Record<string, string> = {};
/** The report shortcut as the user set it (browsers let them change it); empty when unset. */
let shortcut = '';

function fail(at: string, error: unknown) {
  const code = error instanceof Error ? error.message : 'GENERIC';
  errors = { ...errors, [at]: t(errorText[code] ?? 'popupError') };
  if (code === 'CONNECTION_ENDED') void refresh();
  else render();
}

async function refresh(): Promise<void> {
  status = await ask<Status>({ type: 'status', tabId });
  projects = null;
  if (status.connection === 'connected') {
    try {
      projects = await ask<ProjectsAnswer>({ type: 'projects', tabId });
      selected = projects.selected ?? '';
    } catch (error) {
      if (error instanceof Error && error.message === 'CONNECTION_ENDED') {
        status = await ask<Status>({ type: 'status', tabId });
      } else errors = { ...errors, connection: t(errorText[(error as Error).message] ?? 'popupError') };
    }
  }
  render();
}

/**
 * Firefox closes the popup while its permission prompt is open, so nothing may wait for the answer: the
 * request starts inside the click, the change is sent to the background worker at the same time, and an
 * answer that comes back to a still-open popup only refreshes it (or undoes the change when refused).
 */
function saveServer(e: Event) {
  e.preventDefault();
  const input = document.getElementById('server') as HTMLInputElement;
  const server = parseServer(input.value);
  errors = {};
  if (!server) return fail('server', new Error('INVALID_SERVER'));
  // Asked right away, inside the click: the calls from the background worker need the server's origin.
  const asked = browser.permissions.request({ origins: [hostPattern(server)] });
  const saved = ask({ type: 'set-server', server });
  void Promise.all([asked, saved]).then(
    async ([granted]) => {
      if (!granted) errors = { ...errors, server: t('popupPermission') };
      await refresh();
    },
    (error) => fail('server', error),
  );
}

function connect() {
  errors = {};
  const server = status?.server;
  if (!server) return;
  const start = () => ask({ type: 'connect' }).catch((error) => fail('connection', error));
  if (status?.serverGranted) {
    void start();
    return;
  }
  void browser.permissions.request({ origins: [hostPattern(server)] }).then((granted) => {
    if (!granted) return fail('connection', new Error('PERMISSION'));
    return start();
  });
}

async function disconnect() {
  errors = {};
  await ask({ type: 'disconnect' });
  await refresh();
}

async function report() {
  errors = {};
  if (tabId === null || !selected) return fail('report', new Error('NO_PROJECT'));
  const button = document.getElementById('report') as HTMLButtonElement;
  button.disabled = true;
  try {
    await ask({ type: 'report', tabId, projectId: selected });
    window.close();
  } catch (error) {
    fail('report', error);
  }
}

function toggleLogs(e: Event) {
  const box = e.target as HTMLInputElement;
  const site = status?.site;
  if (tabId === null || !site) return;
  const on = box.checked;
  const tab = tabId;
  errors = {};
  if (!on) {
    void ask({ type: 'set-logs', tabId: tab, on: false }).then(refresh, (error) => fail('logs', error));
    return;
  }
  // Registered at once (it runs only where the site is granted), the permission asked in the same click.
  const asked = browser.permissions.request({ origins: [hostPattern(site.origin)] });
  const registered = ask({ type: 'set-logs', tabId: tab, on: true });
  void Promise.all([asked, registered]).then(
    async ([granted]) => {
      if (!granted) await ask({ type: 'set-logs', tabId: tab, on: false });
      await refresh();
    },
    (error) => fail('logs', error),
  );
}

const errorLine = (at: string) =>
  errors[at] && h('p', { class: 'error', id: `${at}-error`, role: 'alert' }, errors[at]);

function render() {
  if (!status) return;
  const focused = document.activeElement?.id;
  const s = status;
  const connected = s.connection === 'connected';
  const serverForm = h(
    'form',
    { onsubmit: saveServer, 'aria-labelledby': 'server-title' },
    h('h2', { id: 'server-title' }, t('popupServerTitle')),
    h('label', { for: 'server' }, t('popupServer')),
    h(
      'div',
      { class: 'row' },
      h('input', {
        id: 'server',
        type: 'url',
        value: s.server,
        required: true,
        autocomplete: 'url',
        spellcheck: 'false',
        'aria-describedby': errors.server ? 'server-error server-hint' : 'server-hint',
        ...(errors.server ? { 'aria-invalid': 'true' } : {}),
      }),
      h('button', { type: 'submit', id: 'save-server' }, t('popupSave')),
    ),
    h('p', { class: 'hint', id: 'server-hint' }, t('popupServerHint')),
    errorLine('server'),
  );

  const statusText =
    s.connection === 'connected'
      ? t('popupConnectedAs', s.user?.name || s.user?.email || '')
      : s.connection === 'ended'
        ? t('popupEnded')
        : t('popupNotConnected');
  const connection = h(
    'section',
    { 'aria-labelledby': 'connection-title' },
    h('h2', { id: 'connection-title' }, t('popupConnection')),
    h('p', { class: `status ${s.connection}`, id: 'connection-status', role: 'status' }, statusText),
    h(
      'div',
      { class: 'row' },
      connected
        ? h(
            'button',
            { type: 'button', id: 'disconnect', onclick: () => void disconnect() },
            t('popupDisconnect'),
          )
        : h(
            'button',
            { type: 'button', id: 'connect', class: 'primary', onclick: connect },
            t(s.connection === 'ended' ? 'popupConnectAgain' : 'popupConnect'),
          ),
    ),
    errorLine('connection'),
  );

  const list = projects?.projects ?? [];
  const reportable = connected && !!s.site && !!selected;
  const reporting = h(
    'section',
    { 'aria-labelledby': 'report-title' },
    h('h2', { id: 'report-title' }, t('popupThisPage')),
    s.site
      ? h('p', { class: 'hint', id: 'site' }, s.site.host)
      : h('p', { class: 'hint', id: 'site' }, t('popupNotReportable')),
    connected && h('label', { for: 'project' }, t('popupProject')),
    connected &&
      h(
        'select',
        {
          id: 'project',
          onchange: (e: Event) => {
            selected = (e.target as HTMLSelectElement).value;
            render();
          },
          ...(list.length ? {} : { disabled: true }),
        },
        h('option', { value: '' }, t(list.length ? 'popupChooseProject' : 'popupNoProjects')),
        ...list.map((p) =>
          h(
            'option',
            { value: p.id, ...(p.id === selected ? { selected: true } : {}) },
            `${p.name} (${p.domain})`,
          ),
        ),
      ),
    h(
      'button',
      {
        type: 'button',
        id: 'report',
        class: 'primary',
        onclick: () => void report(),
        ...(reportable ? {} : { disabled: true }),
      },
      t('popupReport'),
    ),
    shortcut && h('p', { class: 'hint', id: 'shortcut' }, t('popupShortcut', shortcut)),
    errorLine('report'),
    s.site &&
      h(
        'label',
        { class: 'switch' },
        h('input', {
          type: 'checkbox',
          role: 'switch',
          id: 'logs',
          onchange: toggleLogs,
          'aria-describedby': 'logs-hint',
          ...(s.logsFromLoad ? { checked: true } : {}),
        }),
        t('popupLogsFromLoad'),
      ),
    s.site && h('p', { class: 'hint', id: 'logs-hint' }, t('popupLogsHint')),
    errorLine('logs'),
  );

  root.replaceChildren(
    h('h1', {}, h('img', { src: '/icons/32.png', alt: '' }), 'Snag'),
    connection,
    reporting,
    serverForm,
  );
  root.removeAttribute('aria-busy');
  if (focused) document.getElementById(focused)?.focus();
}

browser.storage.onChanged.addListener(() => void refresh());

void (async () => {
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  const commands = await browser.commands.getAll().catch(() => []);
  shortcut = commands.find((c) => c.name === 'report-bug')?.shortcut ?? '';
  // The popup opened as a tab of its own (an extension page) has no page to report on.
  tabId = tab?.id !== undefined && !tab.url?.startsWith(browser.runtime.getURL('/')) ? tab.id : null;
  await refresh();
})();
