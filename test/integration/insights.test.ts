/**
 * Insights through the local stack (docs/insights.md): the counters after reports, triage moves, restores,
 * retried requests and deletions; a team's sums; who may read them; the backfill of issues filed before
 * Insights; and the screen's fixed request count.
 */
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { InsightsAnswer } from '#contracts/insights';
import { resolveRelativeError } from '#contracts/insights';
import { db } from '#runtime/aws/dynamo';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { createIssue } from '../../functions/issues/create';
import { deleteIssue } from '../../functions/issues/delete-issue';
import { countReportPage } from '../../functions/issues/insights';
import { backfillInsights } from '../../functions/issues/insights-backfill';
import type { NewIssue } from '../../functions/issues/issue';
import type { ApiClient } from '../support/api-client';
import { countFunctionRequests } from '../support/dynamo-calls';
import { seedIssues } from '../support/issues';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam, inDays, setTeamPlan } from '../support/teams';
import { signedIn } from '../support/users';

const requestsOf = countFunctionRequests('api:issues');
const stack = setUpTestStack();

interface Person {
  client: ApiClient;
  uid: string;
}

async function person(): Promise<Person> {
  const { client, email } = await signedIn(stack.url);
  const uid = await findUserIdByEmail(email.toLowerCase());
  if (!uid) throw new Error('no user id');
  return { client, uid };
}

async function project(owner: Person, name: string): Promise<string> {
  const res = await owner.client.post('/api/client/website', { name, url: 'shop.example' });
  expect(res.status).toBe(201);
  return (res.body as { msg: { id: string } }).msg.id;
}

const HOUR = 3_600_000;
/** Visitors of the last hours, each with a page, browser, system and device of their own. */
const visitors = [
  {
    href: 'https://shop.example/orders/1043/pay?x=1',
    browser: 'Chrome',
    os: 'Windows',
    deviceType: 'Desktop',
  },
  {
    href: 'https://www.shop.example/orders/2210/pay',
    browser: 'Chrome',
    os: 'Android',
    deviceType: 'Mobile',
  },
  { href: 'https://shop.example/orders/77/pay#top', browser: 'Safari', os: 'iOS', deviceType: 'Mobile' },
  { href: 'https://shop.example/', browser: 'Firefox', os: 'Linux', deviceType: 'Desktop' },
] as const;

/** Files `visitors` into `pid` (through the create transaction the intake uses), the first two hours ago. */
async function report(pid: string, list: readonly (typeof visitors)[number][] = visitors) {
  const shaped: NewIssue[] = [];
  let i = 0;
  await seedIssues(pid, list.length, undefined, (issue) => {
    const v = list[i++]!;
    const out = {
      ...issue,
      createdAt: new Date(Date.now() - (i === 1 ? 2 * HOUR : 60_000)).toISOString(),
      data: { ...issue.data, ...v },
    };
    shaped.push(out);
    return out;
  });
  return shaped;
}

async function insightsOf(client: ApiClient, path: string): Promise<InsightsAnswer> {
  const res = await client.get<InsightsAnswer>(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { msg: InsightsAnswer }).msg;
}

const countOf = <K extends string>(
  list: { key?: string; status?: string; priority?: string; count: number }[],
  k: K,
) => list.find((e) => e.key === k || e.status === k || e.priority === k)?.count ?? 0;

describe('GET /api/client/website/{id}/insights', () => {
  it('counts reports, pages, browsers, systems, devices and moves, exactly once each, at a fixed cost', async () => {
    const [owner, member] = await Promise.all([person(), person()]);
    await addToTeam(owner.uid, member.uid, 'MEMBER');
    const pid = await project(owner, 'Shop');
    const empty = await insightsOf(member.client, `/api/client/website/${pid}/insights?period=7`);
    expect(empty.reports.total).toBe(0);
    expect(empty.reports.perDay).toHaveLength(7);
    expect(empty.open.total).toBe(0);
    expect(empty.resolve).toMatchObject({ resolved: 0, median: null, p90: null });

    const filed = await report(pid);
    const path = `/api/client/website/${pid}/insights?period=7`;
    let got = await insightsOf(member.client, path);
    expect(got.reports.total).toBe(4);
    expect(got.reports.perDay.reduce((s, d) => s + d.count, 0)).toBe(4);
    expect(got.top.pages[0]).toEqual({ key: 'shop.example/orders/:n/pay', count: 3 });
    expect(countOf(got.top.pages, 'shop.example/')).toBe(1);
    expect(countOf(got.top.browsers, 'chrome')).toBe(2);
    expect(countOf(got.top.systems, 'ios')).toBe(1);
    expect(countOf(got.top.devices, 'mobile')).toBe(2);
    expect(got.open.total).toBe(4);
    expect(countOf(got.open.byStatus, 'new')).toBe(4);
    expect(got.oldestOpen.map((o) => o.number)).toEqual([1, 2, 3, 4]);

    // A retried create (the same issue again) is refused by its own conditions and counts nothing.
    await expect(createIssue(filed[0]!, null)).rejects.toThrow();
    expect((await insightsOf(member.client, path)).reports.total).toBe(4);

    // Triage: one in progress and urgent, one resolved two hours after its report (sent twice).
    const issue = (n: number) => `/api/client/website/${pid}/request/${n}`;
    expect((await member.client.patch(issue(2), { status: 'in_progress', priority: 'urgent' })).status).toBe(
      200,
    );
    for (let i = 0; i < 2; i++)
      expect((await member.client.patch(issue(1), { status: 'resolved' })).status).toBe(200);
    got = await insightsOf(member.client, path);
    expect(got.open.total).toBe(3);
    expect(countOf(got.open.byStatus, 'in_progress')).toBe(1);
    expect(countOf(got.open.byStatus, 'new')).toBe(2);
    expect(countOf(got.open.byPriority, 'urgent')).toBe(1);
    expect(countOf(got.open.byPriority, 'none')).toBe(2);
    expect(got.resolve.resolved).toBe(1);
    const twoHours = 2 * 3600;
    expect(Math.abs((got.resolve.median ?? 0) - twoHours) / twoHours).toBeLessThanOrEqual(
      resolveRelativeError + 0.01,
    );
    expect(got.reports.total).toBe(4);
    expect(got.oldestOpen.map((o) => o.number)).toEqual([2, 3, 4]);

    // Restore takes the resolution back exactly; closing again counts it once more.
    expect((await member.client.patch(issue(1), { restore: true })).status).toBe(200);
    got = await insightsOf(member.client, path);
    expect(got.resolve.resolved).toBe(0);
    expect(got.open.total).toBe(4);
    expect((await member.client.patch(issue(1), { restore: false })).status).toBe(200);
    expect((await insightsOf(member.client, path)).resolve.resolved).toBe(1);

    // A deletion (retention, a data request) takes the issue out of the open figures; what was received and
    // resolved in the period stays history.
    expect(await deleteIssue(pid, 4)).toBe('deleted');
    got = await insightsOf(member.client, path);
    expect(got.open.total).toBe(2);
    expect(got.reports.total).toBe(4);
    expect(got.oldestOpen.map((o) => o.number)).toEqual([2, 3]);

    // The screen's reads: session, the access batch (META, TEAMS, six FSTATS), the day items and the open
    // list's oldest: 4, as at any size.
    const calls = await requestsOf(() => member.client.get(path));
    expect(calls).toEqual(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand', 'QueryCommand']);
  });

  it('refuses another client (404), a period it does not offer (400), and names a day of 50+ pages "other"', async () => {
    const [owner, outsider] = await Promise.all([person(), person()]);
    const pid = await project(owner, 'Pages');
    expect((await outsider.client.get(`/api/client/website/${pid}/insights`)).status).toBe(404);
    for (const bad of ['365', 'abc', '-7']) {
      const res = await owner.client.get(`/api/client/website/${pid}/insights?period=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_PARAMETERS' });
    }
    // The page counter itself (the create's one write after its commit), 53 pages on one day.
    const today = new Date().toISOString();
    for (let i = 0; i < 53; i++) await countReportPage(pid, today, `https://shop.example/section-${i}x`);
    const got = await insightsOf(owner.client, `/api/client/website/${pid}/insights?period=30`);
    expect(got.top.pages).toHaveLength(5);
    expect(got.top.otherPages).toBe(3);
  });
});

describe('GET /api/client/team/{teamId}/insights', () => {
  it("sums the team's projects for members, only the invited projects for a GUEST, and nothing for others", async () => {
    const [owner, member, guest, outsider] = await Promise.all([person(), person(), person(), person()]);
    await setTeamPlan(owner.uid, 'BUSINESS_PLAN', inDays(30));
    const a = await project(owner, 'A');
    const b = await project(owner, 'B');
    await addToTeam(owner.uid, member.uid, 'MEMBER');
    await addToTeam(owner.uid, guest.uid, 'GUEST', [a]);
    await report(a);
    await report(b, visitors.slice(0, 2));
    const path = `/api/client/team/${owner.uid}/insights?period=30`;
    const all = await insightsOf(member.client, path);
    expect(all.reports.total).toBe(6);
    expect(all.open.total).toBe(6);
    expect(all.projects.map((p) => p.name)).toEqual(['A', 'B']);
    expect(countOf(all.top.pages, 'shop.example/orders/:n/pay')).toBe(5);
    expect(all.oldestOpen).toHaveLength(5);
    const guestView = await insightsOf(guest.client, path);
    expect(guestView.projects.map((p) => p.id)).toEqual([a]);
    expect(guestView.reports.total).toBe(4);
    expect((await guest.client.get(`/api/client/website/${b}/insights`)).status).toBe(404);
    expect((await outsider.client.get(path)).status).toBe(404);
  });
});

describe('npm run ops -- insights-backfill', () => {
  it('counts issues filed before Insights once, however often it runs', async () => {
    const owner = await person();
    const pid = await project(owner, 'Legacy');
    await report(pid);
    expect(
      (await owner.client.patch(`/api/client/website/${pid}/request/1`, { status: 'resolved' })).status,
    ).toBe(200);
    const path = `/api/client/website/${pid}/insights?period=7`;
    const before = await insightsOf(owner.client, path);
    // Make them as an older version left them: no markers and no day items.
    const T = stack.tableName;
    for (let n = 1; n <= 4; n++)
      await db().send(
        new UpdateCommand({
          TableName: T,
          Key: { pk: `PROJECT#${pid}`, sk: `ISSUE#${String(n).padStart(10, '0')}` },
          UpdateExpression: 'REMOVE insC, insR',
        }),
      );
    const days = await db().send(
      new QueryCommand({
        TableName: T,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :i)',
        ExpressionAttributeValues: { ':pk': `PROJECT#${pid}`, ':i': 'INSIGHTS#' },
      }),
    );
    for (const item of days.Items ?? [])
      await db().send(new DeleteCommand({ TableName: T, Key: { pk: item.pk, sk: item.sk } }));
    expect((await insightsOf(owner.client, path)).reports.total).toBe(0);

    expect(await backfillInsights(pid)).toEqual({ reports: 4, resolutions: 1, skipped: 0 });
    expect(await backfillInsights(pid)).toEqual({ reports: 0, resolutions: 0, skipped: 0 });
    const after = await insightsOf(owner.client, path);
    expect(after.reports).toEqual(before.reports);
    expect(after.top).toEqual(before.top);
    expect(after.resolve).toEqual(before.resolve);
    // A restore after the backfill takes back exactly what the backfill counted.
    expect((await owner.client.patch(`/api/client/website/${pid}/request/1`, { restore: true })).status).toBe(
      200,
    );
    expect((await insightsOf(owner.client, path)).resolve.resolved).toBe(0);
  });
});
