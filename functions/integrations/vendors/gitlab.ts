/**
 * GitLab REST v4 (../shared/api-specs/gitlab, README notes): a personal access token in `PRIVATE-TOKEN`,
 * projects the token's user is a member of, uploads (`/projects/:id/uploads` answering `markdown`) and
 * issues with a Markdown description that embeds them. Host empty means gitlab.com (`GITLAB_URL`).
 */
import * as z from 'zod';
import { baseUrlOf, blobOf, type Http, sendJson, VendorError, type VendorFile } from './http';

export interface GitlabAuth {
  /** The base URL (`https://gitlab.example.com`), from `gitlabBase`. */
  base: string;
  token: string;
}

/** The base URL of a user's host; empty means the configured default (gitlab.com). */
export function gitlabBase(host: string | undefined, defaultUrl: string): string {
  return baseUrlOf('gitlab', host?.trim() ? host : defaultUrl);
}

const headers = (auth: GitlabAuth) => ({ 'PRIVATE-TOKEN': auth.token, accept: 'application/json' });

const projectsSchema = z.array(
  z.looseObject({ id: z.number(), name: z.string().optional(), name_with_namespace: z.string().optional() }),
);

export interface Named {
  id: string;
  name: string;
}

/**
 * The projects the token's user is a member of, most recently active first: pages of 100 (`page`, as the
 * spec's offset pagination has it) until a short page, at most 5 pages, as Jira's list.
 */
export async function listProjects(http: Http, auth: GitlabAuth): Promise<Named[]> {
  const out: Named[] = [];
  for (let page = 1; page <= 5; page++) {
    const url = `${auth.base}/api/v4/projects?membership=true&simple=true&per_page=100&page=${page}&order_by=last_activity_at`;
    const body = await sendJson('gitlab', http, url, { headers: headers(auth) }, 'projects');
    const parsed = projectsSchema.safeParse(body);
    if (!parsed.success) throw new VendorError('gitlab', false, 'GitLab answered an unexpected project list');
    out.push(
      ...parsed.data.map((p) => ({
        id: String(p.id),
        name: p.name_with_namespace ?? p.name ?? String(p.id),
      })),
    );
    if (parsed.data.length < 100) break;
  }
  return out;
}

const uploadSchema = z.looseObject({ markdown: z.string(), url: z.string().optional() });

/** Uploads a file to the project; answers the Markdown that embeds it (`![name](/uploads/…)`). */
export async function uploadFile(
  http: Http,
  auth: GitlabAuth,
  projectId: string,
  file: VendorFile,
): Promise<string> {
  const form = new FormData();
  form.set('file', blobOf(file), file.name);
  const url = `${auth.base}/api/v4/projects/${encodeURIComponent(projectId)}/uploads`;
  const body = await sendJson(
    'gitlab',
    http,
    url,
    { method: 'POST', headers: headers(auth), body: form },
    'project',
  );
  const parsed = uploadSchema.safeParse(body);
  if (!parsed.success) throw new VendorError('gitlab', false, 'GitLab answered an unexpected upload');
  return parsed.data.markdown;
}

const issueSchema = z.looseObject({ id: z.number(), iid: z.number(), web_url: z.string().optional() });

/** Creates an issue; answers its project-scoped number (`iid`) and its address. */
export async function createIssue(
  http: Http,
  auth: GitlabAuth,
  projectId: string,
  issue: { title: string; description: string },
): Promise<{ iid: number; url?: string }> {
  const url = `${auth.base}/api/v4/projects/${encodeURIComponent(projectId)}/issues`;
  const body = await sendJson(
    'gitlab',
    http,
    url,
    {
      method: 'POST',
      headers: { ...headers(auth), 'content-type': 'application/json' },
      body: JSON.stringify({
        title: issue.title.slice(0, 255),
        description: issue.description.slice(0, 1_000_000),
      }),
    },
    'project',
  );
  const parsed = issueSchema.safeParse(body);
  if (!parsed.success) throw new VendorError('gitlab', false, 'GitLab answered an unexpected issue');
  return { iid: parsed.data.iid, ...(parsed.data.web_url ? { url: parsed.data.web_url } : {}) };
}

/** Whether an issue recorded earlier still exists (a retry checks before creating a second one). */
export async function issueExists(http: Http, auth: GitlabAuth, projectId: string, iid: string) {
  try {
    await sendJson(
      'gitlab',
      http,
      `${auth.base}/api/v4/projects/${encodeURIComponent(projectId)}/issues/${encodeURIComponent(iid)}`,
      { headers: headers(auth) },
      'issue',
    );
    return true;
  } catch (err) {
    if (err instanceof VendorError && err.details.status === 404) return false;
    throw err;
  }
}

// Two-way sync (issue 24; ../shared/api-specs/gitlab/openapi_v2.sync.EXCERPTS.yaml and README "GitLab
// webhooks"): the issue's state, close/reopen, notes, the token's own user, and project hooks.

const issuePath = (auth: GitlabAuth, projectId: string, iid: string) =>
  `${auth.base}/api/v4/projects/${encodeURIComponent(projectId)}/issues/${encodeURIComponent(iid)}`;
const jsonHeaders = (auth: GitlabAuth) => ({ ...headers(auth), 'content-type': 'application/json' });

const stateSchema = z.looseObject({ state: z.string(), web_url: z.string().optional() });

/** The issue's state now (`opened` | `closed`) and its address: the sync reads it before changing Snag's. */
export async function issueState(
  http: Http,
  auth: GitlabAuth,
  projectId: string,
  iid: string,
): Promise<{ closed: boolean; url?: string }> {
  const body = await sendJson(
    'gitlab',
    http,
    issuePath(auth, projectId, iid),
    { headers: headers(auth) },
    'issue',
  );
  const parsed = stateSchema.safeParse(body);
  if (!parsed.success) throw new VendorError('gitlab', false, 'GitLab answered an unexpected issue');
  return {
    closed: parsed.data.state === 'closed',
    ...(parsed.data.web_url ? { url: parsed.data.web_url } : {}),
  };
}

/** Closes or reopens the issue: `PUT …/issues/:iid {state_event}`. */
export async function setIssueState(
  http: Http,
  auth: GitlabAuth,
  projectId: string,
  iid: string,
  closed: boolean,
): Promise<void> {
  await sendJson(
    'gitlab',
    http,
    issuePath(auth, projectId, iid),
    {
      method: 'PUT',
      headers: jsonHeaders(auth),
      body: JSON.stringify({ state_event: closed ? 'close' : 'reopen' }),
    },
    'issue',
  );
}

const noteSchema = z.looseObject({ id: z.number() });

/** Posts a note on the issue (`POST …/issues/:iid/notes {body}`, docs/api/notes.md); answers its id. */
export async function createNote(
  http: Http,
  auth: GitlabAuth,
  projectId: string,
  iid: string,
  body: string,
): Promise<string> {
  const out = await sendJson(
    'gitlab',
    http,
    `${issuePath(auth, projectId, iid)}/notes`,
    { method: 'POST', headers: jsonHeaders(auth), body: JSON.stringify({ body: body.slice(0, 1_000_000) }) },
    'issue',
  );
  const parsed = noteSchema.safeParse(out);
  if (!parsed.success) throw new VendorError('gitlab', false, 'GitLab answered an unexpected note');
  return String(parsed.data.id);
}

const userSchema = z.looseObject({ id: z.number() });

/** The token's own user id (`GET /api/v4/user`): hook deliveries it caused are our own writes coming back. */
export async function currentUserId(http: Http, auth: GitlabAuth): Promise<string> {
  const out = await sendJson('gitlab', http, `${auth.base}/api/v4/user`, { headers: headers(auth) }, 'user');
  const parsed = userSchema.safeParse(out);
  if (!parsed.success) throw new VendorError('gitlab', false, 'GitLab answered an unexpected user');
  return String(parsed.data.id);
}

const hookSchema = z.looseObject({ id: z.number() });

/**
 * Registers a project hook (`POST /api/v4/projects/:id/hooks`, Maintainer role) for issue and note
 * events, with the secret GitLab sends back as `X-Gitlab-Token`; answers the hook's id.
 */
export async function createProjectHook(
  http: Http,
  auth: GitlabAuth,
  projectId: string,
  hook: { url: string; token: string },
): Promise<string> {
  const out = await sendJson(
    'gitlab',
    http,
    `${auth.base}/api/v4/projects/${encodeURIComponent(projectId)}/hooks`,
    {
      method: 'POST',
      headers: jsonHeaders(auth),
      body: JSON.stringify({
        url: hook.url,
        token: hook.token,
        issues_events: true,
        note_events: true,
        // GitLab checks the certificate of an https hook URL; the local stack's is plain http.
        enable_ssl_verification: hook.url.startsWith('https:'),
      }),
    },
    'project',
  );
  const parsed = hookSchema.safeParse(out);
  if (!parsed.success) throw new VendorError('gitlab', false, 'GitLab answered an unexpected hook');
  return String(parsed.data.id);
}

/**
 * Deletes a project hook (`DELETE /api/v4/projects/:id/hooks/:hook_id`, Maintainer role: 204, 404 when
 * it is gone): the one a new secret replaces or a removed integration leaves behind.
 */
export async function deleteProjectHook(
  http: Http,
  auth: GitlabAuth,
  projectId: string,
  hookId: string,
): Promise<void> {
  if (!/^\d{1,20}$/.test(hookId)) throw new VendorError('gitlab', true, 'Not a GitLab hook id');
  await sendJson(
    'gitlab',
    http,
    `${auth.base}/api/v4/projects/${encodeURIComponent(projectId)}/hooks/${hookId}`,
    { method: 'DELETE', headers: headers(auth) },
    'hook',
  );
}
