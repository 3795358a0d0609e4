/**
 * ClickUp's pure rules: the client's requests as ClickUp's spec has them (paths, the personal token
 * without `Bearer`, bodies with the spec's required fields and no field it lacks), the visitor's text inert
 * in the task's Markdown (hostile text: mentions, links, HTML, invisible characters), the status chosen to
 * close or reopen, and the webhook's `X-Signature` (the README's computed vector) with its staleness.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  clickupCode,
  clickupFenced,
  clickupPlain,
  clickupTaskName,
  clickupText,
} from '../../../functions/integrations/deliverers/clickup';
import {
  CLICKUP_TOLERANCE_MS,
  clickupAdapter,
  clickupSignature,
  verifyClickupSignature,
} from '../../../functions/integrations/sync/clickup';
import * as clickup from '../../../functions/integrations/vendors/clickup';
import type { Http } from '../../../functions/integrations/vendors/http';
import { clickupActions } from '../../../lib/local/vendors/clickup';

const spec = JSON.parse(
  readFileSync(
    // Copied from ../shared/api-specs/clickup into test/fixtures so that a clone alone runs the suite.
    new URL('../../fixtures/clickup/clickup-api-v2-reference.EXCERPTS.json', import.meta.url),
    'utf8',
  ),
) as {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: {
          content: Record<string, { schema: { required?: string[]; properties: Record<string, unknown> } }>;
        };
      }
    >
  >;
};

/** The spec's JSON request schema of an operation. */
const requestSchema = (path: string, method: string) =>
  spec.paths[path]?.[method]?.requestBody?.content['application/json']?.schema;

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}
/** An `Http` that records each request and answers `answer(url)`. */
function recorder(answer: (url: string, method: string) => unknown) {
  const sent: Sent[] = [];
  const http: Http = async (input, init = {}) => {
    const url = String(input);
    const method = init.method ?? 'GET';
    const body =
      typeof init.body === 'string'
        ? JSON.parse(init.body)
        : init.body instanceof FormData
          ? init.body
          : undefined;
    sent.push({ url, method, headers: init.headers as Record<string, string>, body });
    return new Response(JSON.stringify(answer(url, method)), {
      headers: { 'content-type': 'application/json' },
    });
  };
  return { sent, http };
}

const auth = clickup.clickupAuth('https://api.clickup.com/api/', 'pk_123_ABC');

describe('the ClickUp client against the spec', () => {
  it('sends the personal token as is (no Bearer) and creates a task with the spec body', async () => {
    const { sent, http } = recorder(() => ({ id: '9hx', url: 'https://app.clickup.com/t/9hx' }));
    const task = await clickup.createTask(http, auth, '124', { name: 'Bug', markdown: '**x**' });
    expect(task).toEqual({ id: '9hx', url: 'https://app.clickup.com/t/9hx' });
    const [req] = sent;
    expect(req?.url).toBe('https://api.clickup.com/api/v2/list/124/task');
    expect(req?.method).toBe('POST');
    expect(req?.headers.authorization).toBe('pk_123_ABC');
    const schema = requestSchema('/v2/list/{list_id}/task', 'post');
    const body = req?.body as Record<string, unknown>;
    for (const f of schema?.required ?? []) expect(body, f).toHaveProperty(f);
    expect(Object.keys(body).filter((k) => !(k in (schema?.properties ?? {})))).toEqual([]);
    expect(body.markdown_content).toBe('**x**');
  });

  it('comments and registers webhooks with every field the spec requires, and reads the secret', async () => {
    const { sent, http } = recorder((url) =>
      url.endsWith('/webhook')
        ? { id: 'w1', webhook: { id: 'w1', secret: 'S'.repeat(64), health: { status: 'active' } } }
        : { id: '458', hist_id: '26508', date: 1 },
    );
    expect(await clickup.createComment(http, auth, '9hx', 'hello')).toBe('458');
    expect(
      await clickup.createWebhook(http, auth, { teamId: '9001', listId: '124', endpoint: 'https://s/h' }),
    ).toEqual({ id: 'w1', secret: 'S'.repeat(64) });
    const [comment, hook] = sent;
    expect(comment?.url).toBe('https://api.clickup.com/api/v2/task/9hx/comment');
    expect(hook?.url).toBe('https://api.clickup.com/api/v2/team/9001/webhook');
    for (const [req, path] of [
      [comment, '/v2/task/{task_id}/comment'],
      [hook, '/v2/team/{team_id}/webhook'],
    ] as const) {
      const schema = requestSchema(path, 'post');
      const body = req?.body as Record<string, unknown>;
      for (const f of schema?.required ?? []) expect(body, `${path} ${f}`).toHaveProperty(f);
      expect(Object.keys(body).filter((k) => !(k in (schema?.properties ?? {})))).toEqual([]);
    }
    const hookBody = hook?.body as { list_id: unknown; events: string[] };
    expect(hookBody.list_id).toBe(124);
    expect(hookBody.events).toEqual(['taskStatusUpdated', 'taskCommentPosted']);
  });

  it('attaches one file in the multipart field `attachment`', async () => {
    const { sent, http } = recorder(() => ({ id: 'a.png' }));
    await clickup.attachFile(http, auth, '9hx', {
      name: 'shot.png',
      type: 'image/png',
      data: new Uint8Array([1]),
    });
    const form = sent[0]?.body as FormData;
    expect(sent[0]?.url).toBe('https://api.clickup.com/api/v2/task/9hx/attachment');
    expect((form.get('attachment') as File).name).toBe('shot.png');
  });

  it('lists every list by its path, folders and folderless, keyed workspace/list', async () => {
    const { http } = recorder((url) => {
      if (url.endsWith('/v2/team')) return { teams: [{ id: '1', name: 'Agency' }] };
      if (url.includes('/team/1/space')) return { spaces: [{ id: 2, name: 'Clients' }] };
      if (url.includes('/space/2/folder')) return { folders: [{ id: '3', name: 'Web' }] };
      if (url.includes('/folder/3/list')) return { lists: [{ id: '4', name: 'Bugs' }] };
      return { lists: [{ id: '5', name: 'Inbox' }] };
    });
    expect(await clickup.listLists(http, auth)).toEqual([
      { id: '1/4', name: 'Agency / Clients / Web / Bugs' },
      { id: '1/5', name: 'Agency / Clients / Inbox' },
    ]);
    expect(clickup.parseListChoice('1/4')).toEqual({ teamId: '1', listId: '4' });
    expect(clickup.parseListChoice('../4')).toBeNull();
  });

  it('closes with the first closed (or done) status and reopens with the first other one', () => {
    const s = (status: string, type: string, orderindex: number) => ({ status, type, orderindex });
    const all = [
      s('to do', 'open', 0),
      s('doing', 'custom', 1),
      s('shipped', 'done', 2),
      s('closed', 'closed', 3),
    ];
    expect(clickup.statusFor(all, true)).toBe('shipped');
    expect(clickup.statusFor(all, false)).toBe('to do');
    expect(clickup.statusFor([s('to do', 'open', 0)], true)).toBeNull();
    expect(clickup.taskUrl('https://api.clickup.com/api', '9hx')).toBe('https://app.clickup.com/t/9hx');
  });
});

describe('visitor text in ClickUp Markdown', () => {
  const hostile = [
    '@everyone look',
    '<@123> and @here',
    '[x](javascript:alert(1))',
    '<img src=x onerror=alert(1)> <script>alert(1)</script>',
    '[Click](https://evil.example) ![i](https://evil.example/p.png)',
    '@\u200Beveryone and [a\u200B](javascript:x) and &#64;all',
    '```\n@all\n```\n[y](javascript:y)',
  ];

  it.each(hostile)('the message in a fence acts on nothing: %s', (text) => {
    expect(clickupActions(clickupFenced(text))).toEqual({ mentions: [], links: [] });
  });

  it.each(hostile)('a one-line value in a code span acts on nothing: %s', (text) => {
    expect(clickupActions(`- **Page:** ${clickupCode(text)}`)).toEqual({ mentions: [], links: [] });
  });

  it.each(hostile)('a link text stays text, and its link is the only one: %s', (text) => {
    const md = `- [${clickupText(text)}](https://snag.example/f)`;
    expect(clickupActions(md)).toEqual({ mentions: [], links: ['https://snag.example/f'] });
    expect(clickupText(text)).not.toMatch(/\u200B|\u200C|\u200D|\u202E|\uFEFF/);
  });

  it('without the neutraliser the same text would mention and link (the check can fail)', () => {
    expect(clickupActions('@everyone [x](javascript:alert)')).toEqual({
      mentions: ['@everyone'],
      links: ['javascript:alert'],
    });
  });

  it('names and plain comments carry no mention and no invisible character', () => {
    expect(clickupPlain('hi @everyone\u200B')).toBe('hi @\u2060everyone');
    const name = clickupTaskName({ number: 3, title: '@all \u202Eevil', msg: '' } as never);
    expect(name).toBe('#3 @\u2060all evil');
  });
});

describe('ClickUp webhook signatures', () => {
  const now = 1_760_000_000_000;
  const body = (date: number) =>
    JSON.stringify({
      event: 'taskStatusUpdated',
      webhook_id: 'w1',
      task_id: '9hx',
      history_items: [
        { id: '2800', date: String(date), field: 'status', user: { id: 42, username: 'Jane' } },
      ],
    });

  it('matches the README vector (hex HMAC-SHA256 of the raw body)', () => {
    const raw = '{"webhook_id":"7689a169-a000-4985-8676-6902b96d6627","event":"taskCreated","task_id":"c0j"}';
    expect(clickupSignature('secret', raw)).toBe(
      '4830bf524f6e29a3e8da953936c6f21c1fea2b9669b825d3e1be293ef3416c8c',
    );
  });

  it('is ok when signed and recent, forged when any byte or the secret differs, stale when old', () => {
    const raw = body(now - 1000);
    const sig = clickupSignature('s3cret', raw);
    expect(verifyClickupSignature(sig, 's3cret', raw, now)).toBe('ok');
    expect(verifyClickupSignature(sig.toUpperCase(), 's3cret', raw, now)).toBe('ok');
    expect(verifyClickupSignature(sig, 'other', raw, now)).toBe('forged');
    expect(verifyClickupSignature(sig, 's3cret', `${raw} `, now)).toBe('forged');
    expect(verifyClickupSignature(undefined, 's3cret', raw, now)).toBe('forged');
    expect(verifyClickupSignature(`sha256=${sig}`, 's3cret', raw, now)).toBe('forged');
    const old = body(now - CLICKUP_TOLERANCE_MS - 1);
    expect(verifyClickupSignature(clickupSignature('s3cret', old), 's3cret', old, now)).toBe('stale');
    const undated = '{"event":"taskStatusUpdated","webhook_id":"w1","history_items":[]}';
    expect(verifyClickupSignature(clickupSignature('s3cret', undated), 's3cret', undated, now)).toBe('stale');
  });

  it('reduces a status change and a comment; ignores other events; refuses what is not ClickUp', () => {
    const integration = { data: { key: 'pk_1', id: '9001/124' } } as never;
    expect(clickupAdapter.parse(JSON.parse(body(now)), {}, integration)).toMatchObject({
      kind: 'state',
      issue: '9hx',
      deliveryId: 'w1:2800',
      author: { id: '42', name: 'Jane' },
    });
    const comment = {
      event: 'taskCommentPosted',
      webhook_id: 'w1',
      task_id: '9hx',
      history_items: [
        {
          id: '2801',
          date: '1',
          comment: { id: 77, text_content: 'Fixed', user: { id: 42, username: 'Jane' } },
        },
      ],
    };
    expect(clickupAdapter.parse(comment, {}, integration)).toMatchObject({
      kind: 'comment',
      comment: { id: '77', body: 'Fixed' },
    });
    expect(clickupAdapter.parse({ ...comment, event: 'taskTagUpdated' }, {}, integration)).toBeNull();
    expect(() => clickupAdapter.parse({ event: 'x' }, {}, integration)).toThrow();
    expect(() =>
      clickupAdapter.parse({ ...comment, history_items: [{ id: '1' }] }, {}, integration),
    ).toThrow();
  });
});
