/**
 * Asana's local fake (../shared/api-specs/asana and README notes). OAuth under `/-`: `oauth_authorize`
 * serves a consent page whose "Allow" returns to the redirect_uri with `code` and `state`; `oauth_token`
 * exchanges a code (client credentials, redirect_uri) or a refresh token for an access token that lives
 * `accessTtlSeconds` (`expireAccessTokens()` ends every one at once, as time passing would). The API under
 * `/api/1.0`: workspaces, projects, tasks (`{data:{name, html_notes|notes, projects}}`) and multipart
 * attachments (`parent`, `file`). Errors as Asana sends them: `{errors:[{message}]}`. A task's
 * `permalink_url` is `/0/{project}/{task}` on the fake (app.asana.com's form), which shows the task.
 */
import { randomBytes } from 'node:crypto';
import {
  bearerToken,
  type ConsentCode,
  consent,
  type Fake,
  type FakeReply,
  type FakeRequest,
  itemPage,
  startFake,
} from './fake';

export interface AsanaTask {
  gid: string;
  name: string;
  notes?: string;
  htmlNotes?: string;
  projects: string[];
  attachments: { gid: string; name: string; size: number }[];
}

export interface AsanaFake extends Fake {
  tasks: AsanaTask[];
  clientId: string;
  clientSecret: string;
  oauthUrl: string;
  apiUrl: string;
  /** Access tokens it issued, with their expiry (epoch ms). */
  accessTokens: Map<string, number>;
  expireAccessTokens(): void;
}

export const asanaWorkspace = { gid: '1200000000000001', name: 'Local workspace' };
export const asanaProjects = [
  { gid: '1200000000000101', name: 'Website bugs' },
  { gid: '1200000000000102', name: 'Roadmap' },
];

const asanaError = (status: number, message: string): FakeReply => ({
  status,
  json: { errors: [{ message }] },
});

export async function startAsanaFake(
  opts: {
    port?: number;
    clientId?: string;
    clientSecret?: string;
    accessTtlSeconds?: number;
    /** Where issued tokens are kept; `npm start` passes ones saved in the data dir (vendors/saved.ts). */
    accessTokens?: Map<string, number>;
    refreshTokens?: Set<string>;
  } = {},
): Promise<AsanaFake> {
  const clientId = opts.clientId ?? 'local-asana-client';
  const clientSecret = opts.clientSecret ?? 'local-asana-secret';
  const ttl = opts.accessTtlSeconds ?? 3600;
  const tasks: AsanaTask[] = [];
  let base = '';
  const accessTokens = opts.accessTokens ?? new Map<string, number>();
  const refreshTokens = opts.refreshTokens ?? new Set<string>();
  const codes = new Map<string, ConsentCode>();
  let counter = 0;
  const gid = () => String(1300000000000000 + ++counter);

  const issueTokens = (refresh?: string) => {
    const access = `asana-access-${randomBytes(12).toString('hex')}`;
    accessTokens.set(access, Date.now() + ttl * 1000);
    const json: Record<string, unknown> = {
      access_token: access,
      token_type: 'bearer',
      expires_in: ttl,
      data: { id: 1, gid: '1100000000000001', name: 'Local user', email: 'user@asana.localhost' },
    };
    if (!refresh) {
      const r = `asana-refresh-${randomBytes(12).toString('hex')}`;
      refreshTokens.add(r);
      json.refresh_token = r;
    }
    return { json };
  };

  const oauth = (req: FakeRequest): FakeReply => {
    if (req.method === 'GET' && req.path === '/-/oauth_authorize') {
      const redirect = req.query.redirect_uri;
      if (req.query.client_id !== clientId || !redirect || req.query.response_type !== 'code') {
        return {
          status: 400,
          html: '<p>invalid_request: client_id, redirect_uri and response_type=code</p>',
        };
      }
      return consent('Asana', 'default', redirect, req.query.state ?? '', codes);
    }
    if (req.method === 'POST' && req.path === '/-/oauth_token') {
      const f = (req.body ?? {}) as Record<string, string>;
      if (f.client_id !== clientId || f.client_secret !== clientSecret) {
        return { status: 401, json: { error: 'invalid_client' } };
      }
      if (f.grant_type === 'authorization_code') {
        const code = codes.get(f.code ?? '');
        if (!code || code.used || code.redirectUri !== f.redirect_uri) {
          return { status: 400, json: { error: 'invalid_grant' } };
        }
        code.used = true;
        return issueTokens();
      }
      if (f.grant_type === 'refresh_token') {
        if (!refreshTokens.has(f.refresh_token ?? ''))
          return { status: 400, json: { error: 'invalid_grant' } };
        return issueTokens(f.refresh_token);
      }
      return { status: 400, json: { error: 'unsupported_grant_type' } };
    }
    return asanaError(404, 'Not found');
  };

  const api = (req: FakeRequest, path: string): FakeReply => {
    const token = bearerToken(req.headers);
    const expires = token ? accessTokens.get(token) : undefined;
    if (expires === undefined || expires <= Date.now()) {
      return asanaError(401, 'Not Authorized');
    }
    if (req.method === 'GET' && path === '/workspaces') {
      return { json: { data: [{ ...asanaWorkspace, resource_type: 'workspace' }], next_page: null } };
    }
    if (req.method === 'GET' && path === '/projects') {
      if (req.query.workspace && req.query.workspace !== asanaWorkspace.gid) {
        return asanaError(404, 'workspace: Unknown object');
      }
      return {
        json: { data: asanaProjects.map((p) => ({ ...p, resource_type: 'project' })), next_page: null },
      };
    }
    if (req.method === 'POST' && path === '/tasks') {
      const data = (req.body as { data?: Record<string, unknown> })?.data;
      if (!data) return asanaError(400, 'data: Missing input');
      const projects = data.projects;
      if (!Array.isArray(projects) || projects.length === 0) {
        return asanaError(400, 'projects: Missing input');
      }
      for (const p of projects)
        if (!asanaProjects.some((x) => x.gid === p)) return asanaError(404, 'project: Unknown object');
      if (typeof data.name !== 'string') return asanaError(400, 'name: Missing input');
      if (data.html_notes !== undefined) {
        const html = String(data.html_notes);
        if (!/^<body>[\s\S]*<\/body>$/.test(html)) return asanaError(400, 'html_notes: XML is invalid');
      }
      const task: AsanaTask = {
        gid: gid(),
        name: data.name,
        ...(typeof data.notes === 'string' ? { notes: data.notes } : {}),
        ...(typeof data.html_notes === 'string' ? { htmlNotes: data.html_notes } : {}),
        projects: projects as string[],
        attachments: [],
      };
      tasks.push(task);
      return {
        status: 201,
        json: {
          data: {
            gid: task.gid,
            resource_type: 'task',
            name: task.name,
            permalink_url: `${base}/0/${task.projects[0]}/${task.gid}`,
          },
        },
      };
    }
    if (path === '/attachments') {
      if (req.method === 'GET') {
        const task = tasks.find((t) => t.gid === req.query.parent);
        if (!task) return asanaError(404, 'parent: Unknown object');
        return {
          json: { data: task.attachments.map((a) => ({ gid: a.gid, name: a.name })), next_page: null },
        };
      }
      const fields = (req.body ?? {}) as Record<string, string>;
      const task = tasks.find((t) => t.gid === fields.parent);
      if (!task) return asanaError(404, 'parent: Unknown object');
      const file = req.files.find((f) => f.field === 'file');
      if (!file) return asanaError(400, 'file: Missing input');
      if (file.size > 100 * 1024 * 1024) return asanaError(413, 'file: too large');
      const attachment = { gid: gid(), name: file.name, size: file.size };
      task.attachments.push(attachment);
      return { json: { data: { gid: attachment.gid, name: attachment.name, resource_type: 'attachment' } } };
    }
    return asanaError(404, 'Not found');
  };

  const route = (req: FakeRequest): FakeReply => {
    if (req.path.startsWith('/-/')) return oauth(req);
    if (req.path.startsWith('/api/1.0/')) return api(req, req.path.slice('/api/1.0'.length));
    // A task's page (its `permalink_url`), so the link Snag shows opens something locally.
    const page = /^\/0\/(\d+)\/(\d+)$/.exec(req.path);
    const task = page && req.method === 'GET' ? tasks.find((t) => t.gid === page[2]) : undefined;
    if (task)
      return itemPage({
        vendor: 'Asana',
        place: asanaProjects.find((p) => p.gid === page?.[1])?.name ?? page?.[1] ?? '',
        title: task.name,
        facts: [`Attachments: ${task.attachments.length}`],
        body: task.notes ?? task.htmlNotes,
      });
    return asanaError(404, 'Not found');
  };

  const fake = await startFake(route, 'Asana', opts.port ?? 0);
  base = fake.url;
  return {
    ...fake,
    tasks,
    clientId,
    clientSecret,
    oauthUrl: `${fake.url}/-`,
    apiUrl: `${fake.url}/api/1.0`,
    accessTokens,
    expireAccessTokens: () => {
      for (const t of accessTokens.keys()) accessTokens.set(t, 0);
    },
    reset: () => {
      fake.reset();
      tasks.length = 0;
    },
  };
}
