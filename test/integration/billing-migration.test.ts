/**
 * Migration of pre-team billing data (issue 22, docs/data-model.md 4.12 "Migration of pre-team data",
 * steps 1 and 3): an account with a project, an issue with files, a payment with its invoice, a Business
 * request and a pending checkout is put back into the shape the code before teams wrote (plan, billing
 * details, counters and the expiry index on USER; PAYMENT#/BIZREQ#/BIZREQ_PENDING in USER#uid; no TEAM,
 * MEMBER or TEAMS; META, INVOICE and CHECKOUT without `teamId`). After the migration, lazily on first use
 * or by `npm run ops -- migrate` (twice, concurrently, with requests in between), the same calls answer
 * the same, and a further run changes nothing.
 */
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { migrateAll } from '../../functions/billing/migrate';
import type { ApiClient } from '../support/api-client';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';
import { uploadFile, widgetCall } from '../support/widget';

const stack = setUpTestStack();

const SITE = 'https://shop.example';
const T = () => stack.tableName;
const cookieOf = (client: ApiClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function partition(pk: string) {
  const out = await db().send(
    new QueryCommand({
      TableName: T(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).sort((a, b) => String(a.sk).localeCompare(String(b.sk)));
}
const get = async (pk: string, sk: string) => (await partition(pk)).find((i) => i.sk === sk);

/** An account with everything billing touches, made through the API. */
async function account() {
  const { client, email } = await signedIn(stack.url);
  const uid = (await findUserIdByEmail(email)) as string;
  const paid = await client.post<{ id: string }>('/api/client/payment', {
    amount: 1000,
    country: 'DE',
    company: 'Muster GmbH',
    vat: 'DE136695976',
  });
  const csPaid = (paid.body as { msg: { id: string } }).msg.id;
  await fetch(`${stack.stripe!.endpoint}/c/pay/${csPaid}/pay`, { method: 'POST', redirect: 'manual' });
  const made = await client.post<{ id: string }>('/api/client/website', {
    name: 'Shop',
    url: 'shop.example',
  });
  const pid = (made.body as { msg: { id: string } }).msg.id;
  const key = await uploadFile(stack.url, pid, 'screenshot', 'image/png', new Uint8Array(1500).fill(7), {
    origin: SITE,
  });
  const reported = await widgetCall(
    stack.url,
    pid,
    'request',
    { msg: 'Broken', screenshots: [{ key, type: 'png' }] },
    { origin: SITE },
  );
  expect(reported.status).toBe(200);
  const form = new FormData();
  const fields = {
    company: 'Muster GmbH',
    period: '12',
    payment_method: 'invoice',
    country: 'Germany',
    country_code: 'DE',
    vat: 'DE136695976',
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const asked = await fetch(`${stack.url}/api/client/profile/business_plan`, {
    method: 'POST',
    headers: { origin: stack.url, cookie: cookieOf(client) },
    body: form,
  });
  expect(asked.status).toBe(200);
  // A checkout started and not paid yet: its webhook comes after the migration.
  const pending = await client.post<{ id: string }>('/api/client/payment', {
    amount: 1000,
    country: 'DE',
    company: 'Muster GmbH',
    vat: 'DE136695976',
  });
  const csPending = (pending.body as { msg: { id: string } }).msg.id;
  return { client, email, uid, pid, csPending };
}

/** What the dashboard shows of billing: the calls whose answers must not change. */
async function answers(client: ApiClient, pid: string) {
  const profile = (await client.get('/api/client/profile')).body;
  const payments = (await client.get<{ payments: { invoice: string | null }[] }>('/api/client/payment')).body;
  const number = (payments as { msg: { payments: { invoice: string | null }[] } }).msg.payments[0]?.invoice;
  const invoice = await (
    await fetch(`${stack.url}/api/client/invoice/${number}`, { headers: { cookie: cookieOf(client) } })
  ).text();
  const detail = (await client.get(`/api/client/website/${pid}`)).body;
  const list = (await client.get('/api/client/website')).body;
  return { profile, payments, invoice, detail, list };
}

const TEAM_FIELDS = ['plan', 'planExpire', 'remindedFor', 'lang', 'country', 'company', 'vat'] as const;
const COUNTERS = ['projectCount', 'storageBytes'] as const;

/** Puts the account back into the pre-team shape (docs/data-model.md 3 and 4.10 as they were). */
async function toPreTeam(uid: string, pid: string, csPending: string) {
  const team = (await get(`TEAM#${uid}`, 'TEAM'))!;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  for (const [i, f] of [...TEAM_FIELDS, ...COUNTERS].entries()) {
    if (team[f] === undefined) continue;
    names[`#f${i}`] = f;
    values[`:f${i}`] = team[f];
    sets.push(`#f${i} = :f${i}`);
  }
  values[':g'] = team.gsi1pk;
  values[':gs'] = `USER#${uid}`;
  await db().send(
    new UpdateCommand({
      TableName: T(),
      Key: { pk: `USER#${uid}`, sk: 'USER' },
      UpdateExpression: `SET ${sets.join(', ')}, gsi1pk = :g, gsi1sk = :gs REMOVE teamId`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
  for (const item of await partition(`TEAM#${uid}`)) {
    const sk = String(item.sk);
    if (sk.startsWith('PAYMENT#') || sk.startsWith('BIZREQ')) {
      const { teamId: _t, ...old } = item;
      await db().send(new PutCommand({ TableName: T(), Item: { ...old, pk: `USER#${uid}` } }));
    }
    await db().send(new DeleteCommand({ TableName: T(), Key: { pk: item.pk, sk: item.sk } }));
  }
  await db().send(new DeleteCommand({ TableName: T(), Key: { pk: `USER#${uid}`, sk: 'TEAMS' } }));
  const invoices = (await partition(`TEAM#${uid}`)).length; // 0: the partition is gone
  expect(invoices).toBe(0);
  const drop = async (pk: string, sk: string) =>
    db().send(new UpdateCommand({ TableName: T(), Key: { pk, sk }, UpdateExpression: 'REMOVE teamId' }));
  await drop(`PROJECT#${pid}`, 'META');
  await drop(`CHECKOUT#${csPending}`, 'CHECKOUT');
}

async function invoiceNumbersOf(client: ApiClient) {
  const res = await client.get<{ payments: { invoice: string | null }[] }>('/api/client/payment');
  return (res.body as { msg: { payments: { invoice: string | null }[] } }).msg.payments.map((p) => p.invoice);
}

/** Removes `teamId` from the account's invoices, as the code before teams wrote them. */
async function preTeamInvoices(client: ApiClient) {
  for (const n of await invoiceNumbersOf(client))
    if (n)
      await db().send(
        new UpdateCommand({
          TableName: T(),
          Key: { pk: `INVOICE#${n}`, sk: 'INVOICE' },
          UpdateExpression: 'REMOVE teamId',
        }),
      );
}

/** The account's items (USER and TEAM partitions), for "nothing more changes". */
async function snapshot(uid: string) {
  return { user: await partition(`USER#${uid}`), team: await partition(`TEAM#${uid}`) };
}

describe('migration of pre-team billing data', () => {
  it('runs lazily on first use: the same calls answer the same, the items moved to TEAM#uid', async () => {
    const a = await account();
    const before = await answers(a.client, a.pid);
    await preTeamInvoices(a.client);
    await toPreTeam(a.uid, a.pid, a.csPending);
    expect(await get(`USER#${a.uid}`, 'BIZREQ_PENDING')).toBeDefined();

    // The billing history first: it migrates (steps 1 and 3) and answers as before.
    expect((await a.client.get('/api/client/payment')).body).toEqual(before.payments);
    expect(await answers(a.client, a.pid)).toEqual(before);
    const user = (await get(`USER#${a.uid}`, 'USER'))!;
    expect(user).toMatchObject({ teamId: a.uid });
    expect(user.gsi1pk).toBeUndefined();
    const team = (await get(`TEAM#${a.uid}`, 'TEAM'))!;
    expect(team).toMatchObject({
      plan: 'BASIC_PLAN',
      company: 'Muster GmbH',
      projectCount: 1,
      storageBytes: 1500,
      gsi1sk: `TEAM#${a.uid}`,
      billingMovedAt: expect.any(Number),
    });
    const userSks = (await partition(`USER#${a.uid}`)).map((i) => String(i.sk));
    expect(userSks.filter((sk) => sk.startsWith('PAYMENT#') || sk.startsWith('BIZREQ'))).toEqual([]);
    const teamSks = (await partition(`TEAM#${a.uid}`)).map((i) => String(i.sk));
    expect(teamSks.filter((sk) => sk.startsWith('PAYMENT#'))).toHaveLength(1);
    expect(teamSks.filter((sk) => sk.startsWith('BIZREQ#'))).toHaveLength(1);
    expect(teamSks).toContain('BIZREQ_PENDING');
  });

  it('by `ops migrate`: twice, concurrently with requests, once in effect; the pre-team checkout pays the team', async () => {
    const a = await account();
    const b = await account();
    const before = { a: await answers(a.client, a.pid), b: await answers(b.client, b.pid) };
    for (const x of [a, b]) {
      await preTeamInvoices(x.client);
      await toPreTeam(x.uid, x.pid, x.csPending);
    }
    // Two runs and a user's first calls, all at once.
    const [r1, r2] = await Promise.all([
      migrateAll({ segments: 2 }),
      migrateAll({ segments: 3 }),
      a.client.get('/api/client/payment'),
      b.client.get('/api/client/profile'),
    ]);
    expect(r1.created + r2.created).toBeGreaterThanOrEqual(0);
    expect({ a: await answers(a.client, a.pid), b: await answers(b.client, b.pid) }).toEqual(before);
    const settled = { a: await snapshot(a.uid), b: await snapshot(b.uid) };
    // Each billing item once, in the team.
    for (const s of [settled.a, settled.b]) {
      expect(s.team.filter((i) => String(i.sk).startsWith('PAYMENT#'))).toHaveLength(1);
      expect(s.team.filter((i) => String(i.sk).startsWith('BIZREQ#'))).toHaveLength(1);
      expect(
        s.user.filter((i) => String(i.sk).startsWith('PAYMENT#') || String(i.sk).startsWith('BIZREQ')),
      ).toEqual([]);
    }
    // A third run finds nothing to do and changes nothing.
    const again = await migrateAll({ segments: 2 });
    expect(again.created + again.copied).toBe(0);
    expect({ a: await snapshot(a.uid), b: await snapshot(b.uid) }).toEqual(settled);

    // The checkout started before the migration (no teamId) is paid: it extends the team's plan.
    const expire = (await get(`TEAM#${a.uid}`, 'TEAM'))!.planExpire as string;
    await fetch(`${stack.stripe!.endpoint}/c/pay/${a.csPending}/pay`, { method: 'POST', redirect: 'manual' });
    const team = (await get(`TEAM#${a.uid}`, 'TEAM'))!;
    expect(Date.parse(team.planExpire as string)).toBeGreaterThan(Date.parse(expire));
    expect(await invoiceNumbersOf(a.client)).toHaveLength(2);
    expect((await get(`USER#${a.uid}`, 'USER'))!.gsi1pk).toBeUndefined();
  });
});
