/**
 * The vendor authorisation endpoints (functions/handlers/vendors.ts) through the local stack, against the
 * vendor fakes: GitLab and Jira project lists that authorise and save at once, Slack and Asana OAuth with
 * the signed state (forged, replayed, other-session and other-site states refused), channel and project
 * lists (Asana refreshing an expired token), the plan gate, and another client refused on every route.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { startVendorFakes, type VendorFakes } from '../../lib/local/vendors';
import { ApiClient, type ApiReply } from '../support/api-client';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';

let fakes: VendorFakes;
const stack = setUpTestStack(async () => {
  fakes = await startVendorFakes();
  return { env: { SNAG_OUTBOUND_ALLOW_LOCAL: '1', ...fakes.env } };
});
let site: Site;
let password = '';
let stranger: ApiClient;

/** A Starter client with one project, keeping the password for a second sign-in. */
async function starterSite(): Promise<Site> {
  const signed = await signedIn(stack.url);
  password = signed.password;
  const created = await signed.client.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  const id = (created.body as { msg: { id: string } }).msg.id;
  await signed.client.post('/api/dev/plan', { username: signed.email, plan: 'BASIC_PLAN', days: 30 });
  return { client: signed.client, email: signed.email, id };
}

beforeAll(async () => {
  site = await starterSite();
  stranger = (await newSite(stack.url, 'BUSINESS_PLAN')).client;
});

afterAll(async () => {
  await fakes?.stop();
});

beforeEach(() => fakes.reset());

const codeOf = (r: ApiReply) => (r.body as { code?: string }).code;
// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions themselves.
const msgOf = (r: ApiReply): any => (r.body as { msg?: unknown }).msg;

async function integration(projectId: string, name: string) {
  const out = await db().send(
    new GetCommand({
      TableName: stack.tableName,
      Key: { pk: `PROJECT#${projectId}`, sk: `INTEGRATION#${name}` },
    }),
  );
  return out.Item;
}

/** The consent page's "Allow" link, followed as the browser would: the code and state it brings back. */
async function consent(url: string) {
  const page = await (await fetch(url)).text();
  const href = /id="allow" href="([^"]+)"/.exec(page)?.[1]?.replace(/&#38;/g, '&') ?? '';
  const back = new URL(href);
  return { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '', back };
}

describe('GitLab projects', () => {
  it('lists the projects with the token, authorises, saves the token and preselects the first project', async () => {
    const res = await site.client.post('/api/client/integration/gitlab/projects', {
      siteId: site.id,
      host: '',
      key: 'glpat-local-token',
    });
    expect(res.status).toBe(200);
    expect(msgOf(res)).toEqual([
      { id: '101', name: 'Snag / Website' },
      { id: '102', name: 'Snag / Shop' },
    ]);
    expect(fakes.gitlab.requests[0]?.headers['private-token']).toBe('glpat-local-token');
    expect(await integration(site.id, 'gitlab')).toMatchObject({
      authorized: 1,
      data: { key: 'glpat-local-token', id: '101' },
    });
    // The masked token the dashboard reads back means the stored one.
    const again = await site.client.post('/api/client/integration/gitlab/projects', {
      siteId: site.id,
      key: '••••oken',
    });
    expect(again.status).toBe(200);
    expect(fakes.gitlab.requests[1]?.headers['private-token']).toBe('glpat-local-token');
  });

  it('answers a 4xx for the client’s mistakes: TOKEN_REFUSED for a refused token, AUTHORIZATION_FAILED for a refused host', async () => {
    const bad = await site.client.post('/api/client/integration/gitlab/projects', {
      siteId: site.id,
      key: 'glpat-invalid',
    });
    expect(fakes.gitlab.requests.at(-1)?.path).toBe('/api/v4/projects');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'TOKEN_REFUSED',
      msg: 'The token was refused. Please check it (and for Jira the username) and try again',
    });
    const german = await site.client.post('/api/client/integration/gitlab/projects?lng=de', {
      siteId: site.id,
      key: 'glpat-invalid',
    });
    expect((german.body as { msg: string }).msg).toMatch(/^Das Token wurde abgelehnt/);
    const privateHost = await site.client.post('/api/client/integration/gitlab/projects', {
      siteId: site.id,
      host: 'https://10.0.0.1',
      key: 'glpat-local-token',
    });
    expect([privateHost.status, codeOf(privateHost)]).toEqual([400, 'AUTHORIZATION_FAILED']);
  });

  it('answers VENDOR_UNAVAILABLE (502) only when GitLab itself is out of order', async () => {
    fakes.gitlab.fail({ match: '/api/v4/projects', reply: { status: 503, text: 'down' } });
    const res = await site.client.post('/api/client/integration/gitlab/projects', {
      siteId: site.id,
      key: 'glpat-local-token',
    });
    expect([res.status, codeOf(res)]).toEqual([502, 'VENDOR_UNAVAILABLE']);
  });
});

describe('Jira projects', () => {
  it('lists projects and issue types with basic auth, authorises and saves', async () => {
    const res = await site.client.post('/api/client/integration/jira/projects', {
      siteId: site.id,
      host: fakes.jira.url,
      username: 'me@example.com',
      key: 'jira-api-token',
    });
    expect(res.status).toBe(200);
    expect(msgOf(res)).toEqual({
      projects: [
        { id: '10000', name: 'Website' },
        { id: '10001', name: 'Mobile app' },
      ],
      issueTypes: [
        { id: '10004', name: 'Bug' },
        { id: '10002', name: 'Task' },
      ],
    });
    expect(fakes.jira.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('me@example.com:jira-api-token').toString('base64')}`,
    );
    expect(await integration(site.id, 'jira')).toMatchObject({
      authorized: 1,
      data: {
        host: fakes.jira.url,
        username: 'me@example.com',
        key: 'jira-api-token',
        id: '10000',
        issueId: '10004',
      },
    });
  });

  it('answers TOKEN_REFUSED (400) for a refused token', async () => {
    const res = await site.client.post('/api/client/integration/jira/projects', {
      siteId: site.id,
      host: fakes.jira.url,
      username: 'me@example.com',
      key: 'invalid',
    });
    expect(fakes.jira.requests).toHaveLength(1);
    expect([res.status, codeOf(res)]).toEqual([400, 'TOKEN_REFUSED']);
  });
});

describe.each(['slack', 'asana'] as const)('%s OAuth', (vendor) => {
  const base = `/api/client/integration/${vendor}`;

  async function authorise(client: ApiClient = site.client) {
    const res = await client.get(`${base}/authorize/${site.id}`);
    expect(res.status).toBe(200);
    const { url, state, redirectUrl } = msgOf(res);
    expect(state.split('.')[0]).toBe(site.id);
    expect(redirectUrl).toBe(`${stack.url}/profile/${vendor}_redirect`);
    const back = await consent(url);
    expect(back.state).toBe(state);
    expect(back.back.origin + back.back.pathname).toBe(redirectUrl);
    return { code: back.code, state, redirectUrl };
  }

  it('exchanges the code once, stores the tokens server-side only, and lists the channels or projects', async () => {
    const { code, state, redirectUrl } = await authorise();
    const res = await site.client.post(`${base}/authentication/${site.id}`, { code, state, redirectUrl });
    expect(res.status).toBe(200);
    const view = msgOf(res).integrations.find((i: { name: string }) => i.name === vendor);
    expect(view).toMatchObject({ authorized: 1 });
    expect(JSON.stringify(res.body)).not.toMatch(/xoxb-|asana-access-|asana-refresh-/);
    expect((await integration(site.id, vendor))?.oauth?.accessToken).toBeTruthy();

    // The same state again (a replay) is refused, even with a fresh code.
    const replay = await site.client.post(`${base}/authentication/${site.id}`, {
      code: 'other',
      state,
      redirectUrl,
    });
    expect(codeOf(replay)).toBe('AUTHORIZATION_FAILED');

    if (vendor === 'asana') fakes.asana.expireAccessTokens();
    const list = await site.client.get(`${base}/channels/${site.id}`);
    expect(list.status).toBe(200);
    expect(msgOf(list).map((c: { name: string }) => c.name)).toEqual(
      vendor === 'slack' ? ['general', 'random', 'bugs', 'announcements'] : ['Website bugs', 'Roadmap'],
    );
    if (vendor === 'asana') {
      // The expired token was refreshed once and the new one stored.
      expect(fakes.asana.calls('/-/oauth_token').at(-1)?.body).toMatchObject({ grant_type: 'refresh_token' });
      const stored = await integration(site.id, 'asana');
      expect(fakes.asana.accessTokens.get(stored?.oauth?.accessToken)).toBeGreaterThan(Date.now());
    }
  });

  it('refuses a forged state, another session’s state, a state for another site and a wrong redirect', async () => {
    const { code, state, redirectUrl } = await authorise();
    const [s, nonce, exp, sig] = state.split('.');
    const forged = `${s}.${nonce}.${Number(exp) + 3600}.${sig}`;
    const exchange = (body: Record<string, string>) =>
      site.client.post(`${base}/authentication/${site.id}`, body).then(codeOf);
    expect(await exchange({ code, state: forged, redirectUrl })).toBe('AUTHORIZATION_FAILED');
    expect(await exchange({ code, state: 'x.y', redirectUrl })).toBe('AUTHORIZATION_FAILED');
    expect(await exchange({ code, state, redirectUrl: 'https://evil.example/cb' })).toBe(
      'AUTHORIZATION_FAILED',
    );

    // The same account signed in in another browser: its session did not ask for this state.
    const other = new ApiClient(stack.url);
    const login = await other.post('/api/client/login', { _username: site.email, _password: password });
    expect(login.status).toBe(200);
    const elsewhere = await other.post(`${base}/authentication/${site.id}`, { code, state, redirectUrl });
    expect(codeOf(elsewhere)).toBe('AUTHORIZATION_FAILED');

    // A state issued for another project of the same client.
    const second = await site.client.post<{ id: string }>('/api/client/website', {
      name: 'Two',
      url: 'two.example',
    });
    const secondId = (second.body as { msg: { id: string } }).msg.id;
    const res = await site.client.post(`${base}/authentication/${secondId}`, { code, state, redirectUrl });
    expect(codeOf(res)).toBe('AUTHORIZATION_FAILED');

    // The untouched state still works once: nothing above used it up.
    const ok = await site.client.post(`${base}/authentication/${site.id}`, { code, state, redirectUrl });
    expect(ok.status).toBe(200);
  });
});

describe('owner scope and plan gate', () => {
  const routes = (id: string) =>
    [
      ['POST', '/api/client/integration/gitlab/projects', { siteId: id, key: 'glpat-local' }],
      [
        'POST',
        '/api/client/integration/jira/projects',
        { siteId: id, host: 'x.example', username: 'a@b.c', key: 'k' },
      ],
      ['GET', `/api/client/integration/slack/authorize/${id}`],
      [
        'POST',
        `/api/client/integration/slack/authentication/${id}`,
        { code: 'c', state: `${id}.a.b.c`, redirectUrl: '' },
      ],
      ['GET', `/api/client/integration/slack/channels/${id}`],
      ['GET', `/api/client/integration/asana/authorize/${id}`],
      [
        'POST',
        `/api/client/integration/asana/authentication/${id}`,
        { code: 'c', state: `${id}.a.b.c`, redirectUrl: '' },
      ],
      ['GET', `/api/client/integration/asana/channels/${id}`],
      ['DELETE', `/api/client/integration/gitlab/authentication/${id}`],
      ['DELETE', `/api/client/integration/slack/authentication/${id}`],
    ] as const;

  it('refuses another signed-in client on every route (404, nothing sent to a vendor)', async () => {
    for (const [method, path, body] of routes(site.id)) {
      const res = await stranger.call(method, path, body);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    expect(fakes.gitlab.requests).toHaveLength(0);
    expect(fakes.jira.requests).toHaveLength(0);
  });

  it('answers INTEGRATION_NOT_AVAILABLE on a plan without integrations (a reset stays possible)', async () => {
    const free = await newSite(stack.url, 'FREE_PLAN');
    for (const [method, path, body] of routes(free.id)) {
      if (method === 'DELETE') {
        expect((await free.client.call(method, path)).status).toBe(200);
        continue;
      }
      const res = await free.client.call(method, path, body);
      expect({ path, code: codeOf(res) }).toEqual({ path, code: 'INTEGRATION_NOT_AVAILABLE' });
    }
  });

  it('needs a session', async () => {
    const anonymous = new ApiClient(stack.url);
    expect((await anonymous.get(`/api/client/integration/slack/channels/${site.id}`)).status).toBe(401);
  });
});

describe('reset', () => {
  it('returns Slack to unauthorised with active 0 and forgets its tokens; then the channel list fails', async () => {
    const { url, state, redirectUrl } = msgOf(
      await site.client.get(`/api/client/integration/slack/authorize/${site.id}`),
    );
    const back = await consent(url);
    await site.client.post(`/api/client/integration/slack/authentication/${site.id}`, {
      code: back.code,
      state,
      redirectUrl,
    });
    expect((await integration(site.id, 'slack'))?.oauth).toBeDefined();
    const res = await site.client.delete(`/api/client/integration/slack/authentication/${site.id}`);
    expect(res.status).toBe(200);
    expect(msgOf(res).integrations.find((i: { name: string }) => i.name === 'slack')).toMatchObject({
      authorized: 0,
      active: 0,
    });
    const stored = await integration(site.id, 'slack');
    expect(stored).toMatchObject({ authorized: 0, active: 0, data: { id: '' } });
    expect(stored?.oauth).toBeUndefined();
    expect(codeOf(await site.client.get(`/api/client/integration/slack/channels/${site.id}`))).toBe(
      'AUTHORIZATION_FAILED',
    );
  });

  it('clears the GitLab token', async () => {
    await site.client.post('/api/client/integration/gitlab/projects', {
      siteId: site.id,
      key: 'glpat-reset',
    });
    await site.client.delete(`/api/client/integration/gitlab/authentication/${site.id}`);
    expect(await integration(site.id, 'gitlab')).toMatchObject({
      authorized: 0,
      active: 0,
      data: { key: '', id: '' },
    });
  });
});

describe('one {vendor} route per call (the catalogue names the vendors)', () => {
  it('answers NOT_FOUND, never a 500, for a vendor the call does not serve', async () => {
    const exchange = { code: 'c', state: `${site.id}.a.b.c`, redirectUrl: '' };
    const calls = [
      ['GET', `/api/client/integration/gitlab/authorize/${site.id}`],
      ['POST', `/api/client/integration/github/authentication/${site.id}`, exchange],
      ['GET', `/api/client/integration/jira/channels/${site.id}`],
      ['DELETE', `/api/client/integration/email/authentication/${site.id}`],
      ['DELETE', `/api/client/integration/webhooks/authentication/${site.id}`],
      ['DELETE', `/api/client/integration/basecamp/authentication/${site.id}`],
      ['GET', `/api/client/integration/SLACK/authorize/${site.id}`],
    ] as const;
    for (const [method, path, body] of calls) {
      const res = await site.client.call(method, path, body);
      expect({ path, status: res.status, code: codeOf(res) }).toEqual({
        path,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
  });

  it("lists each token vendor's choices on its own URL; another vendor's list or one without is NOT_FOUND", async () => {
    const body = { siteId: site.id, key: 'glpat-local-token' };
    const calls = [
      '/api/client/integration/slack/projects',
      '/api/client/integration/asana/projects',
      '/api/client/integration/email/projects',
      '/api/client/integration/webhooks/teams',
      '/api/client/integration/gitlab/repos',
      '/api/client/integration/github/projects',
      '/api/client/integration/linear/projects',
      '/api/client/integration/basecamp/boards',
      '/api/client/integration/GITLAB/projects',
      `/api/client/integration/sync/${site.id}`,
    ];
    for (const path of calls) {
      const res = await site.client.post(path, body);
      expect({ path, status: res.status, code: codeOf(res) }).toEqual({
        path,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    expect(fakes.gitlab.requests).toEqual([]);
    // The body is the vendor's: GitLab's fields list GitLab's projects, and are short of Jira's.
    const gitlab = await site.client.post('/api/client/integration/gitlab/projects', body);
    expect(gitlab.status).toBe(200);
    expect(msgOf(gitlab)).toHaveLength(2);
    const jira = await site.client.post('/api/client/integration/jira/projects', body);
    expect(jira.body).toMatchObject({
      code: 'INVALID_PARAMETERS',
      fields: { host: 'INVALID_PARAMETERS', username: 'INVALID_PARAMETERS' },
    });
  });

  it('resets every vendor on its own URL, clearing what its catalogue row names', async () => {
    const cleared = {
      gitlab: { key: '', id: '' },
      jira: { key: '', id: '', issueId: '' },
      slack: { id: '', name: '' },
      asana: { id: '', name: '' },
      github: { key: '', id: '' },
      linear: { key: '', id: '', name: '' },
    };
    for (const [vendor, data] of Object.entries(cleared)) {
      const res = await site.client.delete(`/api/client/integration/${vendor}/authentication/${site.id}`);
      expect({ vendor, status: res.status }).toEqual({ vendor, status: 200 });
      expect(await integration(site.id, vendor)).toMatchObject({ authorized: 0, active: 0, data });
    }
  });
});

describe('a stored secret stays with its receiver', () => {
  const save = (entry: unknown) => site.client.patch(`/api/client/integration/${site.id}`, [entry]);
  const fieldsOf = (r: ApiReply) => (r.body as { fields?: Record<string, string> }).fields;

  it('GitLab: the masked token with another host is refused, naming the token, and that host receives nothing', async () => {
    const first = await site.client.post('/api/client/integration/gitlab/projects', {
      siteId: site.id,
      host: fakes.gitlab.url,
      key: 'glpat-stays-here',
    });
    expect(first.status).toBe(200);
    const before = fakes.gitlab.requests.length;
    // The same fake under another name: it would show the token if it were sent there.
    const elsewhere = fakes.gitlab.url.replace('127.0.0.1', 'localhost');
    const moved = await site.client.post('/api/client/integration/gitlab/projects', {
      siteId: site.id,
      host: elsewhere,
      key: '••••here',
    });
    expect([moved.status, codeOf(moved), fieldsOf(moved)]).toEqual([
      400,
      'INVALID_PARAMETERS',
      { key: 'SECRET_REQUIRED' },
    ]);
    const saved = await save({
      name: 'gitlab',
      active: 1,
      authorized: 1,
      data: { host: elsewhere, key: '••••here', id: '101' },
    });
    expect([saved.status, fieldsOf(saved)]).toEqual([400, { 'data.key': 'SECRET_REQUIRED' }]);
    expect(fakes.gitlab.requests).toHaveLength(before);
    expect((await integration(site.id, 'gitlab'))?.data).toMatchObject({
      host: fakes.gitlab.url,
      key: 'glpat-stays-here',
    });

    // The same host written another way is the same receiver; a token typed again may go anywhere.
    const same = await site.client.post('/api/client/integration/gitlab/projects', {
      siteId: site.id,
      host: `${fakes.gitlab.url.toUpperCase().replace('HTTP', 'http')}/`,
      key: '••••here',
    });
    expect(same.status).toBe(200);
    expect(fakes.gitlab.requests.at(-1)?.headers['private-token']).toBe('glpat-stays-here');
    const retyped = await site.client.post('/api/client/integration/gitlab/projects', {
      siteId: site.id,
      host: elsewhere,
      key: 'glpat-typed-again',
    });
    expect(retyped.status).toBe(200);
  });

  it('Jira: a changed host or username with the masked token is refused; nothing reaches either host', async () => {
    const auth = { siteId: site.id, host: fakes.jira.url, username: 'me@example.com' };
    const ok = await site.client.post('/api/client/integration/jira/projects', {
      ...auth,
      key: 'jira-token-secret',
    });
    expect(ok.status).toBe(200);
    const jiraCalls = fakes.jira.requests.length;
    const gitlabCalls = fakes.gitlab.requests.length;
    for (const change of [{ host: fakes.gitlab.url }, { username: 'attacker@example.com' }]) {
      const res = await site.client.post('/api/client/integration/jira/projects', {
        ...auth,
        ...change,
        key: '••••cret',
      });
      expect([res.status, fieldsOf(res)]).toEqual([400, { key: 'SECRET_REQUIRED' }]);
      const saved = await save({
        name: 'jira',
        active: 1,
        authorized: 1,
        data: {
          host: fakes.jira.url,
          username: 'me@example.com',
          id: '10000',
          issueId: '10004',
          ...change,
          key: '••••cret',
        },
      });
      expect([saved.status, fieldsOf(saved)]).toEqual([400, { 'data.key': 'SECRET_REQUIRED' }]);
    }
    expect(fakes.jira.requests).toHaveLength(jiraCalls);
    expect(fakes.gitlab.requests).toHaveLength(gitlabCalls);
    expect((await integration(site.id, 'jira'))?.data).toMatchObject({
      host: fakes.jira.url,
      username: 'me@example.com',
      key: 'jira-token-secret',
    });
  });

  it('webhooks: a new URL with the masked token is refused and nothing stored changes', async () => {
    const first = await save({
      name: 'webhooks',
      active: 1,
      data: { url: 'https://a.example/hook', token: 'whsec-token-0123456789' },
    });
    expect(first.status).toBe(200);
    const moved = await save({
      name: 'webhooks',
      active: 1,
      data: { url: 'https://b.example/hook', token: '••••6789' },
    });
    expect([moved.status, codeOf(moved), fieldsOf(moved)]).toEqual([
      400,
      'INVALID_PARAMETERS',
      { 'data.token': 'SECRET_REQUIRED' },
    ]);
    expect((await integration(site.id, 'webhooks'))?.data).toEqual({
      url: 'https://a.example/hook',
      token: 'whsec-token-0123456789',
    });
    const kept = await save({
      name: 'webhooks',
      active: 0,
      data: { url: 'https://a.example/hook', token: '••••6789' },
    });
    expect(kept.status).toBe(200);
    expect((await integration(site.id, 'webhooks'))?.data).toMatchObject({ token: 'whsec-token-0123456789' });
  });
});

describe('SPEC’s integration shape (section 3: active and authorized inside data)', () => {
  it('saves a SPEC-shaped integration and answers in that shape, keeping the dashboard’s fields', async () => {
    const res = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'email', data: { active: 1, email: 'team@shop.example', cc: [], contactFields: [] } },
    ]);
    expect(res.status).toBe(200);
    const email = msgOf(res).integrations.find((i: { name: string }) => i.name === 'email');
    expect(email).toEqual({
      name: 'email',
      active: 1,
      authorized: 0,
      available: true,
      data: { active: 1, authorized: 0, email: 'team@shop.example', cc: [], contactFields: [] },
    });
    expect(await integration(site.id, 'email')).toMatchObject({
      active: 1,
      data: { email: 'team@shop.example', cc: [], contactFields: [] },
    });
    // The project read answers the same shape; GitLab's token stays masked in it.
    const project = msgOf(await site.client.get(`/api/client/website/${site.id}`));
    for (const i of project.integrations)
      expect(i.data).toMatchObject({ active: i.active, authorized: i.authorized });

    // The dashboard's shape still works, and a flag in neither place is refused by name.
    const old = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'email', active: 0, data: { email: 'team@shop.example' } },
    ]);
    expect(old.status).toBe(200);
    expect((await integration(site.id, 'email'))?.active).toBe(0);
    const none = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'email', data: { email: 'team@shop.example' } },
    ]);
    expect([none.status, codeOf(none), (none.body as { fields?: object }).fields]).toEqual([
      400,
      'INVALID_PARAMETERS',
      { '0.data.active': 'INVALID_PARAMETERS' },
    ]);
  });
});

describe('a key an HTTP header cannot carry', () => {
  // A snowman (outside Latin-1), a line break inside, a null byte: each a pasted mistake, none sendable.
  const unsendable = ['glpat-\u2603-token', 'glpat-one\ntwo', 'glpat-\u0000'];
  const calls = [
    ['gitlab/projects', { host: '' }],
    ['github/repos', {}],
    ['linear/teams', {}],
    ['jira/projects', { host: 'jira.example.com', username: 'me@example.com' }],
  ] as const;

  it.each(calls)('%s: 400 INVALID_PARAMETERS on key, nothing sent to the vendor', async (path, rest) => {
    const sent = fakes.gitlab.requests.length + fakes.jira.requests.length;
    for (const key of unsendable) {
      const res = await site.client.post(`/api/client/integration/${path}`, {
        siteId: site.id,
        ...rest,
        key,
      });
      expect(
        [res.status, codeOf(res), (res.body as { fields?: object }).fields],
        JSON.stringify(key),
      ).toEqual([400, 'INVALID_PARAMETERS', { key: 'INVALID_PARAMETERS' }]);
    }
    expect(fakes.gitlab.requests.length + fakes.jira.requests.length).toBe(sent);
  });

  it('the settings save refuses it on data.key too', async () => {
    const res = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'gitlab', active: 0, authorized: 0, data: { host: '', key: 'glpat-\u2603', id: '' } },
    ]);
    expect([res.status, codeOf(res), (res.body as { fields?: object }).fields]).toEqual([
      400,
      'INVALID_PARAMETERS',
      { '0.data.key': 'INVALID_PARAMETERS' },
    ]);
  });
});
