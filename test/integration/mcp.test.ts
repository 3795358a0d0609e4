/**
 * `snag-mcp` (issue 25) driven by the MCP SDK's own Client over stdio, as an assistant would run it, against
 * the local stack: it lists its tools with input schemas, lists projects and issues, reads an issue with its
 * screenshot as an image, closes it and comments (the dashboard's activity shows both as the token's creator's,
 * "via API token Assistant"), files an issue with a screenshot (issue 34: a PNG path or base64, through the
 * v1 upload and create calls), and a refusal is a tool error, not a crash.
 */

import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { eventually } from '../support/local-stack';
import { png } from '../support/png';
import { openedReplay, storedReplay } from '../support/reproduction';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { fileReport } from '../support/widget';

const stack = setUpTestStack();
let site: Site;
let client: Client;
let number: number;

type Result = {
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  isError?: boolean;
};
const run = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as Result;
const textOf = (r: Result) => r.content.find((c) => c.type === 'text')?.text ?? '';

beforeAll(async () => {
  site = await newSite(stack.url, 'BASIC_PLAN');
  const teamId = await findUserIdByEmail(site.email.toLowerCase());
  const made = await site.client.post(`/api/client/team/${teamId}/tokens`, {
    name: 'Assistant',
    scopes: ['projects:read', 'issues:read', 'issues:write', 'comments:write', 'issues:create'],
  });
  const token = (made.body as { msg: { token: string } }).msg.token;
  number = await fileReport(stack.url, site.id, 'https://shop.example', {
    fields: { msg: 'The cart total is wrong', href: 'https://shop.example/cart' },
    screenshots: [{ type: 'image/png', content: png(4, 4, [10, 200, 10]) }],
  });
  client = await connect(token);
}, 60_000);

/** `snag-mcp` run over stdio with `token`, as an assistant runs it. */
async function connect(token: string): Promise<Client> {
  const mcp = new Client({ name: 'snag-test', version: '1.0.0' });
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['bin/snag-mcp.mjs'],
      env: { PATH: process.env.PATH ?? '', SNAG_URL: stack.url, SNAG_TOKEN: token },
      stderr: 'ignore',
    }),
  );
  return mcp;
}

afterAll(async () => {
  await client?.close();
  await stack?.stop();
});
describe('snag-mcp', () => {
  it('offers its tools with descriptions and input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'add_comment',
      'create_issue',
      'get_issue',
      'get_project',
      'list_issues',
      'list_projects',
      'list_similar',
      'merge',
      'unmerge',
      'update_issue',
    ]);
    for (const t of tools) {
      expect(t.description?.length ?? 0).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe('object');
    }
    const update = tools.find((t) => t.name === 'update_issue');
    expect(Object.keys(update?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['projectId', 'number', 'status', 'priority', 'assignee', 'labels', 'dueDate']),
    );
  });

  it('lists projects and issues, reads one with its screenshot, closes it and comments', async () => {
    const projects = JSON.parse(textOf(await run('list_projects'))) as { projects: { id: string }[] };
    expect(projects.projects.map((p) => p.id)).toEqual([site.id]);
    const issues = JSON.parse(textOf(await run('list_issues', { projectId: site.id }))) as {
      issues: { number: number; title: string }[];
    };
    expect(issues.issues.map((i) => [i.number, i.title])).toEqual([[number, 'The cart total is wrong']]);

    const read = await run('get_issue', { projectId: site.id, number });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toContain('The cart total is wrong');
    const image = read.content.find((c) => c.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    expect(
      Buffer.from(image?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    const closed = await run('update_issue', { projectId: site.id, number, status: 'closed' });
    expect(textOf(closed)).toContain('closed');
    const commented = await run('add_comment', { projectId: site.id, number, body: 'Fixed the rounding.' });
    expect(commented.isError).toBeFalsy();

    const resolved = JSON.parse(textOf(await run('list_issues', { projectId: site.id, resolved: true }))) as {
      issues: { number: number; status: string }[];
    };
    expect(resolved.issues).toEqual([expect.objectContaining({ number, status: 'closed' })]);
    const activity = await site.client.get(`/api/client/website/${site.id}/request/${number}/activity`);
    const entries = (
      activity.body as unknown as {
        msg: {
          entries: { actor?: { name: string; token?: string }; author?: { name: string; token?: string } }[];
        };
      }
    ).msg.entries;
    // By the owner who made the token (the test accounts' Ada Lovelace), through it: "… via API token Assistant".
    const viaToken = (e: (typeof entries)[number]) => {
      const who = e.actor ?? e.author;
      return who?.name === 'Ada Lovelace' && who.token === 'Assistant';
    };
    expect(entries.filter(viaToken).length).toBeGreaterThanOrEqual(2);
  });

  it('triages by label and member names, as an assistant is told to, and says which names exist', async () => {
    const made = await site.client.post(`/api/client/website/${site.id}/labels`, {
      name: 'Checkout',
      color: '#aa3300',
    });
    expect(made.status).toBe(201);
    const project = JSON.parse(textOf(await run('get_project', { projectId: site.id }))) as {
      labels: { id: string; name: string }[];
      assignees: { id: string; name: string }[];
    };
    const owner = project.assignees[0] as { id: string; name: string };
    expect(project.labels.map((l) => l.name)).toEqual(['Checkout']);
    const other = await fileReport(stack.url, site.id, 'https://shop.example', {
      fields: { msg: 'Coupon field rejects lowercase', href: 'https://shop.example/cart' },
    });

    const updated = await run('update_issue', {
      projectId: site.id,
      number: other,
      labels: ['checkout'],
      assignee: owner.name.toUpperCase(),
    });
    expect(updated.isError).toBeFalsy();
    const read = textOf(await run('get_issue', { projectId: site.id, number: other }));
    expect(read).toContain(`Assignee: ${owner.name} · Labels: Checkout`);
    const listed = JSON.parse(
      textOf(await run('list_issues', { projectId: site.id, label: 'Checkout', assignee: owner.name })),
    ) as { issues: { number: number }[] };
    expect(listed.issues.map((i) => i.number)).toEqual([other]);

    const unknown = await run('update_issue', { projectId: site.id, number: other, labels: ['Billing'] });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('No label "Billing" in this project. Choices: Checkout.');
  });

  it('says in get_issue where the issue went, with the link to the tracker issue it created', async () => {
    const sent = await fileReport(stack.url, site.id, 'https://shop.example', { fields: { msg: 'Sent on' } });
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `PROJECT#${site.id}`, sk: `ISSUE#${String(sent).padStart(10, '0')}#DETAIL` },
        UpdateExpression: 'SET st = :st, url_github = :gh',
        ExpressionAttributeValues: {
          ':st': { email: 2, github: 2 },
          ':gh': 'https://github.com/octo-org/shop/issues/12',
        },
      }),
    );
    const read = textOf(await run('get_issue', { projectId: site.id, number: sent }));
    expect(read).toContain(
      'Sent to: email delivered; github delivered https://github.com/octo-org/shop/issues/12\n',
    );
  });

  it('shows in get_issue the numbered steps to reproduce and the replay link, so an assistant can reproduce it', async () => {
    const at = Date.now();
    const steps = [
      { t: at - 42_000, kind: 'load', label: 'https://shop.example/' },
      { t: at - 30_000, kind: 'click', label: 'Add to cart' },
      { t: at - 21_000, kind: 'navigate', label: '/checkout' },
      { t: at - 12_000, kind: 'change', label: 'Coupon code' },
      { t: at - 9_000, kind: 'click', label: 'Pay now' },
      { t: at - 2_000, kind: 'open', label: '' },
    ];
    const n = await fileReport(stack.url, site.id, 'https://shop.example', {
      fields: { msg: 'Pay fails', steps },
    });
    const plain = textOf(await run('get_issue', { projectId: site.id, number: n }));
    expect(plain).toMatch(
      new RegExp(
        [
          'Pay fails\\n\\nSteps to reproduce:',
          '1\\. Loaded the page https://shop\\.example/ \\(4\\d s before the report\\)',
          '2\\. Clicked “Add to cart” \\(3\\d s before the report\\)',
          '3\\. Went to /checkout \\(2\\d s before the report\\)',
          '4\\. Changed the field “Coupon code” \\(1\\d s before the report\\)',
          '5\\. Clicked “Pay now” \\(\\d+ s before the report\\)',
          '6\\. Opened the feedback widget \\(\\d s before the report\\)\\n',
        ].join('\\n'),
      ),
    );
    expect(plain).not.toContain('Watch the replay');
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `PROJECT#${site.id}`, sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL` },
        UpdateExpression: 'SET replay = :r',
        ExpressionAttributeValues: { ':r': storedReplay(new Date(at).toISOString()) },
      }),
    );
    const read = textOf(await run('get_issue', { projectId: site.id, number: n }));
    const url = /Watch the replay: (\S+) \(the link works until [\d-]+T[\d:.]+Z\)\n/.exec(read)?.[1] ?? '';
    expect(await openedReplay(url, stack.url)).toEqual({ projectId: site.id, name: storedReplay('').name });
  });

  it('files an issue with a screenshot (a PNG path or base64), shown as filed via the token', async () => {
    const shot = png(40, 30, [200, 60, 10], true);
    const path = join(tmpdir(), `snag-mcp-${site.id}.png`);
    await writeFile(path, shot);
    for (const screenshot of [path, shot.toString('base64')]) {
      const filed = await run('create_issue', {
        projectId: site.id,
        title: 'Logo overlaps the menu',
        description: 'On narrow screens the logo covers the menu button.',
        pageUrl: 'https://shop.example/',
        reporterEmail: 'qa@shop.example',
        screenshot,
      });
      expect(filed.isError, textOf(filed)).toBeFalsy();
      const m = /^Filed #(\d+) with its screenshot: (\S+)$/.exec(textOf(filed));
      expect(m?.[2]).toBe(`${stack.url}/profile/site/${site.id}/ticket/${m?.[1]}`);
      const read = await run('get_issue', { projectId: site.id, number: Number(m?.[1]) });
      expect(textOf(read)).toContain('On narrow screens the logo covers the menu button.');
      const image = read.content.find((c) => c.type === 'image');
      expect(Buffer.from(image?.data ?? '', 'base64').equals(shot)).toBe(true);
      expect(textOf(read)).toContain('"filedVia"');
    }
    const notPng = await run('create_issue', {
      projectId: site.id,
      description: 'x',
      screenshot: 'bin/snag-mcp.mjs',
    });
    expect([notPng.isError, textOf(notPng)]).toEqual([true, expect.stringMatching(/not a PNG/)]);
    const noText = await run('create_issue', { projectId: site.id, description: '   ' });
    expect([noText.isError, textOf(noText)]).toEqual([true, expect.stringMatching(/^INVALID_PARAMETERS/)]);
  });

  it('lists similar open issues in words once the report has been compared (issue 37)', async () => {
    const report = (msg: string) =>
      fileReport(stack.url, site.id, 'https://shop.example', {
        fields: { msg, href: 'https://shop.example/checkout' },
      });
    const first = await report('The pay button on the checkout page does nothing');
    const second = await report('Checkout page: the pay button does nothing when clicked');
    const text = await eventually(async () => {
      const r = await run('list_similar', { projectId: site.id, number: second });
      expect(r.isError).toBeFalsy();
      const t = textOf(r);
      return t.startsWith('Possibly the same as') ? t : undefined;
    });
    expect(text).toMatch(new RegExp(`^#${first} .*\\(new\\) · 0\\.\\d\\d · .*similar description`, 'm'));
  });

  it('answers refusals as tool errors and keeps serving', async () => {
    const missing = await run('get_issue', { projectId: site.id, number: 999 });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^NOT_FOUND: /);
    const bad = await run('update_issue', { projectId: site.id, number, status: 'closed', dueDate: 'soon' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^INVALID_PARAMETERS|^[A-Z_]+: /);
    const again = await run('list_projects');
    expect(again.isError).toBeFalsy();
  });

  it('works with the read-only token README recommends (issues:read alone): ids stand for names', async () => {
    const teamId = await findUserIdByEmail(site.email.toLowerCase());
    const made = await site.client.post(`/api/client/team/${teamId}/tokens`, {
      name: 'Reader',
      scopes: ['issues:read'],
    });
    const reader = await connect((made.body as { msg: { token: string } }).msg.token);
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        (await reader.callTool({ name, arguments: args })) as Result;
      const labelled = await site.client.post(`/api/client/website/${site.id}/labels`, {
        name: 'Seen by the reader',
        color: '#aa3300',
      });
      const labelId = (labelled.body as { msg: { label: { id: string } } }).msg.label.id;
      await site.client.patch(`/api/client/website/${site.id}/request/${number}`, { labels: [labelId] });

      const read = await call('get_issue', { projectId: site.id, number });
      expect(read.isError, textOf(read)).toBeFalsy();
      expect(textOf(read)).toContain('The cart total is wrong');
      expect(textOf(read)).toContain(`Labels: ${labelId}`);
      const listed = await call('list_issues', { projectId: site.id, resolved: true, label: labelId });
      expect(listed.isError, textOf(listed)).toBeFalsy();
      // What the scope does not cover is the API's refusal, named, as before.
      const projects = await call('list_projects', {});
      expect([projects.isError, textOf(projects)]).toEqual([
        true,
        expect.stringMatching(/^INSUFFICIENT_SCOPE: /),
      ]);
    } finally {
      await reader.close();
    }
  });

  it('merges an issue into another and unmerges it (issue 37)', async () => {
    const report = (msg: string) =>
      fileReport(stack.url, site.id, 'https://shop.example', {
        fields: { msg, href: 'https://shop.example/checkout', browser: 'Chrome' },
      });
    const primary = await report('Pay button does nothing');
    const dup = await report('Cannot pay, the button is dead');
    const merged = await run('merge', { projectId: site.id, number: dup, into: primary });
    expect(merged.isError, textOf(merged)).toBeFalsy();
    expect(textOf(merged)).toBe(
      `#${dup} is now a duplicate of #${primary}. #${primary} has 2 reports; browsers: Chrome; pages: https://shop.example/checkout.`,
    );
    const chain = await run('merge', { projectId: site.id, number: primary, into: dup });
    expect([chain.isError, textOf(chain)]).toEqual([true, expect.stringMatching(/^MERGE_HAS_DUPLICATES: /)]);
    const unmerged = await run('unmerge', { projectId: site.id, number: dup });
    expect(textOf(unmerged)).toMatch(new RegExp(`^#${dup} stands alone\\. #${primary} has 1 report;`));
  });
});
