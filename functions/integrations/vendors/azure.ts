/**
 * Azure DevOps Boards REST 7.1 (../shared/api-specs/azure-devops: core-7.1, wit-7.1, hooks-7.1, and the
 * README's "Azure DevOps" facts, which win over the specs): a personal access token as HTTP Basic with an
 * empty user name; `api-version=7.1` on every call but the comments' `7.1-preview.4`; lists wrapped as
 * `{count, value}`. The base is the organisation URL the client typed (`https://dev.azure.com/{org}` or a
 * self-hosted collection URL), so every call goes through the guarded client the caller hands in.
 */
import * as z from 'zod';
import {
  baseUrlOf,
  blobOf,
  type Http,
  send,
  sendJson,
  statusError,
  VendorError,
  type VendorFile,
} from './http';

export interface AzureAuth {
  /** The organisation (or collection) URL, from `azureBase`. */
  base: string;
  token: string;
}

export const API_VERSION = '7.1';
/** Work item comments are a preview API in 7.1 (the spec's `api-Version-preview.4`). */
export const COMMENTS_API_VERSION = '7.1-preview.4';

/** The organisation URL as a base: `dev.azure.com/fabrikam` → `https://dev.azure.com/fabrikam`. */
export const azureBase = (host: string) => baseUrlOf('azure', host);

/** Basic with an empty user name and the PAT as the password (README: "Use any value for the user name"). */
export const azureAuthorization = (token: string) =>
  `Basic ${Buffer.from(`:${token}`, 'utf8').toString('base64')}`;

const headers = (auth: AzureAuth) => ({
  authorization: azureAuthorization(auth.token),
  accept: 'application/json',
});
const patchHeaders = (auth: AzureAuth) => ({
  ...headers(auth),
  'content-type': 'application/json-patch+json',
});
const jsonHeaders = (auth: AzureAuth) => ({ ...headers(auth), 'content-type': 'application/json' });

const seg = encodeURIComponent;
const projectBase = (auth: AzureAuth, project: string) => `${auth.base}/${seg(project)}/_apis`;
const v = (version = API_VERSION) => `api-version=${version}`;

/** A JSON answer through the shared mapping; Azure answers its sign-in page (HTML) to some refused tokens. */
async function call(http: Http, url: string, init: RequestInit, what: string): Promise<unknown> {
  const body = await sendJson('azure', http, url, init, what);
  if (body === undefined)
    throw new VendorError(
      'azure',
      true,
      `Azure DevOps did not answer as its API does (${what}): check the organisation URL and token`,
    );
  return body;
}

const unexpected = (what: string) =>
  new VendorError('azure', false, `Azure DevOps answered an unexpected ${what}`);
const listOf = <T extends z.ZodType>(item: T) => z.looseObject({ value: z.array(item) });

export interface Named {
  id: string;
  name: string;
}

const projectsSchema = listOf(z.looseObject({ id: z.string(), name: z.string() }));

/** The organisation's projects (`GET _apis/projects`, pages of 100 by `$skip`, at most 5 pages). */
export async function listProjects(http: Http, auth: AzureAuth): Promise<Named[]> {
  const out: Named[] = [];
  for (let page = 0; page < 5; page++) {
    const url = `${auth.base}/_apis/projects?$top=100&$skip=${page * 100}&${v()}`;
    const parsed = projectsSchema.safeParse(await call(http, url, { headers: headers(auth) }, 'projects'));
    if (!parsed.success) throw unexpected('project list');
    out.push(...parsed.data.value.map((p) => ({ id: p.id, name: p.name })));
    if (parsed.data.value.length < 100) break;
  }
  return out;
}

const typesSchema = listOf(
  z.looseObject({
    name: z.string(),
    isDisabled: z.boolean().optional(),
    fields: z.array(z.looseObject({ referenceName: z.string() })).optional(),
  }),
);

export interface WorkItemType {
  name: string;
  /** The rich-text field the type's form shows as its description (README: check per process). */
  descriptionField: 'Microsoft.VSTS.TCM.ReproSteps' | 'System.Description';
}

export const REPRO_STEPS = 'Microsoft.VSTS.TCM.ReproSteps';

/** The project's enabled work item types (`GET {project}/_apis/wit/workitemtypes`). */
export async function listTypes(http: Http, auth: AzureAuth, project: string): Promise<WorkItemType[]> {
  const url = `${projectBase(auth, project)}/wit/workitemtypes?${v()}`;
  const parsed = typesSchema.safeParse(await call(http, url, { headers: headers(auth) }, 'project'));
  if (!parsed.success) throw unexpected('work item type list');
  return parsed.data.value
    .filter((t) => !t.isDisabled)
    .map((t) => ({
      name: t.name,
      // A Bug of the Agile, Scrum and CMMI processes shows Repro Steps, not Description.
      descriptionField: t.fields?.some((f) => f.referenceName === REPRO_STEPS)
        ? REPRO_STEPS
        : 'System.Description',
    }));
}

export type StateCategory = 'Proposed' | 'InProgress' | 'Resolved' | 'Completed' | 'Removed' | string;
const statesSchema = listOf(z.looseObject({ name: z.string(), category: z.string() }));

/** The type's states in order with their categories (`GET …/workitemtypes/{type}/states`). */
export async function listStates(
  http: Http,
  auth: AzureAuth,
  project: string,
  type: string,
): Promise<{ name: string; category: StateCategory }[]> {
  const url = `${projectBase(auth, project)}/wit/workitemtypes/${seg(type)}/states?${v()}`;
  const parsed = statesSchema.safeParse(await call(http, url, { headers: headers(auth) }, 'work item type'));
  if (!parsed.success) throw unexpected('state list');
  return parsed.data.value.map((s) => ({ name: s.name, category: s.category }));
}

/** Whether a state's category means done for Snag: Resolved or Completed (README: categories). */
export const isDoneCategory = (category: string) => category === 'Completed' || category === 'Resolved';

const attachmentSchema = z.looseObject({ id: z.string(), url: z.string() });

/** Uploads a file (`POST {project}/_apis/wit/attachments?fileName=`, raw bytes); answers its API URL. */
export async function uploadAttachment(
  http: Http,
  auth: AzureAuth,
  project: string,
  file: VendorFile,
): Promise<string> {
  const url = `${projectBase(auth, project)}/wit/attachments?fileName=${seg(file.name)}&${v()}`;
  const body = await call(
    http,
    url,
    {
      method: 'POST',
      headers: { ...headers(auth), 'content-type': 'application/octet-stream' },
      body: blobOf({ ...file, type: 'application/octet-stream' }),
    },
    'project',
  );
  const parsed = attachmentSchema.safeParse(body);
  if (!parsed.success) throw unexpected('attachment');
  return parsed.data.url;
}

/** One operation of a JSON Patch body (`application/json-patch+json`). */
export type PatchOp =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'test'; path: string; value: unknown };

export const field = (name: string, value: unknown): PatchOp => ({
  op: 'add',
  path: `/fields/${name}`,
  value,
});
/** A relation added to the work item: an attachment (`AttachedFile`) or a web link (`Hyperlink`). */
export const relation = (rel: 'AttachedFile' | 'Hyperlink', url: string, comment: string): PatchOp => ({
  op: 'add',
  path: '/relations/-',
  value: { rel, url, attributes: { comment } },
});

const workItemSchema = z.looseObject({
  id: z.number(),
  fields: z.record(z.string(), z.unknown()).optional(),
  _links: z.looseObject({ html: z.looseObject({ href: z.string() }).optional() }).optional(),
});

export interface WorkItem {
  id: number;
  state: string;
  type: string;
  url?: string;
}

const itemOf = (body: unknown): WorkItem => {
  const parsed = workItemSchema.safeParse(body);
  if (!parsed.success) throw unexpected('work item');
  const f = parsed.data.fields ?? {};
  const href = parsed.data._links?.html?.href;
  return {
    id: parsed.data.id,
    state: typeof f['System.State'] === 'string' ? f['System.State'] : '',
    type: typeof f['System.WorkItemType'] === 'string' ? f['System.WorkItemType'] : '',
    ...(href && /^https?:\/\//i.test(href) ? { url: href } : {}),
  };
};

/** Creates a work item of `type` from a JSON Patch (`POST {project}/_apis/wit/workitems/${type}`). */
export async function createWorkItem(
  http: Http,
  auth: AzureAuth,
  project: string,
  type: string,
  ops: PatchOp[],
): Promise<WorkItem> {
  // The `$` is literal: the path template is `${type}` (README).
  const url = `${projectBase(auth, project)}/wit/workitems/$${seg(type)}?${v()}`;
  const body = await call(
    http,
    url,
    { method: 'POST', headers: patchHeaders(auth), body: JSON.stringify(ops) },
    'project',
  );
  return itemOf(body);
}

const itemUrl = (auth: AzureAuth, project: string, id: string) =>
  `${projectBase(auth, project)}/wit/workitems/${seg(id)}?${v()}`;

/** The work item now (`GET …/wit/workitems/{id}`): its state, type and web address. */
export async function getWorkItem(
  http: Http,
  auth: AzureAuth,
  project: string,
  id: string,
): Promise<WorkItem> {
  return itemOf(await call(http, itemUrl(auth, project, id), { headers: headers(auth) }, 'work item'));
}

/** Updates a work item with a JSON Patch (`PATCH …/wit/workitems/{id}`). */
export async function updateWorkItem(
  http: Http,
  auth: AzureAuth,
  project: string,
  id: string,
  ops: PatchOp[],
): Promise<WorkItem> {
  const body = await call(
    http,
    itemUrl(auth, project, id),
    { method: 'PATCH', headers: patchHeaders(auth), body: JSON.stringify(ops) },
    'work item',
  );
  return itemOf(body);
}

/** Whether a work item recorded earlier still exists (a 404 says no). */
export async function workItemExists(http: Http, auth: AzureAuth, project: string, id: string) {
  const res = await send('azure', http, itemUrl(auth, project, id), { headers: headers(auth) });
  await res.body?.cancel().catch(() => {});
  if (res.status === 404) return false;
  if (!res.ok) throw statusError('azure', res, 'work item');
  return true;
}

const commentSchema = z.looseObject({ id: z.number() });

/** Adds an HTML comment (`POST …/wit/workItems/{id}/comments`, api-version 7.1-preview.4); answers its id. */
export async function addComment(
  http: Http,
  auth: AzureAuth,
  project: string,
  id: string,
  html: string,
): Promise<string> {
  const url = `${projectBase(auth, project)}/wit/workItems/${seg(id)}/comments?${v(COMMENTS_API_VERSION)}`;
  const body = await call(
    http,
    url,
    { method: 'POST', headers: jsonHeaders(auth), body: JSON.stringify({ text: html.slice(0, 1_000_000) }) },
    'work item',
  );
  const parsed = commentSchema.safeParse(body);
  if (!parsed.success) throw unexpected('comment');
  return String(parsed.data.id);
}

/** The work item events Snag subscribes to, one subscription each (README: one per event type). */
export const hookEvents = ['workitem.updated', 'workitem.commented'] as const;
/** The header that carries Snag's secret on every delivery (the webHooks consumer's `httpHeaders`). */
export const SECRET_HEADER = 'X-Snag-Secret';

const subscriptionSchema = z.looseObject({ id: z.string() });

/**
 * Subscribes the webHooks consumer to one work item event of the project (`POST _apis/hooks/subscriptions`),
 * the secret in a header of its own; answers the subscription's id.
 */
export async function createSubscription(
  http: Http,
  auth: AzureAuth,
  hook: {
    projectId: string;
    type: string;
    eventType: (typeof hookEvents)[number];
    url: string;
    secret: string;
  },
): Promise<string> {
  const body = await call(
    http,
    `${auth.base}/_apis/hooks/subscriptions?${v()}`,
    {
      method: 'POST',
      headers: jsonHeaders(auth),
      body: JSON.stringify({
        publisherId: 'tfs',
        eventType: hook.eventType,
        resourceVersion: '1.0',
        consumerId: 'webHooks',
        consumerActionId: 'httpRequest',
        publisherInputs: {
          projectId: hook.projectId,
          workItemType: hook.type,
          ...(hook.eventType === 'workitem.updated' ? { changedFields: 'System.State' } : {}),
        },
        consumerInputs: {
          url: hook.url,
          httpHeaders: `${SECRET_HEADER}:${hook.secret}`,
          // Snag reads the resource; the messages would only carry the same text again.
          messagesToSend: 'none',
          detailedMessagesToSend: 'none',
        },
      }),
    },
    'project',
  );
  const parsed = subscriptionSchema.safeParse(body);
  if (!parsed.success) throw unexpected('subscription');
  return parsed.data.id;
}

/**
 * Deletes a service hook subscription (`DELETE _apis/hooks/subscriptions/{id}`, 204 with no body): the
 * one a new secret or a removed integration leaves behind, which would otherwise keep sending the old one.
 */
export async function deleteSubscription(http: Http, auth: AzureAuth, subscriptionId: string): Promise<void> {
  await sendJson(
    'azure',
    http,
    `${auth.base}/_apis/hooks/subscriptions/${seg(subscriptionId)}?${v()}`,
    { method: 'DELETE', headers: headers(auth) },
    'subscription',
  );
}
