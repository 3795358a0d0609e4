/**
 * GitHub's local fake (../shared/api-specs/github/rest-api.EXCERPTS.yaml and webhooks.EXCERPTS.yaml, and the
 * README's notes): the REST calls Snag makes, checked as GitHub checks them, and the webhooks GitHub sends.
 *
 * - Every API call needs `Authorization: Bearer <token>`, `Accept: application/vnd.github+json` and
 *   `X-GitHub-Api-Version: 2022-11-28` (400 otherwise, so a client that drops one fails here); any token
 *   is accepted except one containing "invalid" or a revoked one (401 "Bad credentials"). The token's
 *   user is `snag-bot`.
 * - Repositories: `octo-org/website` and `octo-org/shop` (issues on), `octo-org/no-issues` (listed with
 *   `has_issues: false`; 410 on create) and `octo-org/archived` (listed with `archived: true`; 403 on
 *   create); `addRepos` adds more for paging (`per_page`, `page`, `Link`).
 * - Issues: create (title required; `assignee` singular refused, as version 2026-03-10 does), read,
 *   update (state and state_reason checked against the spec's enums, title, body), comments; each issue
 *   records what GitHub would act on in its title and body (`githubActions`): mentions, references and
 *   bare links, so a test can see a visitor's `@org/team` get through.
 * - Repository hooks: create (name `web`, `config.url` required, `content_type` json or form, secret,
 *   events; a second hook at the same URL with an overlapping event is 422) and delete (204; 404 for a
 *   hook the repository does not have); GitHub sends a `ping` to a new hook. Every change to an issue, by the API (as `snag-bot`) or by the
 *   control calls below (as the person `octo-human`), is sent to the repository's hooks that subscribe to
 *   its event, signed as GitHub signs (`X-Hub-Signature-256`: HMAC-SHA256 of the raw body, hex), with a
 *   new `X-GitHub-Delivery` GUID; `redeliver` sends a recorded delivery again with the same GUID. Changes
 *   by the API are delivered after the API call answered, as on GitHub (`idle()` waits for them).
 * - Control calls (no token; what a person does on github.com): `POST /_fake/repos/{owner}/{repo}/issues/{n}/close`
 *   `{reason?: completed|not_planned}`, `…/reopen`, `…/comments` `{body}`, `…/edit` `{title?, body?}`,
 *   and `POST /_fake/deliveries/{guid}/redeliver`. Each answers the deliveries it made, after they
 *   were answered.
 * - `GET /{owner}/{repo}/issues/{n}` (an issue's `html_url`) shows the issue as a page, so the link in
 *   Snag opens somewhere locally.
 */
import { createHmac, randomUUID } from 'node:crypto';
import {
  bearerToken,
  type Fake,
  type FakeReply,
  type FakeRequest,
  itemPage,
  postHook,
  startFake,
} from './fake';
import { linesOutsideFences } from './markdown';

export const GITHUB_FAKE_API_VERSION = '2022-11-28';

interface User {
  login: string;
  id: number;
  type: 'User' | 'Organization' | 'Bot';
}
/** The token's user (every API call acts as it) and the person the control calls act as. */
export const snagBot: User = { login: 'snag-bot', id: 1001, type: 'User' };
export const octoHuman: User = { login: 'octo-human', id: 2002, type: 'User' };
const octoOrg: User = { login: 'octo-org', id: 3003, type: 'Organization' };

export interface GithubRepo {
  id: number;
  full_name: string;
  has_issues: boolean;
  archived: boolean;
  private: boolean;
}

export const githubRepos: GithubRepo[] = [
  { id: 501, full_name: 'octo-org/website', has_issues: true, archived: false, private: true },
  { id: 502, full_name: 'octo-org/shop', has_issues: true, archived: false, private: false },
  { id: 503, full_name: 'octo-org/no-issues', has_issues: false, archived: false, private: false },
  { id: 504, full_name: 'octo-org/archived', has_issues: true, archived: true, private: false },
];

/** What GitHub would act on in a Markdown text (outside code): it notifies or cross-references these. */
export interface GithubActions {
  /** `@user`, `@org/team`: each is notified. */
  mentions: string[];
  /** `#12`, `GH-12`, `owner/repo#12`: each referenced issue gets a "mentioned this" event. */
  references: string[];
  /** Bare `https://…` and `www.…` addresses GitHub turns into links (an issue's URL cross-references it). */
  autolinks: string[];
}

/**
 * What GitHub acts on in `markdown`. Deliberately generous (it over-reports rather than miss something):
 * only fenced code blocks (`linesOutsideFences`) and code spans are skipped, as GitHub skips them. Link
 * destinations (`](…)`) are Snag's own links, not autolinks.
 */
export function githubActions(markdown: string): GithubActions {
  const out: GithubActions = { mentions: [], references: [], autolinks: [] };
  for (const line of linesOutsideFences(markdown)) {
    const prose = line.replace(/(`+)[\s\S]*?\1/g, ' ').replace(/\]\([^)\s]*\)/g, '] ');
    for (const m of prose.matchAll(/(?:^|[^\w`/])@([a-z0-9][a-z0-9-]*(?:\/[a-z0-9_.-]+)?)/gi))
      out.mentions.push(`@${m[1]}`);
    for (const m of prose.matchAll(/([a-z0-9][a-z0-9-]*\/[a-z0-9_.-]+)#(\d+)/gi))
      out.references.push(`${m[1]}#${m[2]}`);
    for (const m of prose.matchAll(/(?:^|[^\w/#])#(\d+)\b/g)) out.references.push(`#${m[1]}`);
    for (const m of prose.matchAll(/\bGH-(\d+)\b/gi)) out.references.push(`GH-${m[1]}`);
    for (const m of prose.matchAll(/\b(?:https?:\/\/|www\.)[^\s<>()]+/gi)) out.autolinks.push(m[0]);
  }
  return out;
}

export interface GithubComment {
  id: number;
  body: string;
  user: User;
  created_at: string;
  actions: GithubActions;
}

export interface GithubFakeIssue {
  id: number;
  number: number;
  repo: string;
  title: string;
  body: string;
  labels: string[];
  assignees: string[];
  state: 'open' | 'closed';
  state_reason: string | null;
  user: User;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  comments: GithubComment[];
  /** What GitHub acted on in the title and body when the issue was created (or last edited). */
  actions: GithubActions;
}

export interface GithubHook {
  id: number;
  repo: string;
  url: string;
  contentType: 'json' | 'form';
  secret: string;
  events: string[];
  active: boolean;
}

export interface GithubDelivery {
  guid: string;
  hookId: number;
  event: string;
  action?: string;
  /** The raw body as sent (what the signature covers). */
  body: string;
  headers: Record<string, string>;
  /** The receiver's HTTP status, or 0 when it could not be reached. */
  status: number;
  redelivery: boolean;
}

export interface GithubFake extends Fake {
  /** The API base: what `GITHUB_API_URL` is set to. */
  apiUrl: string;
  issues: GithubFakeIssue[];
  hooks: GithubHook[];
  deliveries: GithubDelivery[];
  revoke(token: string): void;
  /** More repositories for the token's user (paging tests); `reset` goes back to the four. */
  addRepos(count: number): void;
  /** What a person does on github.com, then the hooks it triggers (answered once they were answered). */
  close(repo: string, n: number, reason?: 'completed' | 'not_planned'): Promise<GithubDelivery[]>;
  reopen(repo: string, n: number): Promise<GithubDelivery[]>;
  comment(repo: string, n: number, body: string): Promise<GithubDelivery[]>;
  redeliver(guid: string): Promise<GithubDelivery>;
  /** Resolves once every delivery triggered so far was answered (API changes are delivered after their answer). */
  idle(): Promise<void>;
}

/** `sha256=<hex HMAC-SHA256(secret, raw body)>`, GitHub's `X-Hub-Signature-256`. */
export const githubSignature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const docs = 'https://docs.github.com/rest';
const error = (status: number, message: string, extra: Record<string, unknown> = {}): FakeReply => ({
  status,
  json: { message, documentation_url: docs, status: String(status), ...extra },
});
const unauthorized = error(401, 'Bad credentials');
const notFound = error(404, 'Not Found');
const invalid = (field: string, code = 'invalid') =>
  error(422, 'Validation Failed', { errors: [{ resource: 'Issue', field, code }] });

const stateReasons = ['completed', 'not_planned', 'duplicate', 'reopened'];
const hookEvents = new Set(['issues', 'issue_comment', 'push', 'pull_request', '*']);

export async function startGithubFake(port = 0): Promise<GithubFake> {
  let repos = githubRepos.map((r) => ({ ...r }));
  const issues: GithubFakeIssue[] = [];
  const hooks: GithubHook[] = [];
  const deliveries: GithubDelivery[] = [];
  const revoked = new Set<string>();
  let base = '';
  let nextId = 1;
  const now = () => new Date().toISOString();

  const repoJson = (r: GithubRepo) => {
    const [, name = ''] = r.full_name.split('/');
    return {
      id: r.id,
      node_id: `R_${r.id}`,
      name,
      full_name: r.full_name,
      owner: { ...octoOrg, html_url: `${base}/${octoOrg.login}` },
      private: r.private,
      html_url: `${base}/${r.full_name}`,
      url: `${base}/repos/${r.full_name}`,
      has_issues: r.has_issues,
      archived: r.archived,
      default_branch: 'main',
      permissions: { admin: false, maintain: false, push: true, triage: true, pull: true },
    };
  };
  const userJson = (u: User) => ({ ...u, node_id: `U_${u.id}`, html_url: `${base}/${u.login}` });
  const issueJson = (i: GithubFakeIssue) => ({
    id: i.id,
    node_id: `I_${i.id}`,
    url: `${base}/repos/${i.repo}/issues/${i.number}`,
    repository_url: `${base}/repos/${i.repo}`,
    html_url: `${base}/${i.repo}/issues/${i.number}`,
    number: i.number,
    state: i.state,
    state_reason: i.state_reason,
    title: i.title,
    body: i.body,
    user: userJson(i.user),
    labels: i.labels.map((name, k) => ({
      id: 7000 + k,
      name,
      color: 'ededed',
      default: false,
      description: null,
    })),
    assignees: i.assignees.map((login) => ({ login })),
    locked: false,
    comments: i.comments.length,
    created_at: i.created_at,
    updated_at: i.updated_at,
    closed_at: i.closed_at,
    author_association: 'CONTRIBUTOR',
  });
  const commentJson = (i: GithubFakeIssue, c: GithubComment) => ({
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${base}/repos/${i.repo}/issues/comments/${c.id}`,
    html_url: `${base}/${i.repo}/issues/${i.number}#issuecomment-${c.id}`,
    issue_url: `${base}/repos/${i.repo}/issues/${i.number}`,
    body: c.body,
    user: userJson(c.user),
    created_at: c.created_at,
    updated_at: c.created_at,
    author_association: c.user === snagBot ? 'CONTRIBUTOR' : 'MEMBER',
  });

  /** Sends one delivery to a hook and records it (with the receiver's status). */
  async function send(hook: GithubHook, event: string, payload: string, guid: string, redelivery: boolean) {
    const body = hook.contentType === 'json' ? payload : new URLSearchParams({ payload }).toString();
    const headers: Record<string, string> = {
      'content-type': hook.contentType === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
      'user-agent': 'GitHub-Hookshot/fake',
      'x-github-event': event,
      'x-github-delivery': guid,
      'x-github-hook-id': String(hook.id),
      'x-github-hook-installation-target-id': String(repos.find((r) => r.full_name === hook.repo)?.id ?? 0),
      'x-github-hook-installation-target-type': 'repository',
      ...(hook.secret
        ? {
            'x-hub-signature': `sha1=${createHmac('sha1', hook.secret).update(body).digest('hex')}`,
            'x-hub-signature-256': githubSignature(hook.secret, body),
          }
        : {}),
    };
    // GitHub gives a receiver 10 seconds.
    const status = await postHook(hook.url, headers, body, 10_000);
    const action = (JSON.parse(payload) as { action?: string }).action;
    const delivery: GithubDelivery = {
      guid,
      hookId: hook.id,
      event,
      ...(action ? { action } : {}),
      body,
      headers,
      status,
      redelivery,
    };
    deliveries.push(delivery);
    return delivery;
  }

  /**
   * The event to every active hook of the repository that subscribes to it. Deliveries go out one after
   * the other in the order of the changes (a queue), with the payload as it was at the change.
   */
  let queue: Promise<unknown> = Promise.resolve();
  function emit(repo: string, event: string, payload: Record<string, unknown>): Promise<GithubDelivery[]> {
    const r = repos.find((x) => x.full_name === repo);
    const body = JSON.stringify({ ...payload, repository: r ? repoJson(r) : undefined });
    const targets = hooks.filter(
      (h) =>
        h.repo === repo &&
        h.active &&
        (event === 'ping' || h.events.includes(event) || h.events.includes('*')),
    );
    const run = queue.then(async () => {
      const sent: GithubDelivery[] = [];
      for (const hook of targets) sent.push(await send(hook, event, body, randomUUID(), false));
      return sent;
    });
    queue = run.catch(() => {});
    return run;
  }

  const findIssue = (repo: string, n: number) => issues.find((i) => i.repo === repo && i.number === n);

  /** A state change by `who`, and its `issues` event (nothing when the state does not change). */
  function changeState(issue: GithubFakeIssue, state: 'open' | 'closed', reason: string | null, who: User) {
    if (issue.state === state) return Promise.resolve([]);
    issue.state = state;
    issue.state_reason = reason;
    issue.updated_at = now();
    issue.closed_at = state === 'closed' ? issue.updated_at : null;
    return emit(issue.repo, 'issues', {
      action: state === 'closed' ? 'closed' : 'reopened',
      issue: issueJson(issue),
      sender: userJson(who),
    });
  }

  function addComment(issue: GithubFakeIssue, body: string, who: User) {
    const comment: GithubComment = {
      id: 8000 + nextId++,
      body,
      user: who,
      created_at: now(),
      actions: githubActions(body),
    };
    issue.comments.push(comment);
    issue.updated_at = comment.created_at;
    return {
      comment,
      sent: emit(issue.repo, 'issue_comment', {
        action: 'created',
        issue: issueJson(issue),
        comment: commentJson(issue, comment),
        sender: userJson(who),
      }),
    };
  }

  function edit(issue: GithubFakeIssue, change: { title?: unknown; body?: unknown }, who: User) {
    const changes: Record<string, { from: string }> = {};
    if (typeof change.title === 'string' && change.title !== issue.title) {
      changes.title = { from: issue.title };
      issue.title = change.title;
    }
    if (typeof change.body === 'string' && change.body !== issue.body) {
      changes.body = { from: issue.body };
      issue.body = change.body;
    }
    if (!Object.keys(changes).length) return Promise.resolve([]);
    issue.updated_at = now();
    issue.actions = actionsOf(issue.title, issue.body);
    return emit(issue.repo, 'issues', {
      action: 'edited',
      changes,
      issue: issueJson(issue),
      sender: userJson(who),
    });
  }

  /** A title is plain text, but GitHub links references in it; counted with the body's. */
  const actionsOf = (title: string, body: string): GithubActions => {
    const t = githubActions(title.replace(/^\s*(`{3,}|~{3,})/, ''));
    const b = githubActions(body);
    return {
      mentions: [...t.mentions, ...b.mentions],
      references: [...t.references, ...b.references],
      autolinks: [...t.autolinks, ...b.autolinks],
    };
  };

  async function control(req: FakeRequest): Promise<FakeReply> {
    const redo = /^\/_fake\/deliveries\/([\w-]+)\/redeliver$/.exec(req.path);
    if (redo && req.method === 'POST') {
      const old = deliveries.find((d) => d.guid === redo[1]);
      const hook = old && hooks.find((h) => h.id === old.hookId);
      if (!old || !hook) return notFound;
      const payload =
        hook.contentType === 'json' ? old.body : (new URLSearchParams(old.body).get('payload') ?? '');
      return { json: { deliveries: [await send(hook, old.event, payload, old.guid, true)] } };
    }
    const m = /^\/_fake\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/(close|reopen|comments|edit)$/.exec(req.path);
    if (!m || req.method !== 'POST') return notFound;
    const issue = findIssue(decodeURIComponent(m[1] ?? ''), Number(m[2]));
    if (!issue) return notFound;
    const body = (req.body ?? {}) as Record<string, unknown>;
    let sent: GithubDelivery[];
    if (m[3] === 'close') {
      const reason = body.reason === 'not_planned' ? 'not_planned' : 'completed';
      sent = await changeState(issue, 'closed', reason, octoHuman);
    } else if (m[3] === 'reopen') {
      sent = await changeState(issue, 'open', 'reopened', octoHuman);
    } else if (m[3] === 'edit') {
      sent = await edit(issue, body, octoHuman);
    } else {
      if (typeof body.body !== 'string' || !body.body.trim()) return invalid('body', 'missing_field');
      sent = await addComment(issue, body.body, octoHuman).sent;
    }
    return { json: { issue: issueJson(issue), deliveries: sent } };
  }

  /** An issue's page (its `html_url`), so the link Snag shows opens something locally. */
  const issuePage = (issue: GithubFakeIssue): FakeReply =>
    itemPage({
      vendor: 'GitHub',
      place: issue.repo,
      title: issue.title,
      reference: `#${issue.number}`,
      facts: [
        `State: ${issue.state}${issue.state_reason ? ` (${issue.state_reason})` : ''}`,
        `Labels: ${issue.labels.join(', ') || 'none'}`,
      ],
      body: issue.body,
      comments: issue.comments.map((c) => ({ author: c.user.login, body: c.body })),
    });

  const api = async (req: FakeRequest): Promise<FakeReply> => {
    const token = bearerToken(req.headers);
    if (!token || token.includes('invalid') || revoked.has(token)) return unauthorized;
    if (!(req.headers.accept ?? '').includes('application/vnd.github+json'))
      return error(415, 'Send Accept: application/vnd.github+json');
    const version = req.headers['x-github-api-version'];
    if (version !== GITHUB_FAKE_API_VERSION)
      return error(400, `API version '${version ?? ''}' is not supported (send ${GITHUB_FAKE_API_VERSION})`);

    if (req.method === 'GET' && req.path === '/user/repos') {
      const perPage = Math.min(100, Math.max(1, Number(req.query.per_page ?? 30) || 30));
      const page = Math.max(1, Number(req.query.page ?? 1) || 1);
      const pages = Math.max(1, Math.ceil(repos.length / perPage));
      const link = (p: number, rel: string) =>
        `<${base}/user/repos?per_page=${perPage}&page=${p}>; rel="${rel}"`;
      const links = [...(page < pages ? [link(page + 1, 'next'), link(pages, 'last')] : [])];
      return {
        json: repos.slice((page - 1) * perPage, page * perPage).map(repoJson),
        headers: links.length ? { link: links.join(', ') } : {},
      };
    }
    const m = /^\/repos\/([^/]+)\/([^/]+)\/(issues|hooks)(?:\/(\d+)(\/comments)?)?$/.exec(req.path);
    if (!m) return notFound;
    const full = `${decodeURIComponent(m[1] ?? '')}/${decodeURIComponent(m[2] ?? '')}`;
    const repo = repos.find((r) => r.full_name === full);
    if (!repo) return notFound;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const write = req.method === 'POST' || req.method === 'PATCH';
    if (write && (req.headers['content-type'] ?? '').split(';')[0] !== 'application/json')
      return error(400, 'Problems parsing JSON');

    if (m[3] === 'hooks') {
      // repos/delete-webhook: 204 without a body; a hook this repository does not have is 404.
      if (req.method === 'DELETE' && m[4] && !m[5]) {
        const at = hooks.findIndex((h) => h.repo === full && h.id === Number(m[4]));
        if (at < 0) return notFound;
        hooks.splice(at, 1);
        return { status: 204 };
      }
      if (req.method !== 'POST' || m[4]) return error(404, 'Not Found');
      const config = (body.config ?? {}) as Record<string, unknown>;
      if (body.name !== undefined && body.name !== 'web')
        return error(422, 'Validation Failed', {
          errors: [{ resource: 'Hook', field: 'name', code: 'invalid' }],
        });
      if (typeof config.url !== 'string' || !/^https?:\/\//.test(config.url))
        return error(422, 'Validation Failed', {
          errors: [{ resource: 'Hook', field: 'config.url', code: 'missing_field' }],
        });
      const events = Array.isArray(body.events) ? body.events.map(String) : ['push'];
      if (events.some((e) => !hookEvents.has(e)))
        return error(422, 'Validation Failed', {
          errors: [{ resource: 'Hook', field: 'events', code: 'invalid' }],
        });
      const contentType = config.content_type === 'json' ? 'json' : 'form';
      if (
        hooks.some((h) => h.repo === full && h.url === config.url && h.events.some((e) => events.includes(e)))
      )
        return error(422, 'Validation Failed', {
          errors: [{ resource: 'Hook', code: 'custom', message: 'Hook already exists on this repository' }],
        });
      const hook: GithubHook = {
        id: 12_000 + nextId++,
        repo: full,
        url: config.url,
        contentType,
        secret: typeof config.secret === 'string' ? config.secret : '',
        events,
        active: body.active !== false,
      };
      hooks.push(hook);
      const json = {
        type: 'Repository',
        id: hook.id,
        name: 'web',
        active: hook.active,
        events,
        config: {
          url: hook.url,
          content_type: contentType,
          insecure_ssl: '0',
          ...(hook.secret ? { secret: '********' } : {}),
        },
        created_at: now(),
        updated_at: now(),
        url: `${base}/repos/${full}/hooks/${hook.id}`,
        ping_url: `${base}/repos/${full}/hooks/${hook.id}/pings`,
        deliveries_url: `${base}/repos/${full}/hooks/${hook.id}/deliveries`,
        last_response: { code: null, status: 'unused', message: null },
      };
      // GitHub pings a new hook; the answer does not wait for it.
      void emit(full, 'ping', {
        zen: 'Keep it logically awesome.',
        hook_id: hook.id,
        hook: json,
        sender: userJson(snagBot),
      });
      return { status: 201, json };
    }

    const n = m[4] ? Number(m[4]) : undefined;
    if (n === undefined) {
      if (req.method !== 'POST') return error(404, 'Not Found');
      if (!repo.has_issues) return error(410, 'Issues are disabled for this repo');
      if (repo.archived) return error(403, 'Repository was archived so is read-only.');
      if (body.assignee !== undefined) return invalid('assignee', 'unprocessable');
      const title = typeof body.title === 'number' ? String(body.title) : body.title;
      if (typeof title !== 'string' || !title.trim()) return invalid('title', 'missing_field');
      if (title.length > 256) return invalid('title');
      if (body.body !== undefined && body.body !== null && typeof body.body !== 'string')
        return invalid('body');
      const text = typeof body.body === 'string' ? body.body : '';
      if (text.length > 65_536) return invalid('body');
      const list = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? [] : null);
      const labels = list(body.labels);
      const assignees = list(body.assignees);
      if (!labels || labels.some((l) => typeof l !== 'string')) return invalid('labels');
      if (!assignees || assignees.some((a) => typeof a !== 'string')) return invalid('assignees');
      const created = now();
      const issue: GithubFakeIssue = {
        id: 90_000 + nextId++,
        number: issues.filter((i) => i.repo === full).length + 1,
        repo: full,
        title,
        body: text,
        labels: [...new Set(labels as string[])],
        assignees: assignees as string[],
        state: 'open',
        state_reason: null,
        user: snagBot,
        created_at: created,
        updated_at: created,
        closed_at: null,
        comments: [],
        actions: actionsOf(title, text),
      };
      issues.push(issue);
      return {
        status: 201,
        json: issueJson(issue),
        headers: { location: `${base}/repos/${full}/issues/${issue.number}` },
      };
    }
    const issue = findIssue(full, n);
    if (!issue) return notFound;
    if (m[5]) {
      if (req.method !== 'POST') return error(404, 'Not Found');
      if (typeof body.body !== 'string' || !body.body.trim()) return invalid('body', 'missing_field');
      // GitHub answers first and delivers the hooks after (`idle()` waits for them).
      const { comment } = addComment(issue, body.body, snagBot);
      return { status: 201, json: commentJson(issue, comment) };
    }
    if (req.method === 'GET') return { json: issueJson(issue) };
    if (req.method !== 'PATCH') return error(404, 'Not Found');
    if (body.assignee !== undefined) return invalid('assignee', 'unprocessable');
    if (body.state !== undefined && body.state !== 'open' && body.state !== 'closed') return invalid('state');
    if (
      body.state_reason !== undefined &&
      body.state_reason !== null &&
      !stateReasons.includes(String(body.state_reason))
    )
      return invalid('state_reason');
    void edit(issue, body, snagBot);
    if (body.state === 'closed' || body.state === 'open') {
      const reason =
        body.state === 'closed'
          ? body.state_reason === 'not_planned' || body.state_reason === 'duplicate'
            ? body.state_reason
            : 'completed'
          : 'reopened';
      void changeState(issue, body.state, reason, snagBot);
    }
    return { json: issueJson(issue) };
  };

  const route = (req: FakeRequest): FakeReply | Promise<FakeReply> => {
    if (req.path.startsWith('/_fake/')) return control(req);
    const page = /^\/([^/]+\/[^/]+)\/issues\/(\d+)$/.exec(req.path);
    if (req.method === 'GET' && page && !req.path.startsWith('/repos/')) {
      const issue = findIssue(page[1] ?? '', Number(page[2]));
      return issue ? issuePage(issue) : notFound;
    }
    return api(req);
  };

  const fake = await startFake(route, 'GitHub', port);
  base = fake.url;
  const act = async (path: string, body: unknown = {}) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { deliveries?: GithubDelivery[] };
    if (!res.ok) throw new Error(`GitHub fake: ${path} answered ${res.status}`);
    return json.deliveries ?? [];
  };
  return {
    ...fake,
    apiUrl: base,
    issues,
    hooks,
    deliveries,
    revoke: (token) => revoked.add(token),
    addRepos: (count) => {
      const first = 600 + repos.length;
      for (let i = 0; i < count; i++)
        repos.push({
          id: first + i,
          full_name: `octo-org/repo-${first + i}`,
          has_issues: true,
          archived: false,
          private: false,
        });
    },
    close: (repo, n, reason) => act(`/_fake/repos/${repo}/issues/${n}/close`, reason ? { reason } : {}),
    reopen: (repo, n) => act(`/_fake/repos/${repo}/issues/${n}/reopen`),
    comment: (repo, n, body) => act(`/_fake/repos/${repo}/issues/${n}/comments`, { body }),
    redeliver: async (guid) => {
      const [d] = await act(`/_fake/deliveries/${guid}/redeliver`);
      if (!d) throw new Error(`GitHub fake: no delivery ${guid}`);
      return d;
    },
    idle: () => queue.then(() => {}),
    reset: () => {
      fake.reset();
      repos = githubRepos.map((r) => ({ ...r }));
      issues.length = 0;
      hooks.length = 0;
      deliveries.length = 0;
      revoked.clear();
      nextId = 1;
    },
  };
}
