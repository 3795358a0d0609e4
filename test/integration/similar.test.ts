/**
 * Similar reports through the local stack (issue 37, docs/similar.md): reports filed through the widget's own
 * calls (with their screenshots as PNG uploads) reach the similar queue, the real consumer computes their
 * signals and suggestions, and the routes answer them; who may read them (another client is refused, a guest
 * only sees their own project's); the project rule linkExactMatches on and off; hostile reports; erased and deleted
 * reports (nothing of them left, suggested nowhere, a consumer run made to race with both at its worst moment).
 */
import { describe, expect, it } from 'vitest';
import type { SimilarAnswer } from '#contracts/similar';
import type { TimelineEntry, TimelinePage } from '#contracts/triage';
import { dynamo } from '#runtime/aws/dynamo';
import { getItems, queryAll } from '#runtime/db';
import { createLogger } from '#runtime/log';
import { publish } from '#runtime/publish';
import { deleteIssue } from '../../functions/issues/delete-issue';
import { issueHeaderKey, n10 } from '../../functions/issues/issue';
import { computeSimilar, signalsKey } from '../../functions/issues/similar';
import { projectPartition } from '../../functions/projects/project';
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

/** The partition's similarity items of report n: its signals item and its index entries. */
async function similarItemsOf(pid: string, n: number): Promise<string[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': projectPartition(pid), ':p': 'SIM' },
    ProjectionExpression: 'sk',
    ConsistentRead: true,
  });
  return items
    .map((i) => String(i.sk))
    .filter((sk) => sk === `SIM#${n10(n)}` || (sk.startsWith('SIMX#') && sk.endsWith(`#${n10(n)}`)));
}

/**
 * Runs `run` with `meanwhile` done just before its first transaction whose `action` (ConditionCheck or
 * Delete) names report n's header, on the real client: a race made to happen at its worst moment.
 */
async function interrupted<T>(
  pid: string,
  n: number,
  action: 'ConditionCheck' | 'Delete',
  run: () => Promise<T>,
  meanwhile: () => Promise<unknown>,
): Promise<T> {
  const name = `interrupt${n}${action}`;
  const sk = JSON.stringify(issueHeaderKey(pid, n));
  let pending = true;
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const items = (args.input as { TransactItems?: Record<string, { Key?: unknown }>[] }).TransactItems;
      const names = items?.some((i) => JSON.stringify(i[action]?.Key ?? {}) === sk);
      if (pending && context.commandName === 'TransactWriteItemsCommand' && names) {
        pending = false;
        await meanwhile();
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    const out = await run();
    expect(pending).toBe(false);
    return out;
  } finally {
    dynamo().middlewareStack.remove(name);
  }
}

const consume = (pid: string, n: number) => () => computeSimilar(pid, n, createLogger());

describe('erased and deleted reports', () => {
  const checkout = {
    title: 'Checkout broken',
    msg: 'The pay button does nothing on the checkout page',
    href: `${SITE}/checkout`,
    logs: [],
  };
  const erase = async (client: ApiClient, tid: string, email: string) => {
    const res = await client.post(`/api/client/team/${tid}/privacy/erase`, { email, confirm: email });
    expect(res.body).toMatchObject({ status: 'success', msg: { erased: 1 } });
  };

  it('an erase deletes the report’s signals and index entries: suggested nowhere, no suggestions, never computed again', async () => {
    const owner = await person(stack.url);
    const pid = await project(owner.client);
    const visitor = `visitor-${Date.now()}@example.org`;
    const a = await fileReport(stack.url, pid, SITE, { fields: { ...checkout, username: visitor } });
    const b = await file(pid, {
      ...checkout,
      msg: 'Pay button on checkout does nothing at all',
      screen: null,
    });
    expect((await similarOf(owner.client, pid, b)).similar.map((s) => s.number)).toEqual([a]);
    expect((await similarOf(owner.client, pid, a)).similar.map((s) => s.number)).toEqual([b]);
    expect((await similarItemsOf(pid, a)).length).toBeGreaterThan(1);

    await erase(owner.client, owner.id, visitor);
    expect(await similarItemsOf(pid, a)).toEqual([]);
    expect((await similarItemsOf(pid, b)).length).toBeGreaterThan(1);
    expect(await similarOf(owner.client, pid, b)).toEqual({ ready: true, similar: [] });
    expect(await similarOf(owner.client, pid, a)).toEqual({ ready: true, similar: [] });
    // A late or redelivered message does not compute them again from what the issue still holds (its page).
    expect((await computeSimilar(pid, a, createLogger())).outcome).toBe('gone');
    expect(await similarItemsOf(pid, a)).toEqual([]);
  });

  it('a run in flight while its report is erased or deleted leaves no items behind and names it to no one', async () => {
    const owner = await person(stack.url);
    const pid = await project(owner.client);
    const b = await file(pid, { ...checkout, screen: null });
    expect(await similarOf(owner.client, pid, b)).toEqual({ ready: true, similar: [] });
    const visitor = `visitor-${Date.now()}@example.org`;
    // Filed without the queue's message: the consumer runs only when the test says.
    await seedIssues(
      pid,
      2,
      () => 'Checkout broken',
      (issue) => ({
        ...issue,
        msg: 'Pay button on checkout does nothing at all',
        data: { ...issue.data, href: checkout.href, username: issue.number === b + 1 ? visitor : '' },
      }),
    );
    const [erased, deleted] = [b + 1, b + 2];

    // The erase and the deletion happen after the consumer's first read, before its first write.
    const runErased = await interrupted(pid, erased, 'ConditionCheck', consume(pid, erased), () =>
      erase(owner.client, owner.id, visitor),
    );
    expect(runErased.outcome).toBe('gone');
    expect(await similarItemsOf(pid, erased)).toEqual([]);

    const runDeleted = await interrupted(pid, deleted, 'ConditionCheck', consume(pid, deleted), () =>
      deleteIssue(pid, deleted),
    );
    expect(runDeleted.outcome).toBe('gone');
    expect(await similarItemsOf(pid, deleted)).toEqual([]);

    expect(await getItems([issueHeaderKey(pid, deleted)])).toEqual([undefined]);
    // Neither reached b's candidates; b itself is untouched and still computed.
    const [sim] = await getItems([signalsKey(pid, b)]);
    expect(Object.keys((sim?.cand ?? {}) as object)).toEqual([]);
    expect(await similarOf(owner.client, pid, b)).toEqual({ ready: true, similar: [] });

    // The other way round: a run that finishes after the deletion read the issue, before its header went.
    await seedIssues(
      pid,
      1,
      () => 'Checkout broken',
      (issue) => ({ ...issue, data: { ...issue.data, href: checkout.href } }),
    );
    const late = b + 3;
    const outcome = await interrupted(
      pid,
      late,
      'Delete',
      () => deleteIssue(pid, late),
      async () => {
        expect((await consume(pid, late)()).outcome).toBe('computed');
        expect((await similarItemsOf(pid, late)).length).toBeGreaterThan(1);
      },
    );
    expect(outcome).toBe('deleted');
    expect(await similarItemsOf(pid, late)).toEqual([]);
  });
});
