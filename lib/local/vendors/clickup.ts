/**
 * ClickUp's local fake (../shared/api-specs/clickup/clickup-api-v2-reference.EXCERPTS.json and the README's
 * "ClickUp" facts): the API under `/api/v2/…`, a personal token in `Authorization: pk_…` with no `Bearer`
 * on every call (any `pk_` token is accepted except one containing "invalid"; a missing, `Bearer` or other
 * token is 401 as ClickUp answers it). One workspace ("team" 9001) with one space, a folder with the list
 * "Bugs" (124) and the folderless list "Inbox" (125); the lists' statuses are "to do" (open), "in progress"
 * (custom) and "complete" (closed). Tasks (`POST /v2/list/{id}/task`: `name` required, `markdown_content`),
 * their attachments (multipart field `attachment`), statuses (`PUT /v2/task/{id} {status}`: a status of the
 * task's list), comments (`comment_text` and `notify_all` required) and workspace webhooks (`endpoint` and
 * `events` required; the answer carries the `secret`). Every change, the API's included, fires the
 * webhooks that listen to it, signed `X-Signature: <hex HMAC-SHA256(secret, body)>`, with history items as
 * the README describes them. `actAsHuman` (or `POST /_control/tasks/{id}/{close|reopen|comment}` for a
 * person trying it locally) changes a task as "Jane Doe" would; `GET /t/{id}` is the task's page.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  backgroundWork,
  type Fake,
  type FakeReply,
  type FakeRequest,
  itemPage,
  postHook,
  startFake,
} from './fake';
import { linesOutsideFences } from './markdown';

export const clickupTeam = { id: '9001', name: 'Snag Agency' };
export const clickupSpace = { id: '790', name: 'Clients' };
export const clickupFolder = { id: '457', name: 'Website' };
export const clickupLists = [
  { id: '124', name: 'Bugs', folder: clickupFolder.id },
  { id: '125', name: 'Inbox', folder: null },
];
export const clickupStatuses = [
  { status: 'to do', type: 'open', orderindex: 0, color: '#d3d3d3' },
  { status: 'in progress', type: 'custom', orderindex: 1, color: '#4194f6' },
  { status: 'complete', type: 'closed', orderindex: 2, color: '#6bc950' },
];
/** The token's user (what the API acts as) and the person a test plays. */
export const clickupApiUser = { id: 183, username: 'Snag Bot', email: 'bot@example.com' };
export const clickupHuman = { id: 42, username: 'Jane Doe', email: 'jane@example.com' };
type Person = typeof clickupApiUser;

export interface ClickupTask {
  id: string;
  listId: string;
  name: string;
  markdown: string;
  status: string;
  attachments: { id: string; title: string; size: number; type: string }[];
  comments: { id: string; text: string; userId: number }[];
  /** What ClickUp would act on in the description: `@` mentions and link targets outside code. */
  mentions: string[];
  links: string[];
}

export interface ClickupHook {
  id: string;
  teamId: string;
  listId: number | null;
  endpoint: string;
  events: string[];
  secret: string;
}

export interface ClickupDelivery {
  hookId: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

/**
 * What ClickUp's Markdown acts on: `@name` mentions and `[text](target)` / `<target>` links, outside
 * fenced code blocks and code spans, a backslash-escaped character being literal.
 */
export function clickupActions(markdown: string): { mentions: string[]; links: string[] } {
  const mentions: string[] = [];
  const links: string[] = [];
  for (const line of linesOutsideFences(markdown)) {
    const prose = line.replace(/(`+)[\s\S]*?\1/g, '').replace(/\\./g, '');
    for (const m of prose.matchAll(/(?:^|[^\w])@([a-z0-9_][a-z0-9_.-]*)/gi)) mentions.push(`@${m[1]}`);
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)|<([a-z][a-z0-9+.-]*:[^>\s]*)>/gi))
      links.push((m[1] ?? m[2]) as string);
  }
  return { mentions, links };
}

export interface ClickupFake extends Fake {
  apiUrl: string;
  tasks: ClickupTask[];
  hooks: ClickupHook[];
  deliveries: ClickupDelivery[];
  actAsHuman(
    taskId: string,
    action: { kind: 'close' | 'reopen' } | { kind: 'comment'; text: string },
  ): Promise<ClickupDelivery[]>;
  /** Sends a recorded delivery again, byte for byte (ClickUp's retry of a failed delivery). */
  resend(delivery: ClickupDelivery): Promise<number>;
  settled(): Promise<void>;
}

const unauthorized: FakeReply = { status: 401, json: { err: 'Token invalid', ECODE: 'OAUTH_025' } };
const notFound = (what: string): FakeReply => ({
  status: 404,
  json: { err: `${what} not found`, ECODE: 'ITEM_013' },
});
const bad = (err: string): FakeReply => ({ status: 400, json: { err, ECODE: 'INPUT_005' } });

export async function startClickupFake(port = 0): Promise<ClickupFake> {
  const tasks: ClickupTask[] = [];
  const hooks: ClickupHook[] = [];
  const deliveries: ClickupDelivery[] = [];
  const background = backgroundWork();
  let base = '';

  const statusJson = (name: string) => {
    const s = clickupStatuses.find((x) => x.status === name) ?? clickupStatuses[0];
    return { id: `p9001_${s?.orderindex}`, ...s };
  };
  const taskJson = (t: ClickupTask) => ({
    id: t.id,
    name: t.name,
    markdown_description: t.markdown,
    status: statusJson(t.status),
    team_id: clickupTeam.id,
    url: `${base}/t/${t.id}`,
    list: { id: t.listId, name: clickupLists.find((l) => l.id === t.listId)?.name ?? '', access: true },
    space: { id: clickupSpace.id },
    attachments: t.attachments.map((a) => ({ id: a.id, title: a.title, url: `${base}/attachments/${a.id}` })),
  });

  async function send(d: ClickupDelivery): Promise<ClickupDelivery> {
    const out = { ...d, status: await postHook(d.url, d.headers, d.body) };
    deliveries.push(out);
    return out;
  }
  /** Fires the webhooks that listen to `event` on the task's list, each signed with its own secret. */
  function fire(task: ClickupTask, event: string, item: Record<string, unknown>) {
    const wanted = hooks.filter(
      (h) =>
        (h.events.includes(event) || h.events.includes('*')) &&
        (h.listId === null || String(h.listId) === task.listId),
    );
    const sent = Promise.all(
      wanted.map((h) => {
        const body = JSON.stringify({ event, history_items: [item], task_id: task.id, webhook_id: h.id });
        const signature = createHmac('sha256', h.secret).update(body).digest('hex');
        const headers = { 'content-type': 'application/json', 'x-signature': signature };
        return send({ hookId: h.id, url: h.endpoint, headers, body, status: 0 });
      }),
    );
    return background.track(sent);
  }
  const historyId = () => `${Date.now()}${randomBytes(3).readUIntBE(0, 3)}`;
  const who = (p: Person) => ({ ...p, color: '#7b68ee', initials: p.username.slice(0, 2).toUpperCase() });
  function change(
    task: ClickupTask,
    person: Person,
    action: { kind: 'status'; status: string } | { kind: 'comment'; text: string },
  ): { id?: string; sent: Promise<ClickupDelivery[]> } {
    if (action.kind === 'comment') {
      const id = String(90_000 + tasks.flatMap((t) => t.comments).length + 1);
      task.comments.push({ id, text: action.text, userId: person.id });
      const date = String(Date.now());
      const sent = fire(task, 'taskCommentPosted', {
        id: historyId(),
        type: 1,
        date,
        field: 'comment',
        parent_id: task.listId,
        data: {},
        source: null,
        user: who(person),
        before: null,
        after: id,
        comment: {
          id,
          date,
          parent: task.id,
          type: 1,
          comment: [{ text: action.text }],
          text_content: action.text,
          user: who(person),
        },
      });
      return { id, sent };
    }
    const before = statusJson(task.status);
    // ClickUp fires nothing when the status does not change.
    if (task.status === action.status) return { sent: Promise.resolve([]) };
    task.status = action.status;
    return {
      sent: fire(task, 'taskStatusUpdated', {
        id: historyId(),
        type: 1,
        date: String(Date.now()),
        field: 'status',
        parent_id: task.listId,
        data: { status_type: statusJson(task.status).type },
        source: null,
        user: who(person),
        before: {
          status: before.status,
          color: before.color,
          type: before.type,
          orderindex: before.orderindex,
        },
        after: (({ id: _id, ...s }) => s)(statusJson(task.status)),
      }),
    };
  }
  const statusOf = (kind: 'close' | 'reopen') =>
    (kind === 'close' ? clickupStatuses[2] : clickupStatuses[0])?.status as string;

  const route = (req: FakeRequest): FakeReply | Promise<FakeReply> => {
    const control = /^\/_control\/tasks\/([^/]+)\/(close|reopen|comment)$/.exec(req.path);
    if (control && req.method === 'POST') {
      const task = tasks.find((t) => t.id === control[1]);
      if (!task) return notFound('Task');
      const kind = control[2] as 'close' | 'reopen' | 'comment';
      const text = String((req.body as { text?: unknown } | undefined)?.text ?? 'A comment on ClickUp');
      void change(
        task,
        clickupHuman,
        kind === 'comment' ? { kind, text } : { kind: 'status', status: statusOf(kind) },
      );
      return { status: 202, json: { done: kind } };
    }
    const page = /^\/t\/([^/]+)$/.exec(req.path);
    if (page && req.method === 'GET') {
      const task = tasks.find((t) => t.id === page[1]);
      if (!task) return notFound('Task');
      return itemPage({
        vendor: 'ClickUp',
        place: `${clickupTeam.name} / ${clickupLists.find((l) => l.id === task.listId)?.name}`,
        title: task.name,
        facts: [
          `Status: ${task.status}`,
          `Attachments: ${task.attachments.map((a) => a.title).join(', ') || 'none'}`,
        ],
        body: task.markdown,
        comments: task.comments.map((c) => ({
          author: c.userId === clickupApiUser.id ? clickupApiUser.username : clickupHuman.username,
          body: c.text,
        })),
      });
    }
    if (!req.path.startsWith('/api/v2/')) return notFound('Route');
    // A personal token, as is: `Bearer` is OAuth's, and a personal token sent with it is refused.
    const token = req.headers.authorization ?? '';
    if (!/^pk_[A-Za-z0-9_]+$/.test(token) || token.includes('invalid')) return unauthorized;
    const path = req.path.slice('/api'.length);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const json = (req.headers['content-type'] ?? '').includes('application/json');
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && path === '/v2/team')
      return { json: { teams: [{ ...clickupTeam, members: [] }] } };
    m = req.method === 'GET' ? /^\/v2\/team\/([^/]+)\/space$/.exec(path) : null;
    if (m)
      return m[1] === clickupTeam.id
        ? { json: { spaces: [{ ...clickupSpace, statuses: clickupStatuses }] } }
        : notFound('Team');
    m = req.method === 'GET' ? /^\/v2\/space\/([^/]+)\/folder$/.exec(path) : null;
    if (m)
      return m[1] === clickupSpace.id
        ? { json: { folders: [{ ...clickupFolder, orderindex: 0, space: clickupSpace, lists: [] }] } }
        : notFound('Space');
    m = req.method === 'GET' ? /^\/v2\/folder\/([^/]+)\/list$/.exec(path) : null;
    if (m)
      return {
        json: { lists: clickupLists.filter((l) => l.folder === m?.[1]).map(({ folder: _f, ...l }) => l) },
      };
    m = req.method === 'GET' ? /^\/v2\/space\/([^/]+)\/list$/.exec(path) : null;
    if (m)
      return m[1] === clickupSpace.id
        ? { json: { lists: clickupLists.filter((l) => !l.folder).map(({ folder: _f, ...l }) => l) } }
        : notFound('Space');
    m = req.method === 'GET' ? /^\/v2\/list\/([^/]+)$/.exec(path) : null;
    if (m) {
      const list = clickupLists.find((l) => l.id === m?.[1]);
      return list ? { json: { id: list.id, name: list.name, statuses: clickupStatuses } } : notFound('List');
    }
    m = req.method === 'POST' ? /^\/v2\/list\/([^/]+)\/task$/.exec(path) : null;
    if (m) {
      const list = clickupLists.find((l) => l.id === m?.[1]);
      if (!list) return notFound('List');
      if (!json) return bad('Content-Type must be application/json');
      if (typeof body.name !== 'string' || !body.name.trim()) return bad('Task name invalid');
      for (const f of ['markdown_content', 'description'] as const)
        if (body[f] !== undefined && typeof body[f] !== 'string') return bad(`${f} must be a string`);
      const markdown = String(body.markdown_content ?? body.description ?? '');
      const task: ClickupTask = {
        id: `86${randomBytes(4).toString('hex')}`,
        listId: list.id,
        name: body.name,
        markdown,
        status: clickupStatuses[0]?.status as string,
        attachments: [],
        comments: [],
        ...clickupActions(markdown),
      };
      tasks.push(task);
      return { json: taskJson(task) };
    }
    const taskPath = /^\/v2\/task\/([^/]+)(\/comment|\/attachment)?$/.exec(path);
    const task = taskPath && tasks.find((t) => t.id === taskPath[1]);
    if (taskPath && !task) return notFound('Task');
    if (task && taskPath && !taskPath[2] && req.method === 'GET') return { json: taskJson(task) };
    if (task && taskPath && !taskPath[2] && req.method === 'PUT') {
      if (!json) return bad('Content-Type must be application/json');
      if (typeof body.status !== 'string' || !clickupStatuses.some((s) => s.status === body.status))
        return bad('Status does not exist');
      void change(task, clickupApiUser, { kind: 'status', status: body.status });
      return { json: taskJson(task) };
    }
    if (task && taskPath?.[2] === '/comment' && req.method === 'POST') {
      if (!json) return bad('Content-Type must be application/json');
      // CreateTaskCommentrequest: comment_text and notify_all required.
      if (typeof body.comment_text !== 'string' || !body.comment_text.trim())
        return bad('Comment text invalid');
      if (typeof body.notify_all !== 'boolean') return bad('notify_all must be a boolean');
      const made = change(task, clickupApiUser, { kind: 'comment', text: body.comment_text });
      return { json: { id: made.id, hist_id: randomUUID(), date: Date.now() } };
    }
    if (task && taskPath?.[2] === '/attachment' && req.method === 'POST') {
      const files = req.files.filter((f) => f.field === 'attachment');
      if (files.length !== 1 || !files[0]?.name) return bad('One file in the attachment field is required');
      const f = files[0];
      const id = `${randomUUID()}.${f.name.split('.').pop() ?? 'bin'}`;
      task.attachments.push({ id, title: f.name, size: f.size, type: f.type });
      return {
        json: {
          id,
          version: '0',
          date: Date.now(),
          title: f.name,
          extension: f.name.split('.').pop(),
          url: `${base}/attachments/${id}`,
        },
      };
    }
    m = req.method === 'POST' ? /^\/v2\/team\/([^/]+)\/webhook$/.exec(path) : null;
    if (m) {
      if (m[1] !== clickupTeam.id) return notFound('Team');
      if (!json) return bad('Content-Type must be application/json');
      if (typeof body.endpoint !== 'string' || !/^https?:\/\//.test(body.endpoint))
        return bad('Endpoint invalid');
      if (
        !Array.isArray(body.events) ||
        !body.events.length ||
        !body.events.every((e) => typeof e === 'string')
      )
        return bad('Events invalid');
      if (body.list_id !== undefined && typeof body.list_id !== 'number')
        return bad('list_id must be an integer');
      const hook: ClickupHook = {
        id: randomUUID(),
        teamId: clickupTeam.id,
        listId: (body.list_id as number | undefined) ?? null,
        endpoint: body.endpoint,
        events: body.events as string[],
        secret: randomBytes(32).toString('hex').toUpperCase().slice(0, 64),
      };
      hooks.push(hook);
      return {
        json: {
          id: hook.id,
          webhook: {
            id: hook.id,
            userid: clickupApiUser.id,
            team_id: Number(hook.teamId),
            endpoint: hook.endpoint,
            events: hook.events,
            task_id: null,
            list_id: hook.listId,
            folder_id: null,
            space_id: null,
            health: { status: 'active', fail_count: 0 },
            secret: hook.secret,
          },
        },
      };
    }
    // `DELETE /v2/webhook/{webhook_id}` answers 200 `{}` (the spec's DeleteWebhook); the webhook stops firing.
    m = req.method === 'DELETE' ? /^\/v2\/webhook\/([^/]+)$/.exec(path) : null;
    if (m) {
      const at = hooks.findIndex((h) => h.id === m?.[1]);
      if (at < 0) return notFound('Webhook');
      hooks.splice(at, 1);
      return { json: {} };
    }
    return { status: 404, json: { err: 'Route not found', ECODE: 'APP_001' } };
  };

  const fake = await startFake(route, 'ClickUp', port);
  base = fake.url;
  return {
    ...fake,
    apiUrl: `${fake.url}/api`,
    tasks,
    hooks,
    deliveries,
    actAsHuman: (taskId, action) => {
      const task = tasks.find((t) => t.id === taskId);
      if (!task) throw new Error(`no ClickUp task ${taskId}`);
      return change(
        task,
        clickupHuman,
        action.kind === 'comment' ? action : { kind: 'status', status: statusOf(action.kind) },
      ).sent;
    },
    resend: async (d) => (await send({ ...d, status: 0 })).status,
    settled: background.settled,
    reset: () => {
      fake.reset();
      tasks.length = 0;
      hooks.length = 0;
      deliveries.length = 0;
    },
  };
}
