/**
 * A vendor timing out, through the real queues: report → intake → fan-out → delivery, where a test
 * deliverer (the integrations issue registers the real ones in `deliverers`) calls a vendor on loopback
 * that never answers, with a time limit as every deliverer must have (the local poller, unlike Lambda,
 * ends a hung handler only at the consumer's timeout). A timed-out delivery fails, comes back after its
 * retry delay, and after maxReceiveCount receives goes on to the delivery DLQ; one that times out once
 * passes on the next receive. At the last receive the issue gets status 3 and a
 * failed marker of the sync list (data-model 4.8).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { deliverers } from '../../../functions/integrations/delivery-run';
import { queueDecls } from '../../../functions/manifests';
import { eventually } from '../../support/local-stack';
import { activateIntegration, newSite } from '../../support/sites';
import { setUpTestStack } from '../../support/stack-fixture';
import { fileReport } from '../../support/widget';

/** The delivery consumer sets status 3 at the manifest's last receive, so the queue keeps that count. */
const RECEIVES = queueDecls.delivery.maxReceiveCount;
/** The deliverer's limit on one vendor call (the webhooks' is 10 s; short here to keep the test short). */
const VENDOR_TIMEOUT_MS = 300;

const stack = setUpTestStack({
  queues: { delivery: { visibilityTimeoutSeconds: 1, retryDelaysSeconds: [1] } },
});
let vendorUrl = '';
/** Calls per project id, and how many of each project's first calls hang. */
const calls = new Map<string, number>();
const hangFirst = new Map<string, number>();
const passed = new Set<string>();

const vendor = createServer((req: IncomingMessage, res: ServerResponse) => {
  const project = (req.url ?? '').slice(1);
  const n = (calls.get(project) ?? 0) + 1;
  calls.set(project, n);
  // Never answers: the deliverer's own time limit ends the call; the server closes the socket at the end.
  if (n <= (hangFirst.get(project) ?? 0)) return;
  passed.add(project);
  res.end('ok');
});

beforeAll(async () => {
  await new Promise<void>((r) => vendor.listen(0, '127.0.0.1', r));
  vendorUrl = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;
  deliverers.email = async (ctx) => {
    const res = await fetch(`${vendorUrl}/${ctx.project.id}`, {
      method: 'POST',
      signal: AbortSignal.timeout(VENDOR_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`vendor answered ${res.status}`);
    return {};
  };
});

afterAll(async () => {
  delete deliverers.email;
  vendor.closeAllConnections();
  await new Promise((r) => vendor.close(r));
});

async function reportTo(hangs: number) {
  const s = await newSite(stack.url);
  await activateIntegration(stack.tableName, s.id, 'email');
  hangFirst.set(s.id, hangs);
  const n = await fileReport(stack.url, s.id, 'https://shop.example', { fields: { msg: 'Broken' } });
  return { id: s.id, n };
}

describe('a vendor timing out', () => {
  it('is retried through the queue: once passes on the next receive; always ends failed after the last', async () => {
    const once = await reportTo(1);
    const always = await reportTo(Number.POSITIVE_INFINITY);

    await eventually(async () => (passed.has(once.id) ? true : undefined), 30_000, 'the second attempt');
    expect(calls.get(once.id)).toBe(2);

    // The last receive set status 3 and put the failed marker: the sync list shows the issue as failed.
    const marker = await eventually(
      async () => {
        const out = await db().send(
          new GetCommand({
            TableName: stack.tableName,
            Key: { pk: `PROJECT#${always.id}`, sk: `SYNC#email#${String(always.n).padStart(10, '0')}` },
            ConsistentRead: true,
          }),
        );
        return out.Item?.s === 3 ? out.Item : undefined;
      },
      30_000,
      'the failed marker',
    );
    expect(marker).toMatchObject({ s: 3, number: always.n });
    expect(String(marker.reason)).toMatch(new RegExp(`^Gave up after ${RECEIVES} attempts`));
    expect(calls.get(always.id)).toBe(RECEIVES);
    expect(passed.has(always.id)).toBe(false);
    const detail = await db().send(
      new GetCommand({
        TableName: stack.tableName,
        Key: { pk: `PROJECT#${always.id}`, sk: `ISSUE#${String(always.n).padStart(10, '0')}#DETAIL` },
        ConsistentRead: true,
      }),
    );
    expect(detail.Item?.st).toMatchObject({ email: 3 });
    expect(String(detail.Item?.reason_email)).toBe(String(marker.reason));
  });
});
