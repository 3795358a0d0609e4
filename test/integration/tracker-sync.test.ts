/**
 * Two-way tracker sync (issue 24, docs/webhooks.md "Inbound tracker hooks") through the local stack's real
 * queues and the GitLab and Jira fakes, both ways: a report delivered to the tracker; closed, reopened and
 * commented there by a person → the Snag issue resolved, new again, an internal comment by "Jane Doe on
 * GitLab" with the tracker's link on the timeline; resolved and publicly commented in Snag → closed and
 * commented there. Our own writes come back as the fakes' hooks and are dropped (no echo), a redelivered
 * hook changes nothing (no duplicate), and an internal comment never leaves Snag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookAnswer } from '#contracts/sync';
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
  timeline,
} from '../support/tracker-sync-fixture';

const sync = setUpTrackerSync();

/** Authorises and switches on the tracker for `site` as the settings screen does; email off. */
async function connect(site: Site, vendor: 'gitlab' | 'jira') {
  const res =
    vendor === 'gitlab'
      ? await site.client.post('/api/client/integration/gitlab/projects', {
          siteId: site.id,
          host: '',
          key: 'glpat-sync',
        })
      : await site.client.post('/api/client/integration/jira/projects', {
          siteId: site.id,
          host: sync.fakes.jira.url,
          username: 'me@example.com',
          key: 'jira-sync',
        });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await switchOn(site, vendor, vendor === 'gitlab' ? { id: '101' } : { id: '10000', issueId: '10004' });
}

describe('GitLab both ways', () => {
  let site: Site;
  let n: number;
  let iid: number;

  beforeAll(async () => {
    site = await newSite(sync.stack.url, 'BASIC_PLAN');
    await connect(site, 'gitlab');
    const registered = await site.client.post(`/api/client/integration/gitlab/hook/${site.id}/register`);
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const delivered = await sync.delivered(site, 'gitlab', { msg: 'Cart total wrong', title: 'Cart' }, (n) =>
      sync.fakes.gitlab.issues.find((i) => i.title === `#${n} Cart`),
    );
    n = delivered.n;
    iid = delivered.created.iid;
  });

  it('registers the project hook with the secret, for issue and note events, at the exact inbound URL', async () => {
    const shown = msgOf(
      await site.client.get(`/api/client/integration/gitlab/hook/${site.id}`),
    ) as HookAnswer;
    expect(shown.url).toMatch(new RegExp(`^${sync.stack.url}/api/hooks/gitlab/[0-9a-f]{32}$`));
    expect(shown.secret).toBeUndefined();
    const revealed = msgOf(
      await site.client.post(`/api/client/integration/gitlab/hook/${site.id}/secret`),
    ) as HookAnswer;
    const hook = sync.fakes.gitlab.hooks.find((h) => h.url === shown.url);
    expect(hook).toMatchObject({
      projectId: 101,
      token: revealed.secret,
      issues_events: true,
      note_events: true,
    });
    expect(shown.registered?.id).toBe(String(hook?.id));
  });

  it('closed on GitLab → resolved in Snag, with the tracker as actor and its link; nothing sent back', async () => {
    const puts = () => sync.fakes.gitlab.requests.filter((r) => r.method === 'PUT').length;
    const reads = () =>
      sync.fakes.gitlab.requests.filter(
        (r) => r.method === 'GET' && r.path === `/api/v4/projects/101/issues/${iid}`,
      ).length;
    const before = puts();
    const readBefore = reads();
    const [delivery] = await sync.fakes.gitlab.actAsHuman(101, iid, { kind: 'close' });
    expect(delivery?.status).toBe(202);
    await statusBecomes(site, n, 'resolved');
    const entry = (await timeline(site, n)).find((e) => e.type === 'activity' && e.kind === 'status');
    expect(entry).toMatchObject({
      actor: { kind: 'tracker', vendor: 'gitlab', name: 'Jane Doe on GitLab' },
      from: 'new',
      to: 'resolved',
    });
    expect((entry as { actor: { url?: string } }).actor.url).toMatch(new RegExp(`/-/issues/${iid}$`));
    await quiet(() => sync.fakes.gitlab.settled());
    // The change came from GitLab: no close (or reopen) is sent back to it; the one read is the sync's
    // re-read of the issue before changing Snag's (a write-back would read it again first).
    expect(puts()).toBe(before);
    expect(reads() - readBefore).toBe(1);

    // A redelivery of the same hook (GitLab's "Resend request") is taken once.
    expect(await sync.fakes.gitlab.resend(delivery as NonNullable<typeof delivery>)).toBe(202);
    await quiet(() => sync.fakes.gitlab.settled());
    expect(await statuses(site, n)).toHaveLength(1);
  });

  it('reopened on GitLab → new in Snag', async () => {
    await sync.fakes.gitlab.actAsHuman(101, iid, { kind: 'reopen' });
    await statusBecomes(site, n, 'new');
  });

  it('resolved in Snag → closed on GitLab once; its own hook coming back changes nothing', async () => {
    const res = await site.client.patch(`/api/client/website/${site.id}/request/${n}`, {
      status: 'resolved',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await eventually(
      async () =>
        sync.fakes.gitlab.issues.find((i) => i.iid === iid && i.projectId === 101)?.state === 'closed'
          ? true
          : undefined,
      30_000,
      'closed on GitLab',
    );
    const put = sync.fakes.gitlab.requests.filter((r) => r.method === 'PUT').at(-1);
    expect(put?.body).toEqual({ state_event: 'close' });
    expect(put?.headers['private-token']).toBe('glpat-sync');
    await quiet(() => sync.fakes.gitlab.settled());
    // GitLab's Issue Hook for our own close was answered and dropped: still resolved, one entry by the member.
    const echo = sync.fakes.gitlab.deliveries.at(-1);
    expect(echo?.headers['x-gitlab-event']).toBe('Issue Hook');
    expect(echo?.status).toBe(202);
    expect((await issue(site, n)).status).toBe('resolved');
    const last = (await statuses(site, n)).at(-1);
    expect(last).toMatchObject({ actor: { kind: 'member' }, to: 'resolved' });
    expect(sync.fakes.gitlab.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('a GitLab comment → an internal Snag comment by "Jane Doe on GitLab", once', async () => {
    const [delivery] = await sync.fakes.gitlab.actAsHuman(101, iid, {
      kind: 'comment',
      body: 'Fixed in 2.3.1',
    });
    expect(delivery?.status).toBe(202);
    const comment = await eventually(
      async () => (await timeline(site, n)).find((e) => e.type === 'comment' && e.body === 'Fixed in 2.3.1'),
      30_000,
      'the synced comment',
    );
    expect(comment).toMatchObject({
      visibility: 'internal',
      author: { kind: 'tracker', vendor: 'gitlab', name: 'Jane Doe on GitLab' },
    });
    expect(await sync.fakes.gitlab.resend(delivery as NonNullable<typeof delivery>)).toBe(202);
    await quiet(() => sync.fakes.gitlab.settled());
    const copies = (await timeline(site, n)).filter(
      (e) => e.type === 'comment' && e.body === 'Fixed in 2.3.1',
    );
    expect(copies).toHaveLength(1);
    // An internal comment (this one included) is never posted to GitLab.
    expect(sync.fakes.gitlab.issues.find((i) => i.iid === iid && i.projectId === 101)?.notes).toHaveLength(1);
  });

  it('a public Snag comment → a GitLab note, made inert; its hook coming back adds nothing', async () => {
    const body = 'Thanks! /close\n@all please check';
    const posted = await site.client.post(`/api/client/website/${site.id}/request/${n}/comments`, {
      body,
      visibility: 'public',
    });
    expect(posted.status).toBe(201);
    const gl = () => sync.fakes.gitlab.issues.find((i) => i.iid === iid && i.projectId === 101);
    const note = await eventually(
      async () => gl()?.notes.find((x) => x.body.includes('Thanks!')),
      30_000,
      'the note',
    );
    expect(note.body).toMatch(/wrote in Snag:/);
    expect(note.body).toContain('```');
    await quiet(() => sync.fakes.gitlab.settled());
    // Jane's comment, and the member's own: the note's hook did not come back as a third.
    expect(await comments(site, n)).toHaveLength(2);
    expect(gl()?.notes.filter((x) => x.body.includes('Thanks!'))).toHaveLength(1);
  });

  it('a GitLab comment with control, bidi and invisible characters is stored as a member’s would be', async () => {
    const [delivery] = await sync.fakes.gitlab.actAsHuman(101, iid, {
      kind: 'comment',
      body: 'Deployed \u202Eexe.pdf\u202C\u200B to\u0000 \u001b[1mstaging\u001b[0m',
    });
    expect(delivery?.status).toBe(202);
    const comment = await eventually(
      async () =>
        (await timeline(site, n)).find((e) => e.type === 'comment' && String(e.body).startsWith('Deployed')),
      30_000,
      'the synced comment',
    );
    expect(comment).toMatchObject({ body: 'Deployed exe.pdf to [1mstaging[0m' });
  });

  it('a tracker that refuses the re-read (token revoked) drops the event at once: no retries, Snag unchanged', async () => {
    sync.fakes.gitlab.revoke('glpat-sync');
    const reads = () =>
      sync.fakes.gitlab.requests.filter(
        (r) => r.method === 'GET' && r.path === `/api/v4/projects/101/issues/${iid}`,
      ).length;
    const before = reads();
    await sync.fakes.gitlab.actAsHuman(101, iid, { kind: 'reopen' });
    await eventually(async () => (reads() > before ? true : undefined), 30_000, 'the re-read');
    // The queue's retries come back after 1 s here: five receives would be five reads.
    await new Promise((r) => setTimeout(r, 6000));
    expect(reads() - before).toBe(1);
    expect((await issue(site, n)).status).toBe('resolved');
  });
});

describe('Jira both ways', () => {
  let site: Site;
  let n: number;
  let key: string;

  beforeAll(async () => {
    site = await newSite(sync.stack.url, 'BASIC_PLAN');
    await connect(site, 'jira');
    // Jira's admin webhooks cannot be registered with an API token: the admin's step, played by the fake.
    const refused = await site.client.post(`/api/client/integration/jira/hook/${site.id}/register`);
    expect(refused.status).toBe(400);
    expect((refused.body as { code?: string }).code ?? JSON.stringify(refused.body)).toMatch(
      /HOOK_NOT_REGISTRABLE/,
    );
    const hook = msgOf(
      await site.client.post(`/api/client/integration/jira/hook/${site.id}/secret`),
    ) as HookAnswer;
    sync.fakes.jira.configureWebhook({ url: String(hook.url), secret: String(hook.secret) });
    const delivered = await sync.delivered(site, 'jira', { msg: 'Login loops', title: 'Login' }, (n) =>
      sync.fakes.jira.issues.find((i) => i.fields.summary === `#${n} Login`),
    );
    n = delivered.n;
    key = delivered.created.key;
  });

  afterAll(() => sync.fakes.jira.configureWebhook(null));

  it('done on Jira → resolved; back to To Do → new; nothing sent back', async () => {
    const [delivery] = await sync.fakes.jira.actAsHuman(key, { kind: 'done' });
    expect(delivery?.status).toBe(202);
    await statusBecomes(site, n, 'resolved');
    const entry = (await timeline(site, n)).find((e) => e.type === 'activity' && e.kind === 'status');
    expect(entry).toMatchObject({ actor: { kind: 'tracker', vendor: 'jira', name: 'Jane Doe on Jira' } });
    expect((entry as { actor: { url?: string } }).actor.url).toBe(`${sync.fakes.jira.url}/browse/${key}`);
    await sync.fakes.jira.actAsHuman(key, { kind: 'reopen' });
    await statusBecomes(site, n, 'new');
    await quiet(() => sync.fakes.jira.settled());
    expect(
      sync.fakes.jira.requests.filter((r) => r.path.endsWith('/transitions') && r.method === 'POST'),
    ).toHaveLength(0);
  });

  it('resolved in Snag → a done transition on Jira; its webhook coming back changes nothing', async () => {
    await site.client.patch(`/api/client/website/${site.id}/request/${n}`, { status: 'resolved' });
    await eventually(
      async () =>
        sync.fakes.jira.issues.find((i) => i.key === key)?.status.category === 'done' ? true : undefined,
      30_000,
      'done on Jira',
    );
    const post = sync.fakes.jira.requests.filter(
      (r) => r.path.endsWith('/transitions') && r.method === 'POST',
    );
    expect(post.map((r) => r.body)).toEqual([{ transition: { id: '31' } }]);
    await quiet(() => sync.fakes.jira.settled());
    expect(sync.fakes.jira.deliveries.at(-1)?.status).toBe(202);
    const all = await statuses(site, n);
    expect(all.at(-1)).toMatchObject({ actor: { kind: 'member' }, to: 'resolved' });
    expect(all).toHaveLength(3);
  });

  it('comments both ways: Jira → internal Snag comment once; public Snag comment → ADF comment on Jira', async () => {
    const [delivery] = await sync.fakes.jira.actAsHuman(key, { kind: 'comment', body: 'Looking into it' });
    await eventually(
      async () => (await timeline(site, n)).find((e) => e.type === 'comment' && e.body === 'Looking into it'),
      30_000,
      'the synced comment',
    );
    expect(await sync.fakes.jira.resend(delivery as NonNullable<typeof delivery>)).toBe(202);
    await site.client.post(`/api/client/website/${site.id}/request/${n}/comments`, {
      body: 'We shipped a fix',
      visibility: 'public',
    });
    const jiraComment = await eventually(
      async () =>
        sync.fakes.jira.requests.find(
          (r) => r.path.endsWith('/comment') && JSON.stringify(r.body).includes('We shipped a fix'),
        ),
      30_000,
      'the Jira comment',
    );
    expect(jiraComment.body).toMatchObject({ body: { type: 'doc', version: 1 } });
    await quiet(() => sync.fakes.jira.settled());
    const all = await comments(site, n);
    expect(all.map((c) => c.body).sort()).toEqual(['Looking into it', 'We shipped a fix']);
    expect(all.find((c) => c.body === 'Looking into it')).toMatchObject({
      visibility: 'internal',
      author: { name: 'Jane Doe on Jira' },
    });
  });
});
