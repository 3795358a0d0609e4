/**
 * ClickUp's REST API v2 (../shared/api-specs/clickup/clickup-api-v2-reference.EXCERPTS.json and the README's
 * "ClickUp" facts, which win over the spec): one fixed base (`CLICKUP_API_URL`, `https://api.clickup.com/api`),
 * a personal API token in `Authorization: pk_…` WITHOUT `Bearer` (that prefix is OAuth's). Workspaces are
 * "teams" in v2: workspace → spaces → folders → lists, plus a space's folderless lists. A task is created in
 * a list with its description as Markdown (`markdown_content`, which wins over `description`), files are
 * attached one per multipart request (field `attachment`). Statuses belong to the list: a status of type
 * `closed` (or `done`) closes, the first other one reopens. Webhooks are the workspace's, and ClickUp
 * answers the secret that signs their deliveries (`X-Signature`). Every id is a string, whatever the spec's
 * `number` path types say.
 */
import * as z from 'zod';
import { blobOf, type Http, sendJson, VendorError, type VendorFile } from './http';

export interface ClickupAuth {
  /** The API base without a trailing slash (`https://api.clickup.com/api`). */
  base: string;
  /** A personal API token (`pk_…`). */
  token: string;
}

export const clickupAuth = (base: string, token: string): ClickupAuth => ({
  base: base.replace(/\/+$/, ''),
  token,
});

const headers = (auth: ClickupAuth) => ({ authorization: auth.token, accept: 'application/json' });
const jsonHeaders = (auth: ClickupAuth) => ({ ...headers(auth), 'content-type': 'application/json' });
const seg = (id: string) => encodeURIComponent(id);
/** ClickUp's ids are strings in its answers and numbers in a few examples: both read as strings. */
const idText = z.union([z.string().min(1).max(100), z.number()]).transform(String);

async function get(auth: ClickupAuth, http: Http, path: string, what: string) {
  return sendJson('clickup', http, `${auth.base}${path}`, { headers: headers(auth) }, what);
}
const unexpected = (what: string) =>
  new VendorError('clickup', false, `ClickUp answered an unexpected ${what}`);

const named = z.looseObject({ id: idText, name: z.string().max(500).optional() });
const teamsSchema = z.looseObject({ teams: z.array(named) });
const spacesSchema = z.looseObject({ spaces: z.array(named) });
const foldersSchema = z.looseObject({ folders: z.array(named) });
const listsSchema = z.looseObject({ lists: z.array(named) });

export interface ClickupListOption {
  /** `<workspace id>/<list id>` (contracts/integrations.ts `clickupListChoice`). */
  id: string;
  /** `Workspace / Space / Folder / List` (no folder for a folderless list). */
  name: string;
}

/** The most calls one listing makes: ClickUp's lowest plan allows 100 requests a minute per token. */
export const LIST_CALLS_MAX = 40;

/**
 * Every list the token reaches, walked workspace → space → (folders → lists, folderless lists), each named
 * by its path. The walk stops after `LIST_CALLS_MAX` calls (what was found is answered): a token of a huge
 * workspace still lists, and the listing never eats the token's minute of ClickUp's rate limit.
 */
export async function listLists(http: Http, auth: ClickupAuth): Promise<ClickupListOption[]> {
  let calls = 0;
  const call = async <T>(path: string, schema: z.ZodType<T>, what: string): Promise<T | null> => {
    if (calls >= LIST_CALLS_MAX) return null;
    calls++;
    const parsed = schema.safeParse(await get(auth, http, path, what));
    if (!parsed.success) throw unexpected(what);
    return parsed.data;
  };
  const label = (n: z.infer<typeof named>) => (n.name ?? n.id).replace(/\s+/g, ' ').trim() || n.id;
  const out: ClickupListOption[] = [];
  const teams = (await call('/v2/team', teamsSchema, 'workspace list'))?.teams ?? [];
  for (const team of teams) {
    const spaces = (await call(`/v2/team/${seg(team.id)}/space?archived=false`, spacesSchema, 'space list'))
      ?.spaces;
    for (const space of spaces ?? []) {
      const at = `${label(team)} / ${label(space)}`;
      const folders = (
        await call(`/v2/space/${seg(space.id)}/folder?archived=false`, foldersSchema, 'folder list')
      )?.folders;
      for (const folder of folders ?? []) {
        const lists = (await call(`/v2/folder/${seg(folder.id)}/list?archived=false`, listsSchema, 'list'))
          ?.lists;
        for (const l of lists ?? [])
          out.push({ id: `${team.id}/${l.id}`, name: `${at} / ${label(folder)} / ${label(l)}` });
      }
      const loose = (await call(`/v2/space/${seg(space.id)}/list?archived=false`, listsSchema, 'list'))
        ?.lists;
      for (const l of loose ?? []) out.push({ id: `${team.id}/${l.id}`, name: `${at} / ${label(l)}` });
    }
  }
  return out;
}

/** The workspace and list of a stored choice (`<workspace id>/<list id>`); null for anything else. */
export function parseListChoice(id: string): { teamId: string; listId: string } | null {
  const m = /^([A-Za-z0-9_-]{1,60})\/([A-Za-z0-9_-]{1,60})$/.exec(id);
  return m?.[1] && m[2] ? { teamId: m[1], listId: m[2] } : null;
}

const statusSchema = z.looseObject({
  status: z.string().max(200),
  type: z.string().max(40).optional(),
  orderindex: z.union([z.number(), z.string()]).optional(),
});
export type ClickupStatus = z.infer<typeof statusSchema>;
const listSchema = z.looseObject({ id: idText, statuses: z.array(statusSchema).default([]) });

/** Whether a status means done: ClickUp's `closed` type, and `done` (the "Done" group some lists have). */
export const isClosedStatus = (type: string | undefined) => type === 'closed' || type === 'done';

/** The list's statuses in ClickUp's order (`GET /v2/list/{id}`). */
export async function listStatuses(http: Http, auth: ClickupAuth, listId: string): Promise<ClickupStatus[]> {
  const parsed = listSchema.safeParse(await get(auth, http, `/v2/list/${seg(listId)}`, 'list'));
  if (!parsed.success) throw unexpected('list');
  return [...parsed.data.statuses].sort((a, b) => Number(a.orderindex ?? 0) - Number(b.orderindex ?? 0));
}

/** The status a close (or a reopen) sets: the list's first closed status, or its first open one. */
export function statusFor(statuses: ClickupStatus[], closed: boolean): string | null {
  return statuses.find((s) => isClosedStatus(s.type) === closed)?.status ?? null;
}

const taskSchema = z.looseObject({
  id: idText,
  url: z.string().max(2000).optional(),
  status: statusSchema.optional(),
  list: z.looseObject({ id: idText }).optional(),
  attachments: z.array(z.looseObject({ title: z.string().max(500).optional() })).optional(),
});
export type ClickupTask = z.infer<typeof taskSchema>;

/** Creates a task in the list (`POST /v2/list/{id}/task`); answers its id and address. */
export async function createTask(
  http: Http,
  auth: ClickupAuth,
  listId: string,
  task: { name: string; markdown: string },
): Promise<{ id: string; url?: string }> {
  const out = await sendJson(
    'clickup',
    http,
    `${auth.base}/v2/list/${seg(listId)}/task`,
    {
      method: 'POST',
      headers: jsonHeaders(auth),
      // `markdown_content` wins over `description` (README); nobody is notified of Snag's own create.
      body: JSON.stringify({ name: task.name, markdown_content: task.markdown, notify_all: false }),
    },
    'list',
  );
  const parsed = taskSchema.safeParse(out);
  if (!parsed.success) throw unexpected('task');
  return { id: parsed.data.id, ...(parsed.data.url ? { url: parsed.data.url } : {}) };
}

/** The task now (`GET /v2/task/{id}`): its status, list, address and the titles of its attachments. */
export async function getTask(http: Http, auth: ClickupAuth, taskId: string): Promise<ClickupTask> {
  const parsed = taskSchema.safeParse(await get(auth, http, `/v2/task/${seg(taskId)}`, 'task'));
  if (!parsed.success) throw unexpected('task');
  return parsed.data;
}

/** Attaches one file to the task (`POST /v2/task/{id}/attachment`, multipart field `attachment`). */
export async function attachFile(http: Http, auth: ClickupAuth, taskId: string, file: VendorFile) {
  const form = new FormData();
  form.set('attachment', blobOf(file), file.name);
  await sendJson(
    'clickup',
    http,
    `${auth.base}/v2/task/${seg(taskId)}/attachment`,
    { method: 'POST', headers: headers(auth), body: form },
    'task',
  );
}

/** Sets the task's status by name (`PUT /v2/task/{id} {status}`). */
export async function setTaskStatus(http: Http, auth: ClickupAuth, taskId: string, status: string) {
  await sendJson(
    'clickup',
    http,
    `${auth.base}/v2/task/${seg(taskId)}`,
    { method: 'PUT', headers: jsonHeaders(auth), body: JSON.stringify({ status }) },
    'task',
  );
}

const commentSchema = z.looseObject({ id: idText });

/** Posts a comment (`POST /v2/task/{id}/comment {comment_text, notify_all}`); answers its id. */
export async function createComment(
  http: Http,
  auth: ClickupAuth,
  taskId: string,
  text: string,
): Promise<string> {
  const out = await sendJson(
    'clickup',
    http,
    `${auth.base}/v2/task/${seg(taskId)}/comment`,
    {
      method: 'POST',
      headers: jsonHeaders(auth),
      body: JSON.stringify({ comment_text: text.slice(0, 100_000), notify_all: false }),
    },
    'task',
  );
  const parsed = commentSchema.safeParse(out);
  if (!parsed.success) throw unexpected('comment');
  return parsed.data.id;
}

/** What the sync listens to: a task's status changing and a comment posted on it. */
export const CLICKUP_HOOK_EVENTS = ['taskStatusUpdated', 'taskCommentPosted'] as const;

const webhookSchema = z.looseObject({
  id: idText,
  webhook: z.looseObject({ id: idText.optional(), secret: z.string().min(16).max(500) }),
});

/**
 * Registers a webhook on the workspace for the list's tasks (`POST /v2/team/{id}/webhook`); answers its id
 * and the secret ClickUp signs its deliveries with (ClickUp chooses it: nothing else gives it back).
 */
export async function createWebhook(
  http: Http,
  auth: ClickupAuth,
  hook: { teamId: string; listId: string; endpoint: string },
): Promise<{ id: string; secret: string }> {
  const listId = Number(hook.listId);
  const out = await sendJson(
    'clickup',
    http,
    `${auth.base}/v2/team/${seg(hook.teamId)}/webhook`,
    {
      method: 'POST',
      headers: jsonHeaders(auth),
      body: JSON.stringify({
        endpoint: hook.endpoint,
        events: CLICKUP_HOOK_EVENTS,
        // The spec types list_id as an integer; ClickUp's list ids are digits.
        ...(Number.isSafeInteger(listId) ? { list_id: listId } : {}),
      }),
    },
    'workspace',
  );
  const parsed = webhookSchema.safeParse(out);
  if (!parsed.success) throw unexpected('webhook');
  return { id: parsed.data.id, secret: parsed.data.webhook.secret };
}

/**
 * Deletes a webhook (`DELETE /v2/webhook/{webhook_id}`, 200 `{}`): the one a new secret or a removed
 * integration leaves behind, which would otherwise keep posting deliveries Snag refuses.
 */
export async function deleteWebhook(http: Http, auth: ClickupAuth, webhookId: string): Promise<void> {
  await sendJson(
    'clickup',
    http,
    `${auth.base}/v2/webhook/${seg(webhookId)}`,
    { method: 'DELETE', headers: headers(auth) },
    'webhook',
  );
}

/** A task's address without a call: ClickUp's `https://app.clickup.com/t/{id}`, or the fake's origin's. */
export function taskUrl(apiBase: string, taskId: string): string {
  const url = new URL(apiBase);
  const app = url.hostname === 'api.clickup.com' ? 'https://app.clickup.com' : url.origin;
  return `${app}/t/${encodeURIComponent(taskId)}`;
}
