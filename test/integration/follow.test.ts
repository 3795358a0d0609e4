/**
 * A duplicate follows its primary's resolution (docs/similar.md "Following the primary", decision Mrg-7)
 * through the local stack: reports filed through the widget's intake, merged through the dashboard's call,
 * the primary resolved and reopened through the dashboard's PATCH, the duplicates moved by the fan-out
 * consumer off the real queue. Covered: the open ones are resolved with it and the one resolved on its own
 * is left alone; the lists' counts and Insights; one resolution mail per reporter (the SES stand-in);
 * reopening returns them; unmerging after following restores the status it had; a redelivered event changes
 * nothing and records nothing twice; a member's change racing with the move.
 */
import { describe, expect, it } from 'vitest';
import type { InsightsAnswer } from '#contracts/insights';
import type { IssueAnswer, IssueListAnswer } from '#contracts/review';
import type { TimelineEntry, TimelinePage } from '#contracts/triage';
import { getItems } from '#runtime/db';
import { publish } from '#runtime/publish';
import { followDecision, followPrimary } from '../../functions/issues/follow';
import { issueHeaderKey } from '../../functions/issues/issue';
import { followChange } from '../../functions/issues/triage';
import type { SentMail } from '../support/api-client';
import { eventually } from '../support/local-stack';
import { type Person, person, projectOf } from '../support/members-teams';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam, inDays, setTeamPlan } from '../support/teams';
import { widgetCall } from '../support/widget';

const stack = setUpTestStack();
const SITE = 'https://www.shop.example';

let reports = 0;
let visitors = 0;
const visitorEmail = () => `follow-visitor-${++visitors}-${Date.now()}@mail.example`;

async function report(pid: string, email = ''): Promise<number> {
  const visitor = `198.18.${++reports % 250}.${(Math.floor(reports / 250) % 250) + 1}:41000`;
  const body = {
    msg: 'The checkout button does nothing',
    username: email,
    browser: 'Chrome',
    os: 'Windows',
    deviceType: 'Desktop',
    href: `${SITE}/checkout`,
  };
  const res = await widgetCall(stack.url, pid, 'request', body, { origin: SITE, visitor });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { msg: { number: number } }).msg.number;
}

async function setUp(name: string) {
  const owner = await person(stack.url);
  const member = await person(stack.url);
  await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
  const pid = await projectOf(owner.client, name);
  await addToTeam(owner.id, member.id, 'MEMBER');
  await owner.client.patch(`/api/client/website/${pid}`, { data: { reporterUpdates: true } });
  // The project's mail integration off: the only mails are the reporters'.
  await owner.client.patch(`/api/client/integration/${pid}`, [{ name: 'email', active: 0, data: {} }]);
  const path = (n: number) => `/api/client/website/${pid}/request/${n}`;
  const api = {
    pid,
    owner,
    member,
    path,
    status: (n: number, status: string, who: Person = owner) => who.client.patch(path(n), { status }),
    merge: async (n: number, into: number) =>
      expect((await owner.client.post(`${path(n)}/merge`, { into })).status).toBe(200),
    unmerge: (n: number) => owner.client.delete(`${path(n)}/merge`),
    async detail(n: number): Promise<IssueAnswer> {
      const res = await owner.client.get<IssueAnswer>(path(n));
      expect(res.status).toBe(200);
      return (res.body as { msg: IssueAnswer }).msg;
    },
    async statuses(ns: number[]): Promise<string[]> {
      return Promise.all(ns.map(async (n) => String((await api.detail(n)).status)));
    },
    async activity(n: number): Promise<Record<string, unknown>[]> {
      const res = await owner.client.get<TimelinePage<TimelineEntry>>(`${path(n)}/activity?limit=100`);
      return (res.body as { msg: TimelinePage<TimelineEntry> }).msg.entries as unknown as Record<
        string,
        unknown
      >[];
    },
    async kinds(n: number, kind: string) {
      return (await api.activity(n)).filter((e) => e.kind === kind);
    },
    async total(resolved: boolean): Promise<number> {
      const res = await owner.client.get<IssueListAnswer>(
        `/api/client/website/${pid}/request?page=1${resolved ? '&resolved=1' : ''}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as { msg: IssueListAnswer }).msg.total_requests;
    },
    async insights(): Promise<InsightsAnswer> {
      const res = await owner.client.get<InsightsAnswer>(`/api/client/website/${pid}/insights?period=7`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as { msg: InsightsAnswer }).msg;
    },
  };
  return api;
}

/** Waits until `ns` have `want` as their statuses (the fan-out consumer moves them off the request path). */
async function statusesBecome(api: Awaited<ReturnType<typeof setUp>>, ns: number[], want: string[]) {
  await eventually(
    async () => (JSON.stringify(await api.statuses(ns)) === JSON.stringify(want) ? true : undefined),
    30_000,
    `#${ns.join(', #')} ${want.join(', ')}`,
  );
}

async function mailsTo(email: string): Promise<SentMail[]> {
  const res = await fetch(new URL(`/api/dev/emails?to=${encodeURIComponent(email)}`, stack.url));
  return ((await res.json()) as { msg: SentMail[] }).msg;
}
const resolvedMails = async (email: string) =>
  (await mailsTo(email)).filter((m) => /resolved|fixed/i.test(`${m.subject} ${m.text}`)).length;
const flush = () => stack.runSchedule('notifications');

describe('a duplicate follows its primary', () => {
  it('is resolved with it (2 open follow, 1 resolved on its own stays), counted right, each reporter mailed once; reopening returns them', async () => {
    const api = await setUp('Follow');
    const [pe, e1, e2] = [visitorEmail(), visitorEmail(), visitorEmail()];
    const primary = await report(api.pid, pe);
    const d1 = await report(api.pid, e1);
    const d2 = await report(api.pid, e2);
    const d3 = await report(api.pid);
    expect((await api.status(d2, 'in_progress')).status).toBe(200);
    expect((await api.status(d3, 'resolved')).status).toBe(200);
    for (const d of [d1, d2, d3]) await api.merge(d, primary);
    await flush();
    expect(await api.total(false)).toBe(3);

    expect((await api.status(primary, 'resolved')).status).toBe(200);
    await statusesBecome(api, [d1, d2, d3], ['resolved', 'resolved', 'resolved']);
    // The list's counters and Insights moved with them: nothing open is left.
    expect([await api.total(false), await api.total(true)]).toEqual([0, 4]);
    let insights = await api.insights();
    expect(insights.open.total).toBe(0);
    expect(insights.oldestOpen).toEqual([]);
    expect(insights.resolve.resolved).toBe(4);
    // The activity says why, by Snag, with the status each had; the one resolved on its own has none.
    const followed = await api.kinds(d2, 'followed');
    expect(followed.map((e) => [e.from, e.to, (e.actor as { kind: string }).kind])).toEqual([
      ['in_progress', primary, 'system'],
    ]);
    expect(await api.kinds(d3, 'followed')).toEqual([]);
    // One resolution mail per reporter: the primary's resolution mailed the duplicates' reporters, their
    // own moves did not mail them again.
    await eventually(
      async () => {
        await flush();
        const got = await Promise.all([pe, e1, e2].map(resolvedMails));
        return got.every((c) => c === 1) ? true : undefined;
      },
      30_000,
      'one resolution mail each',
    );
    await new Promise((r) => setTimeout(r, 1500));
    await flush();
    expect(await Promise.all([pe, e1, e2].map(resolvedMails))).toEqual([1, 1, 1]);

    // Reopened: the two go back to the status each had; the one resolved on its own stays resolved.
    expect((await api.status(primary, 'new')).status).toBe(200);
    await statusesBecome(api, [d1, d2, d3], ['new', 'in_progress', 'resolved']);
    expect((await api.kinds(d2, 'unfollowed')).map((e) => [e.from, e.to])).toEqual([
      [primary, 'in_progress'],
    ]);
    expect([await api.total(false), await api.total(true)]).toEqual([3, 1]);
    insights = await api.insights();
    expect(insights.open.total).toBe(3);
    expect(insights.open.byStatus.find((s) => s.status === 'in_progress')?.count).toBe(1);
    // Oldest open: the primary's row stands for its open duplicates.
    expect(insights.oldestOpen.map((o) => o.number)).toEqual([primary]);
    // The resolve counts taken back with each reopen: only d3's own resolution stays counted.
    expect(insights.resolve.resolved).toBe(1);
  });

  it('unmerged after following, goes back to the status it had at once; a redelivered event changes nothing', async () => {
    const api = await setUp('Unmerge');
    const primary = await report(api.pid);
    const d1 = await report(api.pid);
    const d2 = await report(api.pid);
    expect((await api.status(d2, 'in_review')).status).toBe(200);
    for (const d of [d1, d2]) await api.merge(d, primary);
    expect((await api.status(primary, 'resolved')).status).toBe(200);
    await statusesBecome(api, [d1, d2], ['resolved', 'resolved']);

    // Delivered again (SQS delivers at least once): the same event, through the real queue.
    const event = {
      type: 'issue.updated' as const,
      projectId: api.pid,
      issueNumber: primary,
      actor: { kind: 'system' as const, name: 'Test' },
      at: new Date().toISOString(),
      changes: { status: { from: 'new', to: 'resolved' } },
    };
    await publish('fanout', [{ message: event }, { message: event }]);
    expect(await followPrimary(api.pid, primary)).toBe(0);
    await new Promise((r) => setTimeout(r, 3000));
    for (const d of [d1, d2]) expect(await api.kinds(d, 'followed')).toHaveLength(1);
    expect([await api.total(false), await api.total(true)]).toEqual([0, 3]);

    const res = await api.unmerge(d2);
    expect(res.status).toBe(200);
    // At once: the unmerge's answer is followed by the restored issue, not eventually.
    const view = await api.detail(d2);
    expect([view.status, view.duplicateOf]).toEqual(['in_review', undefined]);
    expect((await api.kinds(d2, 'unfollowed')).map((e) => [e.from, e.to])).toEqual([[primary, 'in_review']]);
    expect([await api.total(false), await api.total(true)]).toEqual([1, 2]);
    // A second unmerge, and the fan-out's own try from `issue.unmerged`, change nothing more.
    expect((await api.unmerge(d2)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await api.kinds(d2, 'unfollowed')).toHaveLength(1);
    expect(await api.statuses([d1, d2])).toEqual(['resolved', 'in_review']);
    // Reopening the primary now leaves d2 alone (it stands alone) and returns d1.
    expect((await api.status(primary, 'in_progress')).status).toBe(200);
    await statusesBecome(api, [d1, d2], ['new', 'in_review']);
  });

  it("a member's change racing with the move: the move reads again and decides again", async () => {
    const api = await setUp('Race');
    const primary = await report(api.pid);
    const [d1, d2] = [await report(api.pid), await report(api.pid)];
    for (const d of [d1, d2]) await api.merge(d, primary);
    // The move read d1 open, then a member closed it before the move wrote: the condition on `u` refuses
    // the stale write, the move reads d1 again, finds it closed by the member, and leaves it so.
    const [stale] = await getItems([issueHeaderKey(api.pid, d1)]);
    expect((await api.status(d1, 'closed', api.member)).status).toBe(200);
    const moved = await followChange(api.pid, d1, stale, (h) => followDecision(h, primary, 'resolved'));
    expect(moved).toBeNull();
    expect(await api.statuses([d1])).toEqual(['closed']);
    expect(await api.kinds(d1, 'followed')).toEqual([]);

    // A member's priority change at the same moment as the primary's resolution: both land, counts exact.
    await Promise.all([
      api.status(primary, 'resolved'),
      api.member.client.patch(api.path(d2), { priority: 'high' }),
    ]);
    await statusesBecome(api, [d2], ['resolved']);
    expect((await api.detail(d2)).priority).toBe('high');
    expect(await api.kinds(d2, 'followed')).toHaveLength(1);
    expect([await api.total(false), await api.total(true)]).toEqual([0, 3]);
    // The member set d1's status on their own: the primary's reopening leaves it closed; d2 returns.
    expect((await api.status(primary, 'new')).status).toBe(200);
    await statusesBecome(api, [d1, d2], ['closed', 'new']);
    expect((await api.insights()).open.total).toBe(2);
  });
});
