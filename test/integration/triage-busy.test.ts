/**
 * A triage change that loses every retry to concurrent changes of the same issue (decision Tr-C15): the
 * tries are lowered to one (`TRIAGE_ATTEMPTS`), so parallel changes of one issue run out of them. The
 * losers answer 409 BUSY with `Retry-After`, never 500; they wrote nothing, and sending one again succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRankIndex } from '../../functions/issues/rank-check';
import { seedIssues } from '../support/issues';
import { startTestStack, type TestStack } from '../support/local-stack';
import { person, projectOf } from '../support/members-teams';
import { cheapCostsEnv } from '../support/users';

let stack: TestStack;

beforeAll(async () => {
  Object.assign(process.env, cheapCostsEnv, { TRIAGE_ATTEMPTS: '1' });
  stack = await startTestStack();
});

afterAll(async () => {
  delete process.env.TRIAGE_ATTEMPTS;
  await stack?.stop();
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
});
