/**
 * Similar reports through the local stack (issue 37, docs/similar.md): reports filed through the widget's own
 * calls (with their screenshots as PNG uploads) reach the similar queue, the real consumer computes their
 * signals and suggestions, and the routes answer them; who may read them (another client is refused, a guest
 * only sees their own project's); the project rule linkExactMatches on and off; hostile reports.
 */
import { describe, expect, it } from 'vitest';
import type { SimilarAnswer } from '#contracts/similar';
import type { TimelineEntry, TimelinePage } from '#contracts/triage';
import { publish } from '#runtime/publish';
import { corpusPng } from '../bench/similar';
import { type CorpusReport, corpus } from '../fixtures/similar/corpus';
import type { ApiClient } from '../support/api-client';
import { seedIssues } from '../support/issues';
import { eventually } from '../support/local-stack';
import { person } from '../support/members-teams';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { fileReport } from '../support/widget';

const stack = setUpTestStack();
const SITE = 'https://shop.example';

async function project(client: ApiClient, data: Record<string, unknown> = {}): Promise<string> {
  const created = await client.post<{ id: string }>('/api/client/website', {
    name: 'Shop',
    url: 'shop.example',
  });
  const id = (created.body as { msg: { id: string } }).msg.id;
  if (Object.keys(data).length)
    expect((await client.patch(`/api/client/website/${id}`, { data })).status).toBe(200);
  return id;
}

/** Files a corpus report through the widget's calls, its screenshot as a PNG upload; answers the number. */
const file = (pid: string, r: Pick<CorpusReport, 'title' | 'msg' | 'href' | 'logs' | 'screen'>) =>
  fileReport(stack.url, pid, SITE, {
    fields: { title: r.title, msg: r.msg, href: r.href, logs: r.logs },
    ...(r.screen ? { screenshots: [{ type: 'image/png' as const, content: corpusPng(r.screen) }] } : {}),
  });

const similarPath = (pid: string, n: number) => `/api/client/website/${pid}/request/${n}/similar`;

/** The suggestions once the consumer has run (ready). */
async function similarOf(client: ApiClient, pid: string, n: number): Promise<SimilarAnswer> {
  return eventually(
    async () => {
      const res = await client.get<SimilarAnswer>(similarPath(pid, n));
      expect(res.status).toBe(200);
      const answer = (res.body as { msg: SimilarAnswer }).msg;
      return answer.ready ? answer : undefined;
    },
    30_000,
    `the suggestions of #${n}`,
  );
}

describe('suggestions on a slice of the corpus, through the real consumer', () => {
  it('suggests the same bug first, with reasons, and never a near miss on the same page above it', async () => {
    const owner = await person(stack.url);
    const pid = await project(owner.client);
    // Two bugs on the checkout page (near misses of each other) and one on the cart, interleaved as they come.
    const all = corpus();
    const slice = [
      ...all.filter((r) => r.group === 'checkout-pay-button').slice(0, 5),
      ...all.filter((r) => r.group === 'checkout-coupon').slice(0, 4),
      ...all.filter((r) => r.group === 'cart-remove-item').slice(0, 3),
    ].sort((a, b) => a.id - b.id);
    const numbers: number[] = [];
    for (const r of slice) numbers.push(await file(pid, r));
    const groupOf = new Map(numbers.map((n, i) => [n, slice[i]!.group]));

    let right = 0;
    for (const [i, n] of numbers.entries()) {
      const { similar } = await similarOf(owner.client, pid, n);
      expect(similar.length).toBeLessThanOrEqual(5);
      expect(similar.map((s) => s.number)).not.toContain(n);
      for (const s of similar) {
        expect(s.reasons.length).toBeGreaterThan(0);
        expect(s.score).toBeGreaterThan(0);
        expect(s).toMatchObject({ status: 'new', reports: 1 });
      }
      expect([...similar].sort((a, b) => b.score - a.score)).toEqual(similar);
      if (similar[0] && groupOf.get(similar[0].number) === slice[i]!.group) right++;
    }
    // Every report here has duplicates in the slice: the first suggestion is one for (nearly) all of them.
    expect(right / numbers.length).toBeGreaterThanOrEqual(0.9);

    // Two pay-button reports from the same browser (its own error text) that both captured the checkout error
    // name it in words.
    const payWithError = (browser: string) =>
      numbers.filter(
        (_, i) =>
          slice[i]!.group === 'checkout-pay-button' &&
          slice[i]!.browser === browser &&
          slice[i]!.logs.some((l) => l.kind === 'exception'),
      );
    const withError =
      ['chrome', 'firefox', 'safari'].map(payWithError).find((list) => list.length >= 2) ?? [];
    expect(withError.length).toBeGreaterThanOrEqual(2);
    const { similar } = await similarOf(owner.client, pid, withError[0]!);
    const other = similar.find((s) => s.number === withError[1]);
    expect(other?.reasons).toContain('same_page_and_error');
  });
});

describe('who may read suggestions', () => {
  it('answers the owner, a guest of the project and a v1 token; refuses another client and a guest of another project', async () => {
    const owner = await person(stack.url);
    // Two projects need a paid plan (the local-only route).
    const plan = { username: owner.email, plan: 'BASIC_PLAN', days: 30 };
    expect((await owner.client.post('/api/dev/plan', plan)).status).toBe(200);
    const pid = await project(owner.client);
    const other = await project(owner.client);
    const report = {
      title: 'Checkout broken',
      msg: 'The pay button does nothing on the checkout page',
      href: `${SITE}/checkout`,
      logs: [],
      screen: null,
    };
    const first = await file(pid, report);
    const second = await file(pid, { ...report, msg: 'Pay button on checkout does nothing at all' });
    const answer = await similarOf(owner.client, pid, second);
    expect(answer.similar.map((s) => s.number)).toEqual([first]);

    const guest = await person(stack.url);
    await addToTeam(owner.id, guest.id, 'GUEST', [pid]);
    expect((await similarOf(guest.client, pid, second)).similar.map((s) => s.number)).toEqual([first]);
    const otherGuest = await person(stack.url);
    await addToTeam(owner.id, otherGuest.id, 'GUEST', [other]);
    expect((await otherGuest.client.get(similarPath(pid, second))).status).toBe(404);
    const stranger = await person(stack.url);
    const refused = await stranger.client.get(similarPath(pid, second));
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    // An issue that does not exist is NOT_FOUND, not an empty list.
    expect((await owner.client.get(similarPath(pid, 9999))).status).toBe(404);

    const made = await owner.client.post<{ token: string }>(`/api/client/team/${owner.id}/tokens`, {
      name: 'CI',
      scopes: ['issues:read'],
    });
    const token = (made.body as { msg: { token: string } }).msg.token;
    const res = await fetch(`${stack.url}/api/v1/projects/${pid}/issues/${second}/similar`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { msg: SimilarAnswer }).msg).toEqual(answer);
  });
});

const activityOf = async (client: ApiClient, pid: string, n: number) =>
  (
    (await client.get<TimelinePage<TimelineEntry>>(`/api/client/website/${pid}/request/${n}/activity`))
      .body as {
      msg: TimelinePage<TimelineEntry>;
    }
  ).msg.entries.filter((e) => e.type === 'activity' && e.kind === 'linked');

describe('the project rule linkExactMatches', () => {
  const crash = (msg: string) => ({
    title: 'Crash',
    msg,
    href: `${SITE}/orders/1234?x=1`,
    logs: [
      {
        t: 1,
        level: 'error' as const,
        kind: 'exception' as const,
        msg: 'TypeError: e.total is undefined https://shop.example/app.js:12',
      },
    ],
    screen: null,
  });

  it('links nothing while off, and links a new exact match to the oldest open issue when on, never merging', async () => {
    const owner = await person(stack.url);
    const pid = await project(owner.client);
    const a = await file(pid, crash('The order page crashes'));
    const b = await file(pid, crash('Order details do not load'));
    await similarOf(owner.client, pid, b);
    expect(await activityOf(owner.client, pid, b)).toEqual([]);
    expect(await activityOf(owner.client, pid, a)).toEqual([]);

    expect(
      (await owner.client.patch(`/api/client/website/${pid}`, { data: { linkExactMatches: true } })).status,
    ).toBe(200);
    // Same page (another order's id) and the same error (another line): an exact match of both.
    const c = await file(pid, {
      ...crash('Blank screen after clicking my order'),
      href: `${SITE}/orders/98765`,
    });
    await similarOf(owner.client, pid, c);
    const onNew = await activityOf(owner.client, pid, c);
    expect(onNew).toEqual([
      expect.objectContaining({ kind: 'linked', to: a, reason: 'same_page_and_error' }),
    ]);
    expect(await activityOf(owner.client, pid, a)).toEqual([
      expect.objectContaining({ kind: 'linked', to: c, reason: 'same_page_and_error' }),
    ]);
    // Linked, not merged: the new report stays an issue of its own, open, and both still suggest each other.
    const issue = await owner.client.get<{ deleted: number }>(`/api/client/website/${pid}/request/${c}`);
    expect(issue.body).toMatchObject({ status: 'success', msg: { deleted: 0 } });
    expect((await similarOf(owner.client, pid, c)).similar.map((s) => s.number)).toContain(a);
  });
});

describe('hostile reports', () => {
  it('computes bounded signals for 100 KB of one word, an emoji-only description and a 50-segment address', async () => {
    const owner = await person(stack.url);
    const pid = await project(owner.client);
    // Through the widget: its own limits (2,000 characters) hold; the emoji-only one is filed.
    const emoji = await file(pid, {
      title: '😀',
      msg: '😀🔥😀🔥 💥',
      href: `${SITE}/`,
      logs: [],
      screen: null,
    });
    expect((await similarOf(owner.client, pid, emoji)).similar).toEqual([]);
    const tooLong = await fetch(`${stack.url}/api/website/${pid}/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SITE },
      body: JSON.stringify({ msg: 'broken '.repeat(15_000) }),
    });
    expect(tooLong.status).toBeGreaterThanOrEqual(400);
    expect(tooLong.status).toBeLessThan(500);

    // Stored past the widget's limits (an older widget, an import): the consumer still bounds its work.
    const long = `${SITE}/${Array.from({ length: 50 }, (_, i) => `seg${i}`).join('/')}`;
    await seedIssues(
      pid,
      1,
      () => 'Huge',
      (issue) => ({
        ...issue,
        msg: 'broken'.repeat(17_000),
        data: { ...issue.data, href: long },
      }),
    );
    const n = emoji + 1;
    await publish('similar', [{ message: { type: 'issue.created', projectId: pid, issueNumber: n } }]);
    const answer = await similarOf(owner.client, pid, n);
    expect(answer).toEqual({ ready: true, similar: [] });
  });
});
