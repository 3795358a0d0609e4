/**
 * Jira Cloud's local fake (../shared/api-specs/jira and README notes): basic auth `email:api_token` on
 * every call (a token containing "invalid" answers 401), project search, createmeta issue types, issue
 * creation that validates project, issue type, summary and an ADF description, and attachments that
 * demand `X-Atlassian-Token: no-check` (403 without it, as Jira's XSRF check does).
 */
import { basicAuth, type Fake, type FakeReply, type FakeRequest, startFake } from './fake';

export interface JiraIssue {
  id: string;
  key: string;
  fields: Record<string, unknown>;
  attachments: { filename: string; size: number }[];
}

export interface JiraFake extends Fake {
  issues: JiraIssue[];
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

function isAdfDoc(value: unknown): boolean {
  const doc = value as { type?: unknown; version?: unknown; content?: unknown };
  return !!doc && doc.type === 'doc' && doc.version === 1 && Array.isArray(doc.content);
}

export async function startJiraFake(port = 0): Promise<JiraFake> {
  const issues: JiraIssue[] = [];
  let base = '';
  const findProject = (idOrKey: string) => jiraProjects.find((p) => p.id === idOrKey || p.key === idOrKey);

  const route = (req: FakeRequest): FakeReply => {
    const auth = basicAuth(req.headers);
    if (!auth?.user.includes('@') || !auth.pass || auth.pass.includes('invalid')) {
      return { status: 401, text: 'Client must be authenticated to access this resource.' };
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
      };
      issues.push(issue);
      return {
        status: 201,
        json: { id: issue.id, key: issue.key, self: `${base}/rest/api/3/issue/${issue.id}` },
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
          fields: { attachment: issue.attachments.map((a, i) => ({ id: String(i + 1), ...a })) },
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
    reset: () => {
      fake.reset();
      issues.length = 0;
    },
  };
}
