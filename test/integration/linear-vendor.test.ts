/**
 * Linear's client (functions/integrations/vendors/linear.ts) and deliverer (deliverers/linear.ts) against
 * the Linear fake (lib/local/vendors/linear.ts), which validates every request against Linear's published
 * schema excerpt: the bare API key in Authorization, the mutation inputs as Linear receives them, the
 * visitor's text neutralised, a retry that creates nothing twice, GraphQL errors and outages mapped to
 * permanent or retryable, and the two-way sync's calls (state, close/reopen, comment, webhook) with the
 * signed deliveries the fake's control calls send. No local stack.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createLogger } from '#runtime/log';
import { outboundFetch } from '#runtime/outbound';
import { type DeliveryContext, PermanentFailure } from '../../functions/integrations/deliver';
import { deliverLinear, linearIssueId } from '../../functions/integrations/deliverers/linear';
import { deliveryLinks } from '../../functions/integrations/delivery-context';
import type { IntegrationRecord } from '../../functions/integrations/integration';
import { type Http, VendorError } from '../../functions/integrations/vendors/http';
import * as linear from '../../functions/integrations/vendors/linear';
import { type LinearFake, startLinearFake } from '../../lib/local/vendors/linear';
import { hostileSteps, openedReplay, storedReplay } from '../support/reproduction';
import { failure } from '../support/vendor-failure';

let fake: LinearFake;
const http: Http = (url, init) => fetch(url, init);
const KEY = 'lin_api_localtestkey0123456789';
const auth = () => ({ url: fake.apiUrl, key: KEY });

beforeAll(async () => {
  process.env.LOG_LEVEL ??= 'silent';
  process.env.APP_ORIGIN ??= 'http://localhost:3000';
  process.env.ALTCHA_HMAC_KEY ??= 'linear-test-altcha-key-0123456789';
  fake = await startLinearFake();
  process.env.LINEAR_API_URL = fake.apiUrl;
  const { resetConfig } = await import('#runtime/config');
  resetConfig();
});
afterAll(async () => fake?.stop());
beforeEach(() => fake.reset());

const graphqlCalls = () =>
  fake.calls('/graphql').map((r) => r.body as { query: string; variables: Record<string, unknown> });

describe('Linear client', () => {
  it('checks the key and lists teams with the bare key (no Bearer) in Authorization', async () => {
    expect(await linear.viewer(http, auth())).toEqual({ id: fake.viewer.id, name: 'Snag Tester' });
    expect(await linear.listTeams(http, auth())).toEqual([
      { id: fake.teams[0]?.id, name: 'Engineering (ENG)' },
      { id: fake.teams[1]?.id, name: 'Operations (OPS)' },
    ]);
    for (const r of fake.calls('/graphql')) {
      expect(r.headers.authorization).toBe(KEY);
      expect(r.headers['content-type']).toBe('application/json');
    }
  });

  it('pages the team list by cursor', async () => {
    fake.addTeams(150);
    const teams = await linear.listTeams(http, auth());
    expect(teams).toHaveLength(152);
    expect(new Set(teams.map((t) => t.id)).size).toBe(152);
    const calls = graphqlCalls();
    expect(calls).toHaveLength(2);
    expect(calls[0]?.variables.after).toBeNull();
    expect(calls[1]?.variables.after).toBe(teams[99]?.id);
  });

  it('a refused key is a permanent authentication error; a Bearer token is refused too', async () => {
    const refused = await failure(linear.viewer(http, { url: fake.apiUrl, key: 'lin_api_invalid' }));
    expect(refused.permanent).toBe(true);
    expect(refused.details.code).toBe('AUTHENTICATION_ERROR');
    expect(refused.reason).toMatch(/refused the API key/);
    const bearer = await failure(linear.viewer(http, { url: fake.apiUrl, key: `Bearer ${KEY}` }));
    expect(bearer.details.code).toBe('AUTHENTICATION_ERROR');
  });

  it('HTTP 200 with errors, success: false, 5xx, rate limits and a dead endpoint map as they should', async () => {
    fake.fail({
      match: '/graphql',
      reply: { json: { data: null, errors: [{ message: 'Boom', extensions: { type: 'internal error' } }] } },
    });
    expect((await failure(linear.viewer(http, auth()))).permanent).toBe(false);
    fake.fail({
      match: '/graphql',
      reply: {
        json: {
          errors: [
            { message: 'x', extensions: { type: 'invalid input', userPresentableMessage: 'Bad title' } },
          ],
        },
      },
    });
    const invalid = await failure(linear.viewer(http, auth()));
    expect(invalid.permanent).toBe(true);
    expect(invalid.reason).toContain('Bad title');
    fake.fail({
      match: '/graphql',
      reply: { json: { data: { issueCreate: { success: false, issue: null } } } },
    });
    const declined = await failure(
      linear.createIssue(http, auth(), { teamId: fake.teams[0]?.id ?? '', title: 't', description: '' }),
    );
    expect(declined.permanent).toBe(true);
    expect(declined.reason).toMatch(/success: false/);
    fake.fail({ match: '/graphql', reply: { status: 503, text: 'down' } });
    expect((await failure(linear.viewer(http, auth()))).permanent).toBe(false);
    fake.fail({
      match: '/graphql',
      reply: {
        status: 400,
        json: { errors: [{ message: 'slow down', extensions: { code: 'RATELIMITED' } }] },
      },
    });
    const limited = await failure(linear.viewer(http, auth()));
    expect([limited.permanent, limited.details.code]).toEqual([false, 'RATELIMITED']);
    const gone = await failure(linear.viewer(http, { url: 'http://127.0.0.1:9/graphql', key: KEY }));
    expect(gone.permanent).toBe(false);
  });

  it('the fake holds the client to the schema: an unknown field is refused', async () => {
    const err = await failure(
      linear.linearCall(http, auth(), { query: '{ viewer { id shoeSize } }' }, 'user', z.unknown()),
    );
    expect(err.permanent).toBe(true);
    expect(err.reason).toMatch(/shoeSize/);
  });

  it('reads, closes and reopens an issue through its team states, comments, and registers a webhook', async () => {
    const team = fake.teams[0]?.id ?? '';
    const created = await linear.createIssue(http, auth(), {
      teamId: team,
      title: 'Sync me',
      description: 'x',
    });
    const found = await linear.findIssue(http, auth(), created.identifier);
    expect(found).toMatchObject({ id: created.id, teamId: team, state: { type: 'unstarted', name: 'Todo' } });
    expect(await linear.findIssue(http, auth(), 'ENG-999')).toBeNull();
    const states = await linear.teamStates(http, auth(), team);
    expect(states.map((s) => s.type)).toEqual(['backlog', 'unstarted', 'started', 'completed', 'canceled']);
    expect(linear.stateFor(states, false)?.name).toBe('Done');
    expect(linear.stateFor(states, true)?.name).toBe('Todo');

    expect(await linear.setIssueOpen(http, auth(), created.id, false)).toBe(true);
    expect((await linear.findIssue(http, auth(), created.id))?.state.type).toBe('completed');
    expect(await linear.setIssueOpen(http, auth(), created.id, false)).toBe(false);
    const update = graphqlCalls().find((c) => c.query.includes('issueUpdate'));
    expect(update?.variables).toEqual({
      id: created.id,
      input: { stateId: linear.stateFor(states, false)?.id },
    });
    expect(await linear.setIssueOpen(http, auth(), created.id, true)).toBe(true);
    expect((await linear.findIssue(http, auth(), created.id))?.state.type).toBe('unstarted');

    const comment = await linear.createComment(http, auth(), created.id, 'Fixed in Snag');
    expect(fake.comments).toEqual([expect.objectContaining({ id: comment.id, body: 'Fixed in Snag' })]);

    const hook = await linear.createWebhook(http, auth(), {
      url: 'https://snag.example/api/hooks/linear/h1',
      teamId: team,
      secret: 'hook-secret',
    });
    expect(hook.enabled).toBe(true);
    expect(fake.webhooks).toEqual([
      expect.objectContaining({ teamId: team, secret: 'hook-secret', resourceTypes: ['Issue', 'Comment'] }),
    ]);
    const member = await failure(
      linear.createWebhook(
        http,
        { url: fake.apiUrl, key: 'lin_api_member' },
        { url: 'https://x.example', teamId: team, secret: 's' },
      ),
    );
    expect([member.permanent, member.details.code]).toEqual([true, 'FORBIDDEN']);
  });
});

describe('Linear fake webhooks (for the two-way sync)', () => {
  let server: Server;
  let receiverUrl = '';
  const received: { headers: Record<string, string | string[] | undefined>; raw: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('a state change and a comment by Lin Human reach the registered webhook, signed', async () => {
    received.length = 0;
    const team = fake.teams[0]?.id ?? '';
    await linear.createWebhook(http, auth(), { url: receiverUrl, teamId: team, secret: 'shh' });
    const issue = await linear.createIssue(http, auth(), { teamId: team, title: 'Loop', description: '' });
    await new Promise((r) => setTimeout(r, 50));
    received.length = 0;
    const todo = fake.teams[0]?.states.find((s) => s.type === 'unstarted')?.id;

    const control = await fetch(`${fake.url}/_fake/issues/${issue.identifier}/state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'completed' }),
    });
    expect(control.status).toBe(200);
    await fetch(`${fake.url}/_fake/issues/${issue.identifier}/comments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Shipped' }),
    });
    expect(received).toHaveLength(2);
    for (const r of received) {
      expect(r.headers['linear-signature']).toBe(createHmac('sha256', 'shh').update(r.raw).digest('hex'));
      const body = JSON.parse(r.raw);
      expect(Math.abs(Date.now() - body.webhookTimestamp)).toBeLessThan(60_000);
      expect(body.actor).toMatchObject({ name: 'Lin Human', type: 'user' });
    }
    const [state, comment] = received.map((r) => JSON.parse(r.raw));
    expect(state).toMatchObject({
      action: 'update',
      type: 'Issue',
      data: { id: issue.id, state: { type: 'completed', name: 'Done' } },
      updatedFrom: { stateId: todo },
    });
    expect(comment).toMatchObject({
      action: 'create',
      type: 'Comment',
      data: { body: 'Shipped', issueId: issue.id, userId: fake.human.id },
    });
  });
});

/** A report written to act in Linear: mentions, issue references, formatting, a fence breaker. */
const hostileMsg = [
  '@everyone look at ENG-1 and OPS-2',
  '**bold** [phish](https://evil.example) ![x](https://evil.example/x.png)',
  '```',
  '@admin inside a fence the visitor closed',
  '~~~',
].join('\n');

function context(data: Record<string, unknown>, extra: Partial<DeliveryContext<'linear'>> = {}) {
  const recorded: string[] = [];
  const ctx: DeliveryContext<'linear'> = {
    issue: {
      number: 7,
      title: 'Checkout button does nothing',
      createdAt: '2026-11-23T20:00:00.000Z',
      msg: hostileMsg,
      data: {
        username: '@boss',
        href: 'https://shop.example/checkout?ref=ENG-3',
        browser: 'Chrome',
        browserVersion: '130',
        os: 'Linux',
        customFields: [{ name: 'Note', value: 'ask @cto `about` OPS-9\n**now**' }],
      },
      files: [],
      screenshots: [],
      logs: [],
      steps: [],
      replay: null,
      sentAt: null,
    },
    project: { id: '0f8fad5b-d9cb-469f-a165-70867728950e' } as DeliveryContext['project'],
    integration: { name: 'linear', active: 1, authorized: 1, data } as IntegrationRecord<'linear'>,
    issueUrl: 'http://localhost:3000/profile/website/x/request/7',
    screenshots: [
      { name: 's1.png', label: 'screenshot-1.png', type: 'png', size: 10, url: 'http://s3.local/s1?sig=1' },
    ],
    files: [
      {
        name: 'f1.pdf',
        label: 'in@voice [1].pdf',
        type: 'application/pdf',
        size: 10,
        url: 'http://s3.local/f1',
      },
    ],
    replay: null,
    readObject: async () => new Uint8Array(),
    log: createLogger({}),
    http: outboundFetch({ allowLocal: true }),
    recordVendorId: async (id) => {
      recorded.push(id);
    },
    deliveryId: '0f8fad5b-d9cb-469f-a165-70867728950e:7:linear',
    attempt: 1,
    correlationId: 'test',
    ...extra,
  };
  return { ctx, recorded };
}

describe('Linear deliverer', () => {
  const data = () => ({ key: KEY, id: fake.teams[0]?.id ?? '', name: 'Engineering (ENG)' });

  it('creates one issue in the chosen team, neutralises the visitor text, attaches the links', async () => {
    const { ctx, recorded } = context(data());
    const out = await deliverLinear(ctx);
    expect(fake.issues).toHaveLength(1);
    const issue = fake.issues[0];
    expect(out.vendorId).toBe(`${issue?.id} ENG-1 ${issue?.url}`);
    expect(recorded).toEqual([out.vendorId]);
    expect(issue?.id).toBe(linearIssueId(ctx.deliveryId, data().id));
    expect(issue?.title).toBe('#7 Checkout button does nothing');
    // Nothing of the visitor's reaches Linear where it would notify, link issues or render.
    expect(issue?.mentions).toEqual([]);
    expect(issue?.references).toEqual([]);
    expect(issue?.images).toEqual(['http://s3.local/s1?sig=1']);
    expect(issue?.description).toContain('@everyone look at ENG-1');
    expect(issue?.description).toContain('[in@\u2060voice \\[1\\].pdf](http://s3.local/f1)');
    expect(issue?.description).toContain('[Open in Snag](http://localhost:3000/profile/website/x/request/7)');
    const create = graphqlCalls().find((c) => c.query.includes('issueCreate'));
    expect(create?.variables.input).toEqual({
      id: issue?.id,
      teamId: data().id,
      title: '#7 Checkout button does nothing',
      description: issue?.description,
    });
    expect(fake.attachments.map((a) => [a.title, a.url])).toEqual([
      ['screenshot-1.png', 'http://s3.local/s1?sig=1'],
      ['Snag issue #7', 'http://localhost:3000/profile/website/x/request/7'],
    ]);
    for (const r of fake.calls('/graphql')) expect(r.headers.authorization).toBe(KEY);
    // The address Snag keeps for "Open in Linear" opens the issue's page on the fake (`npm start`).
    const page = await fetch(issue?.url ?? '');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<h1>#7 Checkout button does nothing ENG-1</h1>');
  });

  it('steps in code spans (no mention, no ENG-4 reference, no link) and the replay link', async () => {
    const { ctx } = context(data());
    const { createdAt } = ctx.issue;
    const replay = storedReplay(createdAt);
    ctx.issue = { ...ctx.issue, steps: hostileSteps(createdAt), replay };
    ctx.replay = (await deliveryLinks(ctx.project.id, { screenshots: [], files: [], replay })).replay;
    await deliverLinear(ctx);
    const issue = fake.issues[0];
    expect(issue?.mentions).toEqual([]);
    expect(issue?.references).toEqual([]);
    expect(issue?.images).toEqual(['http://s3.local/s1?sig=1']);
    expect(issue?.description).toContain(
      '### Steps to reproduce\n\n1. Loaded the page ` https://shop.example/checkout `',
    );
    expect(issue?.description).toContain(
      '4. Changed the field ` #1 GH-2 octo-org/shop#3 ENG-4 ` (15 s before the report)',
    );
    const url = ctx.replay?.url ?? '';
    expect(issue?.description).toContain(`[Watch the replay](${url}): The last 60 s`);
    expect(await openedReplay(url)).toEqual({ projectId: ctx.project.id, name: replay.name });
  });

  it('a retry creates nothing twice: with the recorded id, and after an outcome nobody recorded', async () => {
    const first = context(data());
    const out = await deliverLinear(first.ctx);
    // The consumer recorded the id: the retry only completes the links (the signed URL is new each time).
    const retry = context(data(), {
      vendorId: out.vendorId as string,
      screenshots: [
        { ...first.ctx.screenshots[0], url: 'http://s3.local/s1?sig=2' } as DeliveryContext['screenshots'][0],
      ],
    });
    expect(await deliverLinear(retry.ctx)).toEqual(out);
    // Nobody recorded it (the attempt died after Linear created it): the derived id finds it.
    const unknown = context(data(), { attempt: 2 });
    expect(await deliverLinear(unknown.ctx)).toEqual(out);
    expect(unknown.recorded).toEqual([out.vendorId]);
    expect(fake.issues).toHaveLength(1);
    expect(fake.attachments).toHaveLength(2);
    expect(graphqlCalls().filter((c) => c.query.includes('issueCreate'))).toHaveLength(1);
  });

  it('fails permanently with a reason for a refused key or a missing team; an outage is retried', async () => {
    const reason = async (p: Promise<unknown>) => {
      const err = await p.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(PermanentFailure);
      return (err as PermanentFailure).reason;
    };
    expect(await reason(deliverLinear(context({ ...data(), key: 'lin_api_invalid' }).ctx))).toMatch(
      /refused the API key/,
    );
    expect(await reason(deliverLinear(context({ ...data(), id: '' }).ctx))).toMatch(/choose a team/);
    expect(await reason(deliverLinear(context({ ...data(), key: '' }).ctx))).toMatch(/API key/);
    expect(
      await reason(deliverLinear(context({ ...data(), id: '00000000-0000-4000-8000-00000000ffff' }).ctx)),
    ).toMatch(/Could not find referenced Team/);
    fake.fail({ match: '/graphql', times: 2, reply: { status: 502, text: 'bad gateway' } });
    const err = await deliverLinear(context(data()).ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(VendorError);
    expect(err).not.toBeInstanceOf(PermanentFailure);
    expect(fake.issues).toHaveLength(0);
  });
});
