/**
 * Jira Cloud REST v3 (../shared/api-specs/jira, README notes): basic auth `email:api_token`, project search,
 * the issue types of a project (createmeta), issues with an Atlassian Document Format description, and
 * attachments (multipart `file`, `X-Atlassian-Token: no-check`).
 */
import * as z from 'zod';
import { baseUrlOf, blobOf, type Http, sendJson, VendorError, type VendorFile } from './http';

export interface JiraAuth {
  base: string;
  username: string;
  token: string;
}

export const jiraBase = (host: string) => baseUrlOf('jira', host);

/**
 * An issue's page: Jira's create answers `{id, key, self}`, where `self` is the REST resource, not a page;
 * the page every Jira site serves is `{site}/browse/{key}`.
 */
export const browseUrl = (base: string, key: string) =>
  `${base.replace(/\/+$/, '')}/browse/${encodeURIComponent(key)}`;

const headers = (auth: JiraAuth) => ({
  authorization: `Basic ${Buffer.from(`${auth.username}:${auth.token}`).toString('base64')}`,
  accept: 'application/json',
});

export interface Named {
  id: string;
  name: string;
}

const projectPage = z.looseObject({
  values: z.array(z.looseObject({ id: z.string(), key: z.string().optional(), name: z.string() })),
  isLast: z.boolean().optional(),
  total: z.number().optional(),
});

/** Projects the user can browse, up to 5 pages of 100. */
export async function listProjects(http: Http, auth: JiraAuth): Promise<Named[]> {
  const out: Named[] = [];
  for (let page = 0; page < 5; page++) {
    const url = `${auth.base}/rest/api/3/project/search?startAt=${page * 100}&maxResults=100&orderBy=name`;
    const body = await sendJson('jira', http, url, { headers: headers(auth) }, 'projects');
    const parsed = projectPage.safeParse(body);
    if (!parsed.success) throw new VendorError('jira', false, 'Jira answered an unexpected project list');
    out.push(...parsed.data.values.map((p) => ({ id: p.id, name: p.name })));
    if (parsed.data.isLast !== false || parsed.data.values.length === 0) break;
  }
  return out;
}

const issueTypesPage = z.looseObject({
  issueTypes: z.array(z.looseObject({ id: z.string(), name: z.string() })),
});

/** The issue types one can create in a project. */
export async function listIssueTypes(http: Http, auth: JiraAuth, projectId: string): Promise<Named[]> {
  const url = `${auth.base}/rest/api/3/issue/createmeta/${encodeURIComponent(projectId)}/issuetypes?maxResults=100`;
  const body = await sendJson('jira', http, url, { headers: headers(auth) }, 'project');
  const parsed = issueTypesPage.safeParse(body);
  if (!parsed.success) throw new VendorError('jira', false, 'Jira answered unexpected issue types');
  return parsed.data.issueTypes.map((t) => ({ id: t.id, name: t.name }));
}

/** ADF nodes (https://developer.atlassian.com/cloud/jira/platform/apis/document/structure/). */
export type AdfNode = Record<string, unknown>;
export const adf = {
  doc: (content: AdfNode[]) => ({ type: 'doc', version: 1, content }),
  paragraph: (...content: AdfNode[]) => ({ type: 'paragraph', content }),
  heading: (level: number, text: string) => ({
    type: 'heading',
    attrs: { level },
    content: [{ type: 'text', text }],
  }),
  text: (text: string, marks?: AdfNode[]) => ({ type: 'text', text, ...(marks ? { marks } : {}) }),
  strong: (text: string) => ({ type: 'text', text, marks: [{ type: 'strong' }] }),
  link: (text: string, href: string) => ({ type: 'text', text, marks: [{ type: 'link', attrs: { href } }] }),
  bullets: (items: AdfNode[][]) => ({
    type: 'bulletList',
    content: items.map((content) => ({ type: 'listItem', content: [{ type: 'paragraph', content }] })),
  }),
  ordered: (items: AdfNode[][]) => ({
    type: 'orderedList',
    content: items.map((content) => ({ type: 'listItem', content: [{ type: 'paragraph', content }] })),
  }),
};

/** At most 10 extra fields (SPEC 5). */
export const MAX_JIRA_FIELDS = 10;

/**
 * The extra key/value fields as Jira `fields` (docs/decisions.md): a value that reads as JSON (an
 * object, an array, a number) is sent as that, so `labels` = `["web"]` and `priority` = `{"name":"High"}`
 * work; anything else is sent as a string. Keys that would replace what the issue itself sets are skipped.
 */
export function extraFields(pairs: { name: string; value: string }[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const reserved = new Set(['project', 'summary', 'description', 'issuetype']);
  for (const { name, value } of (pairs ?? []).slice(0, MAX_JIRA_FIELDS)) {
    const key = name.trim();
    if (!key || reserved.has(key)) continue;
    let parsed: unknown = value;
    const v = value.trim();
    if (/^[[{]/.test(v) || /^-?\d+(\.\d+)?$/.test(v)) {
      try {
        parsed = JSON.parse(v);
      } catch {
        parsed = value;
      }
    }
    out[key] = parsed;
  }
  return out;
}

const createdSchema = z.looseObject({ id: z.string(), key: z.string() });

export async function createIssue(
  http: Http,
  auth: JiraAuth,
  issue: {
    projectId: string;
    issueTypeId: string;
    summary: string;
    description: AdfNode;
    fields?: Record<string, unknown>;
  },
): Promise<{ id: string; key: string }> {
  const body = await sendJson(
    'jira',
    http,
    `${auth.base}/rest/api/3/issue`,
    {
      method: 'POST',
      headers: { ...headers(auth), 'content-type': 'application/json' },
      body: JSON.stringify({
        fields: {
          ...issue.fields,
          project: { id: issue.projectId },
          issuetype: { id: issue.issueTypeId },
          summary: issue.summary.replace(/[\r\n]+/g, ' ').slice(0, 255),
          description: issue.description,
        },
      }),
    },
    'project or issue type',
  );
  const parsed = createdSchema.safeParse(body);
  if (!parsed.success) throw new VendorError('jira', false, 'Jira answered an unexpected issue');
  return { id: parsed.data.id, key: parsed.data.key };
}

const attachmentsOfIssue = z.looseObject({
  fields: z.looseObject({
    attachment: z.array(z.looseObject({ filename: z.string() })).optional(),
  }),
});

/** The file names already attached to an issue (a retry attaches only what is missing). */
export async function attachedNames(http: Http, auth: JiraAuth, issueKey: string): Promise<Set<string>> {
  const body = await sendJson(
    'jira',
    http,
    `${auth.base}/rest/api/3/issue/${encodeURIComponent(issueKey)}?fields=attachment`,
    { headers: headers(auth) },
    'issue',
  );
  const parsed = attachmentsOfIssue.safeParse(body);
  if (!parsed.success) throw new VendorError('jira', false, 'Jira answered an unexpected issue');
  return new Set((parsed.data.fields.attachment ?? []).map((a) => a.filename));
}

export async function attach(http: Http, auth: JiraAuth, issueKey: string, file: VendorFile): Promise<void> {
  const form = new FormData();
  form.set('file', blobOf(file), file.name);
  await sendJson(
    'jira',
    http,
    `${auth.base}/rest/api/3/issue/${encodeURIComponent(issueKey)}/attachments`,
    { method: 'POST', headers: { ...headers(auth), 'X-Atlassian-Token': 'no-check' }, body: form },
    'issue',
  );
}

// Two-way sync (issue 24; ../shared/api-specs/jira/sync.EXCERPTS.yaml and README "Jira Cloud webhooks"):
// the issue's status category, transitions to a done (or open) category, ADF comments, and the account.

const issueUrl = (auth: JiraAuth, key: string) => `${auth.base}/rest/api/3/issue/${encodeURIComponent(key)}`;

const statusSchema = z.looseObject({
  key: z.string().optional(),
  fields: z.looseObject({
    status: z.looseObject({ statusCategory: z.looseObject({ key: z.string() }).optional() }).optional(),
  }),
});

/** Whether the issue's status is in the `done` category now (the sync reads it before changing Snag's). */
export async function issueDone(http: Http, auth: JiraAuth, key: string): Promise<boolean> {
  const body = await sendJson(
    'jira',
    http,
    `${issueUrl(auth, key)}?fields=status`,
    { headers: headers(auth) },
    'issue',
  );
  const parsed = statusSchema.safeParse(body);
  if (!parsed.success) throw new VendorError('jira', false, 'Jira answered an unexpected issue');
  return parsed.data.fields.status?.statusCategory?.key === 'done';
}

const transitionsSchema = z.looseObject({
  transitions: z.array(
    z.looseObject({
      id: z.string(),
      to: z.looseObject({ statusCategory: z.looseObject({ key: z.string() }).optional() }).optional(),
    }),
  ),
});

/**
 * Moves the issue into a `done`-category status (closed) or out of it (`new`, else `indeterminate`): the
 * first transition whose target is in that category. False when the workflow offers none.
 */
export async function transitionTo(http: Http, auth: JiraAuth, key: string, done: boolean): Promise<boolean> {
  const body = await sendJson(
    'jira',
    http,
    `${issueUrl(auth, key)}/transitions`,
    { headers: headers(auth) },
    'issue',
  );
  const parsed = transitionsSchema.safeParse(body);
  if (!parsed.success) throw new VendorError('jira', false, 'Jira answered unexpected transitions');
  const category = (t: (typeof parsed.data.transitions)[number]) => t.to?.statusCategory?.key;
  const pick = done
    ? parsed.data.transitions.find((t) => category(t) === 'done')
    : (parsed.data.transitions.find((t) => category(t) === 'new') ??
      parsed.data.transitions.find((t) => category(t) === 'indeterminate'));
  if (!pick) return false;
  await sendJson(
    'jira',
    http,
    `${issueUrl(auth, key)}/transitions`,
    {
      method: 'POST',
      headers: { ...headers(auth), 'content-type': 'application/json' },
      body: JSON.stringify({ transition: { id: pick.id } }),
    },
    'issue',
  );
  return true;
}

const commentSchema = z.looseObject({ id: z.string() });

/** Adds a comment (`POST …/comment {body: ADF}`); answers its id. */
export async function addComment(http: Http, auth: JiraAuth, key: string, body: AdfNode): Promise<string> {
  const out = await sendJson(
    'jira',
    http,
    `${issueUrl(auth, key)}/comment`,
    {
      method: 'POST',
      headers: { ...headers(auth), 'content-type': 'application/json' },
      body: JSON.stringify({ body }),
    },
    'issue',
  );
  const parsed = commentSchema.safeParse(out);
  if (!parsed.success) throw new VendorError('jira', false, 'Jira answered an unexpected comment');
  return parsed.data.id;
}

const myselfSchema = z.looseObject({ accountId: z.string() });

/** The API token's own account (`GET /rest/api/3/myself`): deliveries it caused are our own writes. */
export async function myAccountId(http: Http, auth: JiraAuth): Promise<string> {
  const out = await sendJson(
    'jira',
    http,
    `${auth.base}/rest/api/3/myself`,
    { headers: headers(auth) },
    'user',
  );
  const parsed = myselfSchema.safeParse(out);
  if (!parsed.success) throw new VendorError('jira', false, 'Jira answered an unexpected account');
  return parsed.data.accountId;
}
