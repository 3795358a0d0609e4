/**
 * Faults in the widget's intake (issue 10 "Faults and load"): DynamoDB, S3 and SQS fail under the real
 * handlers of the local stack, injected into the handlers' own clients (test/support/faults.ts). After each
 * fault the report is either refused with nothing stored (no issue items, no counters moved, no copies
 * under p/, storage unchanged; only the number may stay a gap, D13) or stored exactly once; and the same
 * report, sent again later with the same upload keys, is stored.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { projectDay } from '#contracts/intake';
import { type DeliveryMessage, integrationNames } from '#contracts/messages';
import { db, dynamo } from '#runtime/aws/dynamo';
import { s3 } from '#runtime/aws/s3';
import { sqs } from '#runtime/aws/sqs';
import { deliverers } from '../../../functions/integrations/delivery-run';
import { projectDayWindow } from '../../../functions/issues/intake';
import { faults, type Injected, injectFault, sdkAttempts } from '../../support/faults';
import { eventually } from '../../support/local-stack';
import { activateIntegration, newSite, type Site } from '../../support/sites';
import { setUpTestStack } from '../../support/stack-fixture';
import { uploadFile, type WidgetReply, widgetCall } from '../../support/widget';

const stack = setUpTestStack();
// The S3 client is made on first use (an async import); the handlers share this one.
let s3Client: Awaited<ReturnType<typeof s3>>;
/** The clients' attempts per command: that many faults in a row reach the handler. */
let dynamoAttempts: number;
let sqsAttempts: number;
let s3Attempts: number;
const injected: Injected[] = [];
const delivered: DeliveryMessage[] = [];

beforeAll(async () => {
  s3Client = await s3();
  dynamoAttempts = await sdkAttempts(dynamo());
  sqsAttempts = await sdkAttempts(sqs());
  s3Attempts = await sdkAttempts(s3Client);
  // Records what reaches the delivery consumer: proof that issue.created got through the fan-out.
  deliverers.email = async (ctx) => {
    delivered.push({
      projectId: ctx.project.id,
      issueNumber: ctx.issue.number,
      integration: 'email',
      correlationId: ctx.correlationId,
    });
    return {};
  };
});

afterEach(() => {
  for (const fault of injected.splice(0)) fault.remove();
});

afterAll(async () => {
  delete deliverers.email;
});

const SITE = 'https://shop.example';
let visitors = 0;
const visitor = () => `192.0.2.${(++visitors % 250) + 1}:${30000 + visitors}`;

const inject = (...args: Parameters<typeof injectFault>) => {
  const fault = injectFault(...args);
  injected.push(fault);
  return fault;
};

/** The one integration active here, so the fan-out has somewhere to deliver. */
const fannedOut = 'email';

/** A Starter project (files allowed) with email active. */
async function site(): Promise<Site> {
  const s = await newSite(stack.url, 'BASIC_PLAN');
  await activateIntegration(stack.tableName, s.id, fannedOut);
  return s;
}

const PNG = 2048;
const HTML = '<p>the page</p>';
const PDF = 300;
const reportBytes = PNG + HTML.length + PDF;

/** Uploads a screenshot with its page snapshot and a file: three objects, three copies at report time. */
async function prepareReport(s: Site) {
  const up = (kind: 'screenshot' | 'snapshot' | 'file', type: string, content: Uint8Array) =>
    uploadFile(stack.url, s.id, kind, type, content, { origin: SITE, visitor: visitor() });
  const shot = await up('screenshot', 'image/png', new Uint8Array(PNG).fill(1));
  const page = await up('snapshot', 'text/html', new TextEncoder().encode(HTML));
  const file = await up('file', 'application/pdf', new Uint8Array(PDF).fill(2));
  return {
    msg: 'The checkout button does nothing',
    screenshots: [{ key: shot, type: 'png', snapshotKey: page }],
    files: [{ key: file, original_name: 'order.pdf' }],
  };
}

const send = (s: Site, body: unknown): Promise<WidgetReply> =>
  widgetCall(stack.url, s.id, 'request', body, { origin: SITE, visitor: visitor() });

async function keysUnder(prefix: string): Promise<string[]> {
  const out = await (await s3()).send(new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
}

/** Everything a report can write: the project's partition, its counters, the owner's storage, the objects. */
async function state(s: Site) {
  const out = await db().send(
    new QueryCommand({
      TableName: stack.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `PROJECT#${s.id}` },
      ConsistentRead: true,
    }),
  );
  const items = out.Items ?? [];
  const sks = (prefix: string) =>
    items.flatMap((i) => (String(i.sk).startsWith(prefix) ? [String(i.sk)] : []));
  const meta = items.find((i) => i.sk === 'META') ?? {};
  // The storage quota is the team's (issue 22): a project's team is its teamId, or its owner's personal team.
  const team = await db().send(
    new GetCommand({
      TableName: stack.tableName,
      Key: { pk: `TEAM#${meta.teamId ?? meta.ownerId}`, sk: 'TEAM' },
      ConsistentRead: true,
    }),
  );
  // The project's day: it counts stored reports only (issue 19).
  const day = await db().send(
    new GetCommand({ TableName: stack.tableName, Key: projectDayWindow(s.id).key, ConsistentRead: true }),
  );
  return {
    seq: Number(meta.seq ?? 0),
    counted: {
      issues: sks('ISSUE#')
        .filter((sk) => !sk.includes('#T#'))
        .sort(),
      // The issue's timeline (issue 23): its `created` activity, written once with the issue.
      timeline: sks('ISSUE#').filter((sk) => sk.includes('#T#')).length,
      // Email's marker is the fan-out's to delete (status 1) whenever its message is consumed, which races
      // these reads; the markers of the five inactive integrations stay until a Sync (data-model 4.8).
      markers: sks('SYNC#')
        .filter((sk) => !sk.startsWith(`SYNC#${fannedOut}#`))
        .sort(),
      guards: sks('UPLOAD#').length,
      openCount: Number(meta.openCount ?? 0),
      bytes: Number(meta.bytes ?? 0),
      stats: Number(items.find((i) => i.sk === 'STATS')?.open_000000 ?? 0),
      offsets: [...((items.find((i) => i.sk === 'BLOCK#000000')?.openOffsets as Set<number>) ?? [])].sort(),
      storageBytes: Number(team.Item?.storageBytes ?? 0),
      day: Number(day.Item?.count ?? 0),
      finals: (await keysUnder(`p/${s.id}/`)).length,
      pending: (await keysUnder(`pending/${s.id}/`)).length,
    },
  };
}
type State = Awaited<ReturnType<typeof state>>;

/** The visitor got an error and nothing is stored; the number may have been used up (a gap). */
function expectNothingStored(reply: WidgetReply, before: State, after: State) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(500);
  expect(reply.body).toMatchObject({ status: 'error', code: 'SYSTEM_ERROR' });
  expect(after.counted).toEqual(before.counted);
}

const n10 = (n: number) => String(n).padStart(10, '0');

/**
 * The visitor got number n and the report is stored once: two items, a marker per inactive integration,
 * every counter moved once.
 * `pendingRemoved` false: the clean-up of the pending objects failed, and the bucket's expiry rule has them.
 */
function expectStoredOnce(reply: WidgetReply, before: State, after: State, pendingRemoved = true) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const n = reply.body.msg.number as number;
  expect(n).toBe(after.seq);
  const b = before.counted;
  expect(after.counted).toEqual({
    issues: [...b.issues, `ISSUE#${n10(n)}`, `ISSUE#${n10(n)}#DETAIL`].sort(),
    timeline: b.timeline + 1,
    markers: [
      ...b.markers,
      ...integrationNames.filter((name) => name !== fannedOut).map((name) => `SYNC#${name}#${n10(n)}`),
    ].sort(),
    guards: b.guards + 3,
    openCount: b.openCount + 1,
    bytes: b.bytes + reportBytes,
    stats: b.stats + 1,
    offsets: [...b.offsets, n - 1].sort(),
    storageBytes: b.storageBytes + reportBytes,
    day: b.day + 1,
    finals: b.finals + 3,
    pending: pendingRemoved ? b.pending - 3 : b.pending,
  });
  return n;
}

/**
 * One fault, then the same report again without it: the fault's outcome is checked by `outcome`, and the
 * retry is always stored exactly once, whatever the fault did.
 */
async function faultThenRetry(arm: () => Injected, outcome: 'refused' | 'stored') {
  const s = await site();
  const body = await prepareReport(s);
  const before = await state(s);
  const fault = arm();
  const reply = await send(s, body);
  const after = await state(s);
  expect(fault.fired).toBeGreaterThan(0);
  if (outcome === 'refused') expectNothingStored(reply, before, after);
  else expectStoredOnce(reply, before, after);
  fault.remove();
  const again = await send(s, body);
  if (outcome === 'refused') expectStoredOnce(again, after, await state(s));
  // A stored report's keys are used up: sending it again is a reuse, refused without writing anything.
  else expect(again.body).toMatchObject({ status: 'error', code: 'INVALID_UPLOAD' });
  return { s, fault, reply };
}

/** The create transaction (not the flood counts' one): it is the one that writes the DETAIL item. */
/** The create transaction (it counts the issue on META); the fan-out's status transaction also names the detail. */
const isCreate = (input: Record<string, unknown>) => {
  const text = JSON.stringify(input);
  return text.includes('#DETAIL') && text.includes('openCount');
};
/** Arms a fault on the create transaction. */
const onCreate = (times: number, error: () => Error) => () =>
  inject(dynamo(), { command: 'TransactWriteItemsCommand', when: isCreate, times, error });

describe('DynamoDB throttling', () => {
  it('is absorbed by the SDK below its attempts: the report is stored once', async () => {
    const { fault } = await faultThenRetry(onCreate(dynamoAttempts - 1, faults.throughputExceeded), 'stored');
    expect(fault.calls).toBe(dynamoAttempts);
  });

  it('on the create transaction past the SDK attempts: refused, nothing stored, the copies removed', async () => {
    const { fault } = await faultThenRetry(onCreate(dynamoAttempts, faults.throughputExceeded), 'refused');
    expect(fault.fired).toBe(dynamoAttempts);
  });

  it('on the number (ADD seq) past the SDK attempts: refused, the copies made in parallel removed', async () => {
    await faultThenRetry(
      () =>
        inject(dynamo(), {
          command: 'UpdateItemCommand',
          when: (input) => String(input.UpdateExpression).includes('seq'),
          times: dynamoAttempts,
          error: faults.throttling,
        }),
      'refused',
    );
  });

  it('on the flood counts, the first write: refused before any S3 work', async () => {
    await faultThenRetry(
      () =>
        inject(dynamo(), {
          command: 'TransactWriteItemsCommand',
          when: (input) => !isCreate(input),
          times: dynamoAttempts,
          error: faults.throughputExceeded,
        }),
      'refused',
    );
  });
});

describe("the project's day and a busy project's proof (issue 19)", () => {
  // The handlers' DynamoDB client sees marshalled input ({ S: '…' }), so the items are found by their text.
  const isDay = (input: Record<string, unknown>) => JSON.stringify(input.Key).includes('#report-project#');

  it('on the read of the day past the SDK attempts: refused before any write, the retry stored once', async () => {
    const { fault } = await faultThenRetry(
      () =>
        inject(dynamo(), {
          command: 'GetItemCommand',
          when: isDay,
          times: dynamoAttempts,
          error: faults.throttling,
        }),
      'refused',
    );
    expect(fault.fired).toBe(dynamoAttempts);
  });

  it("on the proof's single-use record: refused, nothing stored, and the same proof is taken on the retry", async () => {
    const s = await site();
    await db().send(
      new PutCommand({
        TableName: stack.tableName,
        Item: { ...projectDayWindow(s.id).key, count: projectDay.proofFrom },
      }),
    );
    const body = await prepareReport(s);
    const asked = await send(s, body);
    expect(asked.body).toMatchObject({ status: 'error', code: 'PROOF_REQUIRED' });
    const challenge = JSON.parse((asked.body as unknown as { fields: { proof: string } }).fields.proof);
    const solution = await solveChallenge({ challenge, deriveKey });
    const proof = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    const before = await state(s);
    inject(dynamo(), {
      command: 'PutItemCommand',
      when: (input) => JSON.stringify(input.Item).includes('ALTCHA#'),
      times: dynamoAttempts,
      error: faults.throttling,
    });
    const reply = await send(s, { ...body, proof });
    const after = await state(s);
    expectNothingStored(reply, before, after);
    expectStoredOnce(await send(s, { ...body, proof }), after, await state(s));
  });
});

describe('a cancelled transaction', () => {
  // The create transaction has 6 fixed actions, 6 markers, the day's count and 3 guards here: 16 reasons.
  const reasons = (code: string) => ['None', 'None', code, ...Array(13).fill('None')];

  it('cancelled by a conflict with another report is tried again: stored once', async () => {
    await faultThenRetry(
      onCreate(2, () => faults.cancelled(reasons('TransactionConflict'))),
      'stored',
    );
  });

  it('cancelled for a throttled item: refused, nothing stored, the copies removed', async () => {
    await faultThenRetry(
      onCreate(1, () => faults.cancelled(reasons('ThrottlingError'))),
      'refused',
    );
  });
});

describe('S3', () => {
  it('failing on one copy past the SDK attempts: refused, the other copies removed, the pending objects kept for the retry', async () => {
    const { fault } = await faultThenRetry(
      () =>
        inject(s3Client, {
          command: 'CopyObjectCommand',
          when: (input) => String(input.CopySource).includes('/snapshot/'),
          times: s3Attempts,
          error: faults.internal,
        }),
      'refused',
    );
    expect(fault.fired).toBe(s3Attempts);
  });

  it('missing the source of a copy (a racing report used the key): INVALID_UPLOAD, nothing stored', async () => {
    const s = await site();
    const body = await prepareReport(s);
    const before = await state(s);
    inject(s3Client, { command: 'CopyObjectCommand', times: 1, error: faults.noSuchKey });
    const reply = await send(s, body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ status: 'error', code: 'INVALID_UPLOAD' });
    expect((await state(s)).counted).toEqual(before.counted);
  });

  it('failing to remove the pending objects after the store: stored once; the bucket lifecycle removes them', async () => {
    const s = await site();
    const body = await prepareReport(s);
    const before = await state(s);
    inject(s3Client, { command: 'DeleteObjectsCommand', times: 1, error: faults.accessDenied });
    expectStoredOnce(await send(s, body), before, await state(s), false);
  });
});

describe('SQS after the issue is written', () => {
  const syncList = async (s: Site, name: string) => {
    // The sync list's own query (data-model 4.8), as GET ...?integration=<name> will make it.
    const out = await db().send(
      new QueryCommand({
        TableName: stack.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': `PROJECT#${s.id}`, ':sk': `SYNC#${name}#` },
        ScanIndexForward: false,
        Limit: 50,
      }),
    );
    return (out.Items ?? []).map((i) => ({ number: i.number, s: i.s }));
  };
  const deliveredTo = (s: Site, n: number) =>
    eventually(
      async () => delivered.find((d) => d.projectId === s.id && d.issueNumber === n),
      30_000,
      `the delivery of issue ${n}`,
    );

  it('a transient failure is retried by the SDK: issue.created reaches the fan-out and the delivery', async () => {
    const s = await site();
    const body = await prepareReport(s);
    const before = await state(s);
    // The intake's send to the fan-out queue only (the fan-out's own send to the delivery queue passes).
    const fault = inject(sqs(), {
      command: 'SendMessageBatchCommand',
      when: (input) => input.QueueUrl === stack.queues.fanout.url,
      times: 1,
      error: faults.internal,
    });
    const reply = await send(s, body);
    const n = expectStoredOnce(reply, before, await state(s));
    expect(fault.calls).toBe(2);
    expect(await deliveredTo(s, n)).toEqual({
      projectId: s.id,
      issueNumber: n,
      integration: 'email',
      correlationId: expect.any(String),
    });
  });

  it('a send that fails for good: the visitor keeps the number, and the sync list holds the issue as new', async () => {
    const s = await site();
    const body = await prepareReport(s);
    const before = await state(s);
    const fault = inject(sqs(), {
      command: 'SendMessageBatchCommand',
      when: (input) => input.QueueUrl === stack.queues.fanout.url,
      times: sqsAttempts,
      error: faults.internal,
    });
    const reply = await send(s, body);
    const n = expectStoredOnce(reply, before, await state(s));
    expect(fault.fired).toBe(sqsAttempts);
    // Nothing was queued; the issue is a new (0) ticket of the email integration's sync list.
    const detail = await db().send(
      new GetCommand({
        TableName: stack.tableName,
        Key: { pk: `PROJECT#${s.id}`, sk: `ISSUE#${n10(n)}#DETAIL` },
      }),
    );
    expect(detail.Item?.st).toMatchObject({ email: 0 });
    expect(await syncList(s, 'email')).toEqual([{ number: n, s: 0 }]);
    // Sync (4.8) sends one issue.created per ticket with `only`; that message reaches the delivery.
    fault.remove();
    await sqs().send(
      new SendMessageCommand({
        QueueUrl: stack.queues.fanout.url,
        MessageBody: JSON.stringify({
          type: 'issue.created',
          projectId: s.id,
          issueNumber: n,
          only: ['email'],
        }),
      }),
    );
    expect(await deliveredTo(s, n)).toEqual({
      projectId: s.id,
      issueNumber: n,
      integration: 'email',
      correlationId: expect.any(String),
    });
  });
});
