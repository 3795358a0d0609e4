/**
 * `snag-mcp` (issue 25, README "MCP server"): an MCP server over stdio for coding assistants, a thin client
 * of the public REST API v1. Configured by SNAG_URL (the dashboard's address) and SNAG_TOKEN (an API token
 * of the team). Every tool calls one or two v1 routes; a refusal or a network failure is an MCP tool error
 * (`isError`) carrying the API's code and message, never a crash of the server.
 */

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';
import type { Step } from '../../functions/contracts/intake';
import type { SimilarAnswer, SimilarReason } from '../../functions/contracts/similar';
import { issueStatuses, listSorts, priorities, triageLimits } from '../../functions/contracts/triage';
import { numbered, stepSentences, stepTexts } from '../../functions/integrations/steps';

type Content = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
type ToolResult = { content: Content[]; isError?: boolean };

/** A refusal of the API (or of the connection), turned into a tool error by `tool`; `code` the API's. */
class ApiFailure extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface SnagConfig {
  url: string | undefined;
  token: string | undefined;
}

/** One v1 call: the envelope's `msg`, or an ApiFailure with the API's code and message. */
async function call<T>(
  config: SnagConfig,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  if (!config.url || !config.token)
    throw new ApiFailure('SNAG_URL and SNAG_TOKEN must be set (an API token from the team settings).');
  let res: Response;
  try {
    res = await fetch(new URL(path, config.url), {
      method,
      headers: {
        authorization: `Bearer ${config.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiFailure(`Snag is not reachable at ${config.url}: ${(err as Error).message}`);
  }
  const envelope = (await res.json().catch(() => null)) as
    | { status: 'success'; msg: T }
    | { status: 'error'; code: string; msg: string; fields?: Record<string, string> }
    | null;
  if (!envelope) throw new ApiFailure(`Snag answered ${res.status} without JSON`);
  if (envelope.status === 'error') {
    const fields = envelope.fields
      ? ` (${Object.entries(envelope.fields)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')})`
      : '';
    const wait = res.status === 429 ? ` Retry after ${res.headers.get('retry-after')} s.` : '';
    throw new ApiFailure(`${envelope.code}: ${envelope.msg}${fields}${wait}`, envelope.code);
  }
  return envelope.msg;
}

/** A tool's work with its failures as MCP tool errors. */
async function tool(work: () => Promise<Content[]>): Promise<ToolResult> {
  try {
    return { content: await work() };
  } catch (err) {
    const text = err instanceof ApiFailure ? err.message : `Unexpected failure: ${(err as Error).message}`;
    return { isError: true, content: [{ type: 'text', text }] };
  }
}

const json = (value: unknown): Content => ({ type: 'text', text: JSON.stringify(value, null, 2) });
const enc = encodeURIComponent;
const issuePath = (projectId: string, number: number) =>
  `/api/v1/projects/${enc(projectId)}/issues/${number}`;

interface Issue {
  number: number;
  title: string;
  description: string;
  status: string;
  priority: string;
  assignee: string | null;
  labels: string[];
  createdAt: string;
  screenshots: { type: string; url: string }[];
  deliveries?: { integration: string; status: string; url: string | null }[];
  /** Absent from an API older than steps and replays. */
  steps?: Step[];
  /** When the visitor sent it, on the steps' clock (REST v1 `sentAt`). */
  sentAt?: number | null;
  replay?: { url: string; expiresAt: string } | null;
  [key: string]: unknown;
}

/** Where the issue went, one clause per integration with the created item's link: "github delivered <url>". */
const deliveriesText = (issue: Issue) =>
  (issue.deliveries ?? [])
    .map((d) => [d.integration, d.status.replace('_', ' '), d.url].filter(Boolean).join(' '))
    .join('; ');

/**
 * The steps to reproduce, numbered as every tracker shows them (integrations/steps.ts), and the replay's
 * link for the person the assistant answers: what an assistant needs to reproduce the bug.
 */
function reproductionText(issue: Issue): string {
  const t = stepTexts();
  const steps = numbered(
    stepSentences(
      { steps: issue.steps ?? [], createdAt: issue.createdAt, sentAt: issue.sentAt },
      { text: (l) => l },
    ),
  );
  const out = steps.length ? [`${t.heading}:`, ...steps] : [];
  if (issue.replay)
    out.push(`${t.watch}: ${issue.replay.url} (the link works until ${issue.replay.expiresAt})`);
  return out.length ? `${out.join('\n')}\n\n` : '';
}

/** The first screenshot that is an image, as MCP image content; null for none (or a video). */
async function firstScreenshot(issue: Issue): Promise<Content | null> {
  const shot = issue.screenshots.find((s) => s.type === 'png');
  if (!shot) return null;
  const res = await fetch(shot.url).catch(() => null);
  if (!res?.ok) return null;
  return {
    type: 'image',
    data: Buffer.from(await res.arrayBuffer()).toString('base64'),
    mimeType: 'image/png',
  };
}

interface ProjectDetail {
  labels: { id: string; name: string }[];
  assignees: { id: string; name: string }[];
}

const same = (a: string, b: string) => a.trim().toLocaleLowerCase('en') === b.trim().toLocaleLowerCase('en');

/**
 * An assistant speaks of labels and people by name ("label it Checkout, assign it to Grace"); the API takes
 * ids. Each given value is taken as an id, else as a name (case-insensitive) from the project's
 * `labels`/`assignees`; a name that matches nothing (or two people) is a tool error naming the choices.
 */
function resolveNames(
  detail: ProjectDetail,
  given: { assignee?: string | null | undefined; labels?: string[] | undefined },
): { assignee?: string | null; labels?: string[] } {
  const pick = (what: 'label' | 'assignee', list: { id: string; name: string }[], value: string) => {
    if (list.some((x) => x.id === value)) return value;
    const found = list.filter((x) => same(x.name, value));
    if (found.length === 1) return (found[0] as { id: string }).id;
    const choices = list.map((x) => x.name).join(', ') || 'none';
    throw new ApiFailure(
      found.length > 1
        ? `More than one ${what} is called "${value}": use its id (get_project).`
        : `No ${what} "${value}" in this project. Choices: ${choices}.`,
    );
  };
  const out: { assignee?: string | null; labels?: string[] } = {};
  if (given.assignee !== undefined)
    out.assignee = given.assignee === null ? null : pick('assignee', detail.assignees, given.assignee);
  if (given.labels !== undefined) out.labels = given.labels.map((l) => pick('label', detail.labels, l));
  return out;
}

/** The PNG signature: a screenshot must be one (the API checks the stored object's type, not its bytes). */
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The screenshot an assistant gives: a PNG file's path, or its base64 (a data: URL's too). Read here, so a
 * missing file or a non-PNG is the tool's own error before anything is uploaded.
 */
async function screenshotBytes(given: string): Promise<Buffer> {
  const base64 = /^data:image\/png;base64,/i.test(given)
    ? given.slice(given.indexOf(',') + 1)
    : /^[A-Za-z0-9+/=\s]{64,}$/.test(given) && !existsSync(given)
      ? given
      : null;
  let bytes: Buffer;
  if (base64 !== null) bytes = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
  else {
    try {
      bytes = await readFile(given);
    } catch (err) {
      throw new ApiFailure(`Cannot read the screenshot ${given}: ${(err as Error).message}`);
    }
  }
  if (!bytes.subarray(0, 8).equals(PNG_MAGIC))
    throw new ApiFailure('The screenshot is not a PNG image (give a .png file path or its base64).');
  return bytes;
}

/** Uploads `bytes` with the API's presigned form (POST …/uploads, then the form to storage): its key. */
async function uploadScreenshot(config: SnagConfig, pid: string, bytes: Buffer): Promise<string> {
  const form = await call<{ key: string; url: string; fields: Record<string, string> }>(
    config,
    'POST',
    `/api/v1/projects/${enc(pid)}/uploads`,
    { kind: 'screenshot', type: 'image/png', size: bytes.length },
  );
  const data = new FormData();
  for (const [name, value] of Object.entries(form.fields)) data.append(name, value);
  data.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'screenshot.png');
  const stored = await fetch(form.url, { method: 'POST', body: data }).catch((err: Error) => {
    throw new ApiFailure(`The screenshot could not be uploaded: ${err.message}`);
  });
  if (!stored.ok) throw new ApiFailure(`The storage refused the screenshot (${stored.status}).`);
  return form.key;
}

/** The v1 merge answer (contracts/similar.ts `MergeAnswer`), as far as the tools tell it. */
interface MergeResult {
  issue: { number: number; duplicateOf?: number };
  primary: { number: number; reports: number; affected: { browsers: string[]; pages: string[] } };
}

function mergeText({ issue, primary }: MergeResult): string {
  const head = issue.duplicateOf
    ? `#${issue.number} is now a duplicate of #${issue.duplicateOf}.`
    : `#${issue.number} stands alone.`;
  const { browsers, pages } = primary.affected;
  return (
    `${head} #${primary.number} has ${primary.reports} report${primary.reports === 1 ? '' : 's'}` +
    `${browsers.length ? `; browsers: ${browsers.join(', ')}` : ''}${pages.length ? `; pages: ${pages.join(', ')}` : ''}.`
  );
}

const projectId = z.string().uuid().describe('The project id (from list_projects)');
const number = z.number().int().min(1).describe('The issue number within the project');

/** The contract's reasons in the words the dashboard shows. */
const reasonWords: Record<SimilarReason, string> = {
  same_page_and_error: 'same page and same error',
  same_error: 'same error',
  same_failed_request: 'same failed request',
  same_page: 'same page',
  similar_description: 'similar description',
  similar_screenshot: 'similar screenshot',
};

/** One line per suggestion: "#12 Checkout broken (new) · 0.87 · same page and same error · 3 reports". */
export function similarText(n: number, answer: SimilarAnswer): string {
  if (!answer.ready)
    return `#${n}: not computed yet (the report is still being compared); ask again shortly.`;
  if (answer.similar.length === 0) return `#${n}: no open issue looks like this one.`;
  const lines = answer.similar.map(
    (s) =>
      `#${s.number} ${s.title} (${s.status}) · ${s.score.toFixed(2)} · ${s.reasons.map((r) => reasonWords[r]).join(', ')}` +
      (s.reports > 1 ? ` · ${s.reports} reports` : ''),
  );
  return `Possibly the same as #${n}:\n${lines.join('\n')}`;
}

export function snagServer(config: SnagConfig): McpServer {
  const server = new McpServer({ name: 'snag', version: '1.0.0' });
  const projectDetail = (pid: string) => call<ProjectDetail>(config, 'GET', `/api/v1/projects/${enc(pid)}`);
  /**
   * The project's labels and members to name things by, or null for a token without `projects:read` (the
   * read-only token the README recommends holds `issues:read` alone): then ids stand for names.
   */
  const namesOf = (pid: string): Promise<ProjectDetail | null> =>
    projectDetail(pid).catch((err: unknown) => {
      if (err instanceof ApiFailure && err.code === 'INSUFFICIENT_SCOPE') return null;
      throw err;
    });
  /** Names given by the assistant as ids, resolved when the token may read the project's lists. */
  const idsFor = async (pid: string, given: Parameters<typeof resolveNames>[1]) => {
    const detail = await namesOf(pid);
    return detail ? resolveNames(detail, given) : {};
  };

  server.registerTool(
    'list_projects',
    {
      title: 'List projects',
      description:
        "The projects (websites) of the API token's team: id, name, URL and open/resolved issue counts. " +
        'Needs the scope projects:read.',
      inputSchema: {},
    },
    () => tool(async () => [json(await call(config, 'GET', '/api/v1/projects'))]),
  );

  server.registerTool(
    'get_project',
    {
      title: 'Get a project',
      description:
        'One project with its labels (id, name, colour) and the team members who may be assigned (id, name, ' +
        'role). list_issues and update_issue also take these names instead of ids. Needs projects:read.',
      inputSchema: { projectId },
    },
    ({ projectId: pid }) =>
      tool(async () => [json(await call(config, 'GET', `/api/v1/projects/${enc(pid)}`))]),
  );

  server.registerTool(
    'list_issues',
    {
      title: 'List issues',
      description:
        'Issues of a project, newest first unless sorted otherwise, one page at a time (pass `next` back as ' +
        '`cursor`). Filter by status, priority, assignee (a member\'s name or user id, "none" for unassigned), ' +
        'label (a name or id), or search the newest 200 by text. Resolved and closed issues are in the ' +
        'resolved list: set resolved, or filter by a resolved status. Needs issues:read (filtering by a ' +
        'name, not an id, also projects:read).',
      inputSchema: {
        projectId,
        status: z.enum(issueStatuses).optional(),
        priority: z.enum(priorities).optional(),
        assignee: z.string().optional().describe('A member\'s name or user id, or "none"'),
        label: z.string().optional().describe('A label name or id'),
        sort: z.enum(listSorts).optional(),
        search: z.string().max(200).optional(),
        resolved: z.boolean().optional().describe('Read the resolved list instead of the open one'),
        limit: z.number().int().min(1).max(100).optional().describe('Issues per page, 25 by default'),
        cursor: z.string().optional().describe('The `next` of the previous page'),
      },
    },
    ({ projectId: pid, resolved, ...filters }) =>
      tool(async () => {
        const byName = {
          ...(filters.assignee && filters.assignee !== 'none' ? { assignee: filters.assignee } : {}),
          ...(filters.label ? { labels: [filters.label] } : {}),
        };
        if (Object.keys(byName).length > 0) {
          const ids = await idsFor(pid, byName);
          if (ids.assignee) filters.assignee = ids.assignee;
          if (ids.labels) filters.label = ids.labels[0];
        }
        const query = new URLSearchParams();
        for (const [k, v] of Object.entries(filters)) if (v !== undefined) query.set(k, String(v));
        if (resolved) query.set('resolved', '1');
        return [json(await call(config, 'GET', `/api/v1/projects/${enc(pid)}/issues?${query}`))];
      }),
  );

  server.registerTool(
    'get_issue',
    {
      title: 'Get an issue',
      description:
        "One issue: the reporter's description, the steps to reproduce (the visitor's last actions before " +
        'the report, numbered, with how long before it each happened) and a link to watch the replay when ' +
        'there is one, page URL, device, triage fields, files, where it was sent (each integration, with the ' +
        'link to the issue, task or message it created) and the first screenshot as an image. File and ' +
        'screenshot links are signed and expire after 5 minutes, the replay link after an hour. Needs ' +
        'issues:read; with projects:read too, labels and the assignee are named, else shown by id.',
      inputSchema: { projectId, number },
    },
    ({ projectId: pid, number: n }) =>
      tool(async () => {
        const [issue, detail] = await Promise.all([
          call<Issue>(config, 'GET', issuePath(pid, n)),
          namesOf(pid),
        ]);
        // Without projects:read the ids stand for the names (the issue itself needs issues:read only).
        const nameOf = (list: { id: string; name: string }[] | undefined, id: string) =>
          list?.find((x) => x.id === id)?.name ?? id;
        const labels = issue.labels.map((id) => nameOf(detail?.labels, id)).join(', ') || 'none';
        const assignee = issue.assignee ? nameOf(detail?.assignees, issue.assignee) : 'nobody';
        const sent = deliveriesText(issue);
        const summary =
          `#${issue.number} ${issue.title}\nStatus: ${issue.status} · Priority: ${issue.priority} · ` +
          `Assignee: ${assignee} · Labels: ${labels}\n${sent ? `Sent to: ${sent}\n` : ''}\n` +
          `${issue.description}\n\n${reproductionText(issue)}`;
        const image = await firstScreenshot(issue);
        return [{ type: 'text', text: summary + JSON.stringify(issue, null, 2) }, ...(image ? [image] : [])];
      }),
  );

  server.registerTool(
    'list_similar',
    {
      title: 'List similar issues',
      description:
        'Up to five open issues that look like this one (possibly the same bug reported again), best first, ' +
        'each with a score from 0 to 1 and the reasons: same page and same error, same error, same failed ' +
        'request, same page, similar description, similar screenshot. Nothing is merged: a suggestion only. ' +
        '"Not computed yet" means the report came in seconds ago; ask again shortly. Needs issues:read.',
      inputSchema: { projectId, number },
    },
    ({ projectId: pid, number: n }) =>
      tool(async () => {
        const answer = await call<SimilarAnswer>(config, 'GET', `${issuePath(pid, n)}/similar`);
        return [{ type: 'text', text: similarText(n, answer) }, json(answer)];
      }),
  );

  server.registerTool(
    'update_issue',
    {
      title: 'Update an issue',
      description:
        'Change any of status (closing an issue: "resolved" or "closed"), priority, assignee (a member\'s ' +
        'name or user id, or null), labels (the whole set, by name or id; see get_project) and due date ' +
        "(YYYY-MM-DD or null). The issue's activity shows the change as made via the API token. Resolving " +
        'mails the visitor who reported it, if they left an address. Needs issues:write (naming labels or ' +
        'people, not ids, also projects:read).',
      inputSchema: {
        projectId,
        number,
        status: z.enum(issueStatuses).optional(),
        priority: z.enum(priorities).optional(),
        assignee: z.string().nullable().optional().describe("A member's name or user id; null unassigns"),
        labels: z.array(z.string()).max(10).optional().describe('Label names or ids: the whole new set'),
        dueDate: z.string().nullable().optional(),
      },
    },
    ({ projectId: pid, number: n, ...patch }) =>
      tool(async () => {
        const named = patch.labels?.length || (patch.assignee !== undefined && patch.assignee !== null);
        const ids = named ? await idsFor(pid, patch) : {};
        const issue = await call<Issue>(config, 'PATCH', issuePath(pid, n), { ...patch, ...ids });
        return [
          { type: 'text', text: `#${issue.number} is now ${issue.status}, priority ${issue.priority}.` },
        ];
      }),
  );

  // Issue 37: merging similar reports, as a member does on the issue page (docs/similar.md "Merging").
  server.registerTool(
    'merge',
    {
      title: 'Merge an issue into another',
      description:
        'Mark an issue as a duplicate of another issue of the same project (the primary). The duplicate keeps ' +
        'its own status; its reporter then follows the primary (status page, resolution mail), and the ' +
        'primary counts it among its reports. The primary must not be a duplicate itself, and an issue others ' +
        'were merged into cannot be merged. Undo with unmerge. Needs issues:write.',
      inputSchema: { projectId, number, into: number.describe('The primary: the issue to merge into') },
    },
    ({ projectId: pid, number: n, into }) =>
      tool(async () => {
        const answer = await call<MergeResult>(config, 'POST', `${issuePath(pid, n)}/merge`, { into });
        return [{ type: 'text', text: mergeText(answer) }];
      }),
  );

  server.registerTool(
    'unmerge',
    {
      title: 'Unmerge a duplicate',
      description:
        'Take a duplicate out of the issue it was merged into: it stands alone again with its own status, ' +
        'and its reporter follows it again. Nothing happens to an issue that is no duplicate. Needs issues:write.',
      inputSchema: { projectId, number },
    },
    ({ projectId: pid, number: n }) =>
      tool(async () => {
        const answer = await call<MergeResult>(config, 'DELETE', `${issuePath(pid, n)}/merge`);
        return [{ type: 'text', text: mergeText(answer) }];
      }),
  );

  server.registerTool(
    'add_comment',
    {
      title: 'Comment on an issue',
      description:
        'Add a comment. "internal" (the default) is seen by the team only. "public" is also seen by the ' +
        "project's guests and is mailed to the visitor who reported the issue, if they left an address. " +
        'Needs comments:write.',
      inputSchema: {
        projectId,
        number,
        body: z.string().min(1).max(triageLimits.commentMax),
        visibility: z.enum(['public', 'internal']).default('internal'),
      },
    },
    ({ projectId: pid, number: n, body, visibility }) =>
      tool(async () => [
        json(await call(config, 'POST', `${issuePath(pid, n)}/comments`, { body, visibility })),
      ]),
  );

  server.registerTool(
    'create_issue',
    {
      title: 'Create an issue',
      description:
        'File a new issue in a project, as the widget would: a title, the description (what happened, what ' +
        "was expected, steps), the page URL, the reporter's email and optionally a screenshot (a PNG file " +
        "path or its base64). It is uploaded first, then the issue is filed and sent to the project's " +
        "integrations; the answer is the issue's number and its address in Snag. The activity shows it as " +
        "filed via the API token. The project's plan and limits apply. Needs issues:create.",
      inputSchema: {
        projectId,
        title: z
          .string()
          .max(200)
          .optional()
          .describe('A short title; the first line of the description if absent'),
        description: z
          .string()
          .min(1)
          .max(5000)
          .describe('What happened, what was expected, how to reproduce'),
        pageUrl: z.string().optional().describe('The http(s) address of the page the bug is on'),
        reporterEmail: z.string().optional().describe('Who reported it (an email address), if anyone'),
        screenshot: z.string().optional().describe('A PNG: a file path, or its base64 (or a data: URL)'),
      },
    },
    ({ projectId: pid, title, description, pageUrl, reporterEmail, screenshot }) =>
      tool(async () => {
        const shot = screenshot ? await screenshotBytes(screenshot) : null;
        const screenshots = shot ? [{ key: await uploadScreenshot(config, pid, shot), type: 'png' }] : [];
        // One key per tool call: the API files it once even if this call is retried on the way.
        const created = await call<{ number: number; url: string }>(
          config,
          'POST',
          `/api/v1/projects/${enc(pid)}/issues`,
          {
            description,
            ...(title ? { title } : {}),
            ...(pageUrl ? { pageUrl } : {}),
            ...(reporterEmail ? { reporterEmail } : {}),
            screenshots,
          },
          { 'idempotency-key': randomUUID() },
        );
        return [
          {
            type: 'text',
            text: `Filed #${created.number}${shot ? ' with its screenshot' : ''}: ${created.url}`,
          },
        ];
      }),
  );

  return server;
}

/** Runs the server on stdin/stdout; diagnostics go to stderr (stdout is the protocol's). */
export async function main(): Promise<void> {
  const config = { url: process.env.SNAG_URL, token: process.env.SNAG_TOKEN };
  if (!config.url || !config.token)
    console.error('snag-mcp: set SNAG_URL and SNAG_TOKEN; tools will answer errors.');
  await snagServer(config).connect(new StdioServerTransport());
}
