/**
 * Asana (../shared/api-specs/asana, README notes): OAuth code exchange and refresh at `/-/oauth_token`
 * (form: grant_type, client_id, client_secret, redirect_uri, code | refresh_token), projects per
 * workspace, tasks (`{data:{name, html_notes, projects:[gid]}}`) and multipart attachments (`parent`, `file`),
 * and the stored access token kept fresh (`withAsanaToken`: refreshed before it expires or after a 401).
 */
import * as z from 'zod';
import { getConfig } from '#runtime/config';
import { getSecrets } from '#runtime/secrets';
import { nowMs } from '#runtime/time';
import { type OAuthTokens, storeOAuthTokens } from '../integration';
import { blobOf, type Http, isVendorError, sendJson, VendorError, type VendorFile } from './http';

export interface AsanaConfig {
  /** `https://app.asana.com/api/1.0` in AWS. */
  apiUrl: string;
  /** `https://app.asana.com/-` in AWS: `/oauth_authorize` and `/oauth_token` below it. */
  oauthUrl: string;
}

export interface AsanaTokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms when the access token expires. */
  expiresAt?: number;
}

const tokenSchema = z.looseObject({
  access_token: z.string().min(1),
  refresh_token: z.string().optional(),
  expires_in: z.number().optional(),
});

async function token(
  http: Http,
  cfg: AsanaConfig,
  fields: Record<string, string>,
  now: number,
  keepRefresh?: string,
): Promise<AsanaTokens> {
  const body = await sendJson(
    'asana',
    http,
    `${cfg.oauthUrl}/oauth_token`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(fields),
    },
    'authorisation',
  );
  const parsed = tokenSchema.safeParse(body);
  if (!parsed.success) throw new VendorError('asana', false, 'Asana answered an unexpected authorisation');
  const refreshToken = parsed.data.refresh_token ?? keepRefresh;
  return {
    accessToken: parsed.data.access_token,
    ...(refreshToken ? { refreshToken } : {}),
    ...(parsed.data.expires_in ? { expiresAt: now + parsed.data.expires_in * 1000 } : {}),
  };
}

/** Token requests answer 400 `invalid_grant` for a bad code or refresh token: permanent. */
function authFailure(err: unknown): never {
  if (err instanceof VendorError && err.details.status === 400) {
    throw new VendorError(
      'asana',
      true,
      'Asana refused the authorisation: authorise Asana again',
      err.details,
    );
  }
  throw err;
}

export function exchangeCode(
  http: Http,
  cfg: AsanaConfig,
  client: { id: string; secret: string },
  code: string,
  redirectUri: string,
  now: number,
): Promise<AsanaTokens> {
  return token(
    http,
    cfg,
    {
      grant_type: 'authorization_code',
      client_id: client.id,
      client_secret: client.secret,
      redirect_uri: redirectUri,
      code,
    },
    now,
  ).catch(authFailure);
}

export function refresh(
  http: Http,
  cfg: AsanaConfig,
  client: { id: string; secret: string },
  refreshToken: string,
  now: number,
): Promise<AsanaTokens> {
  return token(
    http,
    cfg,
    {
      grant_type: 'refresh_token',
      client_id: client.id,
      client_secret: client.secret,
      refresh_token: refreshToken,
    },
    now,
    refreshToken,
  ).catch(authFailure);
}

/** Refresh a token this close to its expiry rather than risk a 401 mid-delivery. */
export const REFRESH_MARGIN_MS = 60_000;
export const needsRefresh = (t: AsanaTokens, now: number) =>
  t.expiresAt !== undefined && t.expiresAt - REFRESH_MARGIN_MS <= now && !!t.refreshToken;

const headers = (accessToken: string) => ({
  authorization: `Bearer ${accessToken}`,
  accept: 'application/json',
});

const listSchema = z.looseObject({
  data: z.array(z.looseObject({ gid: z.string(), name: z.string().optional() })),
  next_page: z.looseObject({ offset: z.string() }).nullish(),
});

async function list(http: Http, url: string, accessToken: string, what: string, pages = 5) {
  const out: { gid: string; name: string }[] = [];
  let offset = '';
  for (let page = 0; page < pages; page++) {
    const body = await sendJson(
      'asana',
      http,
      `${url}${url.includes('?') ? '&' : '?'}limit=100${offset ? `&offset=${encodeURIComponent(offset)}` : ''}`,
      { headers: headers(accessToken) },
      what,
    );
    const parsed = listSchema.safeParse(body);
    if (!parsed.success) throw new VendorError('asana', false, `Asana answered an unexpected ${what}`);
    out.push(...parsed.data.data.map((d) => ({ gid: d.gid, name: d.name ?? d.gid })));
    offset = parsed.data.next_page?.offset ?? '';
    if (!offset) break;
  }
  return out;
}

/** The user's projects in every workspace (not archived); names carry the workspace when there are several. */
export async function listProjects(http: Http, cfg: AsanaConfig, accessToken: string) {
  const workspaces = await list(http, `${cfg.apiUrl}/workspaces`, accessToken, 'workspace list', 1);
  const out: { id: string; name: string }[] = [];
  for (const ws of workspaces.slice(0, 10)) {
    const projects = await list(
      http,
      `${cfg.apiUrl}/projects?workspace=${encodeURIComponent(ws.gid)}&archived=false`,
      accessToken,
      'project list',
    );
    for (const p of projects)
      out.push({ id: p.gid, name: workspaces.length > 1 ? `${ws.name} / ${p.name}` : p.name });
  }
  return out;
}

const taskSchema = z.looseObject({
  data: z.looseObject({ gid: z.string(), permalink_url: z.string().optional() }),
});

/**
 * Creates a task in a project; `htmlNotes` must be Asana's rich text (`<body>…</body>`). Answers its gid
 * and its `permalink_url` (the task's page), which Asana's task record carries.
 */
export async function createTask(
  http: Http,
  cfg: AsanaConfig,
  accessToken: string,
  task: { projectId: string; name: string; htmlNotes?: string; notes?: string },
): Promise<{ gid: string; url?: string }> {
  const body = await sendJson(
    'asana',
    http,
    `${cfg.apiUrl}/tasks`,
    {
      method: 'POST',
      headers: { ...headers(accessToken), 'content-type': 'application/json' },
      body: JSON.stringify({
        data: {
          name: task.name.slice(0, 1024),
          ...(task.htmlNotes ? { html_notes: task.htmlNotes } : { notes: task.notes ?? '' }),
          projects: [task.projectId],
        },
      }),
    },
    'project',
  );
  const parsed = taskSchema.safeParse(body);
  if (!parsed.success) throw new VendorError('asana', false, 'Asana answered an unexpected task');
  const { gid, permalink_url: url } = parsed.data.data;
  return { gid, ...(url ? { url } : {}) };
}

/** Names of the attachments a task has (a retry attaches only what is missing). */
export async function attachmentNames(http: Http, cfg: AsanaConfig, accessToken: string, taskId: string) {
  const items = await list(
    http,
    `${cfg.apiUrl}/attachments?parent=${encodeURIComponent(taskId)}`,
    accessToken,
    'attachment list',
    1,
  );
  return new Set(items.map((a) => a.name));
}

export async function attach(
  http: Http,
  cfg: AsanaConfig,
  accessToken: string,
  taskId: string,
  file: VendorFile,
): Promise<void> {
  const data = new FormData();
  data.set('parent', taskId);
  data.set('file', blobOf(file), file.name);
  await sendJson(
    'asana',
    http,
    `${cfg.apiUrl}/attachments`,
    { method: 'POST', headers: headers(accessToken), body: data },
    'task',
  );
}

export function authorizeUrl(cfg: AsanaConfig, clientId: string, redirectUri: string, state: string) {
  const q = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    state,
  });
  return `${cfg.oauthUrl}/oauth_authorize?${q}`;
}

// --- The access token: refreshed before it expires or after a 401, and stored -------------------------

/** Asana is a fixed vendor host: its calls need no outbound guard. */
const plainHttp: Http = (url, init) => fetch(url, init);

async function asanaClient() {
  const c = getConfig();
  const secret = (await getSecrets()).ASANA_CLIENT_SECRET;
  if (!c.ASANA_CLIENT_ID || !secret) return undefined;
  return { id: c.ASANA_CLIENT_ID, secret };
}

export const asanaConfig = () => ({
  apiUrl: getConfig().ASANA_API_URL,
  oauthUrl: getConfig().ASANA_OAUTH_URL,
});

/**
 * A usable Asana access token: refreshed (and stored) when it is about to expire, or when `force` (after a
 * 401). Without a refresh token or client credentials, the stored one.
 */
export async function asanaAccess(
  projectId: string,
  oauth: OAuthTokens,
  force = false,
): Promise<OAuthTokens> {
  const now = nowMs();
  if (!oauth.refreshToken || !(force || needsRefresh(oauth, now))) return oauth;
  const client = await asanaClient();
  if (!client) return oauth;
  const fresh = await refresh(plainHttp, asanaConfig(), client, oauth.refreshToken, now);
  const next: OAuthTokens = { ...oauth, ...fresh };
  await storeOAuthTokens(projectId, 'asana', next);
  return next;
}

/** Runs an Asana call, refreshing the token once on a 401. */
export async function withAsanaToken<T>(
  projectId: string,
  oauth: OAuthTokens,
  work: (accessToken: string) => Promise<T>,
): Promise<T> {
  let tokens = await asanaAccess(projectId, oauth);
  try {
    return await work(tokens.accessToken);
  } catch (err) {
    if (!(isVendorError(err) && err.details.status === 401 && tokens.refreshToken)) throw err;
    tokens = await asanaAccess(projectId, tokens, true);
    return work(tokens.accessToken);
  }
}
