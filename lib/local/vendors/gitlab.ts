/**
 * GitLab's local fake (../shared/api-specs/gitlab and README notes): `PRIVATE-TOKEN` (or Bearer) on every
 * call; any token is accepted except one containing "invalid" or a revoked one (401, as GitLab answers).
 * Two projects (ids 101 and 102; `addProjects` for more, paged as GitLab pages); project 404s for others. Uploads answer `{alt, url, full_path, markdown}`.
 */
import { randomBytes } from 'node:crypto';
import { bearerToken, type Fake, type FakeReply, type FakeRequest, startFake } from './fake';

export interface GitlabIssue {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  /** What GitLab would act on when saving it: quick actions (`/close`) and user mentions (`@all`). */
  quickActions: string[];
  mentions: string[];
}

/**
 * What GitLab acts on in Markdown: quick actions are lines starting with `/<command>` outside code
 * blocks (run on save, with the token's rights); mentions are `@name` outside code blocks and code spans
 * (`@all` notifies every member). A fence closes only with the same character, at least as long.
 */
export function gitlabActions(markdown: string): { quickActions: string[]; mentions: string[] } {
  const quickActions: string[] = [];
  const mentions: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (
        marker &&
        marker[0] === fence[0] &&
        marker.length >= fence.length &&
        !line.trim().slice(marker.length)
      )
        fence = null;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    const command = /^\/([a-z_]+)/i.exec(line);
    if (command) quickActions.push(line.trim());
    const prose = line.replace(/(`+)[\s\S]*?\1/g, '');
    for (const m of prose.matchAll(/(?:^|[^\w`])@([a-z0-9_][a-z0-9_.-]*)/gi)) mentions.push(`@${m[1]}`);
  }
  return { quickActions, mentions };
}

export interface GitlabFake extends Fake {
  issues: GitlabIssue[];
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

  const route = (req: FakeRequest): FakeReply => {
    const token = req.headers['private-token'] ?? bearerToken(req.headers);
    if (!token || token.includes('invalid') || revoked.has(token)) return unauthorized;
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
      return issue ? { json: { id: issue.id, iid: issue.iid, title: issue.title } } : notFound;
    }
    return { status: 405, json: { error: '405 Method Not Allowed' } };
  };

  const fake = await startFake(route, 'GitLab', port);
  base = fake.url;
  return {
    ...fake,
    issues,
    uploads,
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
      revoked.clear();
    },
  };
}
