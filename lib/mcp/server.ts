/**
 * `snag-mcp` (issue 25, README "MCP server"): an MCP server over stdio for coding assistants, a thin client
 * of the public REST API v1. Configured by SNAG_URL (the dashboard's address) and SNAG_TOKEN (an API token
 * of the team). Every tool calls one or two v1 routes; a refusal or a network failure is an MCP tool error
 * (`isError`) carrying the API's code and message, never a crash of the server.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';
import { issueStatuses, listSorts, priorities } from '../../functions/contracts/triage';

type Content = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
type ToolResult = { content: Content[]; isError?: boolean };

/** A refusal of the API (or of the connection), turned into a tool error by `tool`. */
class ApiFailure extends Error {}

export interface SnagConfig {
  url: string | undefined;
  token: string | undefined;
}

/** One v1 call: the envelope's `msg`, or an ApiFailure with the API's code and message. */
async function call<T>(config: SnagConfig, method: string, path: string, body?: unknown): Promise<T> {
  if (!config.url || !config.token)
    throw new ApiFailure('SNAG_URL and SNAG_TOKEN must be set (an API token from the team settings).');
  let res: Response;
  try {
    res = await fetch(new URL(path, config.url), {
      method,
      headers: {
        authorization: `Bearer ${config.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
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
    throw new ApiFailure(`${envelope.code}: ${envelope.msg}${fields}${wait}`);
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
  screenshots: { type: string; url: string }[];
  [key: string]: unknown;
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

const projectId = z.string().uuid().describe('The project id (from list_projects)');
const number = z.number().int().min(1).describe('The issue number within the project');

export function snagServer(config: SnagConfig): McpServer {
  const server = new McpServer({ name: 'snag', version: '1.0.0' });

  server.registerTool(
    'list_projects',
    {
      title: 'List projects',
      description:
        "The projects (websites) of the API token's team: id, name, URL and open/resolved issue counts.",
      inputSchema: {},
    },
    () => tool(async () => [json(await call(config, 'GET', '/api/v1/projects'))]),
  );

  server.registerTool(
    'list_issues',
    {
      title: 'List issues',
      description:
        'Issues of a project, newest first unless sorted otherwise, one page at a time (pass `next` back as ' +
        '`cursor`). Filter by status, priority, assignee (a user id, "me" is not meaningful for a token, "none" ' +
        'for unassigned), label id, or search the newest 200 by text. Resolved and closed issues are in the ' +
        'resolved list: set resolved, or filter by a resolved status.',
      inputSchema: {
        projectId,
        status: z.enum(issueStatuses).optional(),
        priority: z.enum(priorities).optional(),
        assignee: z.string().optional().describe('A member user id, or "none"'),
        label: z.string().optional().describe('A label id'),
        sort: z.enum(listSorts).optional(),
        search: z.string().max(200).optional(),
        resolved: z.boolean().optional().describe('Read the resolved list instead of the open one'),
        limit: z.number().int().min(1).max(100).optional().describe('Issues per page, 25 by default'),
        cursor: z.string().optional().describe('The `next` of the previous page'),
      },
    },
    ({ projectId: pid, resolved, ...filters }) =>
      tool(async () => {
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
        "One issue: the reporter's description, page URL, device, triage fields, files and the first " +
        'screenshot as an image. Links in the answer are signed and expire after 5 minutes.',
      inputSchema: { projectId, number },
    },
    ({ projectId: pid, number: n }) =>
      tool(async () => {
        const issue = await call<Issue>(config, 'GET', issuePath(pid, n));
        const summary =
          `#${issue.number} ${issue.title}\nStatus: ${issue.status} · Priority: ${issue.priority}\n\n` +
          `${issue.description}\n\n`;
        const image = await firstScreenshot(issue);
        return [{ type: 'text', text: summary + JSON.stringify(issue, null, 2) }, ...(image ? [image] : [])];
      }),
  );

  server.registerTool(
    'update_issue',
    {
      title: 'Update an issue',
      description:
        'Change any of status (closing an issue: "resolved" or "closed"), priority, assignee (a member user ' +
        'id, or null), labels (the whole set of label ids) and due date (YYYY-MM-DD or null). The activity ' +
        'shows the change as made by the API token.',
      inputSchema: {
        projectId,
        number,
        status: z.enum(issueStatuses).optional(),
        priority: z.enum(priorities).optional(),
        assignee: z.string().nullable().optional(),
        labels: z.array(z.string()).max(10).optional(),
        dueDate: z.string().nullable().optional(),
      },
    },
    ({ projectId: pid, number: n, ...patch }) =>
      tool(async () => {
        const issue = await call<Issue>(config, 'PATCH', issuePath(pid, n), patch);
        return [
          { type: 'text', text: `#${issue.number} is now ${issue.status}, priority ${issue.priority}.` },
        ];
      }),
  );

  server.registerTool(
    'add_comment',
    {
      title: 'Comment on an issue',
      description:
        'Add a comment. "public" comments are seen by guests of the project too; "internal" only by the team.',
      inputSchema: {
        projectId,
        number,
        body: z.string().min(1).max(10000),
        visibility: z.enum(['public', 'internal']).default('internal'),
      },
    },
    ({ projectId: pid, number: n, body, visibility }) =>
      tool(async () => [
        json(await call(config, 'POST', `${issuePath(pid, n)}/comments`, { body, visibility })),
      ]),
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
