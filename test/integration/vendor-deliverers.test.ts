/**
 * The GitLab, Jira, Slack and Asana deliverers (functions/integrations/deliverers/) against the
 * vendor fakes, with a hand-built DeliveryContext (the delivery consumer builds the real one): what each
 * vendor receives, that a retry with the recorded id creates nothing twice and continues a half-done
 * delivery, and the permanent failures with their user-visible reasons. No local stack.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IntegrationName } from '#contracts/integrations';
import { createLogger } from '#runtime/log';
import { outboundFetch } from '#runtime/outbound';
import type { DeliveryContext } from '../../functions/integrations/deliver';
import { PermanentFailure } from '../../functions/integrations/deliver';
import { deliverAsana } from '../../functions/integrations/deliverers/asana';
import { deliverGitlab } from '../../functions/integrations/deliverers/gitlab';
import { deliverJira } from '../../functions/integrations/deliverers/jira';
import { deliverSlack, slackBlocks } from '../../functions/integrations/deliverers/slack';
import { deliveryLinks } from '../../functions/integrations/delivery-context';
import type { IntegrationRecord } from '../../functions/integrations/integration';
import { readReplayLinkToken } from '../../functions/issues/replay-link';
import { startVendorFakes, type VendorFakes } from '../../lib/local/vendors';
import { hostileStepSentences, hostileSteps, openedReplay, storedReplay } from '../support/reproduction';

let fakes: VendorFakes;
const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4]);
const pdf = new Uint8Array(300).fill(37);

beforeAll(async () => {
  process.env.LOG_LEVEL ??= 'silent';
  process.env.APP_ORIGIN ??= 'http://localhost:3000';
  process.env.ALTCHA_HMAC_KEY ??= 'deliverers-test-altcha-key-0123';
  fakes = await startVendorFakes();
  Object.assign(process.env, fakes.env);
  const { resetConfig } = await import('#runtime/config');
  resetConfig();
});
afterAll(async () => fakes?.stop());
beforeEach(() => fakes.reset());

/** A report written to act in the customer's tools: commands, mass mentions, a disguised link. */
const hostile = {
  title: '<!channel> @all <https://evil.example/login|Reset your password>',
  msg: [
    'Broken page',
    '/close',
    '/label ~wontfix',
    '/assign @boss',
    '@all please look <!here> <@U012345>',
    '```',
    '/close',
    '```',
    '~~~',
    '/lock',
  ].join('\n'),
  data: {
    username: '@all',
    href: 'https://shop.example/\n/close',
    customFields: [{ name: 'Note', value: 'line\n/assign @boss\n<!everyone>' }],
  },
};

/** A context as the consumer builds it, recording what the deliverer records. */
function context<N extends IntegrationName>(integration: IntegrationRecord<N>, vendorId?: string) {
  const recorded: string[] = [];
  const urls: (string | undefined)[] = [];
  const ctx: DeliveryContext<N> = {
    issue: {
      number: 7,
      title: 'Checkout button does nothing',
      createdAt: '2026-11-23T20:00:00.000Z',
      msg: 'I click <Pay> and *nothing* happens.\n\nTried twice.',
      data: {
        username: 'visitor@example.com',
        href: 'https://shop.example/checkout',
        browser: 'Chrome',
        browserVersion: '130',
        os: 'Linux',
        deviceType: 'Desktop',
        customFields: [{ name: 'Order', value: 'A-17' }],
      },
      files: [],
      screenshots: [],
      logs: [],
      steps: [],
      replay: null,
      sentAt: null,
    },
    project: { id: '0f8fad5b-d9cb-469f-a165-70867728950e' } as DeliveryContext['project'],
    integration,
    issueUrl: 'http://localhost:3000/profile/website/x/request/7',
    screenshots: [
      { name: 's1.png', label: 'screenshot-1.png', type: 'png', size: png.length, url: 'http://s3/s1' },
    ],
    files: [
      {
        name: 'f1.pdf',
        label: 'invoice.pdf',
        type: 'application/pdf',
        size: pdf.length,
        url: 'http://s3/f1',
      },
    ],
    replay: null,
    readObject: async (name) => (name === 's1.png' ? png : pdf),
    log: createLogger({}),
    http: outboundFetch({ allowLocal: true }),
    ...(vendorId ? { vendorId } : {}),
    recordVendorId: async (id, url) => {
      recorded.push(id);
      urls.push(url);
    },
    deliveryId: 'p:7:x',
    attempt: 1,
    correlationId: 'test',
  };
  return { ctx, recorded, urls };
}

const rec = <N extends IntegrationName>(name: N, data: unknown, oauth?: IntegrationRecord['oauth']) =>
  ({ name, active: 1, authorized: 1, data, ...(oauth ? { oauth } : {}) }) as IntegrationRecord<N>;

/** A Jira integration of the fake's project, with `customFields` (none by default). */
const jiraRecord = (customFields: { name: string; value: string }[] = []) =>
  rec('jira', {
    host: fakes.jira.url,
    username: 'me@example.com',
    key: 'api-token',
    id: '10000',
    issueId: '10004',
    customFields,
  });

/** Every node of an ADF document, depth first. */
function adfNodes(doc: unknown): Record<string, unknown>[] {
  const nodes: Record<string, unknown>[] = [];
  const walk = (n: unknown) => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object') {
      nodes.push(n as Record<string, unknown>);
      Object.values(n).forEach(walk);
    }
  };
  walk(doc);
  return nodes;
}

async function permanent(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PermanentFailure);
  return (err as PermanentFailure).reason;
}

describe('GitLab deliverer', () => {
  const gitlab = () => rec('gitlab', { host: '', key: 'glpat-local', id: '101' });

  it('uploads the screenshot, creates one issue embedding it, and a retry creates nothing', async () => {
    const { ctx } = context(gitlab());
    const out = await deliverGitlab(ctx);
    // The created issue's page, GitLab's `web_url`, for the issue page's link.
    expect(out).toEqual({ vendorId: '1', url: `${fakes.gitlab.url}/snag/website/-/issues/1` });
    const issue = fakes.gitlab.issues[0];
    expect(issue?.title).toBe('#7 Checkout button does nothing');
    expect(issue?.description).toContain(fakes.gitlab.uploads[0]?.url);
    expect(issue?.description).toContain('[invoice.pdf](http://s3/f1)');
    expect(issue?.description).toContain('```text\nI click <Pay> and *nothing* happens.');
    expect(fakes.gitlab.uploads).toEqual([
      expect.objectContaining({ name: 'screenshot-1.png', size: png.length }),
    ]);

    const retry = context(gitlab(), out.vendorId);
    expect(await deliverGitlab(retry.ctx)).toEqual({ vendorId: '1' });
    expect(fakes.gitlab.issues).toHaveLength(1);
  });

  it('fails permanently on a refused token or a missing project, with a reason', async () => {
    expect(
      await permanent(
        deliverGitlab(context(rec('gitlab', { host: '', key: 'glpat-invalid', id: '101' })).ctx),
      ),
    ).toMatch(/refused the token/);
    expect(
      await permanent(deliverGitlab(context(rec('gitlab', { host: '', key: 'glpat-x', id: '999' })).ctx)),
    ).toMatch(/could not find/);
  });
});

describe('Jira deliverer', () => {
  const jira = () => jiraRecord([{ name: 'labels', value: '["snag"]' }]);

  it('creates an ADF issue, records its key before attaching, and a retry only attaches what is missing', async () => {
    // The second attachment fails once: the first attempt records the key, then fails.
    fakes.jira.fail({ match: /attachments$/, reply: { status: 503, text: 'busy' } });
    const first = context(jira());
    await expect(deliverJira(first.ctx)).rejects.toThrow();
    expect(first.recorded).toEqual(['WEB-1']);
    // Recorded with the key: the issue's page on the site (Jira answers only its REST `self`).
    expect(first.urls).toEqual([`${fakes.jira.url}/browse/WEB-1`]);
    expect(fakes.jira.issues[0]?.fields).toMatchObject({
      summary: '#7 Checkout button does nothing',
      labels: ['snag'],
      issuetype: { id: '10004' },
      description: { type: 'doc', version: 1 },
    });

    const retry = context(jira(), 'WEB-1');
    expect(await deliverJira(retry.ctx)).toEqual({
      vendorId: 'WEB-1',
      url: `${fakes.jira.url}/browse/WEB-1`,
    });
    expect(fakes.jira.issues).toHaveLength(1);
    expect(fakes.jira.issues[0]?.attachments.map((a) => a.filename)).toEqual([
      'screenshot-1.png',
      'invoice.pdf',
    ]);

    // Once more: everything is there, nothing is sent twice.
    await deliverJira(context(jira(), 'WEB-1').ctx);
    expect(fakes.jira.issues[0]?.attachments).toHaveLength(2);
    for (const r of fakes.jira.calls(/attachments$/)) expect(r.headers['x-atlassian-token']).toBe('no-check');
  });
});

describe('Slack deliverer', () => {
  const slack = (channel: string) => rec('slack', { id: channel, name: '' }, { accessToken: 'xoxb-deliver' });

  it('posts blocks, records the message, then shares the screenshot in its thread; a retry continues', async () => {
    fakes.slack.tokens.add('xoxb-deliver');
    fakes.slack.fail({
      match: 'files.completeUploadExternal',
      reply: { json: { ok: false, error: 'internal_error' } },
    });
    const first = context(slack('C0GENERAL'));
    await expect(deliverSlack(first.ctx)).rejects.toThrow();
    const posted = first.recorded[0] ?? '';
    expect(posted).toMatch(/^C0GENERAL\/\d+\.\d+$/);
    // Recorded with the message's permalink (chat.getPermalink).
    const ts = posted.split('/')[1] ?? '';
    expect(first.urls).toEqual([`${fakes.slack.url}/archives/C0GENERAL/p${ts.replace('.', '')}`]);
    // The fake shows the message there, as Slack does, so the link opens locally.
    expect((await fetch(first.urls[0] ?? '')).status).toBe(200);
    expect(fakes.slack.messages).toHaveLength(1);
    expect(fakes.slack.messages[0]?.blocks).toContainEqual(expect.objectContaining({ type: 'header' }));
    expect(JSON.stringify(fakes.slack.messages[0]?.blocks)).toContain('&lt;Pay&gt;');
    expect(JSON.stringify(fakes.slack.messages[0]?.blocks)).toContain('<http://s3/f1|invoice.pdf>');

    const retry = context(slack('C0GENERAL'), posted);
    const out = await deliverSlack(retry.ctx);
    expect(out).toEqual({ vendorId: `${posted}#files` });
    expect(fakes.slack.messages).toHaveLength(1);
    const shared = fakes.slack.files.filter((f) => f.channel);
    expect(shared).toEqual([
      expect.objectContaining({
        name: 'screenshot-1.png',
        channel: 'C0GENERAL',
        threadTs: posted.split('/')[1],
      }),
    ]);
    expect(fakes.slack.calls('chat.postMessage')[0]?.headers.authorization).toBe('Bearer xoxb-deliver');

    await deliverSlack(context(slack('C0GENERAL'), out.vendorId).ctx);
    expect(fakes.slack.messages).toHaveLength(1);
    expect(fakes.slack.files.filter((f) => f.channel)).toHaveLength(1);
  });

  it('tells the client to invite the app when it is not in the channel', async () => {
    fakes.slack.tokens.add('xoxb-deliver');
    expect(await permanent(deliverSlack(context(slack('C0RANDOM')).ctx))).toContain('/invite @Snag');
    expect(
      await permanent(
        deliverSlack(
          context(rec('slack', { id: 'C0GENERAL', name: '' }, { accessToken: 'xoxb-revoked' })).ctx,
        ),
      ),
    ).toMatch(/authorise Slack again/);
  });
});

/** Asana OAuth tokens, through the fake's consent page and token exchange. */
async function tokens() {
  const page = await (
    await fetch(
      `${fakes.asana.oauthUrl}/oauth_authorize?client_id=${fakes.asana.clientId}&redirect_uri=http://x/cb&response_type=code&state=s`,
    )
  ).text();
  const code = new URL(
    (/id="allow" href="([^"]+)"/.exec(page)?.[1] ?? '').replace(/&#38;/g, '&'),
  ).searchParams.get('code');
  const res = await fetch(`${fakes.asana.oauthUrl}/oauth_token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: fakes.asana.clientId,
      client_secret: fakes.asana.clientSecret,
      redirect_uri: 'http://x/cb',
      code: code ?? '',
    }),
  });
  const json = (await res.json()) as { access_token: string; refresh_token: string };
  return {
    accessToken: json.access_token,
    refreshToken: json.refresh_token,
    expiresAt: Date.now() + 3_600_000,
  };
}

/** An authorised Asana integration whose attachments the fake refuses twice (the task's notes are the point). */
async function asanaRefusingAttachments() {
  fakes.asana.fail({
    match: '/api/1.0/attachments',
    times: 2,
    reply: { status: 400, json: { errors: [] } },
  });
  const { accessToken } = await tokens();
  return rec('asana', { id: '1200000000000101', name: '' }, { accessToken });
}

describe('Asana deliverer', () => {
  it('creates a task with html notes, records it, attaches; a retry attaches only what is missing', async () => {
    const oauth = await tokens();
    const asana = () => rec('asana', { id: '1200000000000101', name: 'Website bugs' }, oauth);
    fakes.asana.fail({
      match: '/api/1.0/attachments',
      reply: { status: 500, json: { errors: [{ message: 'x' }] } },
    });
    const first = context(asana());
    await expect(deliverAsana(first.ctx)).rejects.toThrow();
    const gid = first.recorded[0] ?? '';
    expect(gid).toMatch(/^\d+$/);
    // Recorded with the task's page, Asana's `permalink_url`.
    expect(first.urls).toEqual([`${fakes.asana.url}/0/1200000000000101/${gid}`]);
    const task = fakes.asana.tasks[0];
    expect(task?.htmlNotes).toMatch(/^<body>I click &lt;Pay&gt;/);
    expect(task?.projects).toEqual(['1200000000000101']);

    expect(await deliverAsana(context(asana(), gid).ctx)).toEqual({ vendorId: gid });
    expect(fakes.asana.tasks).toHaveLength(1);
    expect(task?.attachments.map((a) => a.name)).toEqual(['screenshot-1.png', 'invoice.pdf']);
  });

  it('fails permanently for a project that is gone', async () => {
    const oauth = await tokens();
    expect(await permanent(deliverAsana(context(rec('asana', { id: '999', name: '' }, oauth)).ctx))).toMatch(
      /could not find/,
    );
  });
});

describe("visitor text cannot act in the customer's tools", () => {
  const hostileContext = <N extends IntegrationName>(integration: IntegrationRecord<N>) => {
    const { ctx } = context(integration);
    ctx.issue = { ...ctx.issue, ...hostile, data: { ...ctx.issue.data, ...hostile.data } };
    ctx.files = ctx.files.map((f) => ({ ...f, label: '@all <!here>.pdf' }));
    return ctx;
  };

  it('GitLab: the description runs no quick action and mentions nobody, the text still readable', async () => {
    await deliverGitlab(hostileContext(rec('gitlab', { host: '', key: 'glpat-local', id: '101' })));
    const issue = fakes.gitlab.issues[0];
    expect(issue?.quickActions).toEqual([]);
    expect(issue?.mentions).toEqual([]);
    expect(issue?.description).toContain('/assign @boss\n@all please look');
    expect(issue?.title.replace(/\u2060/g, '')).toBe(`#7 ${hostile.title}`);
    // The fake does see them when they are live (the test can fail).
    const live = '/close\n@all';
    expect(await import('../../lib/local/vendors/gitlab').then((m) => m.gitlabActions(live))).toEqual({
      quickActions: ['/close'],
      mentions: ['@all'],
    });
  });

  it('Slack: neither the notification text nor the blocks ping anyone or carry the visitor’s link', async () => {
    fakes.slack.tokens.add('xoxb-deliver');
    await deliverSlack(
      hostileContext(rec('slack', { id: 'C0GENERAL', name: '' }, { accessToken: 'xoxb-deliver' })),
    );
    const message = fakes.slack.messages[0];
    expect(message?.text).toBe(
      '#7 &lt;!channel&gt; @all &lt;https://evil.example/login|Reset your password&gt;',
    );
    expect(message?.controls.mentions).toEqual([]);
    // Only Snag's own file link is a link.
    expect(message?.controls.links).toEqual([
      '<http://s3/s1|screenshot-1.png>',
      '<http://s3/f1|@all &lt;!here&gt;.pdf>',
    ]);
  });

  it('Jira: visitor text stays plain text nodes (no mention, card or link); the only link is Snag’s', async () => {
    await deliverJira(hostileContext(jiraRecord()));
    const nodes = adfNodes(fakes.jira.issues[0]?.fields.description);
    expect(
      nodes.filter((n) => ['mention', 'inlineCard', 'blockCard', 'emoji'].includes(String(n.type))),
    ).toEqual([]);
    const links = nodes.filter((n) => n.type === 'link');
    expect(links).toEqual([
      { type: 'link', attrs: { href: 'http://localhost:3000/profile/website/x/request/7' } },
    ]);
    expect(JSON.stringify(fakes.jira.issues[0]?.fields.description)).toContain('/assign @boss');
  });

  it('Asana: visitor text is escaped, so it makes no tag (mentions are <a data-asana-gid> tags)', async () => {
    await deliverAsana(hostileContext(await asanaRefusingAttachments())).catch(() => undefined);
    const notes = fakes.asana.tasks[0]?.htmlNotes ?? '';
    expect(notes.match(/<[a-z]+/g)?.sort()).toEqual([
      '<a',
      '<body',
      '<li',
      '<li',
      '<li',
      '<li',
      '<strong',
      '<strong',
      '<strong',
      '<strong',
      '<ul',
    ]);
    expect(notes).toContain('&lt;!here&gt; &lt;@U012345&gt;');
    expect(fakes.asana.tasks[0]?.name).toBe(`#7 ${hostile.title}`);
  });
});

describe('steps to reproduce and the replay link reach every tracker, neutralised', () => {
  const projectId = '0f8fad5b-d9cb-469f-a165-70867728950e';

  /** The context with hostile steps and the replay signed as the delivery run signs it. */
  const reproducible = async <N extends IntegrationName>(integration: IntegrationRecord<N>) => {
    const made = context(integration);
    const { createdAt } = made.ctx.issue;
    const replay = storedReplay(createdAt, { stopped: 'mutations' });
    made.ctx.issue = { ...made.ctx.issue, steps: hostileSteps(createdAt), replay };
    made.ctx.replay = (await deliveryLinks(projectId, { screenshots: [], files: [], replay })).replay;
    return made.ctx;
  };
  const replayUrl = (ctx: DeliveryContext) => ctx.replay?.url ?? '';

  it('the delivery signs the replay page once, for the lifetime it is asked, with its own token', async () => {
    const createdAt = '2026-11-23T20:00:00.000Z';
    const replay = storedReplay(createdAt);
    const before = Date.now();
    const links = await deliveryLinks(projectId, { screenshots: [], files: [], replay }, 3 * 86_400_000);
    expect(links.replay).toEqual({
      url: expect.stringMatching(/^http:\/\/localhost:3000\/replay\/[\w.-]+$/),
      start: replay.start,
      end: replay.end,
    });
    expect(await openedReplay(links.replay?.url ?? '')).toEqual({ projectId, name: replay.name });
    // Valid for the 3 days asked, not longer: past them the page refuses the token.
    const token = links.replay?.url.split('/').pop() ?? '';
    expect(await readReplayLinkToken(token, before + 3 * 86_400_000 - 60_000)).not.toBeNull();
    expect(await readReplayLinkToken(token, before + 3 * 86_400_000 + 1_000)).toBeNull();
    // A tampered token opens nothing; an issue without a replay gets none.
    expect(await readReplayLinkToken(token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).toBeNull();
    expect((await deliveryLinks(projectId, { screenshots: [], files: [] })).replay).toBeNull();
  });

  it('GitLab: numbered steps, labels escaped (no quick action, mention or link), and the replay link', async () => {
    const ctx = await reproducible(rec('gitlab', { host: '', key: 'glpat-local', id: '101' }));
    await deliverGitlab(ctx);
    const issue = fakes.gitlab.issues[0];
    expect(issue?.quickActions).toEqual([]);
    expect(issue?.mentions).toEqual([]);
    const d = (issue?.description ?? '').replace(/\u2060/g, '');
    expect(d).toContain(
      '### Steps to reproduce\n\n1. Loaded the page https://shop.example/checkout (40 s before',
    );
    expect(d).toContain('2. Clicked “@channel \\<!here\\> @all” (30 s before the report)');
    expect(d).toContain('3. Clicked “\\[x\\](javascript:alert(1))” (20 s before the report)');
    expect(d).toContain('4. Changed the field “\\#1 GH-2 octo-org/shop\\#3 ENG-4” (15 s before the report)');
    expect(d).toContain('6. Went to /cart /close (5 s before the report)');
    expect(d).toContain('7. Opened the feedback widget (1 s before the report)');
    expect(d).not.toContain('[x](javascript');
    expect(d).toContain(
      `[Watch the replay](${replayUrl(ctx)}): The last 60 s on the page before the report; the link works for 8 days. The recording stopped early`,
    );
    expect(await openedReplay(replayUrl(ctx))).toEqual({ projectId, name: storedReplay('').name });
  });

  it('GitLab without steps or a replay: the description is exactly as before', async () => {
    await deliverGitlab(context(rec('gitlab', { host: '', key: 'glpat-local', id: '101' })).ctx);
    const issue = fakes.gitlab.issues[0];
    expect(issue?.description).toBe(
      [
        '```text\nI click <Pay> and *nothing* happens.\n\nTried twice.\n```',
        '',
        '- **Page:** https://shop.example/checkout',
        '- **Reporter:** visitor@\u2060example.com',
        '- **Device:** Chrome 130, Linux, Desktop',
        '- **Order:** A-17',
        '',
        `![screenshot-1.png](${fakes.gitlab.uploads[0]?.url})`,
        '',
        '**Files** (links valid 8 days):',
        '- [invoice.pdf](http://s3/f1)',
        '',
        '[Open in Snag](http://localhost:3000/profile/website/x/request/7)',
      ].join('\n'),
    );
  });

  it('Jira: an ordered list of plain text nodes; the only links are the replay and Snag', async () => {
    const ctx = await reproducible(jiraRecord());
    await deliverJira(ctx);
    const description = fakes.jira.issues[0]?.fields.description as { content: Record<string, unknown>[] };
    const nodes = adfNodes(description);
    expect(
      nodes.filter((n) => ['mention', 'inlineCard', 'blockCard', 'emoji'].includes(String(n.type))),
    ).toEqual([]);
    expect(nodes.filter((n) => n.type === 'link').map((n) => (n.attrs as { href: string }).href)).toEqual([
      replayUrl(ctx),
      'http://localhost:3000/profile/website/x/request/7',
    ]);
    const list = description.content.find((n) => n.type === 'orderedList');
    const items: string[] = [];
    for (const item of (list?.content ?? []) as { content: { content: { text: string }[] }[] }[])
      items.push(item.content[0]?.content.map((t) => t.text).join('') ?? '');
    expect(items).toEqual(hostileStepSentences);
    expect(description.content).toContainEqual({
      type: 'heading',
      attrs: { level: 3 },
      content: [{ type: 'text', text: 'Steps to reproduce' }],
    });
  });

  it('Slack: steps escaped like the description (no mention, no link); the replay is a button', async () => {
    fakes.slack.tokens.add('xoxb-deliver');
    const ctx = await reproducible(
      rec('slack', { id: 'C0GENERAL', name: '' }, { accessToken: 'xoxb-deliver' }),
    );
    await deliverSlack(ctx);
    const message = fakes.slack.messages[0];
    expect(message?.controls.mentions).toEqual([]);
    expect(message?.controls.links).toEqual([
      '<http://s3/s1|screenshot-1.png>',
      '<http://s3/f1|invoice.pdf>',
    ]);
    const blocks = JSON.stringify(message?.blocks);
    expect(blocks).toContain(
      '*Steps to reproduce*\\n1. Loaded the page https://shop.example/checkout (40 s before the report)\\n' +
        '2. Clicked “@channel &lt;!here&gt; @all” (30 s before the report)',
    );
    expect(blocks).toContain(
      'Clicked “**Pay now** &lt;b&gt;bold&lt;/b&gt; &lt;https://evil.example|Reset&gt;”',
    );
    const blockList = (message?.blocks ?? []) as {
      type: string;
      elements?: { url: string; text: { text: string } }[];
    }[];
    const actions = blockList.find((b) => b.type === 'actions');
    expect(actions?.elements?.map((e) => [e.text.text, e.url])).toEqual([
      ['Open in Snag', 'http://localhost:3000/profile/website/x/request/7'],
      ['Watch the replay', replayUrl(ctx)],
    ]);
    expect(await openedReplay(replayUrl(ctx))).not.toBeNull();
  });

  it('Slack keeps whole steps within a section, the last ones when fifty long ones do not fit', () => {
    const { ctx } = context(rec('slack', { id: 'C0GENERAL', name: '' }));
    const at = Date.parse(ctx.issue.createdAt);
    const steps = Array.from({ length: 50 }, (_, i) => ({
      t: at - (50 - i) * 1000,
      kind: 'click' as const,
      label: `${'x'.repeat(190)} ${i + 1}`,
    }));
    ctx.issue = { ...ctx.issue, steps };
    const section = slackBlocks(ctx).find((b) => JSON.stringify(b).includes('Steps to reproduce')) as {
      text: { text: string };
    };
    const lines = section.text.text.split('\n');
    expect(section.text.text.length).toBeLessThanOrEqual(3000);
    expect(lines[0]).toBe('*Steps to reproduce*');
    expect(lines.at(-1)).toMatch(/^50\. Clicked “x+ 50” \(1 s before the report\)$/);
    const first = Number(lines[1]?.split('.')[0]);
    expect(first).toBeGreaterThan(1);
    expect(lines.slice(1).map((l) => Number(l.split('.')[0]))).toEqual(
      Array.from({ length: 51 - first }, (_, i) => first + i),
    );
  });

  it('Slack without steps or a replay: the same blocks as before', async () => {
    fakes.slack.tokens.add('xoxb-deliver');
    await deliverSlack(
      context(rec('slack', { id: 'C0GENERAL', name: '' }, { accessToken: 'xoxb-deliver' })).ctx,
    );
    const blocks = fakes.slack.messages[0]?.blocks as { type: string; elements?: unknown[] }[];
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'section', 'actions']);
    expect(blocks.at(-1)?.elements).toHaveLength(1);
    expect(JSON.stringify(blocks)).not.toMatch(/Steps to reproduce|replay/);
  });

  it('Asana: steps as an escaped ordered list (no tag from a label), and the replay link', async () => {
    const ctx = await reproducible(await asanaRefusingAttachments());
    await deliverAsana(ctx).catch(() => undefined);
    const notes = fakes.asana.tasks[0]?.htmlNotes ?? '';
    // Snag's own tags only: the facts' list, the steps' list (seven items), the two links.
    expect(notes.match(/<[a-z]+/g)?.sort()).toEqual(
      [
        '<a',
        '<a',
        '<body',
        '<ol',
        '<strong',
        '<ul',
        ...Array(4).fill('<li'),
        ...Array(4).fill('<strong'),
        ...Array(7).fill('<li'),
      ].sort(),
    );
    expect(notes).toContain('<li>Clicked “@channel &lt;!here&gt; @all” (30 s before the report)</li>');
    expect(notes).toContain(
      '<li>Clicked “**Pay now** &lt;b&gt;bold&lt;/b&gt; &lt;https://evil.example|Reset&gt;” (12 s before the report)</li>',
    );
    expect(notes).toContain(`<a href="${replayUrl(ctx)}">Watch the replay</a>`);
  });
});
