/**
 * GitLab's local fake (../shared/api-specs/gitlab and README notes): `PRIVATE-TOKEN` (or Bearer) on every
 * call; any token is accepted except one containing "invalid" or a revoked one (401, as GitLab answers).
 * Two projects (ids 101 and 102; `addProjects` for more, paged as GitLab pages); project 404s for others. Uploads answer `{alt, url, full_path, markdown}`.
 *
 * Two-way sync (issue 24; openapi_v2.sync.EXCERPTS.yaml, webhook-example.*.json, README "GitLab webhooks"):
 * issues keep their state and notes; `PUT …/issues/:iid {state_event}`, `POST …/issues/:iid/notes`,
 * `GET /user` (the token's user, "Snag Bot"), `POST /projects/:id/hooks` (stored, body checked) and
 * `DELETE /projects/:id/hooks/:hook_id` (204; 404 when the project has no such hook). Every
 * change, the API's included, fires the project's hooks as GitLab does: `Issue Hook`/`Note Hook` payloads
 * with `X-Gitlab-Token`, `X-Gitlab-Event`, `Idempotency-Key`, `X-Gitlab-Event-UUID`, `X-Gitlab-Instance`,
 * `X-Gitlab-Webhook-UUID` and `User-Agent`. `actAsHuman` (or `POST /_control/projects/:id/issues/:iid/
 * {close|reopen|comment}` for a person trying it locally) changes an issue as "Jane Doe" would.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  backgroundWork,
  bearerToken,
  type Fake,
  type FakeReply,
  type FakeRequest,
  itemPage,
  postHook,
  startFake,
} from './fake';
import { linesOutsideFences } from './markdown';

export interface GitlabIssue {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  /** What GitLab would act on when saving it: quick actions (`/close`) and user mentions (`@all`). */
  quickActions: string[];
  mentions: string[];
  state: 'opened' | 'closed';
  notes: { id: number; body: string; authorId: number }[];
}

/** A project hook as registered through the API. */
export interface GitlabHook {
  id: number;
  projectId: number;
  url: string;
  token: string;
  issues_events: boolean;
  note_events: boolean;
  uuid: string;
}

/** A hook delivery the fake sent: what it posted and what Snag answered. */
export interface GitlabDelivery {
  hookId: number;
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

/** The token's user (what the API acts as) and the person a test plays. */
export const gitlabApiUser = { id: 7, name: 'Snag Bot', username: 'snag-bot' };
export const gitlabHuman = { id: 42, name: 'Jane Doe', username: 'jane' };

/**
 * What GitLab acts on in Markdown: quick actions are lines starting with `/<command>` outside code
 * blocks (run on save, with the token's rights); mentions are `@name` outside code blocks and code spans
 * (`@all` notifies every member). Code blocks are the fenced ones (`linesOutsideFences`).
 */
export function gitlabActions(markdown: string): { quickActions: string[]; mentions: string[] } {
  const quickActions: string[] = [];
  const mentions: string[] = [];
  for (const line of linesOutsideFences(markdown)) {
    const command = /^\/([a-z_]+)/i.exec(line);
    if (command) quickActions.push(line.trim());
    const prose = line.replace(/(`+)[\s\S]*?\1/g, '');
    for (const m of prose.matchAll(/(?:^|[^\w`])@([a-z0-9_][a-z0-9_.-]*)/gi)) mentions.push(`@${m[1]}`);
  }
  return { quickActions, mentions };
}

export interface GitlabFake extends Fake {
  issues: GitlabIssue[];
  hooks: GitlabHook[];
  deliveries: GitlabDelivery[];
  /** Changes an issue as a person on GitLab would, and fires the hooks (resolves when they were answered). */
  actAsHuman(
    projectId: number,
    iid: number,
    action: { kind: 'close' | 'reopen' } | { kind: 'comment'; body: string },
  ): Promise<GitlabDelivery[]>;
  /** Sends a recorded delivery again, byte for byte (GitLab's "Resend request"). */
  resend(delivery: GitlabDelivery): Promise<number>;
  /** Resolves once every hook fired so far has been answered. */
  settled(): Promise<void>;
  uploads: { projectId: number; name: string; size: number; url: string }[];
  revoke(token: string): void;
  /** More projects for the token's user (paging tests); `reset` goes back to the two. */
  addProjects(count: number): void;
}

export const gitlabProjects = [
  { id: 101, name: 'Website', path_with_namespace: 'snag/website', name_with_namespace: 'Snag / Website' },
  { id: 102, name: 'Shop', path_with_namespace: 'snag/shop', name_with_namespace: 'Snag / Shop' },
];

const unauthorized: FakeReply = { status: 401, json: { message: '401 Unauthorized' } };
const notFound: FakeReply = { status: 404, json: { message: '404 Project Not Found' } };

export async function startGitlabFake(port = 0): Promise<GitlabFake> {
  let projects = [...gitlabProjects];
  const issues: GitlabIssue[] = [];
  const uploads: GitlabFake['uploads'] = [];
  const revoked = new Set<string>();
  let base = '';

  const hooks: GitlabHook[] = [];
  let hookCount = 0;
  const deliveries: GitlabDelivery[] = [];
  const background = backgroundWork();

  async function post(hook: GitlabHook, event: string, payload: unknown): Promise<GitlabDelivery> {
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'GitLab/17.0.0',
      'x-gitlab-event': event,
      'x-gitlab-token': hook.token,
      'x-gitlab-instance': base,
      'x-gitlab-webhook-uuid': hook.uuid,
      'x-gitlab-event-uuid': randomUUID(),
      'idempotency-key': randomUUID(),
    };
    return send({ hookId: hook.id, url: hook.url, headers, body, status: 0 });
  }
  async function send(d: GitlabDelivery): Promise<GitlabDelivery> {
    const out = { ...d, status: await postHook(d.url, d.headers, d.body) };
    deliveries.push(out);
    return out;
  }
  /** Fires the project's hooks for an event, as GitLab's background job does (after the API answered). */
  function fire(projectId: number, event: 'Issue Hook' | 'Note Hook', payload: unknown) {
    const wanted = hooks.filter(
      (h) => h.projectId === projectId && (event === 'Issue Hook' ? h.issues_events : h.note_events),
    );
    const sent = Promise.all(wanted.map((h) => post(h, event, payload)));
    return background.track(sent);
  }
  const projectOf = (id: number) => projects.find((p) => p.id === id);
  const issueUrl = (issue: GitlabIssue) =>
    `${base}/${projectOf(issue.projectId)?.path_with_namespace ?? 'snag/unknown'}/-/issues/${issue.iid}`;
  const projectJson = (id: number) => ({
    id,
    web_url: `${base}/${projectOf(id)?.path_with_namespace ?? ''}`,
  });
  const issueHook = (issue: GitlabIssue, user: typeof gitlabApiUser, action: 'close' | 'reopen') =>
    fire(issue.projectId, 'Issue Hook', {
      object_kind: 'issue',
      event_type: 'issue',
      user: { ...user, avatar_url: '', email: '[REDACTED]' },
      project: projectJson(issue.projectId),
      object_attributes: {
        id: issue.id,
        iid: issue.iid,
        title: issue.title,
        project_id: issue.projectId,
        state: issue.state,
        action,
        url: issueUrl(issue),
      },
      changes: {
        state_id: { previous: action === 'close' ? 1 : 2, current: action === 'close' ? 2 : 1 },
      },
    });
  const noteHook = (issue: GitlabIssue, user: typeof gitlabApiUser, note: GitlabIssue['notes'][number]) =>
    fire(issue.projectId, 'Note Hook', {
      object_kind: 'note',
      event_type: 'note',
      user: { ...user, avatar_url: '', email: '[REDACTED]' },
      project_id: issue.projectId,
      project: projectJson(issue.projectId),
      object_attributes: {
        id: note.id,
        note: note.body,
        noteable_type: 'Issue',
        author_id: user.id,
        project_id: issue.projectId,
        noteable_id: issue.id,
        system: false,
        action: 'create',
        url: `${issueUrl(issue)}#note_${note.id}`,
      },
      issue: {
        id: issue.id,
        iid: issue.iid,
        title: issue.title,
        state: issue.state,
        project_id: issue.projectId,
      },
    });
  let noteIds = 500;
  function change(
    issue: GitlabIssue,
    user: typeof gitlabApiUser,
    action: { kind: 'close' | 'reopen' } | { kind: 'comment'; body: string },
  ): Promise<GitlabDelivery[]> {
    if (action.kind === 'comment') {
      const note = { id: ++noteIds, body: action.body, authorId: user.id };
      issue.notes.push(note);
      return noteHook(issue, user, note);
    }
    const next = action.kind === 'close' ? 'closed' : 'opened';
    // GitLab fires nothing for a close of a closed issue.
    if (issue.state === next) return Promise.resolve([]);
    issue.state = next;
    return issueHook(issue, user, action.kind);
  }

  const route = (req: FakeRequest): FakeReply => {
    const control = /^\/_control\/projects\/(\d+)\/issues\/(\d+)\/(close|reopen|comment)$/.exec(req.path);
    if (control && req.method === 'POST') {
      const issue = issues.find((i) => i.projectId === Number(control[1]) && i.iid === Number(control[2]));
      if (!issue) return notFound;
      const kind = control[3] as 'close' | 'reopen' | 'comment';
      const text = String((req.body as { body?: unknown } | undefined)?.body ?? 'A comment on GitLab');
      void change(issue, gitlabHuman, kind === 'comment' ? { kind, body: text } : { kind });
      return { status: 202, json: { done: kind } };
    }
    // An issue's page (its `web_url`), so the link Snag shows opens something locally.
    const page = /^\/(.+)\/-\/issues\/(\d+)$/.exec(req.path);
    if (page && req.method === 'GET') {
      const project = projects.find((p) => p.path_with_namespace === page[1]);
      const issue = issues.find((i) => i.projectId === project?.id && i.iid === Number(page[2]));
      if (!project || !issue) return notFound;
      return itemPage({
        vendor: 'GitLab',
        place: project.path_with_namespace,
        title: issue.title,
        reference: `#${issue.iid}`,
        facts: [`State: ${issue.state}`],
        body: issue.description,
        comments: issue.notes.map((n) => ({
          author: n.authorId === gitlabApiUser.id ? gitlabApiUser.username : gitlabHuman.username,
          body: n.body,
        })),
      });
    }
    const token = req.headers['private-token'] ?? bearerToken(req.headers);
    if (!token || token.includes('invalid') || revoked.has(token)) return unauthorized;
    if (req.method === 'GET' && req.path === '/api/v4/user')
      return { json: { ...gitlabApiUser, state: 'active' } };
    if (req.method === 'GET' && req.path === '/api/v4/projects') {
      const perPage = Math.min(100, Number(req.query.per_page ?? 20));
      const list =
        req.query.simple === 'true'
          ? projects.map(({ id, name, name_with_namespace, path_with_namespace }) => ({
              id,
              name,
              name_with_namespace,
              path_with_namespace,
            }))
          : projects;
      // Offset pagination as GitLab's: `page` from 1, and the headers that describe it.
      const page = Math.max(1, Number(req.query.page ?? 1) || 1);
      const pages = Math.max(1, Math.ceil(list.length / perPage));
      return {
        json: list.slice((page - 1) * perPage, page * perPage),
        headers: {
          'x-total': String(list.length),
          'x-total-pages': String(pages),
          'x-page': String(page),
          'x-per-page': String(perPage),
          'x-next-page': page < pages ? String(page + 1) : '',
        },
      };
    }
    const hookPath = /^\/api\/v4\/projects\/([^/]+)\/hooks$/.exec(req.path);
    if (hookPath && req.method === 'POST') {
      const project = projects.find((p) => String(p.id) === decodeURIComponent(hookPath[1] ?? ''));
      if (!project) return notFound;
      const body = (req.body ?? {}) as Record<string, unknown>;
      // postApiV4ProjectsIdHooks: url required; token, issues_events, note_events booleans/strings.
      if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url))
        return { status: 400, json: { error: 'url is missing' } };
      for (const f of ['issues_events', 'note_events', 'enable_ssl_verification'])
        if (body[f] !== undefined && typeof body[f] !== 'boolean')
          return { status: 400, json: { error: `${f} is invalid` } };
      const hook: GitlabHook = {
        // Never reused, as GitLab's ids: a deleted hook's id does not come back.
        id: 300 + ++hookCount,
        projectId: project.id,
        url: body.url,
        token: typeof body.token === 'string' ? body.token : '',
        issues_events: body.issues_events === true,
        note_events: body.note_events === true,
        uuid: randomUUID(),
      };
      hooks.push(hook);
      const { token: _secret, uuid: _u, projectId, ...shown } = hook;
      return { status: 201, json: { ...shown, project_id: projectId, created_at: new Date().toISOString() } };
    }
    // Delete a project hook (Maintainer role): 204 without a body; one the project does not have is 404.
    const oneHook = /^\/api\/v4\/projects\/([^/]+)\/hooks\/(\d+)$/.exec(req.path);
    if (oneHook && req.method === 'DELETE') {
      const project = projects.find((p) => String(p.id) === decodeURIComponent(oneHook[1] ?? ''));
      if (!project) return notFound;
      const at = hooks.findIndex((h) => h.projectId === project.id && String(h.id) === oneHook[2]);
      if (at < 0) return { status: 404, json: { message: '404 Not found' } };
      hooks.splice(at, 1);
      return { status: 204 };
    }
    const notes = /^\/api\/v4\/projects\/([^/]+)\/issues\/(\d+)\/notes$/.exec(req.path);
    if (notes && req.method === 'POST') {
      const issue = issues.find(
        (i) => String(i.projectId) === decodeURIComponent(notes[1] ?? '') && String(i.iid) === notes[2],
      );
      if (!issue) return { status: 404, json: { message: '404 Issue Not Found' } };
      const text = (req.body as { body?: unknown } | undefined)?.body;
      if (typeof text !== 'string' || !text.trim())
        return { status: 400, json: { error: 'body is missing' } };
      void change(issue, gitlabApiUser, { kind: 'comment', body: text });
      const note = issue.notes.at(-1);
      return {
        status: 201,
        json: { id: note?.id, body: text, noteable_type: 'Issue', author: gitlabApiUser },
      };
    }
    const m = /^\/api\/v4\/projects\/([^/]+)\/(uploads|issues)(?:\/(\d+))?$/.exec(req.path);
    const project = m && projects.find((p) => String(p.id) === decodeURIComponent(m[1] ?? ''));
    if (!m || !project) return notFound;
    if (m[2] === 'uploads' && req.method === 'POST') {
      const file = req.files.find((f) => f.field === 'file');
      if (!file) return { status: 400, json: { error: 'file is missing' } };
      const secret = randomBytes(16).toString('hex');
      const url = `/uploads/${secret}/${file.name}`;
      uploads.push({ projectId: project.id, name: file.name, size: file.size, url });
      return {
        status: 201,
        json: {
          id: uploads.length,
          alt: file.name,
          url,
          full_path: `/-/project/${project.id}${url}`,
          markdown: `${file.type.startsWith('image/') ? '!' : ''}[${file.name}](${url})`,
        },
      };
    }
    if (m[2] === 'issues' && req.method === 'POST' && !m[3]) {
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (typeof body.title !== 'string' || !body.title.trim()) {
        return { status: 400, json: { error: 'title is missing' } };
      }
      const iid = issues.filter((i) => i.projectId === project.id).length + 1;
      const description = typeof body.description === 'string' ? body.description : '';
      const acted = gitlabActions(description);
      const issue = {
        id: 9000 + issues.length + 1,
        iid,
        projectId: project.id,
        title: body.title,
        description,
        quickActions: acted.quickActions,
        // Mentions in the title notify too (no quick actions run there).
        mentions: [...gitlabActions(body.title.replace(/^\//, '')).mentions, ...acted.mentions],
        state: 'opened' as const,
        notes: [],
      };
      issues.push(issue);
      return {
        status: 201,
        json: {
          id: issue.id,
          iid,
          project_id: project.id,
          title: issue.title,
          description: issue.description,
          state: 'opened',
          web_url: `${base}/${project.path_with_namespace}/-/issues/${iid}`,
        },
      };
    }
    if (m[2] === 'issues' && req.method === 'GET' && m[3]) {
      const issue = issues.find((i) => i.projectId === project.id && String(i.iid) === m[3]);
      return issue
        ? {
            json: {
              id: issue.id,
              iid: issue.iid,
              title: issue.title,
              state: issue.state,
              web_url: issueUrl(issue),
            },
          }
        : notFound;
    }
    if (m[2] === 'issues' && req.method === 'PUT' && m[3]) {
      const issue = issues.find((i) => i.projectId === project.id && String(i.iid) === m[3]);
      if (!issue) return { status: 404, json: { message: '404 Issue Not Found' } };
      const event = (req.body as { state_event?: unknown } | undefined)?.state_event;
      if (event !== 'close' && event !== 'reopen')
        return { status: 400, json: { error: 'state_event does not have a valid value' } };
      void change(issue, gitlabApiUser, { kind: event });
      return { json: { id: issue.id, iid: issue.iid, state: issue.state, web_url: issueUrl(issue) } };
    }
    return { status: 405, json: { error: '405 Method Not Allowed' } };
  };

  const fake = await startFake(route, 'GitLab', port);
  base = fake.url;
  return {
    ...fake,
    issues,
    uploads,
    hooks,
    deliveries,
    actAsHuman: (projectId, iid, action) => {
      const issue = issues.find((i) => i.projectId === projectId && i.iid === iid);
      if (!issue) throw new Error(`no GitLab issue ${projectId}#${iid}`);
      return change(issue, gitlabHuman, action);
    },
    resend: async (d) => (await send({ ...d, status: 0 })).status,
    settled: background.settled,
    revoke: (token) => revoked.add(token),
    addProjects: (count) => {
      const first = 1000 + projects.length;
      for (let i = 0; i < count; i++)
        projects.push({
          id: first + i,
          name: `Project ${first + i}`,
          path_with_namespace: `snag/project-${first + i}`,
          name_with_namespace: `Snag / Project ${first + i}`,
        });
    },
    reset: () => {
      fake.reset();
      projects = [...gitlabProjects];
      issues.length = 0;
      uploads.length = 0;
      hooks.length = 0;
      deliveries.length = 0;
      revoked.clear();
    },
  };
}
