/**
 * Jira Cloud's local fake (../shared/api-specs/jira and README notes): basic auth `email:api_token` on
 * every call (a token containing "invalid" answers 401), project search, createmeta issue types, issue
 * creation that validates project, issue type, summary and an ADF description, and attachments that
 * demand `X-Atlassian-Token: no-check` (403 without it, as Jira's XSRF check does).
 *
 * Two-way sync (issue 24; jira/sync.EXCERPTS.yaml, README "Jira Cloud webhooks"): issues keep a status
 * (To Do, In Progress, Done with their categories) and comments; `GET …/issue/{key}` answers the status,
 * `GET/POST …/transitions`, `POST …/comment` (ADF body checked) and `GET /myself` (the API token's account,
 * "Snag Bot"). An admin webhook is configured by a control call (`configureWebhook`, or
 * `POST /_control/webhook {url, secret}`), as an admin would in System › WebHooks; every change, the
 * API's included, then POSTs `jira:issue_updated` (with the status changelog) or `comment_created`,
 * signed `X-Hub-Signature: sha256=<hex HMAC>` with the secret. `actAsHuman` (or
 * `POST /_control/issue/{key}/{done|reopen|comment}`) changes an issue as "Jane Doe" would.
 */
import { createHmac } from 'node:crypto';
import {
  backgroundWork,
  basicAuth,
  type Fake,
  type FakeReply,
  type FakeRequest,
  itemPage,
  postHook,
  startFake,
} from './fake';

export interface JiraIssue {
  id: string;
  key: string;
  fields: Record<string, unknown>;
  attachments: { filename: string; size: number }[];
  status: JiraStatus;
  comments: { id: string; body: unknown; accountId: string }[];
}

/** The fake's workflow: one status per category, a transition into each. */
export const jiraStatuses = [
  { id: '10000', name: 'To Do', category: 'new', transition: '11' },
  { id: '10001', name: 'In Progress', category: 'indeterminate', transition: '21' },
  { id: '10002', name: 'Done', category: 'done', transition: '31' },
] as const;
export type JiraStatus = (typeof jiraStatuses)[number];

/** A webhook delivery the fake sent: what it posted and what Snag answered. */
export interface JiraDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

export const jiraApiUser = { accountId: '5b10ac8d82e05b22cc7d4ef5', displayName: 'Snag Bot' };
export const jiraHuman = {
  accountId: '557058:f58131cb-b67d-43c7-b30d-6b58d40bd077',
  displayName: 'Jane Doe',
};

export interface JiraFake extends Fake {
  issues: JiraIssue[];
  deliveries: JiraDelivery[];
  /** The admin's webhook (System › WebHooks) with its secret; null removes it. */
  configureWebhook(hook: { url: string; secret: string } | null): void;
  actAsHuman(
    key: string,
    action: { kind: 'done' | 'reopen' } | { kind: 'comment'; body: string },
  ): Promise<JiraDelivery[]>;
  /** Sends a recorded delivery again, byte for byte. */
  resend(delivery: JiraDelivery): Promise<number>;
  settled(): Promise<void>;
}

export const jiraProjects = [
  { id: '10000', key: 'WEB', name: 'Website' },
  { id: '10001', key: 'APP', name: 'Mobile app' },
];
export const jiraIssueTypes = [
  { id: '10004', name: 'Bug' },
  { id: '10002', name: 'Task' },
];

const errors = (status: number, messages: string[], fieldErrors: Record<string, string> = {}): FakeReply => ({
  status,
  json: { errorMessages: messages, errors: fieldErrors },
});

/** An ADF document's text (a v2 webhook carries a comment's body as text). */
function adfText(node: unknown): string {
  const n = node as { text?: unknown; content?: unknown; type?: unknown };
  if (!n || typeof n !== 'object') return '';
  if (typeof n.text === 'string') return n.text;
  const inner = Array.isArray(n.content) ? n.content.map(adfText).join('') : '';
  return n.type === 'paragraph' ? `${inner}\n\n` : inner;
}

function isAdfDoc(value: unknown): boolean {
  const doc = value as { type?: unknown; version?: unknown; content?: unknown };
  return !!doc && doc.type === 'doc' && doc.version === 1 && Array.isArray(doc.content);
}

export async function startJiraFake(port = 0): Promise<JiraFake> {
  const issues: JiraIssue[] = [];
  let base = '';
  const findProject = (idOrKey: string) => jiraProjects.find((p) => p.id === idOrKey || p.key === idOrKey);
  let webhook: { url: string; secret: string } | null = null;
  const deliveries: JiraDelivery[] = [];
  const background = backgroundWork();
  let commentIds = 10_000;

  async function send(d: JiraDelivery): Promise<JiraDelivery> {
    const out = { ...d, status: await postHook(d.url, d.headers, d.body) };
    deliveries.push(out);
    return out;
  }
  const statusJson = (s: JiraStatus) => ({
    self: `${base}/rest/api/2/status/${s.id}`,
    id: s.id,
    name: s.name,
    statusCategory: { key: s.category, name: s.name },
  });
  const issueJson = (issue: JiraIssue) => ({
    id: issue.id,
    self: `${base}/rest/api/2/issue/${issue.id}`,
    key: issue.key,
    fields: { summary: issue.fields.summary, status: statusJson(issue.status) },
  });
  /** POSTs the admin webhook's delivery (REST v2 shapes, as Jira sends), signed with its secret. */
  function fire(payload: Record<string, unknown>): Promise<JiraDelivery[]> {
    if (!webhook) return Promise.resolve([]);
    const body = JSON.stringify({ timestamp: Date.now(), ...payload });
    const signature = createHmac('sha256', webhook.secret).update(body).digest('hex');
    const sent = send({
      url: webhook.url,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Atlassian Webhook HTTP Client',
        'x-hub-signature': `sha256=${signature}`,
      },
      body,
      status: 0,
    }).then((d) => [d]);
    return background.track(sent);
  }
  function change(
    issue: JiraIssue,
    user: typeof jiraApiUser,
    action: { kind: 'done' | 'reopen' | 'transition'; to?: JiraStatus } | { kind: 'comment'; body: unknown },
  ): Promise<JiraDelivery[]> {
    if (action.kind === 'comment') {
      const comment = { id: String(++commentIds), body: action.body, accountId: user.accountId };
      issue.comments.push(comment);
      return fire({
        webhookEvent: 'comment_created',
        comment: {
          self: `${base}/rest/api/2/issue/${issue.id}/comment/${comment.id}`,
          id: comment.id,
          author: user,
          // REST v2 representation: the text, not ADF.
          body: typeof action.body === 'string' ? action.body : adfText(action.body),
          created: new Date().toISOString(),
        },
        issue: issueJson(issue),
      });
    }
    const to =
      action.kind === 'transition' && action.to
        ? action.to
        : (jiraStatuses.find((s) => s.category === (action.kind === 'done' ? 'done' : 'new')) as JiraStatus);
    if (issue.status.id === to.id) return Promise.resolve([]);
    const from = issue.status;
    issue.status = to;
    return fire({
      webhookEvent: 'jira:issue_updated',
      issue_event_type_name: 'issue_generic',
      user,
      issue: issueJson(issue),
      changelog: {
        id: String(Date.now()),
        items: [
          {
            field: 'status',
            fieldtype: 'jira',
            from: from.id,
            fromString: from.name,
            to: to.id,
            toString: to.name,
          },
        ],
      },
    });
  }

  const route = (req: FakeRequest): FakeReply => {
    if (req.method === 'POST' && req.path === '/_control/webhook') {
      const b = (req.body ?? {}) as { url?: unknown; secret?: unknown };
      webhook = typeof b.url === 'string' ? { url: b.url, secret: String(b.secret ?? '') } : null;
      return { json: { configured: !!webhook } };
    }
    const control = /^\/_control\/issue\/([^/]+)\/(done|reopen|comment)$/.exec(req.path);
    if (control && req.method === 'POST') {
      const issue = issues.find((i) => i.key === decodeURIComponent(control[1] ?? ''));
      if (!issue) return errors(404, ['Issue does not exist or you do not have permission to see it.']);
      const kind = control[2] as 'done' | 'reopen' | 'comment';
      const text = String((req.body as { body?: unknown } | undefined)?.body ?? 'A comment on Jira');
      void change(issue, jiraHuman, kind === 'comment' ? { kind, body: text } : { kind });
      return { status: 202, json: { done: kind } };
    }
    // An issue's page (`{site}/browse/{key}`, the address Snag stores), so the link Snag shows opens
    // something locally: a person's browser, so no API credentials. The description and comments are
    // ADF documents: their count is shown.
    const browse = /^\/browse\/([^/]+)$/.exec(req.path);
    if (browse && req.method === 'GET') {
      const issue = issues.find((i) => i.key === decodeURIComponent(browse[1] ?? ''));
      if (!issue) return { status: 404, text: 'not found' };
      return itemPage({
        vendor: 'Jira',
        place: issue.key.split('-')[0] ?? issue.key,
        title: String(issue.fields.summary ?? ''),
        reference: issue.key,
        facts: [
          `Status: ${issue.status.name}`,
          `Attachments: ${issue.attachments.length}`,
          `Comments: ${issue.comments.length}`,
        ],
      });
    }
    const auth = basicAuth(req.headers);
    if (!auth?.user.includes('@') || !auth.pass || auth.pass.includes('invalid')) {
      return { status: 401, text: 'Client must be authenticated to access this resource.' };
    }
    if (req.method === 'GET' && req.path === '/rest/api/3/myself') {
      return { json: { ...jiraApiUser, self: `${base}/rest/api/3/user?accountId=${jiraApiUser.accountId}` } };
    }
    if (req.method === 'GET' && req.path === '/rest/api/3/project/search') {
      const startAt = Number(req.query.startAt ?? 0);
      const max = Math.min(100, Number(req.query.maxResults ?? 50));
      const values = jiraProjects.slice(startAt, startAt + max);
      return {
        json: {
          self: `${base}${req.path}`,
          startAt,
          maxResults: max,
          total: jiraProjects.length,
          isLast: startAt + max >= jiraProjects.length,
          values: values.map((p) => ({ ...p, self: `${base}/rest/api/3/project/${p.id}` })),
        },
      };
    }
    const meta = /^\/rest\/api\/3\/issue\/createmeta\/([^/]+)\/issuetypes$/.exec(req.path);
    if (req.method === 'GET' && meta) {
      if (!findProject(decodeURIComponent(meta[1] ?? ''))) return errors(404, ['No project could be found.']);
      return {
        json: { issueTypes: jiraIssueTypes, maxResults: 50, startAt: 0, total: jiraIssueTypes.length },
      };
    }
    if (req.method === 'POST' && req.path === '/rest/api/3/issue') {
      const fields = ((req.body as { fields?: Record<string, unknown> })?.fields ?? {}) as Record<
        string,
        unknown
      >;
      const projectRef = fields.project as { id?: string; key?: string } | undefined;
      const project = findProject(projectRef?.id ?? projectRef?.key ?? '');
      const fieldErrors: Record<string, string> = {};
      if (!project) fieldErrors.project = 'valid project is required';
      const type = (fields.issuetype as { id?: string } | undefined)?.id;
      if (!jiraIssueTypes.some((t) => t.id === type)) fieldErrors.issuetype = 'valid issue type is required';
      if (typeof fields.summary !== 'string' || !fields.summary.trim()) {
        fieldErrors.summary = 'You must specify a summary of the issue.';
      } else if (fields.summary.length > 255 || /[\r\n]/.test(fields.summary)) {
        fieldErrors.summary = 'The summary must be one line of at most 255 characters.';
      }
      if (fields.description !== undefined && !isAdfDoc(fields.description)) {
        fieldErrors.description =
          'Operation value must be an Atlassian Document (see the Atlassian Document Format)';
      }
      if (Object.keys(fieldErrors).length > 0 || !project) return errors(400, [], fieldErrors);
      const n = issues.filter((i) => i.key.startsWith(`${project.key}-`)).length + 1;
      const issue = {
        id: String(20000 + issues.length + 1),
        key: `${project.key}-${n}`,
        fields,
        attachments: [],
        status: jiraStatuses[0] as JiraStatus,
        comments: [],
      };
      issues.push(issue);
      return {
        status: 201,
        json: { id: issue.id, key: issue.key, self: `${base}/rest/api/3/issue/${issue.id}` },
      };
    }
    const sub = /^\/rest\/api\/3\/issue\/([^/]+)\/(transitions|comment)$/.exec(req.path);
    const subject = sub && issues.find((i) => i.key === decodeURIComponent(sub[1] ?? '') || i.id === sub[1]);
    if (sub && !subject)
      return errors(404, ['Issue does not exist or you do not have permission to see it.']);
    if (sub && subject && sub[2] === 'transitions' && req.method === 'GET') {
      return {
        json: {
          transitions: jiraStatuses.map((s) => ({
            id: s.transition,
            name: s.name,
            hasScreen: false,
            isAvailable: true,
            to: statusJson(s),
          })),
        },
      };
    }
    if (sub && subject && sub[2] === 'transitions' && req.method === 'POST') {
      const id = (req.body as { transition?: { id?: unknown } } | undefined)?.transition?.id;
      const to = jiraStatuses.find((s) => s.transition === id);
      if (!to) return errors(400, ['Transition id is not valid for this issue.']);
      void change(subject, jiraApiUser, { kind: 'transition', to });
      return { status: 204, text: '' };
    }
    if (sub && subject && sub[2] === 'comment' && req.method === 'POST') {
      const body = (req.body as { body?: unknown } | undefined)?.body;
      if (!isAdfDoc(body))
        return errors(400, ['Comment body is not valid: it must be an Atlassian Document.']);
      void change(subject, jiraApiUser, { kind: 'comment', body });
      const made = subject.comments.at(-1);
      return {
        status: 201,
        json: {
          id: made?.id,
          author: jiraApiUser,
          body,
          self: `${base}/rest/api/3/issue/${subject.id}/comment/${made?.id}`,
        },
      };
    }
    const one = /^\/rest\/api\/3\/issue\/([^/]+)(\/attachments)?$/.exec(req.path);
    const issue = one && issues.find((i) => i.key === decodeURIComponent(one[1] ?? '') || i.id === one[1]);
    if (one && !issue) return errors(404, ['Issue does not exist or you do not have permission to see it.']);
    if (one && issue && !one[2] && req.method === 'GET') {
      return {
        json: {
          id: issue.id,
          key: issue.key,
          fields: {
            attachment: issue.attachments.map((a, i) => ({ id: String(i + 1), ...a })),
            status: statusJson(issue.status),
          },
        },
      };
    }
    if (one && issue && one[2] && req.method === 'POST') {
      if (req.headers['x-atlassian-token'] !== 'no-check') return { status: 403, text: 'XSRF check failed' };
      const files = req.files.filter((f) => f.field === 'file');
      if (files.length === 0) return errors(400, ['No file was attached.']);
      const added = files.map((f) => ({ filename: f.name, size: f.size }));
      issue.attachments.push(...added);
      return { json: added.map((a, i) => ({ id: String(issue.attachments.length + i), ...a })) };
    }
    return { status: 404, text: 'Not found' };
  };

  const fake = await startFake(route, 'Jira', port);
  base = fake.url;
  return {
    ...fake,
    issues,
    deliveries,
    configureWebhook: (hook) => {
      webhook = hook;
    },
    actAsHuman: (key, action) => {
      const issue = issues.find((i) => i.key === key);
      if (!issue) throw new Error(`no Jira issue ${key}`);
      return change(issue, jiraHuman, action);
    },
    resend: async (d) => (await send({ ...d, status: 0 })).status,
    settled: background.settled,
    reset: () => {
      fake.reset();
      issues.length = 0;
      deliveries.length = 0;
      webhook = null;
    },
  };
}
