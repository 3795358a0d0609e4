/**
 * A triage change that loses every retry to concurrent changes of the same issue (decision Tr-C15): the
 * tries are lowered to one (`TRIAGE_ATTEMPTS`), so parallel changes of one issue run out of them. The
 * losers answer 409 BUSY with `Retry-After`, never 500; they wrote nothing, and sending one again succeeds.
 * A bulk change that fails on one issue still announces the issues it did change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRankIndex } from '../../functions/issues/rank-check';
import { seedIssues } from '../support/issues';
import { eventually } from '../support/local-stack';
import { person, projectOf } from '../support/members-teams';
import { type Receiver, startReceiver } from '../support/receiver';
import { newSite } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';

const stack = setUpTestStack({ env: { TRIAGE_ATTEMPTS: '1' } });
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  delete process.env.TRIAGE_ATTEMPTS;
  await receiver?.close();
});

describe('a busy issue', () => {
  it('answers 409 BUSY with Retry-After to the changes that ran out of tries, and a retry succeeds', async () => {
    const owner = await person(stack.url);
    const pid = await projectOf(owner.client);
    await seedIssues(pid, 1);
    const path = `/api/client/website/${pid}/request/1`;
    const dates = Array.from({ length: 12 }, (_, i) => `2030-01-${String(i + 1).padStart(2, '0')}`);
    const answers = await Promise.all(
      dates.map(async (dueDate) => {
        const r = await owner.client.patch(`${path}?lng=de`, { dueDate });
        return { dueDate, status: r.status, retryAfter: r.headers.get('retry-after'), body: r.body };
      }),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 409)).toEqual([]);
    const busy = answers.filter((a) => a.status === 409);
    expect(busy.length).toBeGreaterThan(0);
    for (const a of busy) {
      expect(a.body).toEqual({
        status: 'error',
        code: 'BUSY',
        msg: 'Andere ändern dies gerade, bitte versuchen Sie es gleich erneut',
      });
      expect(a.retryAfter).toBe('1');
    }
    // A refused change wrote nothing: the stored date is one that was answered 200, and the index is exact.
    const stored = await owner.client.get<{ dueDate: string }>(path);
    const saved = (stored.body as { msg: { dueDate: string } }).msg.dueDate;
    expect(answers.filter((a) => a.status === 200).map((a) => a.dueDate)).toContain(saved);
    expect(await checkRankIndex(pid)).toEqual([]);
    const again = await owner.client.patch(path, { dueDate: busy[0]?.dueDate });
    expect(again.status).toBe(200);
  });

  it('a bulk change that runs out of tries on one issue still sends issue.updated for each issue it changed', async () => {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    const hook = await site.client.patch(`/api/client/integration/${site.id}`, [
      {
        name: 'webhooks',
        active: 1,
        data: {
          url: `${receiver.url}/bulk`,
          token: 'whsec-bulk-token-0123456789',
          events: ['issue.updated'],
        },
      },
    ]);
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    const tickets = Array.from({ length: 12 }, (_, i) => i + 1);
    await seedIssues(site.id, tickets.length);
    // Each issue changed by others while the bulk runs, until the bulk loses one of them.
    const priorities = ['high', 'low', 'urgent', 'medium'] as const;
    const changedTo = async (p: string) => {
      const found: number[] = [];
      for (const n of tickets) {
        const res = await site.client.get<{ priority: string }>(
          `/api/client/website/${site.id}/request/${n}`,
        );
        if ((res.body as { msg: { priority: string } }).msg.priority === p) found.push(n);
      }
      return found;
    };
    let bulk: { status: number } | undefined;
    let priority: (typeof priorities)[number] = 'high';
    for (const p of priorities) {
      priority = p;
      const others = tickets.flatMap((n) =>
        [1, 2].map((k) =>
          site.client.patch(`/api/client/website/${site.id}/request/${n}`, {
            dueDate: `2031-0${k}-1${n % 10}`,
          }),
        ),
      );
      [bulk] = await Promise.all([
        site.client.patch(`/api/client/website/${site.id}/requests`, { tickets, set: { priority } }),
        ...others,
      ]);
      // A bulk that lost on its very first issue changed nothing to announce: race it again.
      if (bulk.status === 409 && (await changedTo(priority)).length > 0) break;
    }
    expect(bulk?.status).toBe(409);
    // The issues the failed call did change (their activity is stored) are each announced.
    const changed = await changedTo(priority);
    expect(changed.length).toBeGreaterThan(0);
    const announced = () =>
      new Set(
        receiver
          .to('/bulk')
          .map((r) => JSON.parse(r.rawBody))
          .filter((e) => e.event === 'issue.updated' && e.changes?.priority?.to === priority)
          .map((e) => e.issue.number as number),
      );
    await eventually(
      async () => (changed.every((n) => announced().has(n)) ? true : undefined),
      30_000,
      `issue.updated for ${changed.join(', ')}`,
    );
  });
});
