/**
 * GitHub (issue 24) without the local stack: the REST client (functions/integrations/vendors/github.ts)
 * and the deliverer (deliverers/github.ts) against the GitHub fake (lib/local/vendors/github.ts), which
 * checks headers and bodies as GitHub does and records what GitHub would act on (mentions, references,
 * bare links). Also the fake's own promises to the two-way sync: signed hook deliveries after a change by
 * a person or by the API, and a redelivery with the same GUID.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '#runtime/log';
import { outboundFetch } from '#runtime/outbound';
import { type DeliveryContext, PermanentFailure } from '../../functions/integrations/deliver';
import { deliverGithub, githubBody } from '../../functions/integrations/deliverers/github';
import { type DeliveryLinks, deliveryLinks } from '../../functions/integrations/delivery-context';
import type { IntegrationRecord } from '../../functions/integrations/integration';
import { verifyFileLink } from '../../functions/integrations/links';
import * as github from '../../functions/integrations/vendors/github';
import { type Http, VendorError } from '../../functions/integrations/vendors/http';
import {
  type GithubFake,
  githubActions,
  githubSignature,
  startGithubFake,
} from '../../lib/local/vendors/github';
import { hostileSteps, openedReplay, storedReplay } from '../support/reproduction';
import { failure } from '../support/vendor-failure';

let fake: GithubFake;
const http: Http = (url, init) => fetch(url, init);
let auth: github.GithubAuth;

beforeAll(async () => {
  process.env.LOG_LEVEL ??= 'silent';
  process.env.APP_ORIGIN ??= 'http://localhost:3000';
  process.env.ALTCHA_HMAC_KEY ??= 'github-test-altcha-key-0123456789';
  fake = await startGithubFake();
  process.env.GITHUB_API_URL = fake.apiUrl;
  const { resetConfig } = await import('#runtime/config');
  resetConfig();
  auth = github.githubAuth(fake.apiUrl, 'github_pat_local');
});
afterAll(async () => fake?.stop());

let links: DeliveryLinks;
beforeAll(async () => {
  links = await deliveryLinks(
    '0f8fad5b-d9cb-469f-a165-70867728950e',
    {
      screenshots: [
        { name: 's1.png', type: 'png', html: '', size: 7 },
        { name: 's2.webm', type: 'webm', html: '', size: 2_000_000 },
      ],
      files: [{ name: 'f1.pdf', original_name: '@file #9.pdf', type: 'application/pdf', size: 300 }],
    },
    deliverGithub.linkLifetimeMs,
  );
});
beforeEach(() => fake.reset());

/** A receiver for hook deliveries: records each request's headers and raw body, answers `status`. */
async function receiver(status = 200) {
  const got: { headers: Record<string, string>; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/hooks/github/h1`;
  return { url, got, close: () => new Promise<void>((done) => server.close(() => done())) };
}

describe('GitHub client', () => {
  it('lists the token’s repositories with issues on, with the Bearer token, media type and API version', async () => {
    const repos = await github.listRepos(http, auth);
    // octo-org/no-issues (issues off) and octo-org/archived (read-only) cannot take an issue.
    expect(repos).toEqual([
      { id: 'octo-org/website', name: 'octo-org/website' },
      { id: 'octo-org/shop', name: 'octo-org/shop' },
    ]);
    const [call] = fake.calls('/user/repos');
    expect(call?.headers).toMatchObject({
      authorization: 'Bearer github_pat_local',
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
    });
    expect(call?.query).toMatchObject({ per_page: '100', page: '1' });
  });

  it('pages through more than 100 repositories, up to 500', async () => {
    fake.addRepos(246);
    const repos = await github.listRepos(http, auth);
    expect(repos).toHaveLength(248);
    expect(repos.at(-1)?.id).toBe('octo-org/repo-849');
    expect(fake.calls('/user/repos').map((r) => r.query.page)).toEqual(['1', '2', '3']);
    fake.addRepos(400);
    // 650 now: five pages of 100 are read, less the two that take no issues.
    expect(await github.listRepos(http, auth)).toHaveLength(498);
    expect(
      fake
        .calls('/user/repos')
        .map((r) => r.query.page)
        .slice(3),
    ).toEqual(['1', '2', '3', '4', '5']);
  });

  it('creates an issue with title, Markdown body and labels (never the singular assignee)', async () => {
    const issue = await github.createIssue(http, auth, 'octo-org/website', {
      title: 'Broken',
      body: '**bold**',
      labels: ['bug', 'feedback'],
    });
    expect(issue).toMatchObject({
      number: 1,
      state: 'open',
      html_url: `${fake.url}/octo-org/website/issues/1`,
    });
    const [call] = fake.calls('/repos/octo-org/website/issues');
    expect(call?.body).toEqual({ title: 'Broken', body: '**bold**', labels: ['bug', 'feedback'] });
    expect(call?.headers['content-type']).toBe('application/json');
    expect(fake.issues[0]).toMatchObject({ labels: ['bug', 'feedback'], user: { login: 'snag-bot' } });
    expect(github.githubIssueNumberOf(github.githubVendorId(issue))).toBe(1);
  });

  it('maps refusals to permanent failures with reasons, and outages to retryable ones', async () => {
    const gone = await failure(
      github.createIssue(http, auth, 'octo-org/no-issues', { title: 't', body: '' }),
    );
    expect(gone).toMatchObject({ permanent: true, details: { status: 410 } });
    expect(gone.reason).toBe('GitHub issues are switched off in octo-org/no-issues (410)');
    const missing = await failure(github.createIssue(http, auth, 'octo-org/nope', { title: 't', body: '' }));
    expect(missing).toMatchObject({ permanent: true, details: { status: 404 } });
    const refused = await failure(
      github.listRepos(http, github.githubAuth(fake.apiUrl, 'github_pat_invalid')),
    );
    expect(refused).toMatchObject({ permanent: true, details: { status: 401 } });
    expect(refused.reason).toContain('refused the token');
    const archived = await failure(
      github.createIssue(http, auth, 'octo-org/archived', { title: 't', body: '' }),
    );
    expect(archived).toMatchObject({ permanent: true, details: { status: 403 } });

    fake.fail({ match: '/repos/octo-org/website/issues', reply: { status: 502, json: { message: 'Bad' } } });
    expect(
      await failure(github.createIssue(http, auth, 'octo-org/website', { title: 't', body: '' })),
    ).toMatchObject({ permanent: false, details: { status: 502 } });
    // GitHub's primary rate limit is a 403 with no requests left: waiting fixes it.
    fake.fail({
      match: '/user/repos',
      reply: {
        status: 403,
        json: { message: 'API rate limit exceeded' },
        headers: { 'x-ratelimit-remaining': '0' },
      },
    });
    expect(await failure(github.listRepos(http, auth))).toMatchObject({
      permanent: false,
      details: { status: 403 },
    });
    expect(fake.issues).toHaveLength(0);
    const closed = github.githubAuth('http://127.0.0.1:9', 'github_pat_local');
    expect(await failure(github.listRepos(http, closed))).toMatchObject({ permanent: false });
  });

  it('reads, closes, reopens and comments on an issue, and registers a repository hook', async () => {
    const hooks = await receiver();
    try {
      const created = await github.createIssue(http, auth, 'octo-org/shop', { title: 'Crash', body: 'x' });
      const hook = await github.createRepoHook(http, auth, 'octo-org/shop', {
        url: hooks.url,
        secret: 'hook-secret-0123',
      });
      expect(fake.calls('/repos/octo-org/shop/hooks')[0]?.body).toEqual({
        name: 'web',
        active: true,
        events: ['issues', 'issue_comment'],
        config: { url: hooks.url, content_type: 'json', secret: 'hook-secret-0123', insecure_ssl: '0' },
      });
      expect(fake.hooks[0]).toMatchObject({
        id: hook.id,
        contentType: 'json',
        events: ['issues', 'issue_comment'],
      });

      const closed = await github.setIssueState(http, auth, 'octo-org/shop', created.number, {
        state: 'closed',
        reason: 'not_planned',
      });
      expect(closed).toMatchObject({ state: 'closed', state_reason: 'not_planned' });
      expect(fake.calls(`/repos/octo-org/shop/issues/${created.number}`)[0]?.body).toEqual({
        state: 'closed',
        state_reason: 'not_planned',
      });
      expect((await github.getIssue(http, auth, 'octo-org/shop', created.number)).state).toBe('closed');
      const reopened = await github.setIssueState(http, auth, 'octo-org/shop', created.number, {
        state: 'open',
      });
      expect(reopened).toMatchObject({ state: 'open', state_reason: 'reopened' });
      const comment = await github.createComment(http, auth, 'octo-org/shop', created.number, 'Fixed in 1.2');
      expect(comment.id).toBeGreaterThan(0);
      expect(fake.issues[0]?.comments.map((c) => [c.user.login, c.body])).toEqual([
        ['snag-bot', 'Fixed in 1.2'],
      ]);

      // Snag's own changes come back as hooks too (after the answer), sent by the token's user: the echo
      // the sync drops.
      await fake.idle();
      const events = fake.deliveries.map((d) => `${d.event}:${d.action ?? ''}`);
      expect(events).toEqual(['ping:', 'issues:closed', 'issues:reopened', 'issue_comment:created']);
      const comments = hooks.got.filter((g) => g.headers['x-github-event'] === 'issue_comment');
      expect(JSON.parse(comments[0]?.body ?? '{}')).toMatchObject({
        action: 'created',
        comment: { body: 'Fixed in 1.2', user: { login: 'snag-bot' } },
        sender: { login: 'snag-bot' },
      });
      expect(await failure(github.getIssue(http, auth, 'octo-org/shop', 99))).toMatchObject({
        permanent: true,
        details: { status: 404 },
      });
    } finally {
      await hooks.close();
    }
  });
});

describe('GitHub fake: what a person does on github.com reaches the hooks, signed', () => {
  it('shows what it received on /_fake, with the API version and without the token or hook secret', async () => {
    await github.createIssue(http, auth, 'octo-org/website', { title: 'Seen <b>here</b>', body: 'x' });
    await github.createRepoHook(http, auth, 'octo-org/website', {
      url: 'http://127.0.0.1:9/h',
      secret: 'hook-secret-77',
    });
    const page = await (await fetch(`${fake.url}/_fake`)).text();
    expect(page).toContain('GitHub: what the local fake received');
    expect(page).toContain('POST</span> /repos/octo-org/website/issues');
    expect(page).toContain('<b>x-github-api-version</b>: 2022-11-28');
    expect(page).toContain('Bearer ••••');
    expect(page).not.toMatch(/github_pat_local|hook-secret-77|<b>here<\/b>/);
  });

  it('signs as GitHub documents (the README test vector)', () => {
    expect(githubSignature("It's a Secret to Everybody", 'Hello, World!')).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('close, reopen and comment as octo-human send issues and issue_comment deliveries; a redelivery keeps its GUID', async () => {
    const hooks = await receiver();
    try {
      const issue = await github.createIssue(http, auth, 'octo-org/website', { title: 'Crash', body: 'x' });
      await github.createRepoHook(http, auth, 'octo-org/website', { url: hooks.url, secret: 's3cret-hook' });
      const [closed] = await fake.close('octo-org/website', issue.number);
      await fake.comment('octo-org/website', issue.number, 'Done, @octo-human here');
      await fake.reopen('octo-org/website', issue.number);
      const received = hooks.got.filter((g) => g.headers['x-github-event'] !== 'ping');
      expect(received.map((g) => g.headers['x-github-event'])).toEqual(['issues', 'issue_comment', 'issues']);
      for (const g of received) {
        expect(g.headers['x-hub-signature-256']).toBe(githubSignature('s3cret-hook', g.body));
        expect(g.headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);
        expect(g.headers['content-type']).toBe('application/json');
        expect(JSON.parse(g.body)).toMatchObject({
          sender: { login: 'octo-human' },
          repository: { full_name: 'octo-org/website' },
          issue: { number: issue.number, html_url: issue.html_url },
        });
      }
      expect(JSON.parse(received[0]?.body ?? '{}')).toMatchObject({
        action: 'closed',
        issue: { state: 'closed', state_reason: 'completed' },
      });
      expect(JSON.parse(received[2]?.body ?? '{}')).toMatchObject({
        action: 'reopened',
        issue: { state: 'open' },
      });
      const again = await fake.redeliver(closed?.guid ?? '');
      expect(again).toMatchObject({ guid: closed?.guid, redelivery: true, status: 200 });
      expect(hooks.got.at(-1)?.body).toBe(received[0]?.body);
      expect(hooks.got.at(-1)?.headers['x-github-delivery']).toBe(closed?.guid);
    } finally {
      await hooks.close();
    }
  });
});

/** A report written to act in the customer's GitHub: mentions, references, a cross-repo link, a fence breakout. */
const hostile = {
  title: '@octo-org/everyone #1 octo-org/shop#2 https://github.com/octo-org/shop/issues/3',
  msg: [
    'Broken page, cc @octo-human @octo-org/owners',
    'Same as #1 and GH-2 and octo-org/shop#3',
    'See https://github.com/octo-org/shop/issues/4 and www.example.com',
    '````',
    '@escaped-from-the-fence #5',
    '```',
    '`` @in-a-span ``',
  ].join('\n'),
  data: {
    username: '@reporter-mention',
    href: 'https://github.com/octo-org/shop/issues/6',
    customFields: [{ name: '@field #7', value: 'line\n@value #8 `tick` www.evil.example' }],
  },
};

function context(
  integration: IntegrationRecord<'github'>,
  over: Partial<DeliveryContext<'github'>['issue']> = {},
) {
  const png = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
  const ctx: DeliveryContext<'github'> = {
    issue: {
      number: 7,
      title: 'Checkout button does nothing',
      createdAt: '2026-11-23T20:00:00.000Z',
      msg: 'I click <Pay> and *nothing* happens.',
      data: { username: 'visitor@example.com', href: 'https://shop.example/checkout', browser: 'Chrome' },
      files: [],
      screenshots: [],
      logs: [],
      steps: [],
      replay: null,
      sentAt: null,
      ...over,
    },
    project: { id: '0f8fad5b-d9cb-469f-a165-70867728950e' } as DeliveryContext['project'],
    integration,
    issueUrl: 'http://localhost:3000/profile/site/0f8fad5b-d9cb-469f-a165-70867728950e/ticket/7',
    // Signed as the delivery signs them, for as long as the GitHub deliverer declares.
    ...links,
    readObject: async () => png,
    log: createLogger({}),
    http: outboundFetch({ allowLocal: true }),
    recordVendorId: async () => {},
    deliveryId: 'p:7:github',
    attempt: 1,
    correlationId: 'test',
  };
  return ctx;
}

const rec = (data: Partial<IntegrationRecord<'github'>['data']>): IntegrationRecord<'github'> => ({
  name: 'github',
  active: 1,
  authorized: 1,
  data: { key: 'github_pat_local', id: 'octo-org/website', labels: [], ...data },
});

async function permanent(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PermanentFailure);
  return (err as PermanentFailure).reason;
}

describe('GitHub deliverer', () => {
  it('creates one issue with the description, facts, image, recording and file links, labels and the Snag link', async () => {
    const out = await deliverGithub(context(rec({ labels: ['feedback', 'from-snag'] })));
    expect(out.vendorId).toBe(`${fake.url}/octo-org/website/issues/1`);
    const [issue] = fake.issues;
    expect(issue?.title).toBe('#\u20607 Checkout button does nothing');
    expect(issue?.labels).toEqual(['feedback', 'from-snag']);
    const body = issue?.body ?? '';
    expect(body).toContain('```text\nI click <Pay> and *nothing* happens.\n```');
    expect(body).toContain('- **Page:** ` https://shop.example/checkout `');
    expect(body).toMatch(/!\[Screenshot 1\]\(http:\/\/localhost:3000\/api\/files\/[\w.-]+\)/);
    expect(body).toMatch(/- \[Recording 2 \(1\.9 MB\)\]\(http:\/\/localhost:3000\/api\/files\/[\w.-]+\)/);
    expect(body).toContain('` @file #9.pdf ` (1 KB)');
    expect(body).toContain(`[Open the report in Snag](${context(rec({})).issueUrl})`);
    // The links are signed again to last a year, not the delivery's short default.
    const token = /!\[Screenshot 1\]\(http:\/\/localhost:3000\/api\/files\/([\w.-]+)\)/.exec(body)?.[1] ?? '';
    const claim = await verifyFileLink(token);
    expect(claim).toMatchObject({ p: '0f8fad5b-d9cb-469f-a165-70867728950e', k: 'screenshot', n: 's1.png' });
    const days = ((claim?.e ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);
    expect(body).toContain('work for 365 days');
  });

  it('a retry with the recorded issue creates nothing', async () => {
    const ctx = { ...context(rec({})), vendorId: `${fake.url}/octo-org/website/issues/4` };
    // The recorded id is the issue's html_url: its link too.
    expect(await deliverGithub(ctx)).toEqual({ vendorId: ctx.vendorId, url: ctx.vendorId });
    expect(fake.requests).toHaveLength(0);
  });

  it('fails permanently with a reason on a refused token, a missing repository, issues switched off, or no setup', async () => {
    expect(await permanent(deliverGithub(context(rec({ key: 'github_pat_invalid' }))))).toContain(
      'GitHub refused the token (401)',
    );
    expect(await permanent(deliverGithub(context(rec({ id: 'octo-org/gone' }))))).toContain('(404');
    expect(await permanent(deliverGithub(context(rec({ id: 'octo-org/no-issues' }))))).toBe(
      'GitHub issues are switched off in octo-org/no-issues (410)',
    );
    expect(await permanent(deliverGithub(context(rec({ id: '' }))))).toBe(
      'GitHub is not set up: choose a repository',
    );
    expect(fake.issues).toHaveLength(0);
  });

  it('retries (throws a retryable error) when GitHub is down', async () => {
    fake.fail({ match: '/repos/octo-org/website/issues', reply: { status: 503, json: { message: 'down' } } });
    const err = await deliverGithub(context(rec({}))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VendorError);
    expect(err).not.toBeInstanceOf(PermanentFailure);
    expect((err as VendorError).permanent).toBe(false);
  });
});

describe("visitor text cannot act in the customer's GitHub", () => {
  it('the fake sees what GitHub would act on in a naive body (so the next test can fail)', () => {
    const naive = githubActions(`- Page: ${hostile.data.href}\n\n${hostile.msg}`);
    expect(naive.mentions).toEqual(expect.arrayContaining(['@octo-human', '@octo-org/owners']));
    expect(naive.references).toEqual(expect.arrayContaining(['#1', 'GH-2', 'octo-org/shop#3']));
    expect(naive.autolinks).toEqual(expect.arrayContaining(['https://github.com/octo-org/shop/issues/6']));
  });

  it('nobody is mentioned, no issue referenced and nothing autolinked; the text is still all there', async () => {
    await deliverGithub(context(rec({}), hostile));
    const [issue] = fake.issues;
    expect(issue?.actions).toEqual({ mentions: [], references: [], autolinks: [] });
    // Read as text (the word joiners are invisible), the visitor's words are unchanged.
    const shown = (issue?.body ?? '').replace(/\u2060/g, '');
    for (const line of hostile.msg.split('\n')) expect(shown).toContain(line);
    expect(shown).toContain('@reporter-mention');
    expect(shown).toContain('https://github.com/octo-org/shop/issues/6');
    expect(shown).toContain('@value #8 `tick` www.evil.example');
    expect((issue?.title ?? '').replace(/\u2060/g, '')).toBe(`#7 ${hostile.title}`);
  });

  it('steps act on nothing either (labels in code spans, numbered), and the replay link opens its recording', async () => {
    const createdAt = '2026-11-23T20:00:00.000Z';
    const replay = storedReplay(createdAt);
    const signed = await deliveryLinks(
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      { screenshots: [], files: [], replay },
      deliverGithub.linkLifetimeMs,
    );
    const ctx = { ...context(rec({}), { steps: hostileSteps(createdAt), replay }), replay: signed.replay };
    await deliverGithub(ctx);
    const [issue] = fake.issues;
    expect(issue?.actions).toEqual({ mentions: [], references: [], autolinks: [] });
    const body = issue?.body ?? '';
    expect(body).toContain(
      [
        '### Steps to reproduce',
        '',
        '1. Loaded the page ` https://shop.example/checkout ` (40 s before the report)',
        '2. Clicked ` @channel <!here> @all ` (30 s before the report)',
        '3. Clicked ` [x](javascript:alert(1)) ` (20 s before the report)',
        '4. Changed the field ` #1 GH-2 octo-org/shop#3 ENG-4 ` (15 s before the report)',
        '5. Clicked ` **Pay now** <b>bold</b> <https://evil.example|Reset> ` (12 s before the report)',
        '6. Went to ` /cart /close ` (5 s before the report)',
        '7. Opened the feedback widget (1 s before the report)',
      ].join('\n'),
    );
    const url = signed.replay?.url ?? '';
    expect(body).toContain(
      `[Watch the replay](${url}): The last 60 s on the page before the report; the link works for 365 days.`,
    );
    expect(await openedReplay(url)).toEqual({
      projectId: '0f8fad5b-d9cb-469f-a165-70867728950e',
      name: replay.name,
    });
    // Signed for the year a GitHub issue keeps its links.
    const expires = Number(url.split('.').at(-2)) * 1000;
    expect((expires - Date.now()) / 86_400_000).toBeGreaterThan(364);
  });

  it('without steps or a replay the body has neither heading nor link', async () => {
    const body = githubBody(context(rec({})), { screenshots: [], files: [], replay: null });
    expect(body).toBe(
      [
        '```text\nI click <Pay> and *nothing* happens.\n```',
        '',
        '- **Page:** ` https://shop.example/checkout `',
        '- **Reporter:** ` visitor@example.com `',
        '- **Device:** ` Chrome `',
        '',
        `Links to screenshots and files work for 365 days. [Open the report in Snag](${context(rec({})).issueUrl})`,
      ].join('\n'),
    );
  });

  it('a fence in the text cannot close the quote, however long', () => {
    const body = githubBody(context(rec({}), { msg: '``````\n@x #1\n``````' }), {
      screenshots: [],
      files: [],
    });
    expect(githubActions(body)).toEqual({ mentions: [], references: [], autolinks: [] });
    expect(body.startsWith('```````text\n')).toBe(true);
  });
});
