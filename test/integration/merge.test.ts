/**
 * Merging similar reports (issue 37, docs/similar.md "Merging") through the local stack: reports filed by
 * visitors through the widget's intake, merged and unmerged through the dashboard's and the v1 API's calls.
 * Covered: the statuses each issue keeps, the primary's count, duplicates and affected browsers and pages,
 * the rules (self, missing, chains, a primary with duplicates, the limit's check), the activity on both
 * issues, races that keep the count exact, unmerge restoring the issue exactly, the reporter loop (the
 * status page follows the primary, the resolution mail reaches every reporter but the unsubscribed),
 * `issue.merged` / `issue.unmerged` webhooks signed, access (another client, a GUEST) and hostile bodies.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssueAnswer, IssueListAnswer } from '#contracts/review';
import type { MergeAnswer } from '#contracts/similar';
import type { TimelineEntry, TimelinePage } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { queryAll, tableName } from '#runtime/db';
import { verifyTimestampedSignature } from '#runtime/signature';
import { deleteIssue } from '../../functions/issues/delete-issue';
import { outboxKey } from '../../functions/issues/reporter';
import type { SentMail } from '../support/api-client';
import { eventually } from '../support/local-stack';
import { type Person, person, projectOf } from '../support/members-teams';
import { type Received, type Receiver, startReceiver } from '../support/receiver';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam, inDays, setTeamPlan } from '../support/teams';
import { widgetCall } from '../support/widget';

const stack = setUpTestStack({
  queues: { delivery: { visibilityTimeoutSeconds: 1, retryDelaysSeconds: [1, 1, 1, 1] } },
});
const SITE = 'https://www.shop.example';
const HOOK_TOKEN = 'whsec-merge-token-0123456789';
let owner: Person;
let member: Person;
let guest: Person;
let outsider: Person;
let projectId = '';
let otherProject = '';
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  [owner, member, guest, outsider] = await Promise.all([
    person(stack.url),
    person(stack.url),
    person(stack.url),
    person(stack.url),
  ]);
  await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
  projectId = await projectOf(owner.client, 'Shop');
  otherProject = await projectOf(owner.client, 'Blog');
  await addToTeam(owner.id, member.id, 'MEMBER');
  await addToTeam(owner.id, guest.id, 'GUEST', [otherProject]);
  await owner.client.patch(`/api/client/website/${projectId}`, { data: { reporterUpdates: true } });
  // The project's mail integration off: the only mails are the reporters'.
  await owner.client.patch(`/api/client/integration/${projectId}`, [{ name: 'email', active: 0, data: {} }]);
}, 120_000);

afterAll(async () => {
  await receiver?.close();
});

let visitors = 0;
let reports = 0;
const visitorEmail = () => `merge-visitor-${++visitors}-${Date.now()}@mail.example`;

/** A report through the widget's intake, as a visitor of the shop with `browser` on `href`. */
async function report(
  fields: { email?: string; browser?: string; href?: string; msg?: string } = {},
  pid = projectId,
): Promise<number> {
  // Each report from a network (/24) of its own, so the intake's flood limits never interfere.
  const visitor = `198.19.${++reports % 250}.${(Math.floor(reports / 250) % 250) + 1}:41000`;
  const body = {
    msg: fields.msg ?? 'The checkout button does nothing',
    username: fields.email ?? '',
    browser: fields.browser ?? 'Chrome',
    os: 'Windows',
    deviceType: 'Desktop',
    href: fields.href ?? `${SITE}/checkout?session=abc`,
  };
  const res = await widgetCall(stack.url, pid, 'request', body, { origin: SITE, visitor });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { msg: { number: number } }).msg.number;
}

const issuePath = (n: number, pid = projectId) => `/api/client/website/${pid}/request/${n}`;
const merge = (n: number, into: unknown, client = owner.client) =>
  client.post<MergeAnswer>(`${issuePath(n)}/merge`, { into });
const unmerge = (n: number, client = owner.client) => client.delete<MergeAnswer>(`${issuePath(n)}/merge`);

async function detail(n: number): Promise<IssueAnswer> {
  const res = await owner.client.get<IssueAnswer>(issuePath(n));
  expect(res.status).toBe(200);
  return (res.body as { msg: IssueAnswer }).msg;
}

const codeOf = (r: { body: { status: string; code?: string } }) =>
  r.body.status === 'error' ? r.body.code : 'success';

async function activity(n: number) {
  const res = await owner.client.get<TimelinePage<TimelineEntry>>(`${issuePath(n)}/activity?limit=100`);
  return (res.body as { msg: TimelinePage<TimelineEntry> }).msg.entries as unknown as Record<
    string,
    unknown
  >[];
}

const setStatus = (n: number, status: string) => owner.client.patch(issuePath(n), { status });

describe('merging', () => {
  it('makes a duplicate that keeps its own status, counted and listed with its reporter and device by the primary', async () => {
    const email = visitorEmail();
    const primary = await report({ browser: 'Chrome', href: `${SITE}/checkout?x=1` });
    const dup = await report({ email, browser: 'Firefox', href: `${SITE}/cart#top` });
    await setStatus(dup, 'in_progress');
    const res = await merge(dup, primary);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const answer = (res.body as { msg: MergeAnswer }).msg;
    expect(answer.issue).toEqual({ number: dup, duplicateOf: primary });
    expect(answer.primary.reports).toBe(2);
    expect(answer.primary.duplicates).toEqual([
      expect.objectContaining({
        number: dup,
        status: 'in_progress',
        reporterEmail: email,
        browser: 'Firefox',
        os: 'Windows',
        device: 'Desktop',
      }),
    ]);
    // Pages without query or fragment; the primary's own first.
    expect(answer.primary.affected).toEqual({
      browsers: ['Chrome', 'Firefox'],
      pages: [`${SITE}/checkout`, `${SITE}/cart`],
    });
    const [p, d] = await Promise.all([detail(primary), detail(dup)]);
    expect(p.reports).toBe(2);
    expect(p.duplicateOf).toBeUndefined();
    expect(d.duplicateOf).toBe(primary);
    expect(d.status).toBe('in_progress');
    expect(p.status).toBe('new');
    // Merging it there again changes nothing.
    const again = await merge(dup, primary);
    expect(again.status).toBe(200);
    expect((await detail(primary)).reports).toBe(2);
  });

  it('records the merge and the unmerge on both issues', async () => {
    const primary = await report();
    const dup = await report();
    expect((await merge(dup, primary)).status).toBe(200);
    expect((await unmerge(dup)).status).toBe(200);
    const kinds = (entries: Record<string, unknown>[]) =>
      entries
        .filter((e) => e.kind !== 'created' && e.kind !== 'comment')
        .map((e) => [e.kind, e.to ?? e.from]);
    expect(kinds(await activity(dup))).toEqual([
      ['merged', primary],
      ['unmerged', primary],
    ]);
    expect(kinds(await activity(primary))).toEqual([
      ['duplicate.added', dup],
      ['duplicate.removed', dup],
    ]);
    const [first] = (await activity(dup)).filter((e) => e.kind === 'merged');
    expect((first?.actor as { name?: string } | undefined)?.name).toBe('Ada Lovelace');
  });

  it('refuses itself, a missing issue, a duplicate as primary (naming its primary), and a primary with duplicates', async () => {
    const a = await report();
    const b = await report();
    const c = await report();
    const self = await merge(a, a);
    expect([self.status, codeOf(self)]).toEqual([400, 'INVALID_PARAMETERS']);
    const missing = await merge(a, 999_999);
    expect([missing.status, codeOf(missing)]).toEqual([422, 'MERGE_TARGET_MISSING']);
    expect((await merge(b, a)).status).toBe(200);
    const chain = await merge(c, b);
    expect([chain.status, codeOf(chain)]).toEqual([409, 'MERGE_INTO_DUPLICATE']);
    expect((chain.body as { fields?: Record<string, string> }).fields?.into).toBe(String(a));
    const primaryAway = await merge(a, c);
    expect([primaryAway.status, codeOf(primaryAway)]).toEqual([409, 'MERGE_HAS_DUPLICATES']);
    const elsewhere = await merge(b, c);
    expect([elsewhere.status, codeOf(elsewhere)]).toEqual([409, 'ALREADY_MERGED']);
    // A number of another project is no issue of this one.
    const otherIssue = await report({}, otherProject);
    const cross = await owner.client.post(`${issuePath(otherIssue, otherProject)}/merge`, { into: a });
    expect(codeOf(cross)).not.toBe('success');
    expect((await detail(a)).reports).toBe(2);
  });

  it('refuses hostile bodies with a catalogue code, never a 500', async () => {
    const a = await report();
    for (const body of [
      {},
      { into: '1' },
      { into: -1 },
      { into: 1.5 },
      { into: 1, extra: true },
      { into: 1e12 },
      [],
      null,
    ]) {
      const res = await owner.client.post(`${issuePath(a)}/merge`, body);
      expect([JSON.stringify(body), res.status, codeOf(res)]).toEqual([
        JSON.stringify(body),
        400,
        'INVALID_PARAMETERS',
      ]);
    }
    const bad = await owner.client.post(`/api/client/website/${projectId}/request/abc/merge`, { into: 1 });
    expect(bad.status).toBe(404);
  });

  it('unmerges exactly: its status, the count, the list and a second unmerge changing nothing', async () => {
    const primary = await report();
    const [d1, d2] = [await report(), await report()];
    await setStatus(d1, 'in_review');
    expect((await merge(d1, primary)).status).toBe(200);
    expect((await merge(d2, primary)).status).toBe(200);
    await setStatus(primary, 'resolved');
    const res = await unmerge(d1);
    expect(res.status).toBe(200);
    const answer = (res.body as { msg: MergeAnswer }).msg;
    expect(answer.issue).toEqual({ number: d1 });
    expect(answer.primary.reports).toBe(2);
    expect(answer.primary.duplicates.map((d) => d.number)).toEqual([d2]);
    const d = await detail(d1);
    expect([d.duplicateOf, d.status, d.reports, d.duplicates]).toEqual([undefined, 'in_review', 1, []]);
    const again = await unmerge(d1);
    expect(again.status).toBe(200);
    expect((await detail(primary)).reports).toBe(2);
  });

  it('keeps the count exact under parallel merges and unmerges, and lets no cycle form', async () => {
    const primary = await report();
    const dups = await Promise.all(Array.from({ length: 6 }, () => report()));
    const merged = await Promise.all(dups.map((d) => merge(d, primary)));
    expect(merged.map((r) => r.status)).toEqual(dups.map(() => 200));
    expect((await detail(primary)).reports).toBe(7);
    // Half unmerge while the same ones are merged again and others unmerge: the count follows the truth.
    const [a, b, c] = dups as [number, number, number];
    await Promise.all([unmerge(a), unmerge(b), unmerge(a), merge(c, primary)]);
    const p = await detail(primary);
    expect(p.reports).toBe(5);
    const byNumber = (x: number, y: number) => x - y;
    expect(p.duplicates.map((x) => x.number).sort(byNumber)).toEqual(dups.slice(2).sort(byNumber));
    // Two issues merged into each other at once: exactly one wins.
    const x = await report();
    const y = await report();
    const [xy, yx] = await Promise.all([merge(x, y), merge(y, x)]);
    expect([xy.status, yx.status].filter((s) => s === 200)).toHaveLength(1);
    const [dx, dy] = await Promise.all([detail(x), detail(y)]);
    expect([dx.duplicateOf, dy.duplicateOf].filter(Boolean)).toHaveLength(1);
    expect(dx.reports + dy.reports).toBe(3);
  });
});

describe('deleting a duplicate', () => {
  it('takes it out of its primary: count and list (the retention job deletes through it)', async () => {
    const primary = await report();
    const [d1, d2] = [await report(), await report()];
    expect((await merge(d1, primary)).status).toBe(200);
    expect((await merge(d2, primary)).status).toBe(200);
    expect(await deleteIssue(projectId, d1)).toBe('deleted');
    const p = await detail(primary);
    expect([p.reports, p.duplicates.map((d) => d.number)]).toEqual([2, [d2]]);
  });

  it('deleting a primary lets its duplicates stand alone again, says why, and leaves no similarity items', async () => {
    const primary = await report({ msg: 'Pay button greyed out on checkout' });
    const [d1, d2] = [await report(), await report()];
    expect((await merge(d1, primary)).status).toBe(200);
    expect((await merge(d2, primary)).status).toBe(200);
    // The similar consumer has written the primary's signals and index entries (data model 4.20).
    const simKeys = async () =>
      (
        await queryAll({
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
          ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':p': 'SIM' },
          ConsistentRead: true,
        })
      )
        .map((i) => String(i.sk))
        .filter((sk) => sk.endsWith(String(primary).padStart(10, '0')));
    await eventually(
      async () => ((await simKeys()).some((sk) => sk.startsWith('SIM#')) ? true : undefined),
      30_000,
      `the signals of #${primary}`,
    );
    expect((await simKeys()).filter((sk) => sk.startsWith('SIMX#')).length).toBeGreaterThan(1);

    expect(await deleteIssue(projectId, primary)).toBe('deleted');
    for (const d of [d1, d2]) {
      const view = await detail(d);
      expect([view.duplicateOf, view.reports]).toEqual([undefined, 1]);
      const released = (await activity(d)).filter((e) => e.kind === 'unmerged');
      expect(released.map((e) => [e.from, e.reason])).toEqual([[primary, 'primary.deleted']]);
    }
    expect(await simKeys()).toEqual([]);
    // A duplicate can be merged elsewhere at once, and a second deletion run changes nothing.
    expect((await merge(d2, d1)).status).toBe(200);
    expect(await deleteIssue(projectId, primary)).toBe('gone');
    expect((await activity(d1)).filter((e) => e.kind === 'unmerged')).toHaveLength(1);
  });
});

describe('lists', () => {
  it('collapse duplicates under their primary and sort the most reports first', async () => {
    const pid = await projectOf(owner.client, 'Lists');
    const [a, b, c, d, e, f] = [
      await report({}, pid),
      await report({}, pid),
      await report({}, pid),
      await report({}, pid),
      await report({}, pid),
      await report({}, pid),
    ] as [number, number, number, number, number, number];
    const into = (n: number, p: number) =>
      owner.client.post(`${issuePath(n, pid)}/merge`, { into: p }).then((r) => expect(r.status).toBe(200));
    await into(c, a);
    await into(d, a);
    await into(f, b);
    const list = async (query: string) => {
      const res = await owner.client.get<IssueListAnswer>(`/api/client/website/${pid}/request?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as { msg: IssueListAnswer }).msg;
    };
    const numbers = (answer: IssueListAnswer) => answer.requests.map((r) => r.number);
    expect(numbers(await list('page=1'))).toEqual([f, e, d, c, b, a]);
    const collapsed = await list('page=1&collapse=1');
    expect(numbers(collapsed)).toEqual([e, b, a]);
    expect(collapsed.total_requests).toBe(3);
    expect(collapsed.requests.find((r) => r.number === a)?.reports).toBe(3);
    expect(numbers(await list('page=1&collapse=1&sort=reports'))).toEqual([a, b, e]);
    expect(numbers(await list('page=1&sort=reports'))).toEqual([a, b, f, e, d, c]);
    const rows = (await list('page=1')).requests;
    expect(rows.find((r) => r.number === c)?.duplicateOf).toBe(a);
    // Filters still apply: the duplicate's own status is its own.
    await setStatusIn(pid, d, 'in_progress');
    expect(numbers(await list('page=1&status=in_progress&collapse=1'))).toEqual([]);
    expect(numbers(await list('page=1&status=in_progress&sort=reports'))).toEqual([d]);
    const bad = await owner.client.get(`/api/client/website/${pid}/request?page=1&collapse=maybe`);
    expect([bad.status, codeOf(bad)]).toEqual([400, 'INVALID_PARAMETERS']);
  });
});

const setStatusIn = (pid: string, n: number, status: string) =>
  owner.client.patch(issuePath(n, pid), { status });

describe('the reporter follows the primary', () => {
  const flush = () => stack.runSchedule('notifications');
  async function mailsTo(email: string): Promise<SentMail[]> {
    const res = await fetch(new URL(`/api/dev/emails?to=${encodeURIComponent(email)}`, stack.url));
    return ((await res.json()) as { msg: SentMail[] }).msg;
  }
  function tokenIn(mail: SentMail | undefined): string {
    const m = mail?.text.match(/https?:\/\/\S+\/r\/([A-Za-z0-9_-]{22})\b/);
    if (!m?.[1]) throw new Error(`no status link in: ${mail?.text}`);
    return m[1];
  }
  const outboxEmpty = (n: number) =>
    eventually(
      async () =>
        (
          await db().send(
            new GetCommand({ TableName: tableName(), Key: outboxKey(projectId, n), ConsistentRead: true }),
          )
        ).Item
          ? undefined
          : true,
      15_000,
      `#${n}'s outbox flushed`,
    );
  const resolvedMails = async (email: string) =>
    (await mailsTo(email)).filter((m) => /resolved|fixed/i.test(`${m.subject} ${m.text}`)).length;

  it("shows the primary's status on the duplicate's status page and mails every reporter its resolution", async () => {
    const [pe, de, ue] = [visitorEmail(), visitorEmail(), visitorEmail()];
    const primary = await report({ email: pe });
    const dup = await report({ email: de });
    const quiet = await report({ email: ue });
    await flush();
    const token = tokenIn((await mailsTo(de))[0]);
    const quietToken = tokenIn((await mailsTo(ue))[0]);
    // The third reporter unsubscribes: they hear nothing more.
    expect(
      (await fetch(new URL(`/api/reporter/${quietToken}/unsubscribe`, stack.url), { method: 'POST' })).ok,
    ).toBe(true);
    expect((await merge(dup, primary)).status).toBe(200);
    expect((await merge(quiet, primary)).status).toBe(200);
    await setStatus(primary, 'resolved');
    const status = async () =>
      (
        (await (await fetch(new URL(`/api/reporter/${token}`, stack.url))).json()) as {
          msg: { status: string };
        }
      ).msg.status;
    expect(await status()).toBe('resolved');
    await eventually(
      async () => {
        await flush();
        return (await resolvedMails(pe)) === 1 && (await resolvedMails(de)) === 1 ? true : undefined;
      },
      30_000,
      'the resolution mails of both reporters',
    );
    await outboxEmpty(quiet);
    expect(await resolvedMails(ue)).toBe(0);
    // The duplicate's own status never changed: unmerged, its reporter follows it again (open).
    expect((await unmerge(dup)).status).toBe(200);
    expect(await status()).not.toBe('resolved');
  });
});

describe('webhooks', () => {
  it('sends issue.merged and issue.unmerged, signed, to a webhook that subscribes', async () => {
    const path = `/merge/${projectId}`;
    const saved = await owner.client.patch(`/api/client/integration/${projectId}`, [
      {
        name: 'webhooks',
        active: 1,
        data: {
          url: `${receiver.url}${path}`,
          token: HOOK_TOKEN,
          events: ['issue.merged', 'issue.unmerged'],
        },
      },
    ]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const primary = await report();
    const dup = await report();
    expect((await merge(dup, primary)).status).toBe(200);
    expect((await unmerge(dup)).status).toBe(200);
    const hit = (event: string) =>
      eventually(
        async () => receiver.to(path).find((r) => JSON.parse(r.rawBody).event === event),
        60_000,
        event,
      ) as Promise<Received>;
    for (const event of ['issue.merged', 'issue.unmerged']) {
      const h = await hit(event);
      const body = JSON.parse(h.rawBody) as Record<string, { number: number; url: string }>;
      expect(body.issue?.number).toBe(dup);
      expect(body.primary?.number).toBe(primary);
      expect(body.primary?.url).toContain(`/${primary}`);
      expect(
        verifyTimestampedSignature(
          h.rawBody,
          String(h.headers['x-snag-signature']),
          HOOK_TOKEN,
          Math.floor(Date.now() / 1000),
        ),
      ).toBe(true);
    }
    await owner.client.patch(`/api/client/integration/${projectId}`, [
      { name: 'webhooks', active: 0, data: { url: `${receiver.url}${path}`, token: HOOK_TOKEN } },
    ]);
  });
});

describe('access', () => {
  it('lets a MEMBER merge, refuses another client and a GUEST, and changes nothing then', async () => {
    const primary = await report();
    const dup = await report();
    const other = await merge(dup, primary, outsider.client);
    expect([other.status, codeOf(other)]).toEqual([404, 'NOT_FOUND']);
    expect((await unmerge(dup, outsider.client)).status).toBe(404);
    // A GUEST of another project of the team does not see this one; in theirs they may not triage.
    expect((await merge(dup, primary, guest.client)).status).toBe(404);
    const g1 = await report({}, otherProject);
    const g2 = await report({}, otherProject);
    const inTheirs = await guest.client.post(`${issuePath(g1, otherProject)}/merge`, { into: g2 });
    expect([inTheirs.status, codeOf(inTheirs)]).toEqual([403, 'FORBIDDEN']);
    expect((await detail(primary)).reports).toBe(1);
    expect((await merge(dup, primary, member.client)).status).toBe(200);
    expect((await unmerge(dup, member.client)).status).toBe(200);
  });
});

describe('v1', () => {
  it('merges and unmerges with an issues:write token and shows it on the issue', async () => {
    const made = await owner.client.post<{ token: string }>(`/api/client/team/${owner.id}/tokens`, {
      name: 'merge',
      scopes: ['issues:read', 'issues:write'],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const token = (made.body as { msg: { token: string } }).msg.token;
    const v1 = (method: string, path: string, body?: unknown) =>
      fetch(new URL(path, stack.url), {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { msg: Record<string, unknown> },
      }));
    const primary = await report();
    const dup = await report();
    const base = `/api/v1/projects/${projectId}/issues`;
    const merged = await v1('POST', `${base}/${dup}/merge`, { into: primary });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect((merged.body.msg.primary as { reports: number }).reports).toBe(2);
    const issue = await v1('GET', `${base}/${dup}`);
    expect([issue.body.msg.duplicateOf, issue.body.msg.reports]).toEqual([primary, 1]);
    expect((await v1('GET', `${base}/${primary}`)).body.msg.reports).toBe(2);
    const [act] = (await activity(dup)).filter((e) => e.kind === 'merged');
    expect(JSON.stringify(act?.actor)).toContain('merge');
    expect((await v1('DELETE', `${base}/${dup}/merge`)).status).toBe(200);
    expect((await v1('GET', `${base}/${dup}`)).body.msg.duplicateOf).toBeNull();
  });
});
