/**
 * The vendor clients (functions/integrations/vendors) against the vendor fakes (lib/local/vendors): each
 * call's auth header, body shape and uploads as the fakes record them, paging, and the mapping of vendor
 * failures to permanent or retryable. No local stack: only the four fakes on loopback.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as asana from '../../functions/integrations/vendors/asana';
import * as gitlab from '../../functions/integrations/vendors/gitlab';
import { type Http, VendorError } from '../../functions/integrations/vendors/http';
import * as jira from '../../functions/integrations/vendors/jira';
import * as slack from '../../functions/integrations/vendors/slack';
import { startVendorFakes, type VendorFakes } from '../../lib/local/vendors';
import { failure } from '../support/vendor-failure';

let fakes: VendorFakes;
const http: Http = (url, init) => fetch(url, init);
const png = { name: 'screenshot-1.png', type: 'image/png', data: new Uint8Array([137, 80, 78, 71, 1, 2, 3]) };

beforeAll(async () => {
  fakes = await startVendorFakes();
});
afterAll(async () => fakes?.stop());
beforeEach(() => fakes.reset());

/** An OAuth round trip through a fake's consent page: the "Allow" link's code and state. */
async function consent(authorizeUrl: string) {
  const page = await (await fetch(authorizeUrl)).text();
  const href = /id="allow" href="([^"]+)"/.exec(page)?.[1]?.replace(/&#38;/g, '&');
  if (!href) throw new Error('no Allow link');
  const back = new URL(href);
  return { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '', back };
}

describe('GitLab', () => {
  it('lists projects, uploads a file and creates an issue embedding it, with PRIVATE-TOKEN', async () => {
    const auth = { base: gitlab.gitlabBase('', fakes.gitlab.url), token: 'glpat-local' };
    const projects = await gitlab.listProjects(http, auth);
    expect(projects).toEqual([
      { id: '101', name: 'Snag / Website' },
      { id: '102', name: 'Snag / Shop' },
    ]);
    expect(fakes.gitlab.calls('/api/v4/projects')[0]?.query).toMatchObject({
      membership: 'true',
      simple: 'true',
      per_page: '100',
    });
    const md = await gitlab.uploadFile(http, auth, '101', png);
    expect(md).toMatch(/^!\[screenshot-1\.png\]\(\/uploads\/\w+\/screenshot-1\.png\)$/);
    const issue = await gitlab.createIssue(http, auth, '101', {
      title: 'Broken',
      description: `See\n\n${md}`,
    });
    expect(issue.iid).toBe(1);
    expect(fakes.gitlab.issues[0]?.description).toContain(md);
    expect(fakes.gitlab.uploads[0]).toMatchObject({ name: 'screenshot-1.png', size: png.data.length });
    for (const r of fakes.gitlab.requests) expect(r.headers['private-token']).toBe('glpat-local');
    expect(await gitlab.issueExists(http, auth, '101', '1')).toBe(true);
    expect(await gitlab.issueExists(http, auth, '101', '7')).toBe(false);
  });

  it('pages through more than 100 projects, up to 500', async () => {
    const auth = { base: fakes.gitlab.url, token: 'glpat-many' };
    try {
      fakes.gitlab.addProjects(248);
      const projects = await gitlab.listProjects(http, auth);
      expect(projects).toHaveLength(250);
      expect(projects.at(-1)).toEqual({ id: '1249', name: 'Snag / Project 1249' });
      expect(fakes.gitlab.calls('/api/v4/projects').map((r) => r.query.page)).toEqual(['1', '2', '3']);
      fakes.gitlab.addProjects(400);
      expect(await gitlab.listProjects(http, auth)).toHaveLength(500);
    } finally {
      fakes.gitlab.reset();
    }
  });

  it('maps a refused token and a missing project to permanent, 429 and 5xx to retryable', async () => {
    const bad = { base: fakes.gitlab.url, token: 'glpat-invalid' };
    expect((await failure(gitlab.listProjects(http, bad))).permanent).toBe(true);
    const auth = { base: fakes.gitlab.url, token: 'glpat-local' };
    const missing = await failure(gitlab.createIssue(http, auth, '999', { title: 't', description: '' }));
    expect(missing).toMatchObject({ permanent: true, details: { status: 404 } });
    fakes.gitlab.fail({
      match: /issues$/,
      reply: { status: 429, headers: { 'retry-after': '7' }, text: '' },
    });
    const limited = await failure(gitlab.createIssue(http, auth, '101', { title: 't', description: '' }));
    expect(limited).toMatchObject({ permanent: false, details: { status: 429, retryAfterSeconds: 7 } });
    fakes.gitlab.fail({ match: /issues$/, reply: { status: 503, text: '' } });
    expect(
      (await failure(gitlab.createIssue(http, auth, '101', { title: 't', description: '' }))).permanent,
    ).toBe(false);
  });

  it('refuses a host that is not an http(s) address', async () => {
    expect(() => gitlab.gitlabBase('ftp://x', fakes.gitlab.url)).toThrow(VendorError);
    expect(gitlab.gitlabBase('gitlab.example.com/', 'https://gitlab.com')).toBe('https://gitlab.example.com');
  });
});

describe('Jira', () => {
  it('lists projects and issue types, creates an ADF issue with extra fields and attaches with no-check', async () => {
    const auth = { base: jira.jiraBase(fakes.jira.url), username: 'me@example.com', token: 'api-token' };
    expect(await jira.listProjects(http, auth)).toEqual([
      { id: '10000', name: 'Website' },
      { id: '10001', name: 'Mobile app' },
    ]);
    expect((await jira.listIssueTypes(http, auth, '10000')).map((t) => t.name)).toEqual(['Bug', 'Task']);
    const created = await jira.createIssue(http, auth, {
      projectId: '10000',
      issueTypeId: '10004',
      summary: 'Broken\nbutton',
      description: jira.adf.doc([jira.adf.paragraph(jira.adf.text('It broke'))]),
      fields: jira.extraFields([
        { name: 'labels', value: '["web"]' },
        { name: 'summary', value: 'ignored' },
        { name: 'customfield_1', value: 'plain' },
      ]),
    });
    expect(created.key).toBe('WEB-1');
    const fields = fakes.jira.issues[0]?.fields ?? {};
    expect(fields).toMatchObject({
      summary: 'Broken button',
      labels: ['web'],
      customfield_1: 'plain',
      issuetype: { id: '10004' },
    });
    await jira.attach(http, auth, created.key, png);
    expect(await jira.attachedNames(http, auth, created.key)).toEqual(new Set(['screenshot-1.png']));
    const upload = fakes.jira.calls(/attachments$/)[0];
    expect(upload?.headers['x-atlassian-token']).toBe('no-check');
    expect(upload?.files).toEqual([{ field: 'file', name: 'screenshot-1.png', size: 7, type: 'image/png' }]);
    const basic = `Basic ${Buffer.from('me@example.com:api-token').toString('base64')}`;
    for (const r of fakes.jira.requests) expect(r.headers.authorization).toBe(basic);
  });

  it('maps a refused token to permanent', async () => {
    const auth = { base: fakes.jira.url, username: 'me@example.com', token: 'invalid' };
    expect(await failure(jira.listProjects(http, auth))).toMatchObject({
      permanent: true,
      details: { status: 401 },
    });
  });
});

describe('Slack', () => {
  const cfg = () => ({ apiUrl: fakes.slack.apiUrl });
  const client = () => ({ id: fakes.slack.clientId, secret: fakes.slack.clientSecret });

  it('runs the OAuth exchange with HTTP Basic, pages channels, posts blocks and uploads files', async () => {
    const redirect = 'http://localhost:3000/profile/integrations/site/slack';
    const { code, state } = await consent(
      slack.authorizeUrl(fakes.slack.authorizeUrl, fakes.slack.clientId, redirect, 'site.n.s'),
    );
    expect(state).toBe('site.n.s');
    const { accessToken } = await slack.exchangeCode(http, cfg(), client(), code, redirect);
    const exchange = fakes.slack.calls('/api/oauth.v2.access')[0];
    expect(exchange?.headers.authorization).toMatch(/^Basic /);
    expect(exchange?.body).toEqual({ code, redirect_uri: redirect });
    // A code is single-use.
    expect((await failure(slack.exchangeCode(http, cfg(), client(), code, redirect))).details.code).toBe(
      'invalid_code',
    );

    const channels = await slack.listChannels(http, cfg(), accessToken);
    expect(channels.map((c) => c.name)).toEqual(['general', 'random', 'bugs', 'announcements']);
    expect(fakes.slack.calls('/api/conversations.list').length).toBe(2);

    const ts = await slack.postMessage(http, cfg(), accessToken, {
      channel: 'C0GENERAL',
      text: 'New issue',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*New issue*' } }],
    });
    const ids = await slack.uploadFiles(http, cfg(), accessToken, [png], {
      channel: 'C0GENERAL',
      threadTs: ts,
    });
    expect(fakes.slack.messages[0]).toMatchObject({ channel: 'C0GENERAL', ts });
    expect(fakes.slack.files[0]).toMatchObject({
      id: ids[0],
      name: 'screenshot-1.png',
      uploadedBytes: 7,
      channel: 'C0GENERAL',
      threadTs: ts,
    });
    const post = fakes.slack.calls('/api/chat.postMessage')[0];
    expect(post?.headers.authorization).toBe(`Bearer ${accessToken}`);
  });

  it('maps not_in_channel, invalid_auth and channel_not_found to permanent, with how to invite the app', async () => {
    fakes.slack.tokens.add('xoxb-test');
    const notIn = await failure(
      slack.postMessage(http, cfg(), 'xoxb-test', { channel: 'C0RANDOM', text: 'x' }),
    );
    expect(notIn).toMatchObject({ permanent: true, details: { code: 'not_in_channel' } });
    expect(notIn.reason).toContain('/invite @Snag');
    const bad = await failure(slack.listChannels(http, cfg(), 'xoxb-forged'));
    expect(bad).toMatchObject({ permanent: true, details: { code: 'invalid_auth' } });
    const gone = await failure(slack.postMessage(http, cfg(), 'xoxb-test', { channel: 'C0NONE', text: 'x' }));
    expect(gone.details.code).toBe('channel_not_found');
    fakes.slack.fail({ match: 'chat.postMessage', reply: { json: { ok: false, error: 'internal_error' } } });
    expect(
      (await failure(slack.postMessage(http, cfg(), 'xoxb-test', { channel: 'C0GENERAL', text: 'x' })))
        .permanent,
    ).toBe(false);
  });
});

describe('Asana', () => {
  const cfg = () => ({ apiUrl: fakes.asana.apiUrl, oauthUrl: fakes.asana.oauthUrl });
  const client = () => ({ id: fakes.asana.clientId, secret: fakes.asana.clientSecret });

  it('exchanges a code, refreshes, lists projects, creates a task with html notes and attaches', async () => {
    const redirect = 'http://localhost:3000/profile/asana_redirect';
    const { code } = await consent(asana.authorizeUrl(cfg(), fakes.asana.clientId, redirect, 'site.n.s'));
    const tokens = await asana.exchangeCode(http, cfg(), client(), code, redirect, Date.now());
    expect(tokens.refreshToken).toBeTruthy();
    expect(fakes.asana.calls('/-/oauth_token')[0]?.body).toMatchObject({
      grant_type: 'authorization_code',
      client_id: fakes.asana.clientId,
      redirect_uri: redirect,
      code,
    });
    fakes.asana.expireAccessTokens();
    expect((await failure(asana.listProjects(http, cfg(), tokens.accessToken))).details.status).toBe(401);
    const renewed = await asana.refresh(http, cfg(), client(), tokens.refreshToken ?? '', Date.now());
    expect(renewed.refreshToken).toBe(tokens.refreshToken);
    expect(fakes.asana.calls('/-/oauth_token')[1]?.body).toMatchObject({ grant_type: 'refresh_token' });

    const projects = await asana.listProjects(http, cfg(), renewed.accessToken);
    expect(projects.map((p) => p.name)).toEqual(['Website bugs', 'Roadmap']);
    const { gid, url } = await asana.createTask(http, cfg(), renewed.accessToken, {
      projectId: projects[0]?.id ?? '',
      name: 'Broken',
      htmlNotes: '<body>It <strong>broke</strong></body>',
    });
    // The task's page, from the task record's `permalink_url`.
    expect(url).toBe(`${fakes.asana.url}/0/${projects[0]?.id}/${gid}`);
    await asana.attach(http, cfg(), renewed.accessToken, gid, png);
    expect(await asana.attachmentNames(http, cfg(), renewed.accessToken, gid)).toEqual(
      new Set(['screenshot-1.png']),
    );
    expect(fakes.asana.calls('/api/1.0/tasks')[0]?.body).toEqual({
      data: {
        name: 'Broken',
        html_notes: '<body>It <strong>broke</strong></body>',
        projects: [projects[0]?.id],
      },
    });
    expect(
      fakes.asana.calls('/api/1.0/attachments').find((r) => r.method === 'POST')?.files[0],
    ).toMatchObject({
      field: 'file',
      name: 'screenshot-1.png',
    });
  });

  it('refuses a used code and an unknown refresh token as permanent', async () => {
    const redirect = 'http://localhost:3000/profile/asana_redirect';
    expect(
      (await failure(asana.exchangeCode(http, cfg(), client(), 'nope', redirect, Date.now()))).permanent,
    ).toBe(true);
    expect((await failure(asana.refresh(http, cfg(), client(), 'nope', Date.now()))).permanent).toBe(true);
  });
});
