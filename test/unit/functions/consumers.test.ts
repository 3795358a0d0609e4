import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY } from '#runtime/time';
import { handler as delivery } from '../../../functions/consumers/delivery';
import { handler as deadLetters } from '../../../functions/consumers/delivery-dlq';
import { handler as fanout } from '../../../functions/consumers/fanout';
import type { DeliveryContext } from '../../../functions/integrations/deliver';
import { budgetMs } from '../../../functions/integrations/delivery-budget';
import { deliverers } from '../../../functions/integrations/delivery-run';
import { FILE_LINK_DAYS, verifyFileLink } from '../../../functions/integrations/links';
import { storedKey } from '../../../functions/issues/object-keys';
import { queueDecls } from '../../../functions/manifests';
import { sqsEvent } from '../../support/events';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const projectId = '0f8fad5b-d9cb-469f-a165-70867728950e';
/** META with integrations switched on, on a plan that allows them (or not). */
const meta = (names: string[], plan = 'BASIC_PLAN', ownerPlanExpire: string | null = null) => ({
  Item: {
    pk: `PROJECT#${projectId}`,
    sk: 'META',
    id: projectId,
    ownerPlan: plan,
    ownerPlanExpire,
    activeIntegrations: new Set(names),
  },
});

afterEach(() => {
  ddb.reset();
  sqs.reset();
  for (const k of Object.keys(deliverers)) delete deliverers[k as keyof typeof deliverers];
});

describe('fan-out consumer', () => {
  it('enqueues one delivery per active integration, and only the synced ones when asked', async () => {
    ddb.on(GetCommand).resolves(meta(['email', 'slack']));
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const res = await fanout(
      sqsEvent([
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 7, correlationId: 'req-7' }),
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 8, only: ['slack'] }),
      ]),
    );
    expect(res.batchItemFailures).toEqual([]);
    // Each delivery's message group is its project (SQS fair queues: one project's backlog waits its turn).
    const groups = sqs
      .commandCalls(SendMessageBatchCommand)
      .flatMap((c) => c.args[0].input.Entries?.map((e) => e.MessageGroupId));
    expect(groups).toEqual([projectId, projectId, projectId]);
    const sent = sqs
      .commandCalls(SendMessageBatchCommand)
      .map((c) => c.args[0].input.Entries?.map((e) => JSON.parse(e.MessageBody ?? '')));
    expect(sent).toEqual([
      [
        { projectId, issueNumber: 7, integration: 'email', correlationId: 'req-7' },
        { projectId, issueNumber: 7, integration: 'slack', correlationId: 'req-7' },
      ],
      // A message without a correlation id (sent before there were any) is followed by its message id.
      [{ projectId, issueNumber: 8, integration: 'slack', correlationId: 'm1' }],
    ]);
    expect(ddb.commandCalls(GetCommand)[0]?.args[0].input.Key).toEqual({
      pk: `PROJECT#${projectId}`,
      sk: 'META',
    });
    // Status 1 and the markers deleted, in one transaction per issue, before the messages go out.
    const tx = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(tx.map((i) => Object.keys(i)[0])).toEqual(['Update', 'Delete', 'Delete']);
    expect(tx[0]?.Update?.ConditionExpression).toContain('attribute_exists(pk)');
  });

  it('sends only email when the owner’s plan has no integrations', async () => {
    ddb.on(GetCommand).resolves(meta(['email', 'webhooks', 'slack'], 'FREE_PLAN'));
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const res = await fanout(
      sqsEvent([JSON.stringify({ type: 'issue.created', projectId, issueNumber: 2 })]),
    );
    expect(res.batchItemFailures).toEqual([]);
    const sent = sqs.commandCalls(SendMessageBatchCommand)[0]?.args[0].input.Entries ?? [];
    expect(sent.map((e) => JSON.parse(e.MessageBody ?? '').integration)).toEqual(['email']);
  });

  it('runs only email once the owner’s plan has lapsed (the effective plan is Free)', async () => {
    ddb.on(GetCommand).resolves(meta(['email', 'slack'], 'BASIC_PLAN', '2020-01-01T00:00:00.000Z'));
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const res = await fanout(
      sqsEvent([JSON.stringify({ type: 'issue.created', projectId, issueNumber: 7 })]),
    );
    expect(res.batchItemFailures).toEqual([]);
    const sent = sqs
      .commandCalls(SendMessageBatchCommand)
      .map((c) => c.args[0].input.Entries?.map((e) => JSON.parse(e.MessageBody ?? '').integration));
    expect(sent).toEqual([['email']]);
  });

  it('reads META once for an event, and sends it to the subscribed webhook and the trackers that sync it back', async () => {
    const table = process.env.TABLE_NAME ?? 'snag';
    ddb
      .on(BatchGetCommand)
      .callsFake((input: { RequestItems: Record<string, { Keys: { sk: string }[] }> }) => {
        const keys = input.RequestItems[table]?.Keys ?? [];
        const found = keys.flatMap((k): Record<string, unknown>[] =>
          k.sk === 'META'
            ? [meta(['webhooks', 'github', 'slack']).Item]
            : k.sk === 'INTEGRATION#webhooks'
              ? [
                  {
                    pk: `PROJECT#${projectId}`,
                    sk: k.sk,
                    name: 'webhooks',
                    active: 1,
                    data: { url: 'https://hooks.example', token: 't', events: ['issue.updated'] },
                  },
                ]
              : [],
        );
        return { Responses: { [table]: found } };
      });
    // A status change also reaches the reporters of the issue's duplicates (one Query: none here).
    ddb.on(QueryCommand).resolves({ Items: [] });
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const res = await fanout(
      sqsEvent([
        JSON.stringify({
          type: 'issue.updated',
          projectId,
          issueNumber: 4,
          actor: { kind: 'member', name: 'Ada', id: 'u1' },
          at: '2026-11-01T10:00:00.000Z',
          changes: { status: { from: 'new', to: 'resolved' } },
        }),
      ]),
    );
    expect(res.batchItemFailures).toEqual([]);
    const sent = sqs
      .commandCalls(SendMessageBatchCommand)
      .flatMap((c) => c.args[0].input.Entries?.map((e) => JSON.parse(e.MessageBody ?? '').integration));
    expect(sent).toEqual(['webhooks', 'github']);
    const metaReads = [
      ...ddb.commandCalls(GetCommand).map((c) => [c.args[0].input.Key]),
      ...ddb.commandCalls(BatchGetCommand).map((c) => c.args[0].input.RequestItems?.[table]?.Keys ?? []),
    ].filter((keys) => keys.some((k) => k?.sk === 'META'));
    expect(metaReads).toHaveLength(1);
  });

  it('refuses a correlation id that is not an id', async () => {
    ddb.on(GetCommand).resolves(meta([]));
    const res = await fanout(
      sqsEvent([
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1, correlationId: 'a b\n{}' }),
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1, correlationId: 'x'.repeat(129) }),
      ]),
    );
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }, { itemIdentifier: 'm1' }]);
  });

  it('reports only the bad records as failed (partial batch response)', async () => {
    ddb.on(GetCommand).resolves(meta([]));
    const res = await fanout(
      sqsEvent([
        'not json',
        JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1 }),
        '{"type":"x"}',
      ]),
    );
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }, { itemIdentifier: 'm2' }]);
  });

  it('fails a record whose deliveries could not all be enqueued, so it is retried', async () => {
    ddb.on(GetCommand).resolves(meta(['email']));
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [{ Id: 'email', Code: 'x', SenderFault: false }] });
    const res = await fanout(
      sqsEvent([JSON.stringify({ type: 'issue.created', projectId, issueNumber: 1 })]),
    );
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
  });
});

describe('delivery consumer', () => {
  const items = (n: number, active: Record<string, number>) => ({
    Responses: {
      [process.env.TABLE_NAME ?? 'snag']: [
        meta(Object.keys(active)).Item,
        {
          pk: `PROJECT#${projectId}`,
          sk: `ISSUE#${String(n).padStart(10, '0')}`,
          title: 'T',
          createdAt: 'x',
        },
        {
          pk: `PROJECT#${projectId}`,
          sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL`,
          msg: 'm',
          st: { email: 1, jira: 1 },
        },
        ...Object.entries(active).map(([name, on]) => ({
          pk: `PROJECT#${projectId}`,
          sk: `INTEGRATION#${name}`,
          name,
          active: on,
          data: {},
        })),
      ],
    },
  });

  it('calls the integration’s deliverer, records status 2, and fails records it has no deliverer for', async () => {
    const seen: string[] = [];
    deliverers.email = async (ctx) => {
      seen.push(`${ctx.integration.name}:${ctx.issue.number}`);
      return { vendorId: 'v-1' };
    };
    ddb.on(BatchGetCommand).resolves(items(3, { email: 1, jira: 1 }));
    ddb.on(UpdateCommand).resolves({});
    ddb.on(TransactWriteCommand).resolves({});
    const res = await delivery(
      sqsEvent([
        JSON.stringify({ projectId, issueNumber: 3, integration: 'email' }),
        JSON.stringify({ projectId, issueNumber: 3, integration: 'jira' }),
      ]),
    );
    expect(seen).toEqual(['email:3']);
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
    // The attempt is marked first, then the outcome written, which removes the mark.
    const [mark] = ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(mark?.UpdateExpression).toBe('SET #a = :mark');
    expect(mark?.ExpressionAttributeNames).toEqual({ '#a': 'attempt_email' });
    // The status and its timeline entry (issue 23) in one transaction, never over a passed delivery.
    const [update, entry] = transactions();
    expect(update?.Update?.UpdateExpression).toContain('st.#x = :two');
    expect(update?.Update?.UpdateExpression).toContain('REMOVE #r, #a');
    expect(update?.Update?.ExpressionAttributeValues).toMatchObject({ ':two': 2, ':v': 'v-1' });
    expect(update?.Update?.ConditionExpression).toBe(
      'attribute_exists(pk) AND (attribute_not_exists(st.#x) OR st.#x <> :two)',
    );
    expect(entry?.Put?.Item).toMatchObject({
      kind: 'activity',
      type: 'delivered',
      integration: 'email',
      actor: { kind: 'system', name: 'Snag' },
      visibility: 'internal',
    });
  });

  /** One delivery record on its `receive`th receive, its detail carrying `extra` (an attempt mark, a status). */
  function oneRecord(
    name: string,
    opts: { receive?: number; extra?: Record<string, unknown>; body?: Record<string, unknown> } = {},
  ) {
    const res = items(3, { [name]: 1 });
    const [, , detailItem] = Object.values(res.Responses)[0] as Record<string, unknown>[];
    Object.assign(detailItem as object, { st: { [name]: 1 } }, opts.extra ?? {});
    ddb.on(BatchGetCommand).resolves(res);
    const event = sqsEvent([
      JSON.stringify({ projectId, issueNumber: 3, integration: name, ...(opts.body ?? {}) }),
    ]);
    const r = event.Records[0];
    if (r) r.attributes.ApproximateReceiveCount = String(opts.receive ?? 1);
    return event;
  }
  const transactions = () =>
    ddb.commandCalls(TransactWriteCommand).flatMap((c) => c.args[0].input.TransactItems ?? []);

  it('does not send again to a vendor without idempotency when an earlier receive stopped mid-call', async () => {
    const calls: string[] = [];
    deliverers.jira = async () => {
      calls.push('jira');
      return { vendorId: 'J-1' };
    };
    ddb.on(TransactWriteCommand).resolves({});
    // The mark of this message's first receive: that invocation ended without recording an outcome.
    const event = oneRecord('jira', {
      receive: 2,
      extra: { attempt_jira: { at: Date.now() - 1000, message: 'm0', receive: 1 } },
    });
    const res = await delivery(event);
    expect(res.batchItemFailures).toEqual([]);
    expect(calls).toEqual([]);
    const update = transactions()[0]?.Update;
    expect(update?.ExpressionAttributeValues?.[':s']).toBe(3);
    expect(String(update?.ExpressionAttributeValues?.[':r'])).toMatch(
      /Check Jira, and Sync only if it is missing/,
    );
    // The failure never overwrites a success (a duplicate that finished first).
    expect(update?.ConditionExpression).toContain('st.#x <> :two');
  });

  it('sends a webhook again after an unknown outcome (receivers drop the repeat by its delivery id)', async () => {
    const ids: string[] = [];
    deliverers.webhooks = async (ctx) => {
      ids.push(ctx.deliveryId);
      return { vendorId: '200@1' };
    };
    ddb.on(UpdateCommand).resolves({});
    const event = oneRecord('webhooks', {
      receive: 2,
      extra: { attempt_webhooks: { at: Date.now() - 1000, message: 'm0', receive: 1 } },
    });
    expect((await delivery(event)).batchItemFailures).toEqual([]);
    expect(ids).toEqual([`${projectId}:3:webhooks`]);
  });

  it('waits while another copy of the delivery may still be talking to the vendor', async () => {
    let called = false;
    deliverers.jira = async () => {
      called = true;
      return {};
    };
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    const event = oneRecord('jira', {
      extra: { attempt_jira: { at: Date.now() - 1000, message: 'another', receive: 1 } },
    });
    expect((await delivery(event)).batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
    expect(called).toBe(false);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('hands a vendor’s success on through the queue when the status write fails, and records it from there', async () => {
    let sends = 0;
    deliverers.webhooks = async () => {
      sends++;
      return { vendorId: '200@7' };
    };
    ddb.on(UpdateCommand).resolves({}); // the attempt mark
    ddb.on(TransactWriteCommand).rejects(new Error('DynamoDB is down'));
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    expect((await delivery(oneRecord('webhooks'))).batchItemFailures).toEqual([]);
    expect(sends).toBe(1);
    const handed = sqs.commandCalls(SendMessageBatchCommand)[0]?.args[0].input.Entries?.[0];
    expect(JSON.parse(handed?.MessageBody ?? '{}')).toMatchObject({
      projectId,
      issueNumber: 3,
      integration: 'webhooks',
      delivered: { vendorId: '200@7' },
    });
    expect(handed?.MessageGroupId).toBe(projectId);

    // The handed-on message only records the outcome: the vendor is not called again.
    ddb.reset();
    ddb.on(TransactWriteCommand).resolves({});
    const res = await delivery(oneRecord('webhooks', { body: { delivered: { vendorId: '200@7' } } }));
    expect(res.batchItemFailures).toEqual([]);
    expect(sends).toBe(1);
    const write = transactions()[0]?.Update;
    expect(write?.ExpressionAttributeValues).toMatchObject({ ':two': 2, ':v': '200@7' });
  });

  it('fails the record when neither the status nor the hand-over can be written (the mark stays)', async () => {
    deliverers.webhooks = async () => ({ vendorId: '200@7' });
    ddb.on(UpdateCommand).resolves({});
    ddb.on(TransactWriteCommand).rejects(new Error('DynamoDB is down'));
    sqs.on(SendMessageBatchCommand).rejects(new Error('SQS is down'));
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    expect((await delivery(oneRecord('webhooks'))).batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
    // Only the mark and the failed status write: no REMOVE of the mark after a success nobody recorded.
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('stops waiting for a hung vendor when the budget runs out, and on the last receive fails it itself', async () => {
    deliverers.jira = (ctx) =>
      new Promise((_, reject) => ctx.signal?.addEventListener('abort', () => reject(ctx.signal?.reason)));
    deliverers.asana = () => new Promise(() => {}); // ignores the signal altogether
    ddb.on(UpdateCommand).resolves({});
    ddb.on(TransactWriteCommand).resolves({});
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    const last = queueDecls.delivery.maxReceiveCount;
    const context = { getRemainingTimeInMillis: () => 200 } as never;
    for (const name of ['jira', 'asana']) {
      ddb.resetHistory();
      const res = await delivery(oneRecord(name, { receive: last }), context);
      // Reported failed, so the message goes on to the DLQ, whose consumer finds it settled.
      expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
      const update = transactions()[0]?.Update;
      expect(update?.ExpressionAttributeValues?.[':s'], name).toBe(3);
      expect(String(update?.ExpressionAttributeValues?.[':r'])).toMatch(/stopped before Snag learned/);
    }
  });

  it('keeps the attempt mark when the budget cuts an earlier receive (its outcome is unknown)', async () => {
    deliverers.webhooks = () => new Promise(() => {});
    ddb.on(UpdateCommand).resolves({});
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    const res = await delivery(oneRecord('webhooks'), { getRemainingTimeInMillis: () => 100 } as never);
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
    const writes = ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input.UpdateExpression);
    expect(writes).toEqual(['SET #a = :mark']);
  });

  it('gives each deliverer links that last as long as it declares, and the stored files from S3', async () => {
    process.env.ALTCHA_HMAC_KEY ??= 'unit-test-altcha-key-0123456789';
    const shot = '0f8fad5b-d9cb-469f-a165-70867728950e.png';
    const s3 = mockClient(S3Client);
    const bytes = new Uint8Array([137, 80, 78, 71]);
    s3.on(GetObjectCommand).resolves({ Body: { transformToByteArray: async () => bytes } as never });
    const seen: { days: number[]; read: Uint8Array }[] = [];
    const lasting = async (ctx: DeliveryContext) => {
      const days = await Promise.all(
        [...ctx.screenshots, ...ctx.files].map(async (l) => {
          const claim = await verifyFileLink(l.url.slice(l.url.lastIndexOf('/') + 1));
          return Math.round(((claim?.e ?? 0) * 1000 - Date.now()) / DAY);
        }),
      );
      seen.push({ days, read: await ctx.readObject(shot) });
      return { vendorId: 'v' };
    };
    deliverers.email = lasting;
    deliverers.github = Object.assign((ctx: DeliveryContext) => lasting(ctx), { linkLifetimeMs: 365 * DAY });
    for (const name of ['email', 'github']) {
      const event = oneRecord(name, {
        extra: {
          screenshots: [{ name: shot, type: 'png', html: '', size: 4 }],
          files: [
            {
              name: '7c9e6679-7425-40de-944b-e07fc1f90ae8.pdf',
              original_name: 'a.pdf',
              type: 'application/pdf',
              size: 9,
            },
          ],
        },
      });
      ddb.on(UpdateCommand).resolves({});
      ddb.on(TransactWriteCommand).resolves({});
      expect((await delivery(event)).batchItemFailures).toEqual([]);
    }
    // Signed once, for the deliverer's lifetime: the default's days for email, a year for GitHub.
    expect(seen.map((s) => s.days)).toEqual([
      [FILE_LINK_DAYS, FILE_LINK_DAYS],
      [365, 365],
    ]);
    expect(seen[0]?.read).toEqual(bytes);
    // Read from S3 directly: one GetObject of the stored screenshot, no presigned URL fetched.
    expect(s3.commandCalls(GetObjectCommand).map((c) => c.args[0].input.Key)).toEqual([
      storedKey(projectId, 'screenshot', shot),
      storedKey(projectId, 'screenshot', shot),
    ]);
    s3.restore();
  });

  it('budgets the time left less a reserve for the writes', () => {
    expect(budgetMs({ getRemainingTimeInMillis: () => 60_000 })).toBe(50_000);
    expect(budgetMs({ getRemainingTimeInMillis: () => 8_000 })).toBe(6_000);
    expect(budgetMs(undefined)).toBe(queueDecls.delivery.consumer.timeoutSeconds * 1000 - 10_000);
  });
});

describe('delivery dead-letter consumer', () => {
  const stored = (st: Record<string, number>, extra: Record<string, unknown> = {}) => ({
    Responses: {
      [process.env.TABLE_NAME ?? 'snag']: [
        { pk: `PROJECT#${projectId}`, sk: 'ISSUE#0000000003', title: 'T', createdAt: 'x' },
        { pk: `PROJECT#${projectId}`, sk: 'ISSUE#0000000003#DETAIL', st, ...extra },
      ],
    },
  });
  const dead = (name: string, body: Record<string, unknown> = {}) =>
    sqsEvent([JSON.stringify({ projectId, issueNumber: 3, integration: name, ...body })]);

  it('marks a delivery still in progress failed, with its sync marker, only while it is in progress', async () => {
    ddb.on(BatchGetCommand).resolves(stored({ webhooks: 1 }));
    ddb.on(TransactWriteCommand).resolves({});
    const event = dead('webhooks');
    expect((await deadLetters(event)).batchItemFailures).toEqual([]);
    const [update, put] = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    // Only over the status 1 this message's delivery set: not one a later Sync set (after SentTimestamp).
    expect(update?.Update?.ConditionExpression).toBe(
      'attribute_exists(pk) AND st.#x = :one AND (attribute_not_exists(#s) OR #s <= :since)',
    );
    expect(update?.Update?.ExpressionAttributeNames).toMatchObject({ '#s': 'since_webhooks' });
    const sent = Number(event.Records[0]?.attributes.SentTimestamp);
    expect(update?.Update?.ExpressionAttributeValues).toMatchObject({
      ':s': 3,
      ':one': 1,
      ':since': sent + 1000,
    });
    expect(String(update?.Update?.ExpressionAttributeValues?.[':r'])).toMatch(/^Gave up after 5 attempts/);
    expect(put?.Put?.Item).toMatchObject({ sk: 'SYNC#webhooks#0000000003', s: 3, number: 3, title: 'T' });
  });

  it('asks the client to check a vendor without idempotency when the last attempt stopped mid-call', async () => {
    ddb
      .on(BatchGetCommand)
      .resolves(stored({ gitlab: 1 }, { attempt_gitlab: { at: 1, message: 'm', receive: 5 } }));
    ddb.on(TransactWriteCommand).resolves({});
    await deadLetters(dead('gitlab'));
    const update = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Update;
    expect(String(update?.ExpressionAttributeValues?.[':r'])).toMatch(
      /Check GitLab, and Sync only if it is missing/,
    );
  });

  it('waits while another copy of the delivery may still pass; its own message’s mark is over', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    ddb
      .on(BatchGetCommand)
      .resolves(stored({ slack: 1 }, { attempt_slack: { at: Date.now(), message: 'another', receive: 1 } }));
    expect((await deadLetters(dead('slack'))).batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    // The same mark left by this very message (its last receive died): settled at once.
    ddb
      .on(BatchGetCommand)
      .resolves(stored({ slack: 1 }, { attempt_slack: { at: Date.now(), message: 'm0', receive: 5 } }));
    expect((await deadLetters(dead('slack'))).batchItemFailures).toEqual([]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('leaves a settled delivery alone, and records a handed-on success', async () => {
    for (const st of [0, 2, 3]) {
      ddb.reset();
      ddb.on(BatchGetCommand).resolves(stored({ email: st }));
      expect((await deadLetters(dead('email'))).batchItemFailures).toEqual([]);
      expect(ddb.commandCalls(TransactWriteCommand), `status ${st}`).toHaveLength(0);
      expect(ddb.commandCalls(UpdateCommand), `status ${st}`).toHaveLength(0);
    }
    ddb.reset();
    ddb.on(BatchGetCommand).resolves(stored({ email: 1 }));
    ddb.on(TransactWriteCommand).resolves({});
    await deadLetters(dead('email', { delivered: { vendorId: 'ses-1' } }));
    const write = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Update;
    expect(write?.ExpressionAttributeValues).toMatchObject({ ':two': 2, ':v': 'ses-1' });
  });

  it('fails the record when the database does, so the dead letter comes back', async () => {
    ddb.on(BatchGetCommand).resolves(stored({ email: 1 }));
    ddb.on(TransactWriteCommand).rejects(new Error('down'));
    expect((await deadLetters(dead('email'))).batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
  });
});
