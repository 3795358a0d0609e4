/**
 * Two-way tracker sync (issue 24, docs/webhooks.md "Inbound tracker hooks") through the local stack's real
 * queues and the GitLab and Jira fakes, both ways: a report delivered to the tracker; closed, reopened and
 * commented there by a person → the Snag issue resolved, new again, an internal comment by "Jane Doe on
 * GitLab" with the tracker's link on the timeline; resolved and publicly commented in Snag → closed and
 * commented there. Our own writes come back as the fakes' hooks and are dropped (no echo), a redelivered
 * hook changes nothing (no duplicate), and an internal comment never leaves Snag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssueAnswer } from '#contracts/review';
import type { HookAnswer } from '#contracts/sync';
import type { TimelineEntry, TimelinePage } from '#contracts/triage';
import type { VendorFakes } from '../../lib/local/vendors';
import { eventually, startTestStack, type TestStack } from '../support/local-stack';
import { newSite, type Site } from '../support/sites';
import { cheapCostsEnv } from '../support/users';
import { fileReport } from '../support/widget';

const ORIGIN = 'https://shop.example';
let stack: TestStack;
let fakes: VendorFakes;

beforeAll(async () => {
  Object.assign(process.env, cheapCostsEnv);
  stack = await startTestStack({
    vendorFakes: true,
    queues: {
      delivery: { visibilityTimeoutSeconds: 1, retryDelaysSeconds: [1, 1, 1, 1] },
      tracker: { visibilityTimeoutSeconds: 1, retryDelaysSeconds: [1, 1, 1, 1] },
    },
  });
  if (!stack.vendorFakes) throw new Error('the local stack did not start the vendor fakes');
  fakes = stack.vendorFakes;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions themselves.
const msgOf = (r: { body: unknown }): any => (r.body as { msg?: unknown }).msg;

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
          host: fakes.jira.url,
          username: 'me@example.com',
          key: 'jira-sync',
        });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const current = msgOf(await site.client.get(`/api/client/website/${site.id}`)).integrations.find(
    (i: { name: string }) => i.name === vendor,
  );
  const data =
    vendor === 'gitlab' ? { ...current.data, id: '101' } : { ...current.data, id: '10000', issueId: '10004' };
  const saved = await site.client.patch(`/api/client/integration/${site.id}`, [
    { name: vendor, active: 1, data },
  ]);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  await site.client.patch(`/api/client/integration/${site.id}`, [{ name: 'email', active: 0, data: {} }]);
}

const issue = async (site: Site, n: number) =>
  msgOf(await site.client.get(`/api/client/website/${site.id}/request/${n}`)) as IssueAnswer;

async function timeline(site: Site, n: number) {
  const res = await site.client.get<TimelinePage<TimelineEntry>>(
    `/api/client/website/${site.id}/request/${n}/activity?limit=100`,
  );
  return (msgOf(res) as TimelinePage<TimelineEntry>).entries;
}

const statusBecomes = (site: Site, n: number, status: string) =>
  eventually(
    async () => ((await issue(site, n)).status === status ? true : undefined),
    30_000,
    `status ${status}`,
  );

/** Waits for the queues to go quiet: the fake's hooks answered and what they queued applied. */
async function quiet(settle: () => Promise<void>) {
  await settle();
  await new Promise((r) => setTimeout(r, 2500));
  await settle();
}

describe('GitLab both ways', () => {
  let site: Site;
  let n: number;
  let iid: number;

  beforeAll(async () => {
    site = await newSite(stack.url, 'BASIC_PLAN');
    await connect(site, 'gitlab');
    const registered = await site.client.post(`/api/client/integration/gitlab/hook/${site.id}/register`);
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Cart total wrong', title: 'Cart' } });
    const created = await eventually(
      async () => fakes.gitlab.issues.find((i) => i.title === `#${n} Cart`),
      30_000,
      'the GitLab issue',
    );
    iid = created.iid;
    // The delivery's link (tracker issue → Snag issue) is written with its success.
    await eventually(
      async () => ((await issue(site, n)).gitlab_status === 2 ? true : undefined),
      30_000,
      'passed',
    );
  });

  it('registers the project hook with the secret, for issue and note events, at the exact inbound URL', async () => {
    const shown = msgOf(
      await site.client.get(`/api/client/integration/gitlab/hook/${site.id}`),
    ) as HookAnswer;
    expect(shown.url).toMatch(new RegExp(`^${stack.url}/api/hooks/gitlab/[0-9a-f]{32}$`));
    expect(shown.secret).toBeUndefined();
    const revealed = msgOf(
      await site.client.post(`/api/client/integration/gitlab/hook/${site.id}/secret`),
    ) as HookAnswer;
    const hook = fakes.gitlab.hooks.find((h) => h.url === shown.url);
    expect(hook).toMatchObject({
      projectId: 101,
      token: revealed.secret,
      issues_events: true,
      note_events: true,
    });
    expect(shown.registered?.id).toBe(String(hook?.id));
  });

  it('closed on GitLab → resolved in Snag, with the tracker as actor and its link; nothing sent back', async () => {
    const puts = () => fakes.gitlab.requests.filter((r) => r.method === 'PUT').length;
    const reads = () =>
      fakes.gitlab.requests.filter(
        (r) => r.method === 'GET' && r.path === `/api/v4/projects/101/issues/${iid}`,
      ).length;
    const before = puts();
    const readBefore = reads();
    const [delivery] = await fakes.gitlab.actAsHuman(101, iid, { kind: 'close' });
    expect(delivery?.status).toBe(202);
    await statusBecomes(site, n, 'resolved');
    const entry = (await timeline(site, n)).find((e) => e.type === 'activity' && e.kind === 'status');
    expect(entry).toMatchObject({
      actor: { kind: 'tracker', vendor: 'gitlab', name: 'Jane Doe on GitLab' },
      from: 'new',
      to: 'resolved',
    });
    expect((entry as { actor: { url?: string } }).actor.url).toMatch(new RegExp(`/-/issues/${iid}$`));
    await quiet(() => fakes.gitlab.settled());
    // The change came from GitLab: no close (or reopen) is sent back to it; the one read is the sync's
    // re-read of the issue before changing Snag's (a write-back would read it again first).
    expect(puts()).toBe(before);
    expect(reads() - readBefore).toBe(1);

    // A redelivery of the same hook (GitLab's "Resend request") is taken once.
    expect(await fakes.gitlab.resend(delivery as NonNullable<typeof delivery>)).toBe(202);
    await quiet(() => fakes.gitlab.settled());
    const statuses = (await timeline(site, n)).filter((e) => e.type === 'activity' && e.kind === 'status');
    expect(statuses).toHaveLength(1);
  });

  it('reopened on GitLab → new in Snag', async () => {
    await fakes.gitlab.actAsHuman(101, iid, { kind: 'reopen' });
    await statusBecomes(site, n, 'new');
  });

  it('resolved in Snag → closed on GitLab once; its own hook coming back changes nothing', async () => {
    const res = await site.client.patch(`/api/client/website/${site.id}/request/${n}`, {
      status: 'resolved',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await eventually(
      async () =>
        fakes.gitlab.issues.find((i) => i.iid === iid && i.projectId === 101)?.state === 'closed'
          ? true
          : undefined,
      30_000,
      'closed on GitLab',
    );
    const put = fakes.gitlab.requests.filter((r) => r.method === 'PUT').at(-1);
    expect(put?.body).toEqual({ state_event: 'close' });
    expect(put?.headers['private-token']).toBe('glpat-sync');
    await quiet(() => fakes.gitlab.settled());
    // GitLab's Issue Hook for our own close was answered and dropped: still resolved, one entry by the member.
    const echo = fakes.gitlab.deliveries.at(-1);
    expect(echo?.headers['x-gitlab-event']).toBe('Issue Hook');
    expect(echo?.status).toBe(202);
    expect((await issue(site, n)).status).toBe('resolved');
    const last = (await timeline(site, n)).filter((e) => e.type === 'activity' && e.kind === 'status').at(-1);
    expect(last).toMatchObject({ actor: { kind: 'member' }, to: 'resolved' });
    expect(fakes.gitlab.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('a GitLab comment → an internal Snag comment by "Jane Doe on GitLab", once', async () => {
    const [delivery] = await fakes.gitlab.actAsHuman(101, iid, { kind: 'comment', body: 'Fixed in 2.3.1' });
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
    expect(await fakes.gitlab.resend(delivery as NonNullable<typeof delivery>)).toBe(202);
    await quiet(() => fakes.gitlab.settled());
    const copies = (await timeline(site, n)).filter(
      (e) => e.type === 'comment' && e.body === 'Fixed in 2.3.1',
    );
    expect(copies).toHaveLength(1);
    // An internal comment (this one included) is never posted to GitLab.
    expect(fakes.gitlab.issues.find((i) => i.iid === iid && i.projectId === 101)?.notes).toHaveLength(1);
  });

  it('a public Snag comment → a GitLab note, made inert; its hook coming back adds nothing', async () => {
    const body = 'Thanks! /close\n@all please check';
    const posted = await site.client.post(`/api/client/website/${site.id}/request/${n}/comments`, {
      body,
      visibility: 'public',
    });
    expect(posted.status).toBe(201);
    const gl = () => fakes.gitlab.issues.find((i) => i.iid === iid && i.projectId === 101);
    const note = await eventually(
      async () => gl()?.notes.find((x) => x.body.includes('Thanks!')),
      30_000,
      'the note',
    );
    expect(note.body).toMatch(/wrote in Snag:/);
    expect(note.body).toContain('```');
    await quiet(() => fakes.gitlab.settled());
    const comments = (await timeline(site, n)).filter((e) => e.type === 'comment');
    // Jane's comment, and the member's own: the note's hook did not come back as a third.
    expect(comments).toHaveLength(2);
    expect(gl()?.notes.filter((x) => x.body.includes('Thanks!'))).toHaveLength(1);
  });

  it('a tracker that refuses the re-read (token revoked) drops the event at once: no retries, Snag unchanged', async () => {
    fakes.gitlab.revoke('glpat-sync');
    const reads = () =>
      fakes.gitlab.requests.filter(
        (r) => r.method === 'GET' && r.path === `/api/v4/projects/101/issues/${iid}`,
      ).length;
    const before = reads();
    await fakes.gitlab.actAsHuman(101, iid, { kind: 'reopen' });
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
    site = await newSite(stack.url, 'BASIC_PLAN');
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
    fakes.jira.configureWebhook({ url: String(hook.url), secret: String(hook.secret) });
    n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Login loops', title: 'Login' } });
    const created = await eventually(
      async () => fakes.jira.issues.find((i) => i.fields.summary === `#${n} Login`),
      30_000,
      'the Jira issue',
    );
    key = created.key;
    await eventually(
      async () => ((await issue(site, n)).jira_status === 2 ? true : undefined),
      30_000,
      'passed',
    );
  });

  afterAll(() => fakes.jira.configureWebhook(null));

  it('done on Jira → resolved; back to To Do → new; nothing sent back', async () => {
    const [delivery] = await fakes.jira.actAsHuman(key, { kind: 'done' });
    expect(delivery?.status).toBe(202);
    await statusBecomes(site, n, 'resolved');
    const entry = (await timeline(site, n)).find((e) => e.type === 'activity' && e.kind === 'status');
    expect(entry).toMatchObject({ actor: { kind: 'tracker', vendor: 'jira', name: 'Jane Doe on Jira' } });
    expect((entry as { actor: { url?: string } }).actor.url).toBe(`${fakes.jira.url}/browse/${key}`);
    await fakes.jira.actAsHuman(key, { kind: 'reopen' });
    await statusBecomes(site, n, 'new');
    await quiet(() => fakes.jira.settled());
    expect(
      fakes.jira.requests.filter((r) => r.path.endsWith('/transitions') && r.method === 'POST'),
    ).toHaveLength(0);
  });

  it('resolved in Snag → a done transition on Jira; its webhook coming back changes nothing', async () => {
    await site.client.patch(`/api/client/website/${site.id}/request/${n}`, { status: 'resolved' });
    await eventually(
      async () =>
        fakes.jira.issues.find((i) => i.key === key)?.status.category === 'done' ? true : undefined,
      30_000,
      'done on Jira',
    );
    const post = fakes.jira.requests.filter((r) => r.path.endsWith('/transitions') && r.method === 'POST');
    expect(post.map((r) => r.body)).toEqual([{ transition: { id: '31' } }]);
    await quiet(() => fakes.jira.settled());
    expect(fakes.jira.deliveries.at(-1)?.status).toBe(202);
    const statuses = (await timeline(site, n)).filter((e) => e.type === 'activity' && e.kind === 'status');
    expect(statuses.at(-1)).toMatchObject({ actor: { kind: 'member' }, to: 'resolved' });
    expect(statuses).toHaveLength(3);
  });

  it('comments both ways: Jira → internal Snag comment once; public Snag comment → ADF comment on Jira', async () => {
    const [delivery] = await fakes.jira.actAsHuman(key, { kind: 'comment', body: 'Looking into it' });
    await eventually(
      async () => (await timeline(site, n)).find((e) => e.type === 'comment' && e.body === 'Looking into it'),
      30_000,
      'the synced comment',
    );
    expect(await fakes.jira.resend(delivery as NonNullable<typeof delivery>)).toBe(202);
    await site.client.post(`/api/client/website/${site.id}/request/${n}/comments`, {
      body: 'We shipped a fix',
      visibility: 'public',
    });
    const jiraComment = await eventually(
      async () =>
        fakes.jira.requests.find(
          (r) => r.path.endsWith('/comment') && JSON.stringify(r.body).includes('We shipped a fix'),
        ),
      30_000,
      'the Jira comment',
    );
    expect(jiraComment.body).toMatchObject({ body: { type: 'doc', version: 1 } });
    await quiet(() => fakes.jira.settled());
    const comments = (await timeline(site, n)).filter((e) => e.type === 'comment');
    expect(comments.map((c) => (c as { body: string }).body).sort()).toEqual([
      'Looking into it',
      'We shipped a fix',
    ]);
    expect(comments.find((c) => (c as { body: string }).body === 'Looking into it')).toMatchObject({
      visibility: 'internal',
      author: { name: 'Jane Doe on Jira' },
    });
  });
});
