/**
 * Every delivery ends in 2 or 3, and reaches its vendor once (docs/decisions.md "Deliveries always
 * finish"), through the real queues, pollers and consumers of the local stack:
 *   - a consumer killed on its last receive (its status write hangs past the consumer's timeout, which the
 *     local poller enforces as Lambda does): the DLQ consumer marks the issue failed;
 *   - a vendor that hangs: the time budget cuts the call; a vendor without idempotency keys is not called
 *     again (failed, asking the client to check), a webhook is sent again with the same delivery id;
 *   - a lost delivery message: Sync refuses the fresh status 1, and accepts it once stale;
 *   - a database failure after the vendor's success: the outcome is handed on through the queue.
 * Jira is played by a test deliverer (the stack runs the consumers in this process); the webhook is the real
 * deliverer, to a loopback receiver that can hang.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SyncAnswer } from '#contracts/integrations';
import type { IntegrationName } from '#contracts/messages';
import { db, dynamo } from '#runtime/aws/dynamo';
import { sqs } from '#runtime/aws/sqs';
import { deliverers } from '../../../functions/integrations/delivery-run';
import { queueDecls } from '../../../functions/manifests';
import { faults, type Injected, injectFault, sdkAttempts } from '../../support/faults';
import { eventually } from '../../support/local-stack';
import { activateIntegration, newSite, type Site } from '../../support/sites';
import { setUpTestStack } from '../../support/stack-fixture';
import { fileReport } from '../../support/widget';

const LAST = queueDecls.delivery.maxReceiveCount;
/** The local poller ends a delivery invocation after this (Lambda's timeout); the budget is 3/4 of it. */
const CONSUMER_TIMEOUT_S = 3;
/** Sync may start a status 1 again after this (AWS: twice the longest retry schedule, 3.5 h). */
const STALE_S = 6;
const TOKEN = 'whsec-fault-token-0123456789';

const stack = setUpTestStack({
  queues: {
    delivery: {
      // Visibility above the consumer's timeout, as in AWS (6x), so a running receive is not doubled.
      visibilityTimeoutSeconds: CONSUMER_TIMEOUT_S + 1,
      retryDelaysSeconds: [1],
      consumerTimeoutSeconds: CONSUMER_TIMEOUT_S,
      staleAfterSeconds: STALE_S,
    },
  },
});
let hookUrl = '';
const hooks: { path: string; headers: IncomingHttpHeaders }[] = [];
/** Paths whose next request the receiver never answers (the budget must cut it). */
const hangNext = new Set<string>();
const removers: (() => void)[] = [];

const receiver = createServer((req, res) => {
  const path = req.url ?? '/';
  req.resume();
  req.on('end', () => {
    hooks.push({ path, headers: req.headers });
    if (hangNext.delete(path)) return;
    res.end('ok');
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterEach(() => {
  for (const remove of removers.splice(0)) remove();
  delete deliverers.jira;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

async function site(name: IntegrationName): Promise<Site> {
  const s = await newSite(stack.url, 'BASIC_PLAN');
  // A new project mails its owner (an opt-out): off here, so each test counts its one integration's deliveries.
  const off = await s.client.patch(`/api/client/integration/${s.id}`, [
    { name: 'email', active: 0, data: {} },
  ]);
  expect(off.status).toBe(200);
  if (name === 'webhooks') {
    const res = await s.client.patch(`/api/client/integration/${s.id}`, [
      { name: 'webhooks', active: 1, data: { url: `${hookUrl}/${s.id}`, token: TOKEN } },
    ]);
    expect(res.status).toBe(200);
  } else await activateIntegration(stack.tableName, s.id, name);
  return s;
}

const report = (s: Site) =>
  fileReport(stack.url, s.id, 'https://shop.example', { fields: { msg: 'Broken' } });

async function detail(id: string, n: number) {
  const out = await db().send(
    new GetCommand({
      TableName: stack.tableName,
      Key: { pk: `PROJECT#${id}`, sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL` },
      ConsistentRead: true,
    }),
  );
  return out.Item ?? {};
}
const statusOf = async (id: string, n: number, name: IntegrationName) =>
  Number(((await detail(id, n)).st as Record<string, number> | undefined)?.[name]);
const statusIs = (id: string, n: number, name: IntegrationName, want: number) =>
  eventually(
    async () => ((await statusOf(id, n, name)) === want ? true : undefined),
    60_000,
    `status ${want}`,
  );

async function marker(id: string, name: IntegrationName, n: number) {
  const out = await db().send(
    new GetCommand({
      TableName: stack.tableName,
      Key: { pk: `PROJECT#${id}`, sk: `SYNC#${name}#${String(n).padStart(10, '0')}` },
      ConsistentRead: true,
    }),
  );
  return out.Item;
}

/** Matches a DynamoDB write (marshalled input) to this project whose update sets status 2. */
/** The write of status 2: one transaction with the `delivered` activity entry since issue 23. */
const successWriteOf = (id: string) => (input: Record<string, unknown>) => {
  const text = JSON.stringify(input.TransactItems ?? []);
  return text.includes(id) && text.includes('st.#x = :two');
};

/** A middleware that never answers the first matching command: the invocation hangs until it is ended. */
function hangOnce(command: string, when: (input: Record<string, unknown>) => boolean) {
  const name = `hang${Math.random()}`;
  let hung = false;
  dynamo().middlewareStack.add(
    ((next: (a: unknown) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: { input: Record<string, unknown> }) => {
        if (!hung && context.commandName === command && when(args.input)) {
          hung = true;
          return new Promise(() => {});
        }
        return next(args);
      }) as never,
    { step: 'deserialize', name, priority: 'high' },
  );
  removers.push(() => void dynamo().middlewareStack.remove(name));
  return {
    get hung() {
      return hung;
    },
  };
}

/** Drops the fan-out's first delivery message of one project, answering as SQS would: it is lost. */
function loseDeliveriesOf(id: string) {
  const name = `lose${id}`;
  let lost = 0;
  sqs().middlewareStack.add(
    ((next: (a: unknown) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: { input: { QueueUrl?: string; Entries?: { Id: string; MessageBody: string }[] } }) => {
        const entries = args.input.Entries ?? [];
        if (
          lost > 0 ||
          context.commandName !== 'SendMessageBatchCommand' ||
          args.input.QueueUrl !== stack.queues.delivery.url ||
          !entries.some((e) => e.MessageBody.includes(id))
        )
          return next(args);
        lost += entries.length;
        return {
          response: { statusCode: 200, headers: {} },
          output: {
            $metadata: { httpStatusCode: 200 },
            Successful: entries.map((e) => ({
              Id: e.Id,
              MessageId: `lost-${e.Id}`,
              MD5OfMessageBody: createHash('md5').update(e.MessageBody).digest('hex'),
            })),
            Failed: [],
          },
        };
      }) as never,
    { step: 'deserialize', name, priority: 'high' },
  );
  removers.push(() => void sqs().middlewareStack.remove(name));
  return {
    get lost() {
      return lost;
    },
  };
}

const sync = (s: Site, n: number, type: IntegrationName) =>
  s.client.patch<SyncAnswer>(`/api/client/integration/sync/${s.id}`, { tickets: [String(n)], type });

describe('a consumer that dies or times out', () => {
  it('killed on its last receive after the vendor accepted: the DLQ consumer marks it failed; sent once', async () => {
    const s = await site('jira');
    const accepted: number[] = [];
    deliverers.jira = async (ctx) => {
      if (ctx.project.id !== s.id) return {};
      if (ctx.attempt < LAST) throw new Error('Jira answered 503');
      accepted.push(ctx.attempt);
      return { vendorId: 'SNAG-1' };
    };
    // The success write of the last receive never returns: the poller ends the invocation (timeout).
    const hang = hangOnce('TransactWriteItemsCommand', successWriteOf(s.id));
    const n = await report(s);

    await statusIs(s.id, n, 'jira', 3);
    expect(hang.hung).toBe(true);
    expect(accepted).toEqual([LAST]);
    const failed = await marker(s.id, 'jira', n);
    expect(failed).toMatchObject({ s: 3, number: n });
    // The vendor may have it (it did): the client is asked to check before sending again.
    expect(String(failed?.reason)).toMatch(/Check Jira, and Sync only if it is missing/);
    // It stays failed: nothing retries behind the client's back.
    await new Promise((r) => setTimeout(r, 2000));
    expect(await statusOf(s.id, n, 'jira')).toBe(3);
    expect(accepted).toHaveLength(1);
  });

  it('a hung vendor without idempotency keys is cut by the budget and not called again', async () => {
    const s = await site('jira');
    let calls = 0;
    deliverers.jira = async (ctx) => {
      if (ctx.project.id !== s.id) return {};
      calls++;
      if (calls === 1) return new Promise(() => {}); // hangs, ignoring the abort
      return { vendorId: 'SNAG-2' };
    };
    const n = await report(s);
    await statusIs(s.id, n, 'jira', 3);
    expect(calls).toBe(1);
    expect(String((await marker(s.id, 'jira', n))?.reason)).toMatch(
      /stopped before Snag learned whether Jira/,
    );
  });

  it('a hung webhook receiver is cut by the budget and sent again with the same delivery id', async () => {
    const s = await site('webhooks');
    hangNext.add(`/${s.id}`);
    const n = await report(s);
    await statusIs(s.id, n, 'webhooks', 2);
    const got = hooks.filter((h) => h.path === `/${s.id}`);
    expect(got).toHaveLength(2);
    const id = `${s.id}:${n}:webhooks`;
    for (const h of got) {
      expect(h.headers['x-snag-delivery']).toBe(id);
      expect(h.headers['idempotency-key']).toBe(id);
      expect(h.headers['x-snag-token']).toBe(TOKEN);
    }
    // A receiver that drops repeats by that id has the delivery once.
    expect(new Set(got.map((h) => h.headers['idempotency-key'])).size).toBe(1);
  });
});

describe('a lost delivery message', () => {
  it('leaves status 1, which Sync refuses while fresh and accepts once stale; delivered once', async () => {
    const s = await site('webhooks');
    const lose = loseDeliveriesOf(s.id);
    const n = await report(s);
    await statusIs(s.id, n, 'webhooks', 1);
    expect(lose.lost).toBe(1);
    const since = Number((await detail(s.id, n)).since_webhooks);
    expect(since).toBeGreaterThan(0);

    // In progress and young: it may still arrive, so Sync does not send it a second time.
    expect((await sync(s, n, 'webhooks')).body).toMatchObject({ msg: { synced: [] } });
    await new Promise((r) => setTimeout(r, Math.max(0, since + STALE_S * 1000 + 500 - Date.now())));
    expect((await sync(s, n, 'webhooks')).body).toMatchObject({ msg: { synced: [n] } });
    await statusIs(s.id, n, 'webhooks', 2);
    expect(hooks.filter((h) => h.path === `/${s.id}`)).toHaveLength(1);
  });
});

describe('a database failure after the vendor’s success', () => {
  it('hands the outcome on through the queue: status 2, and the receiver called once', async () => {
    const s = await site('webhooks');
    const attempts = await sdkAttempts(dynamo());
    const fault: Injected = injectFault(dynamo(), {
      command: 'TransactWriteItemsCommand',
      when: successWriteOf(s.id),
      times: attempts,
      error: faults.internal,
    });
    removers.push(() => fault.remove());
    const n = await report(s);
    await statusIs(s.id, n, 'webhooks', 2);
    // The SDK gave up on the first success write; the handed-on message wrote it.
    expect(fault.fired).toBe(attempts);
    expect(fault.calls).toBe(attempts + 1);
    expect(hooks.filter((h) => h.path === `/${s.id}`)).toHaveLength(1);
    expect((await detail(s.id, n)).attempt_webhooks).toBeUndefined();
  });
});
