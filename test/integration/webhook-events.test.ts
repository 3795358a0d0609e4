/**
 * Webhook events (issue 23, DESIGN section 8 `event`, docs/webhooks.md "Events") and the delivery activity
 * through the local stack: a webhook that subscribes gets `issue.updated` and `comment.created`, signed like
 * `issue.created`; one that does not gets neither; events never touch the issue's delivery status; the
 * issue's timeline records deliveries and failures (internal: a GUEST never sees them).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineEntry, TimelinePage } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { verifyTimestampedSignature } from '#runtime/signature';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { eventually } from '../support/local-stack';
import { type Received, type Receiver, startReceiver } from '../support/receiver';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const stack = setUpTestStack({
  queues: { delivery: { visibilityTimeoutSeconds: 1, retryDelaysSeconds: [1, 1, 1, 1] } },
});
let receiver: Receiver;
const ORIGIN = 'https://shop.example';
const TOKEN = 'whsec-events-token-0123456789';

beforeAll(async () => {
  receiver = await startReceiver();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});
async function webhookTo(site: Site, url: string, events?: string[]) {
  const res = await site.client.patch<{ integrations: { name: string; data: { events?: string[] } }[] }>(
    `/api/client/integration/${site.id}`,
    [{ name: 'webhooks', active: 1, data: { url, token: TOKEN, ...(events ? { events } : {}) } }],
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // A new project mails its owner (an opt-out): off, so only the webhook delivers.
  await site.client.patch(`/api/client/integration/${site.id}`, [{ name: 'email', active: 0, data: {} }]);
  return res;
}

async function webhookStatus(site: Site, n: number) {
  const out = await db().send(
    new GetCommand({
      TableName: stack.tableName,
      Key: { pk: `PROJECT#${site.id}`, sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL` },
      ConsistentRead: true,
    }),
  );
  return Number((out.Item?.st as Record<string, number> | undefined)?.webhooks ?? 0);
}
const statusIs = (site: Site, n: number, want: number) =>
  eventually(
    async () => ((await webhookStatus(site, n)) === want ? true : undefined),
    60_000,
    `status ${want}`,
  );

const bodies = (path: string) =>
  receiver.to(path).map((r) => JSON.parse(r.rawBody) as Record<string, unknown>);
const hitWith = (path: string, event: string) =>
  eventually(
    async () => receiver.to(path).find((r) => JSON.parse(r.rawBody).event === event),
    60_000,
    `${event} at ${path}`,
  ) as Promise<Received>;

const signed = (hit: Received) =>
  verifyTimestampedSignature(
    hit.rawBody,
    String(hit.headers['x-snag-signature']),
    TOKEN,
    Math.floor(Date.now() / 1000),
  );

async function timeline(site: Site, n: number) {
  const res = await site.client.get<TimelinePage<TimelineEntry>>(
    `/api/client/website/${site.id}/request/${n}/activity?limit=100`,
  );
  return (res.body as { msg: TimelinePage<TimelineEntry> }).msg.entries;
}

describe('webhook events', () => {
  it('saves the subscribed events (issue.created always among them) and answers them', async () => {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    const res = await webhookTo(site, `${receiver.url}/save/${site.id}`, [
      'comment.created',
      'comment.created',
    ]);
    const hooks = (res.body as { msg: { integrations: { name: string; data: { events?: string[] } }[] } }).msg
      .integrations;
    expect(hooks.find((i) => i.name === 'webhooks')?.data.events).toEqual([
      'issue.created',
      'comment.created',
    ]);
    const bad = await site.client.patch(`/api/client/integration/${site.id}`, [
      {
        name: 'webhooks',
        active: 1,
        data: { url: `${receiver.url}/x`, token: TOKEN, events: ['issue.deleted'] },
      },
    ]);
    expect(bad.status).toBe(400);
  });

  it('sends issue.updated and comment.created, signed, to a subscribed webhook only', async () => {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    const path = `/sub/${site.id}`;
    await webhookTo(site, `${receiver.url}${path}`, ['issue.created', 'issue.updated', 'comment.created']);
    const other = await newSite(stack.url, 'BASIC_PLAN');
    const otherPath = `/unsub/${other.id}`;
    await webhookTo(other, `${receiver.url}${otherPath}`);

    const n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Broken', title: 'Checkout' } });
    const m = await fileReport(stack.url, other.id, ORIGIN, { fields: { msg: 'Broken' } });
    await statusIs(site, n, 2);
    await statusIs(other, m, 2);

    for (const [s, k] of [
      [site, n],
      [other, m],
    ] as const) {
      const patched = await s.client.patch(`/api/client/website/${s.id}/request/${k}`, { priority: 'high' });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      const commented = await s.client.post(`/api/client/website/${s.id}/request/${k}/comments`, {
        body: 'Internal note',
        visibility: 'internal',
      });
      expect(commented.status).toBe(201);
    }

    const updated = await hitWith(path, 'issue.updated');
    expect(signed(updated)).toBe(true);
    expect(updated.headers['x-snag-token']).toBe(TOKEN);
    expect(JSON.parse(updated.rawBody)).toMatchObject({
      version: 1,
      event: 'issue.updated',
      project: { id: site.id },
      issue: { number: n, title: 'Checkout' },
      changes: { priority: { from: 'none', to: 'high' } },
      actor: { kind: 'member', name: 'Ada Lovelace' },
    });
    const comment = await hitWith(path, 'comment.created');
    expect(signed(comment)).toBe(true);
    expect(JSON.parse(comment.rawBody)).toMatchObject({
      version: 1,
      event: 'comment.created',
      issue: { number: n },
      comment: { body: 'Internal note', internal: true, author: 'Ada Lovelace' },
    });
    // No emails, no user ids in a comment's event.
    expect(comment.rawBody).not.toContain(site.email);
    expect(comment.rawBody).not.toContain(String(await findUserIdByEmail(site.email)));
    // issue.created keeps version 1's shape, with its event named.
    expect(bodies(path)[0]).toMatchObject({
      version: 1,
      event: 'issue.created',
      deliveryId: `${site.id}:${n}:webhooks`,
    });

    // The unsubscribed webhook got its issue.created and nothing else (the subscribed one's events came
    // through the same queues after its own, so they have had their time).
    await new Promise((r) => setTimeout(r, 2000));
    expect(bodies(otherPath).map((b) => b.event)).toEqual(['issue.created']);
    // Events never touch the issue's delivery status.
    expect(await webhookStatus(site, n)).toBe(2);
  });

  it('drops an event a receiver refuses, without touching the status', async () => {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    const path = `/gone/${site.id}`;
    await webhookTo(site, `${receiver.url}${path}`, ['issue.created', 'comment.created']);
    const n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Broken' } });
    await statusIs(site, n, 2);
    receiver.answer(path, 410);
    await site.client.post(`/api/client/website/${site.id}/request/${n}/comments`, {
      body: 'hello',
      visibility: 'public',
    });
    await hitWith(path, 'comment.created');
    await new Promise((r) => setTimeout(r, 3000));
    // Permanent: sent once, not retried; the issue's webhook status stays delivered.
    expect(bodies(path).filter((b) => b.event === 'comment.created')).toHaveLength(1);
    expect(await webhookStatus(site, n)).toBe(2);
  });
});

describe('delivery activity', () => {
  it('records a delivery and a failure on the timeline, by Snag, hidden from a GUEST', async () => {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    await webhookTo(site, `${receiver.url}/ok/${site.id}`);
    const n = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Broken' } });
    await statusIs(site, n, 2);
    await eventually(
      async () =>
        (await timeline(site, n)).some((e) => e.type === 'activity' && e.kind === 'delivered')
          ? true
          : undefined,
      20_000,
      'delivered entry',
    );
    expect(
      (await timeline(site, n)).find((e) => e.type === 'activity' && e.kind === 'delivered'),
    ).toMatchObject({
      actor: { kind: 'system', name: 'Snag' },
      integration: 'webhooks',
      internal: true,
    });

    await webhookTo(site, `${receiver.url}/refuse/${site.id}`);
    receiver.answer(`/refuse/${site.id}`, 404);
    const k = await fileReport(stack.url, site.id, ORIGIN, { fields: { msg: 'Broken again' } });
    await statusIs(site, k, 3);
    const failed = (await timeline(site, k)).filter(
      (e) => e.type === 'activity' && e.kind === 'delivery.failed',
    );
    expect(failed).toEqual([
      expect.objectContaining({
        actor: { kind: 'system', name: 'Snag' },
        integration: 'webhooks',
        reason: 'The webhook receiver answered 404',
        internal: true,
      }),
    ]);

    const guest = await signedIn(stack.url);
    const guestId = String(await findUserIdByEmail(guest.email));
    const owner = String(await findUserIdByEmail(site.email));
    await addToTeam(owner, guestId, 'GUEST', [site.id]);
    const seen = await guest.client.get<TimelinePage<TimelineEntry>>(
      `/api/client/website/${site.id}/request/${k}/activity`,
    );
    expect(seen.status).toBe(200);
    const kinds = (seen.body as { msg: TimelinePage<TimelineEntry> }).msg.entries.map((e) =>
      e.type === 'activity' ? e.kind : e.type,
    );
    expect(kinds).toEqual(['created']);
  });
});
