/**
 * Two-way tracker sync with GitHub and Linear (issue 24, docs/webhooks.md "Inbound tracker hooks") through
 * the local stack's real queues and the GitHub and Linear fakes, both ways: the hook registered through
 * the vendor's API with the secret; a valid delivery queued, a forged one refused, a stale one (Linear)
 * refused, a replay taken once, a malformed one refused; closed and commented there by a person → the Snag
 * issue resolved and an internal comment by "<person> on GitHub/Linear"; resolved and publicly commented
 * in Snag → closed and commented there, the text fenced; our own writes come back as the fakes' hooks and
 * are dropped (no echo), and nothing is taken twice.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HookAnswer } from '#contracts/sync';
import { hubSignature } from '../../functions/integrations/sync/verify';
import { eventually } from '../support/local-stack';
import { newSite, type Site } from '../support/sites';
import {
  comments,
  issue,
  msgOf,
  quiet,
  setUpTrackerSync,
  statusBecomes,
  statuses,
  switchOn,
} from '../support/tracker-sync-fixture';
import { signedIn } from '../support/users';

const REPO = 'octo-org/shop';
const sync = setUpTrackerSync();

/** Authorises the vendor as its screen does, then switches it on (email off). */
async function connect(site: Site, vendor: 'github' | 'linear', key: string, data: Record<string, unknown>) {
  const list = await site.client.post(
    `/api/client/integration/${vendor}/${vendor === 'github' ? 'repos' : 'teams'}`,
    {
      siteId: site.id,
      key,
    },
  );
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  await switchOn(site, vendor, data, { authorized: 1 });
}

async function post(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as { code?: string; msg?: { outcome?: string } } };
}

describe('GitHub both ways', () => {
  let site: Site;
  let hook: HookAnswer;
  let n: number;
  let number: number;
  const gh = () => sync.fakes.github.issues.find((i) => i.repo === REPO && i.number === number);

  beforeAll(async () => {
    site = await newSite(sync.stack.url, 'BASIC_PLAN');
    await connect(site, 'github', 'github_pat_11AAAsync0123456789', { id: REPO });
    const registered = await site.client.post(`/api/client/integration/github/hook/${site.id}/register`);
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    hook = msgOf(await site.client.post(`/api/client/integration/github/hook/${site.id}/secret`));
    const delivered = await sync.delivered(site, 'github', { msg: 'Cart total wrong', title: 'Cart' }, (n) =>
      sync.fakes.github.issues.find((i) => i.title.replace(/\u2060/g, '').startsWith(`#${n} `)),
    );
    n = delivered.n;
    number = delivered.created.number;
  });

  it('registers a repository hook at the inbound URL with the secret, for issues and comments, as JSON', () => {
    const registered = sync.fakes.github.hooks.find((h) => h.url === hook.url);
    expect(registered).toMatchObject({
      repo: REPO,
      secret: hook.secret,
      contentType: 'json',
      events: ['issues', 'issue_comment'],
      active: true,
    });
    expect(hook.registered?.id).toBe(String(registered?.id));
  });

  it('another signed-in client can neither see, reveal nor register this project’s GitHub or Linear hook: 404', async () => {
    const { client } = await signedIn(sync.stack.url);
    const hooks = sync.fakes.github.hooks.length + sync.fakes.linear.webhooks.length;
    for (const [method, path] of [
      ['GET', `/api/client/integration/github/hook/${site.id}`],
      ['POST', `/api/client/integration/github/hook/${site.id}/secret`],
      ['POST', `/api/client/integration/github/hook/${site.id}/register`],
      ['POST', `/api/client/integration/linear/hook/${site.id}/regenerate`],
    ] as const) {
      const res = method === 'GET' ? await client.get(path) : await client.post(path);
      expect(res.status, path).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(String(hook.secret));
    }
    expect(sync.fakes.github.hooks.length + sync.fakes.linear.webhooks.length).toBe(hooks);
  });

  it('refuses forged and malformed deliveries, takes a replay once, ignores pull-request comments', async () => {
    const body = JSON.stringify({
      action: 'created',
      issue: { number, html_url: `${sync.fakes.github.url}/${REPO}/issues/${number}`, pull_request: {} },
      comment: { id: 1, body: 'LGTM', user: { login: 'octo-human', id: 2002 } },
      repository: { full_name: REPO },
      sender: { login: 'octo-human', id: 2002 },
    });
    const headers = (raw: string, guid = randomUUID()) => ({
      'x-github-event': 'issue_comment',
      'x-github-delivery': guid,
      'x-hub-signature-256': hubSignature(String(hook.secret), raw),
    });
    const forged = await post(String(hook.url), body, {
      ...headers(body),
      'x-hub-signature-256': hubSignature('not the secret', body),
    });
    expect([forged.status, forged.body.code]).toEqual([401, 'HOOK_SIGNATURE_INVALID']);
    const malformed = JSON.stringify({ action: 'created', issue: { number: 'one' } });
    const bad = await post(String(hook.url), malformed, headers(malformed));
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
    // A pull request's comment is signed and well-formed, and none of Snag's business.
    const pr = await post(String(hook.url), body, headers(body));
    expect([pr.status, pr.body.msg?.outcome]).toEqual([202, 'ignored']);
    expect((await comments(site, n)).filter((c) => c.body === 'LGTM')).toHaveLength(0);
  });

  it('closed on GitHub → resolved in Snag by "octo-human on GitHub"; a redelivery changes nothing; nothing sent back', async () => {
    const patches = () => sync.fakes.github.requests.filter((r) => r.method === 'PATCH').length;
    const before = patches();
    const [delivery] = await sync.fakes.github.close(REPO, number);
    expect(delivery?.status).toBe(202);
    await statusBecomes(site, n, 'resolved');
    expect((await statuses(site, n))[0]).toMatchObject({
      actor: { kind: 'tracker', vendor: 'github', name: 'octo-human on GitHub' },
      to: 'resolved',
    });
    const replay = await sync.fakes.github.redeliver(String(delivery?.guid));
    expect(replay.status).toBe(202);
    await quiet(() => sync.fakes.github.idle());
    expect(await statuses(site, n)).toHaveLength(1);
    expect(patches()).toBe(before);
  });

  it('reopened on GitHub → new; resolved in Snag → closed as completed on GitHub once, its echo dropped', async () => {
    await sync.fakes.github.reopen(REPO, number);
    await statusBecomes(site, n, 'new');
    const res = await site.client.patch(`/api/client/website/${site.id}/request/${n}`, {
      status: 'resolved',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await eventually(async () => (gh()?.state === 'closed' ? true : undefined), 30_000, 'closed on GitHub');
    expect(gh()?.state_reason).toBe('completed');
    await quiet(() => sync.fakes.github.idle());
    // The fake's `issues` closed hook for our own PATCH came back (sender snag-bot) and was dropped.
    const echo = sync.fakes.github.deliveries.at(-1);
    expect(echo?.event).toBe('issues');
    expect(JSON.parse(String(echo?.body)).sender.login).toBe('snag-bot');
    expect(echo?.status).toBe(202);
    const all = await statuses(site, n);
    expect(all).toHaveLength(3);
    expect(all.at(-1)).toMatchObject({ actor: { kind: 'member' }, to: 'resolved' });
    expect(sync.fakes.github.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });

  it('comments both ways: GitHub → internal Snag comment once; public Snag comment → GitHub comment, quoted, no echo', async () => {
    const [delivery] = await sync.fakes.github.comment(REPO, number, 'Fixed in 2.3.1');
    expect(delivery?.status).toBe(202);
    const synced = await eventually(
      async () => (await comments(site, n)).find((c) => c.body === 'Fixed in 2.3.1'),
      30_000,
      'the synced comment',
    );
    expect(synced).toMatchObject({
      visibility: 'internal',
      author: { kind: 'tracker', vendor: 'github', name: 'octo-human on GitHub' },
    });
    await sync.fakes.github.redeliver(String(delivery?.guid));

    const body = 'Thanks @octo-org/owners, see #1';
    const posted = await site.client.post(`/api/client/website/${site.id}/request/${n}/comments`, {
      body,
      visibility: 'public',
    });
    expect(posted.status).toBe(201);
    const onGithub = await eventually(
      async () => gh()?.comments.find((c) => c.body.includes('Thanks')),
      30_000,
      'the GitHub comment',
    );
    expect(onGithub.body).toMatch(/wrote in Snag:/);
    // Quoted in a fence: GitHub notifies nobody and cross-references nothing.
    expect(onGithub.actions).toEqual({ mentions: [], references: [], autolinks: [] });
    await quiet(() => sync.fakes.github.idle());
    expect((await comments(site, n)).map((c) => c.body).sort()).toEqual(['Fixed in 2.3.1', body]);
    expect(gh()?.comments).toHaveLength(2);
  });
});

const LINEAR_KEY = 'lin_api_sync0123456789';

describe('Linear both ways', () => {
  let site: Site;
  let hook: HookAnswer;
  let n: number;
  let issueId: string;
  const lin = () => sync.fakes.linear.issues.find((i) => i.id === issueId);
  const stateType = () => {
    const i = lin();
    return sync.fakes.linear.teams.flatMap((t) => t.states).find((s) => s.id === i?.stateId)?.type;
  };
  const sign = (raw: string) => createHmac('sha256', String(hook.secret)).update(raw).digest('hex');

  beforeAll(async () => {
    site = await newSite(sync.stack.url, 'BASIC_PLAN');
    await connect(site, 'linear', LINEAR_KEY, {});
    const delivered = await sync.delivered(site, 'linear', { msg: 'Login loops', title: 'Login' }, (n) =>
      sync.fakes.linear.issues.find((i) => i.title.startsWith(`#${n} `)),
    );
    n = delivered.n;
    issueId = delivered.created.id;
  });

  it('a member key may not register the webhook (Linear admins only); an admin key registers it for the team', async () => {
    const member = await newSite(sync.stack.url, 'BASIC_PLAN');
    await connect(member, 'linear', 'lin_api_member0123456789', {});
    const refused = await member.client.post(`/api/client/integration/linear/hook/${member.id}/register`);
    expect([refused.status, (refused.body as { code?: string }).code]).toEqual([400, 'AUTHORIZATION_FAILED']);
    expect(sync.fakes.linear.webhooks).toHaveLength(0);

    const registered = await site.client.post(`/api/client/integration/linear/hook/${site.id}/register`);
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    hook = msgOf(await site.client.post(`/api/client/integration/linear/hook/${site.id}/secret`));
    const made = sync.fakes.linear.webhooks.find((w) => w.url === hook.url);
    expect(made).toMatchObject({ teamId: lin()?.teamId, secret: hook.secret });
    expect(made?.resourceTypes.sort()).toEqual(['Comment', 'Issue']);
  });

  it('refuses forged, stale and malformed deliveries; a replay is taken once', async () => {
    const payload = (ts: number) =>
      JSON.stringify({
        action: 'update',
        type: 'Issue',
        data: { id: issueId, teamId: lin()?.teamId },
        updatedFrom: { stateId: 'x' },
        actor: { id: 'u1', name: 'Someone' },
        webhookId: String(sync.fakes.linear.webhooks[0]?.id),
        webhookTimestamp: ts,
      });
    const fresh = payload(Date.now());
    const forged = await post(String(hook.url), fresh, { 'linear-signature': sign(`${fresh} `) });
    expect([forged.status, forged.body.code]).toEqual([401, 'HOOK_SIGNATURE_INVALID']);
    const old = payload(Date.now() - 120_000);
    const stale = await post(String(hook.url), old, { 'linear-signature': sign(old) });
    expect([stale.status, stale.body.code]).toEqual([401, 'HOOK_STALE']);
    const malformed = JSON.stringify({ action: 'update', type: 'Issue', webhookTimestamp: Date.now() });
    const bad = await post(String(hook.url), malformed, { 'linear-signature': sign(malformed) });
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
    const first = await post(String(hook.url), fresh, { 'linear-signature': sign(fresh) });
    const again = await post(String(hook.url), fresh, { 'linear-signature': sign(fresh) });
    expect([first.body.msg?.outcome, again.body.msg?.outcome]).toEqual(['queued', 'duplicate']);
    // The re-read found it open, as Snag has it: nothing changes.
    await quiet();
    expect((await issue(site, n)).status).toBe('new');
  });

  it('done in Linear → resolved in Snag by "Lin Human on Linear"; back to Todo → new; nothing sent back', async () => {
    const updates = () =>
      sync.fakes.linear
        .calls('/graphql')
        .filter((r) => String((r.body as { query: string }).query).includes('issueUpdate')).length;
    const [delivery] = await sync.fakes.linear.setState(issueId, 'completed');
    expect(delivery?.status).toBe(202);
    await statusBecomes(site, n, 'resolved');
    expect((await statuses(site, n))[0]).toMatchObject({
      actor: { kind: 'tracker', vendor: 'linear', name: `${sync.fakes.linear.human.name} on Linear` },
      to: 'resolved',
    });
    await sync.fakes.linear.setState(issueId, 'unstarted');
    await statusBecomes(site, n, 'new');
    await quiet();
    expect(updates()).toBe(0);
  });

  it('resolved in Snag → a completed state in Linear once; its echo (the key user as actor) dropped', async () => {
    const res = await site.client.patch(`/api/client/website/${site.id}/request/${n}`, {
      status: 'resolved',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await eventually(async () => (stateType() === 'completed' ? true : undefined), 30_000, 'completed');
    await quiet();
    const echo = JSON.parse(String(sync.fakes.linear.deliveries.at(-1)?.body));
    expect(echo.actor.id).toBe(sync.fakes.linear.viewer.id);
    expect(sync.fakes.linear.deliveries.at(-1)?.status).toBe(202);
    const all = await statuses(site, n);
    expect(all).toHaveLength(3);
    expect(all.at(-1)).toMatchObject({ actor: { kind: 'member' }, to: 'resolved' });
  });

  it('comments both ways: Linear → internal Snag comment once; public Snag comment → Linear comment, fenced, no echo', async () => {
    await sync.fakes.linear.comment(issueId, 'Looking into it');
    await eventually(
      async () => (await comments(site, n)).find((c) => c.body === 'Looking into it'),
      30_000,
      'the synced comment',
    );
    const body = 'We shipped a fix, @lin see ENG-1';
    await site.client.post(`/api/client/website/${site.id}/request/${n}/comments`, {
      body,
      visibility: 'public',
    });
    const posted = await eventually(
      async () =>
        sync.fakes.linear.comments.find((c) => c.issueId === issueId && c.body.includes('We shipped')),
      30_000,
      'the Linear comment',
    );
    expect(posted.body).toMatch(/wrote in Snag:\n\n```/);
    await quiet();
    const all = await comments(site, n);
    expect(all.map((c) => c.body).sort()).toEqual(['Looking into it', body]);
    expect(all.find((c) => c.body === 'Looking into it')).toMatchObject({
      visibility: 'internal',
      author: { kind: 'tracker', vendor: 'linear' },
    });
    expect(sync.fakes.linear.comments.filter((c) => c.issueId === issueId)).toHaveLength(2);
  });
});
