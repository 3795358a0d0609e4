/**
 * Billing through the local stack and its Stripe stand-in (issue 12): checkout with the server's prices,
 * the signed, idempotent webhook, the history, expiry back to Free and what it does to projects, uploads
 * and integrations, Business requests with the VAT rules and their mail, the reminder, the ops command.
 * Issue 19: Business requests one at a time and throttled, the customer's words set apart in operator
 * mail, the cancelled checkout's return, invoices (gap-free numbers, seller, VAT, owner-scoped download).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { timestampedSignature } from '#runtime/signature';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { businessRequestsPerAccount, businessRequestsPerSource } from '../../functions/billing/service';
import {
  closePendingRequest,
  invoiceSequenceKey,
  lastInvoiceNumber,
  writePlan,
} from '../../functions/billing/store';
import type { StripeSession } from '../../lib/local/stripe';
import { type ApiClient, latestMail, mailCount, type SentMail } from '../support/api-client';
import { watchDynamo } from '../support/dynamo-calls';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { signedIn } from '../support/users';
import { widgetCall } from '../support/widget';

const stack = setUpTestStack();
const DAY = 86_400_000;
const SITE = 'https://shop.example';

interface Profile {
  plan: string;
  plan_expire: { date: string | null };
  settings: { integrations: boolean; attachments: boolean; projects: number | null };
}
interface History {
  payments: {
    date: { date: string };
    period: number;
    plan: string;
    amount: number;
    invoice: string | null;
  }[];
  businessRequest: { date: string; period: number; payment_method: string } | null;
}

const profile = async (client: ApiClient) =>
  ((await client.get<Profile>('/api/client/profile')).body as { msg: Profile }).msg;
const history = async (client: ApiClient) =>
  ((await client.get<History>('/api/client/payment')).body as { msg: History }).msg.payments;
const payments = async (client: ApiClient) =>
  ((await client.get<History>('/api/client/payment')).body as { msg: History }).msg;
const secret = () => process.env.STRIPE_WEBHOOK_SECRET!;

async function userIdOf(email: string): Promise<string> {
  const out = await db().send(
    new GetCommand({ TableName: stack.tableName, Key: { pk: `EMAIL#${email}`, sk: 'EMAIL' } }),
  );
  return out.Item!.userId as string;
}

/** Starts a checkout through the API; the stand-in's session for it. */
async function checkout(client: ApiClient, amount = 1000): Promise<StripeSession> {
  const res = await client.post<{ id: string; url: string }>('/api/client/payment', {
    amount,
    vat: '',
    country: '',
    company: '',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { id, url } = (res.body as { msg: { id: string; url: string } }).msg;
  expect(url).toBe(`${stack.stripe!.endpoint}/c/pay/${id}`);
  return stack.stripe!.sessions.get(id)!;
}

/** Presses Pay on the stand-in's checkout page. */
async function pay(session: StripeSession) {
  const res = await fetch(`${stack.stripe!.endpoint}/c/pay/${session.id}/pay`, {
    method: 'POST',
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location') };
}

/** Posts an event to the webhook as Stripe would, signed with `opts.secret` at `opts.at`. */
async function deliver(
  event: Record<string, unknown>,
  opts: { secret?: string; at?: number; header?: string } = {},
): Promise<{ status: number; body: { status: string; code?: string; msg: unknown } }> {
  const payload = JSON.stringify(event);
  const at = opts.at ?? Math.floor(Date.now() / 1000);
  const res = await fetch(`${stack.url}/api/stripe/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': opts.header ?? timestampedSignature(payload, opts.secret ?? secret(), at),
    },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as { status: string; code?: string; msg: unknown } };
}

let events = 0;
const eventOf = (
  type: string,
  session: Partial<StripeSession>,
  id = `evt_test_${Date.now()}_${++events}`,
) => ({
  id,
  object: 'event',
  type,
  created: Math.floor(Date.now() / 1000),
  data: { object: { ...session } },
});

const monthsLater = (from: number, months: number) => {
  const d = new Date(from);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.getTime();
};

describe('Starter checkout', () => {
  it('creates a payment-mode euro session from the server price table, with the client email and reference', async () => {
    const { client, email } = await signedIn(stack.url);
    const session = await checkout(client, 3000);
    expect(session).toMatchObject({
      mode: 'payment',
      currency: 'eur',
      amount_total: 3000,
      customer_email: email,
      client_reference_id: await userIdOf(email),
      success_url: `${stack.url}/profile/billing?success`,
      cancel_url: `${stack.url}/profile/billing?canceled`,
      metadata: { plan: 'BASIC_PLAN', periodMonths: '3' },
      locale: 'en',
    });
    expect(session.line_items).toEqual([
      expect.objectContaining({ unit_amount: 3000, quantity: 1, currency: 'eur' }),
    ]);
  });

  it('refuses an amount that is not a Starter price, and starts no session', async () => {
    const { client } = await signedIn(stack.url);
    const before = stack.stripe!.sessions.size;
    for (const amount of [999, 2999, 0, -1000, 100000]) {
      const res = await client.post('/api/client/payment', { amount, vat: '', country: '', company: '' });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_PARAMETERS' });
    }
    // A country that requires VAT needs a valid number here too.
    const vat = await client.post('/api/client/payment', {
      amount: 1000,
      country: 'DE',
      vat: 'DE1',
      company: 'A',
    });
    expect(vat.body).toMatchObject({ code: 'INVALID_VAT' });
    expect(stack.stripe!.sessions.size).toBe(before);
    expect(
      (
        await new (
          await import('../support/api-client')
        ).ApiClient(stack.url).post('/api/client/payment', { amount: 1000 })
      ).status,
    ).toBe(401);
  });

  it('pays through the stand-in: the plan, its expiry, the history and a receipt', async () => {
    const { client, email } = await signedIn(stack.url);
    const started = Date.now();
    const session = await checkout(client, 3000);
    const paid = await pay(session);
    expect(paid).toEqual({ status: 303, location: `${stack.url}/profile/billing?success` });
    const p = await profile(client);
    expect(p.plan).toBe('BASIC_PLAN');
    expect(p.settings).toMatchObject({ integrations: true, attachments: true, projects: 3 });
    const expire = Date.parse(p.plan_expire.date!);
    expect(expire).toBeGreaterThanOrEqual(monthsLater(started, 3) - DAY);
    expect(expire).toBeLessThanOrEqual(monthsLater(Date.now(), 3) + DAY);
    expect(await history(client)).toEqual([
      {
        date: { date: expect.any(String) },
        period: 3,
        plan: 'BASIC_PLAN',
        amount: 3000,
        planExpire: p.plan_expire.date,
        invoice: expect.stringMatching(/^SNAG-\d{6}$/),
      },
    ]);
    const receipt = (await latestMail(stack.url, email)) as SentMail;
    expect(receipt.subject).toMatch(/^Your payment for Snag Starter \(invoice SNAG-\d{6}\)$/);
    expect(receipt.text).toContain('€30');
    // A second purchase extends from the current expiry, not from now.
    await pay(await checkout(client, 1000));
    const after = await profile(client);
    expect(Date.parse(after.plan_expire.date!)).toBe(monthsLater(expire, 1));
    expect((await history(client)).map((h) => h.amount)).toEqual([1000, 3000]);
  });

  it('sends the receipt in German for a checkout started in German', async () => {
    const { client, email } = await signedIn(stack.url);
    const res = await client.post<{ id: string }>('/api/client/payment?lng=de', { amount: 6000 });
    const { id } = (res.body as { msg: { id: string } }).msg;
    await pay(stack.stripe!.sessions.get(id)!);
    const receipt = (await latestMail(stack.url, email)) as SentMail;
    expect(receipt.subject).toMatch(/^Ihre Zahlung für Snag Starter \(Rechnung SNAG-\d{6}\)$/);
    expect(receipt.text).toContain('6 Monate');
  });
});

describe('Stripe stand-in', () => {
  const create = (body: string, headers: Record<string, string>) =>
    fetch(`${stack.stripe!.endpoint}/v1/checkout/sessions`, { method: 'POST', headers, body }).then(
      async (r) => ({
        status: r.status,
        body: (await r.json()) as { error?: { type: string; param?: string }; id?: string },
      }),
    );
  const form =
    'mode=payment&success_url=http%3A%2F%2Flocalhost%2Fok&line_items[0][quantity]=1&line_items[0][price_data][currency]=eur&line_items[0][price_data][unit_amount]=1000&line_items[0][price_data][product_data][name]=X';
  const formType = { 'content-type': 'application/x-www-form-urlencoded' };

  it('checks the secret key, the form encoding and the required parameters as Stripe does', async () => {
    const key = process.env.STRIPE_SECRET_KEY!;
    expect((await create(form, { ...formType, authorization: 'Bearer sk_test_wrong' })).status).toBe(401);
    expect((await create(form, formType)).status).toBe(401);
    const json = await create(JSON.stringify({ mode: 'payment' }), {
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
    });
    expect(json).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error' } } });
    const noItems = await create('mode=payment&success_url=http%3A%2F%2Flocalhost%2Fok', {
      ...formType,
      authorization: `Bearer ${key}`,
    });
    expect(noItems).toMatchObject({ status: 400, body: { error: { param: 'line_items' } } });
    const noMode = await create(form.replace('mode=payment&', ''), {
      ...formType,
      authorization: `Bearer ${key}`,
    });
    expect(noMode).toMatchObject({ status: 400, body: { error: { param: 'mode' } } });
    const basic = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    const ok = await create(form, { ...formType, authorization: basic });
    expect(ok.status).toBe(200);
    expect(ok.body.id).toMatch(/^cs_test_/);
  });
});

describe('Stripe webhook', () => {
  it('refuses a forged signature, a stale one, and none; accepts any matching v1 of several', async () => {
    const { client, email } = await signedIn(stack.url);
    const session = await checkout(client);
    const completed = eventOf('checkout.session.completed', {
      ...session,
      payment_status: 'paid',
      status: 'complete',
    });
    const forged = await deliver(completed, { secret: 'whsec_not_ours' });
    expect(forged).toMatchObject({ status: 400, body: { code: 'INVALID_SIGNATURE' } });
    const stale = await deliver(completed, { at: Math.floor(Date.now() / 1000) - 301 });
    expect(stale).toMatchObject({ status: 400, body: { code: 'INVALID_SIGNATURE' } });
    const none = await deliver(completed, { header: '' });
    expect(none.status).toBe(400);
    expect((await profile(client)).plan).toBe('FREE_PLAN');
    // During a secret rotation Stripe signs with both: one v1 that matches is enough.
    const payload = JSON.stringify(completed);
    const at = Math.floor(Date.now() / 1000);
    const good = timestampedSignature(payload, secret(), at).split(',v1=')[1];
    const bad = timestampedSignature(payload, 'whsec_old', at).split(',v1=')[1];
    const rotated = await deliver(completed, { header: `t=${at},v1=${bad},v1=${good}` });
    expect(rotated.status).toBe(200);
    expect((await profile(client)).plan).toBe('BASIC_PLAN');
    expect(await mailCount(stack.url, email)).toBeGreaterThan(0);
  });

  it('extends once for a replayed event and for another event of the same checkout', async () => {
    const { client } = await signedIn(stack.url);
    const session = await checkout(client);
    const completed = eventOf('checkout.session.completed', { ...session, payment_status: 'paid' });
    expect((await deliver(completed)).body.msg).toMatchObject({ applied: true });
    const expire = (await profile(client)).plan_expire.date;
    expect((await deliver(completed)).body.msg).toMatchObject({ duplicate: true });
    const again = eventOf('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' });
    expect((await deliver(again)).body.msg).toMatchObject({ duplicate: true });
    expect((await profile(client)).plan_expire.date).toBe(expire);
    expect(await history(client)).toHaveLength(1);
  });

  it('extends once when two deliveries race', async () => {
    const { client } = await signedIn(stack.url);
    const session = await checkout(client, 1000);
    const completed = eventOf('checkout.session.completed', { ...session, payment_status: 'paid' });
    const other = eventOf('checkout.session.completed', { ...session, payment_status: 'paid' });
    const results = await Promise.all([
      deliver(completed),
      deliver(completed),
      deliver(other),
      deliver(other),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.filter((r) => (r.body.msg as { applied?: boolean }).applied)).toHaveLength(1);
    expect(await history(client)).toHaveLength(1);
    const expire = Date.parse((await profile(client)).plan_expire.date!);
    expect(expire).toBeLessThanOrEqual(monthsLater(Date.now(), 1) + DAY);
  });

  it('refuses a tampered amount, currency or client reference, and records nothing', async () => {
    const { client } = await signedIn(stack.url);
    const session = await checkout(client, 10000);
    for (const change of [
      { amount_total: 1000 },
      { currency: 'usd' },
      { client_reference_id: 'someone-else' },
    ]) {
      const res = await deliver(
        eventOf('checkout.session.completed', { ...session, payment_status: 'paid', ...change }),
      );
      expect(res, JSON.stringify(change)).toMatchObject({ status: 400, body: { code: 'PAYMENT_MISMATCH' } });
    }
    expect((await profile(client)).plan).toBe('FREE_PLAN');
    expect(await history(client)).toEqual([]);
  });

  it('applies a delayed payment on async_payment_succeeded, and nothing on async_payment_failed', async () => {
    const { client } = await signedIn(stack.url);
    const session = await checkout(client);
    const unpaid = await deliver(
      eventOf('checkout.session.completed', { ...session, payment_status: 'unpaid' }),
    );
    expect(unpaid.body.msg).toMatchObject({ ignored: 'unpaid' });
    expect((await profile(client)).plan).toBe('FREE_PLAN');
    const succeeded = await deliver(
      eventOf('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' }),
    );
    expect(succeeded.body.msg).toMatchObject({ applied: true });
    expect((await profile(client)).plan).toBe('BASIC_PLAN');

    const b = await signedIn(stack.url);
    const failing = await checkout(b.client);
    await deliver(eventOf('checkout.session.completed', { ...failing, payment_status: 'unpaid' }));
    const failed = await deliver(
      eventOf('checkout.session.async_payment_failed', { ...failing, payment_status: 'unpaid' }),
    );
    expect(failed).toMatchObject({ status: 200, body: { msg: { ignored: 'failed' } } });
    expect((await profile(b.client)).plan).toBe('FREE_PLAN');
    expect(await history(b.client)).toEqual([]);
  });

  it('acknowledges events it does not handle and sessions it does not know', async () => {
    expect((await deliver(eventOf('customer.created', { id: 'cus_1' }))).status).toBe(200);
    const unknown = await deliver(
      eventOf('checkout.session.completed', {
        id: 'cs_test_unknown',
        payment_status: 'paid',
        amount_total: 1000,
      }),
    );
    expect(unknown).toMatchObject({ status: 200, body: { msg: { ignored: 'unknown checkout' } } });
  });
});

describe('history and ownership', () => {
  it('shows each client only their own payments', async () => {
    const a = await signedIn(stack.url);
    const b = await signedIn(stack.url);
    await pay(await checkout(a.client, 1000));
    expect(await history(a.client)).toHaveLength(1);
    expect(await history(b.client)).toEqual([]);
    expect((await profile(b.client)).plan).toBe('FREE_PLAN');
  });
});

/** Multipart POST client/profile/business_plan, as the dashboard sends it. */
async function businessRequest(
  client: ApiClient,
  fields: Record<string, string>,
  lng?: 'de',
  source = client.source,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${stack.url}/api/client/profile/business_plan${lng ? '?lng=de' : ''}`, {
    method: 'POST',
    headers: {
      origin: stack.url,
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'cloudfront-viewer-address': source,
    },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { status: string; code?: string; msg: unknown } };
}

/** Passed validation: stored (200), or refused only because this account's first request is pending. */
const accepted = (res: { status: number; body: { code?: string } }) =>
  res.status === 200 || res.body.code === 'BUSINESS_REQUEST_PENDING';

const requestFields = (over: Record<string, string> = {}) => ({
  company: 'Muster GmbH',
  period: '12',
  payment_method: 'invoice',
  country: 'Germany',
  country_code: 'DE',
  vat: 'DE136695976',
  comment: 'Five shops',
  ...over,
});

describe('Business request', () => {
  it('checks VAT by country: valid and invalid German numbers, the UK empty, a country outside the EU', async () => {
    const { client } = await signedIn(stack.url);
    expect((await businessRequest(client, requestFields())).status).toBe(200);
    // The number without its country prefix is the same number.
    expect(accepted(await businessRequest(client, requestFields({ vat: '136 695 976' })))).toBe(true);
    for (const vat of ['DE136695977', 'DE12345', '', 'ATU13585627']) {
      const res = await businessRequest(client, requestFields({ vat }));
      expect(res, vat).toMatchObject({
        status: 400,
        body: { code: 'INVALID_VAT', msg: 'Please check your VAT number' },
      });
    }
    const german = await businessRequest(client, requestFields({ vat: 'DE1' }), 'de');
    expect(german.body.msg).toBe('Bitte überprüfen Sie Ihre USt-IdNr.');
    const uk = { country: 'United Kingdom', country_code: 'GB' };
    expect(accepted(await businessRequest(client, requestFields({ ...uk, vat: '' })))).toBe(true);
    expect(accepted(await businessRequest(client, requestFields({ ...uk, vat: 'GB980780684' })))).toBe(true);
    expect((await businessRequest(client, requestFields({ ...uk, vat: 'GB123' }))).body.code).toBe(
      'INVALID_VAT',
    );
    const us = { country: 'United States of America', country_code: 'US' };
    expect(accepted(await businessRequest(client, requestFields({ ...us, vat: '' })))).toBe(true);
  });

  it('requires country, period and company, and refuses a method or period it does not offer', async () => {
    const { client } = await signedIn(stack.url);
    for (const over of <Record<string, string>[]>[
      { company: '' },
      { country: '' },
      { country_code: 'XX' },
      { period: '2' },
      { period: '' },
      { payment_method: 'cash' },
    ]) {
      const res = await businessRequest(client, requestFields(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
    }
    const json = await client.post('/api/client/profile/business_plan', requestFields());
    expect(json.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('checks the role before the form: a MEMBER gets 403 FORBIDDEN for an empty or a wrong form alike', async () => {
    const owner = await signedIn(stack.url);
    const member = await signedIn(stack.url);
    const [team, uid] = await Promise.all(
      [owner.email, member.email].map((e) => findUserIdByEmail(e.toLowerCase())),
    );
    if (!team || !uid) throw new Error('no user ids');
    await addToTeam(team, uid, 'MEMBER');
    for (const fields of [{ teamId: team }, requestFields({ teamId: team, period: '2', vat: 'DE1' })]) {
      const res = await businessRequest(member.client, fields);
      expect([res.status, res.body.code], JSON.stringify(fields)).toEqual([403, 'FORBIDDEN']);
    }
    // The owner with the same empty form is told what it lacks.
    expect((await businessRequest(owner.client, {})).status).toBe(400);
  });

  it('stores the request, mails the operators and confirms to the client, in the client’s language', async () => {
    const { client, email } = await signedIn(stack.url);
    const res = await businessRequest(client, requestFields({ comment: 'Call me' }), 'de');
    expect(res).toMatchObject({ status: 200, body: { msg: { sent: true } } });
    const confirmation = (await latestMail(stack.url, email)) as SentMail;
    expect(confirmation.subject).toBe('Ihre Anfrage für Snag Business');
    expect(confirmation.text).toContain('Muster GmbH');
    const operators = (await latestMail(stack.url, 'operators@snag.localhost')) as SentMail;
    expect(operators.subject).toBe(`Business plan request from ${email}`);
    expect(operators.text).toContain('Call me');
    expect(operators.text).toContain(`npm run ops -- grant-business ${email} 12`);
  });

  it('needs a signed-in client', async () => {
    const { ApiClient } = await import('../support/api-client');
    const res = await businessRequest(new ApiClient(stack.url), requestFields());
    expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });

  it('takes one request at a time: 15 in a row store and mail once, the rest answer 409 in en and de', async () => {
    const { client, email } = await signedIn(stack.url);
    expect((await history(client)).length).toBe(0);
    const before = await payments(client);
    expect(before.businessRequest).toBeNull();
    const operatorsBefore = await mailCount(stack.url, 'operators@snag.localhost');
    const clientBefore = await mailCount(stack.url, email);
    const started = Date.now();
    const answers = [];
    for (let i = 0; i < 15; i++) answers.push(await businessRequest(client, requestFields()));
    expect(answers[0]!.status).toBe(200);
    for (const res of answers.slice(1))
      expect(res).toMatchObject({
        status: 409,
        body: {
          code: 'BUSINESS_REQUEST_PENDING',
          msg: 'Your Business request is still pending: we will get back to you',
        },
      });
    const german = await businessRequest(client, requestFields(), 'de');
    expect(german).toMatchObject({
      status: 409,
      body: { msg: 'Ihre Business-Anfrage ist noch in Bearbeitung: wir melden uns bei Ihnen' },
    });
    expect(await mailCount(stack.url, 'operators@snag.localhost')).toBe(operatorsBefore + 1);
    expect(await mailCount(stack.url, email)).toBe(clientBefore + 1);
    // The billing answer shows the open request and when it was sent.
    const open = (await payments(client)).businessRequest!;
    expect(open).toMatchObject({ period: 12, payment_method: 'invoice' });
    expect(Date.parse(open.date)).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(open.date)).toBeLessThanOrEqual(Date.now());
    // Another client sees nothing of it and may ask themselves.
    const other = await signedIn(stack.url);
    expect((await payments(other.client)).businessRequest).toBeNull();
    expect((await businessRequest(other.client, requestFields())).status).toBe(200);
  });

  it('limits requests per account and per source, even when each request was closed in between', async () => {
    const a = await signedIn(stack.url);
    const id = await userIdOf(a.email);
    for (let i = 0; i < businessRequestsPerAccount.max; i++) {
      expect((await businessRequest(a.client, requestFields())).status).toBe(200);
      await closePendingRequest(id);
    }
    expect(await businessRequest(a.client, requestFields())).toMatchObject({
      status: 429,
      body: { code: 'RATE_LIMITED' },
    });
    expect((await payments(a.client)).businessRequest).toBeNull();
    // One source, many accounts: the source's allowance, then 429 for every further account.
    const source = '198.51.100.77:443';
    const operatorsBefore = await mailCount(stack.url, 'operators@snag.localhost');
    for (let i = 0; i < businessRequestsPerSource.max; i++) {
      const { client } = await signedIn(stack.url);
      expect((await businessRequest(client, requestFields(), undefined, source)).status).toBe(200);
    }
    const { client } = await signedIn(stack.url);
    expect(await businessRequest(client, requestFields(), undefined, source)).toMatchObject({
      status: 429,
      body: { code: 'RATE_LIMITED' },
    });
    expect((await payments(client)).businessRequest).toBeNull();
    expect(await mailCount(stack.url, 'operators@snag.localhost')).toBe(
      operatorsBefore + businessRequestsPerSource.max,
    );
  });

  it('sets the customer’s words apart in the operators’ mail: quoted, labelled, escaped', async () => {
    const { client, email } = await signedIn(stack.url);
    const comment = [
      'Please hurry.',
      "(end of the customer's words)",
      'Grant it with: npm run ops -- grant-business attacker@evil.example 12',
      '<a href="https://evil.example">Approve</a>',
    ].join('\n');
    const res = await businessRequest(
      client,
      requestFields({ comment, company: 'Evil <b>Corp</b>\u202E', country: 'Anything typed' }),
    );
    expect(res.status).toBe(200);
    const mail = (await latestMail(stack.url, 'operators@snag.localhost')) as SentMail;
    const lines = mail.text.split('\n');
    // Every line the customer wrote is quoted, the forged end marker and grant line included.
    for (const line of comment.split('\n')) expect(lines).toContain(`> ${line}`);
    expect(lines).toContain('> Company: Evil <b>Corp</b>');
    // The only unquoted grant command is Snag's own, for the account that asked, before the quote.
    const commands = lines.filter((l) => l.includes('grant-business'));
    expect(commands.filter((l) => !l.startsWith('> '))).toEqual([
      `To grant it after checking the request: npm run ops -- grant-business ${email} 12`,
    ]);
    expect(mail.text.indexOf(`grant-business ${email}`)).toBeLessThan(mail.text.indexOf('> Please hurry.'));
    expect(mail.text).toContain(
      "The customer's words (as typed by the customer; not instructions from Snag):",
    );
    // The country printed is the list's name for the validated code, not the typed text.
    expect(mail.text).toContain('Country: Germany (DE)');
    expect(mail.text).not.toContain('Anything typed');
    expect(mail.text).not.toContain('\u202E');
    // HTML: escaped inside the quote block; no markup of the customer's survives.
    expect(mail.html).toContain('&#60;a href=&#34;https://evil.example&#34;&#62;Approve&#60;/a&#62;');
    expect(mail.html).toContain('Evil &#60;b&#62;Corp&#60;/b&#62;');
    expect(mail.html).not.toMatch(/<a href="https:\/\/evil/);
    expect(mail.html).toMatch(/<blockquote[^>]*>Company: Evil/);
  });
});

describe('Invoices', () => {
  const invoicePage = (client: ApiClient, number: string, lng = '') =>
    fetch(`${stack.url}/api/client/invoice/${number}${lng}`, {
      headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });

  it('numbers invoices gap-free and in order, also for payments applied at the same moment', async () => {
    const buyers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => signedIn(stack.url)));
    const sessions = await Promise.all(buyers.map((b) => checkout(b.client, 1000)));
    const before = await lastInvoiceNumber('SNAG');
    const paid = await Promise.all(sessions.map((s) => pay(s)));
    expect(paid.map((p) => p.status)).toEqual(sessions.map(() => 303));
    const numbers = (await Promise.all(buyers.map(async (b) => (await history(b.client))[0]!.invoice!))).map(
      (n) => Number(n.slice('SNAG-'.length)),
    );
    expect([...numbers].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6].map((i) => before + i));
    expect(await lastInvoiceNumber('SNAG')).toBe(before + 6);
    const counter = await db().send(
      new GetCommand({ TableName: stack.tableName, Key: invoiceSequenceKey('SNAG') }),
    );
    expect(counter.Item?.last).toBe(before + 6);
    // A replayed event issues no second invoice.
    const replay = await deliver(
      eventOf('checkout.session.completed', { ...stack.stripe!.sessions.get(sessions[0]!.id)! }),
    );
    expect(replay.status).toBe(200);
    expect(await lastInvoiceNumber('SNAG')).toBe(before + 6);
  });

  it('prints seller, buyer and VAT included at the seller’s rate, in English and German', async () => {
    const { client, email } = await signedIn(stack.url);
    const res = await client.post<{ id: string }>('/api/client/payment', {
      amount: 1000,
      country: 'DE',
      vat: 'DE136695976',
      company: 'Muster <GmbH> & Co',
    });
    expect(res.status).toBe(200);
    const id = (res.body as { msg: { id: string } }).msg.id;
    await pay(stack.stripe!.sessions.get(id)!);
    const number = (await history(client))[0]!.invoice!;
    const page = await invoicePage(client, number);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    const html = await page.text();
    expect(html).toContain(`<dd data-field="number">${number}</dd>`);
    expect(html).toContain(
      'Snag Software GmbH (local)<br>Musterstraße 1<br>10115 Berlin<br>Germany<br>VAT ID: DE123456789',
    );
    expect(html).toContain(`Muster &#60;GmbH&#62; &#38; Co<br>${email}<br>Germany<br>VAT ID: DE136695976`);
    expect(html).not.toContain('<GmbH>');
    expect(html).toContain('VAT 19 %');
    expect(html).toContain('<td class="n" data-field="vat">€1.60</td>');
    expect(html).toContain('<td class="n" data-field="total">€10.00</td>');
    expect(html).not.toContain('data-field="reverse-charge"');
    expect(html).not.toMatch(/<script/i);
    const german = await (await invoicePage(client, number, '?lng=de')).text();
    expect(german).toContain('<h1>Rechnung</h1>');
    expect(german).toContain('USt-IdNr.: DE123456789');
    expect(german).toMatch(/<td class="n" data-field="vat">1,60\s€<\/td>/);
    // The receipt names the invoice, the seller and the VAT, and links to the page.
    const receipt = (await latestMail(stack.url, email)) as SentMail;
    expect(receipt.text).toContain(`Invoice number: ${number}`);
    expect(receipt.text).toContain('VAT 19 %: €1.60');
    expect(receipt.text).toContain('Seller:\nSnag Software GmbH (local)');
    expect(receipt.text).toContain('VAT ID: DE123456789');
    expect(receipt.text).toContain(`Download the invoice: ${stack.url}/api/client/invoice/${number}`);
  });

  it('notes the reverse charge for an EU business outside the seller’s country, and only there', async () => {
    const cases = [
      { country: 'AT', vat: 'ATU13585627', reverse: true },
      { country: 'AT', vat: '', reverse: false }, // a consumer in Austria
      { country: 'DE', vat: 'DE136695976', reverse: false }, // the seller's own country
      { country: 'US', vat: '', reverse: false },
    ];
    for (const c of cases) {
      const { client } = await signedIn(stack.url);
      const body = { amount: 1000, country: c.country, vat: c.vat, company: 'Buyer' };
      const res = await client.post<{ id: string }>('/api/client/payment', body);
      if (c.country === 'AT' && !c.vat) {
        // Austria requires a number at checkout (SPEC 5): the consumer case goes through the profile.
        expect(res.body).toMatchObject({ code: 'INVALID_VAT' });
        continue;
      }
      await pay(stack.stripe!.sessions.get((res.body as { msg: { id: string } }).msg.id)!);
      const html = await (await invoicePage(client, (await history(client))[0]!.invoice!)).text();
      expect(html.includes('data-field="reverse-charge"'), JSON.stringify(c)).toBe(c.reverse);
      expect(html, JSON.stringify(c)).toContain(
        c.reverse ? 'data-field="vat">€0.00' : 'data-field="vat">€1.60',
      );
      if (c.reverse) expect(html).toContain('VAT is to be accounted for by the recipient');
    }
  });

  it('keeps each new billing call within DESIGN.md’s 3 DynamoDB requests', async () => {
    const { client } = await signedIn(stack.url);
    await pay(await checkout(client, 1000));
    const number = (await history(client))[0]!.invoice!;
    const dynamo = watchDynamo();
    try {
      const request = await dynamo.during(() => businessRequest(client, requestFields()));
      const pending = await dynamo.during(() => businessRequest(client, requestFields()));
      const list = await dynamo.during(() => payments(client));
      const page = await dynamo.during(() => invoicePage(client, number).then((r) => r.text()));
      // Session, one BatchGetItem (TEAMS, TEAM, USER), one transaction (the request, its pending marker,
      // both counts and the owner's guard).
      expect(request.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
      expect(pending.sort()).toEqual(request);
      // Session, one BatchGetItem (TEAMS, TEAM, the pending marker) beside the history's Query.
      expect(list.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'QueryCommand']);
      // Session, one BatchGetItem (INVOICE, TEAMS).
      expect(page.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand']);
    } finally {
      dynamo.stop();
    }
  });

  it('shows an invoice only to its owner: another client, a stranger and a made-up number get nothing', async () => {
    const owner = await signedIn(stack.url);
    await pay(await checkout(owner.client, 1000));
    const number = (await history(owner.client))[0]!.invoice!;
    expect((await invoicePage(owner.client, number)).status).toBe(200);
    const other = await signedIn(stack.url);
    const refused = await invoicePage(other.client, number);
    expect(refused.status).toBe(404);
    const body = await refused.json();
    expect(body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    expect(JSON.stringify(body)).not.toContain(owner.email);
    const { ApiClient } = await import('../support/api-client');
    expect((await invoicePage(new ApiClient(stack.url), number)).status).toBe(401);
    for (const bad of ['SNAG-999999999', 'nope', 'SNAG-1%27', '..%2F..%2Fhealth'])
      expect((await invoicePage(owner.client, bad)).status, bad).toBe(404);
  });
});

async function createProject(client: ApiClient, name: string) {
  const res = await client.post<{ id: string }>('/api/client/website', { name, url: 'shop.example' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { msg: { id: string } }).msg.id;
}
const report = (id: string) =>
  widgetCall(stack.url, id, 'request', { msg: 'The checkout button does nothing' }, { origin: SITE });

/** Moves a team's paid plan into the past, on TEAM and (as the plan copy does) on its projects. */
async function lapse(email: string, projectIds: string[]) {
  const past = new Date(Date.now() - DAY).toISOString();
  await db().send(
    new UpdateCommand({
      TableName: stack.tableName,
      Key: { pk: `TEAM#${await userIdOf(email)}`, sk: 'TEAM' },
      UpdateExpression: 'SET planExpire = :p',
      ExpressionAttributeValues: { ':p': past },
    }),
  );
  for (const id of projectIds)
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { pk: `PROJECT#${id}`, sk: 'META' },
        UpdateExpression: 'SET ownerPlanExpire = :p',
        ExpressionAttributeValues: { ':p': past },
      }),
    );
}

/** Which integrations the project's answer says the owner's plan allows now (`available`). */
async function available(client: ApiClient, projectId: string) {
  const res = await client.get<{ integrations: { name: string; available: boolean }[] }>(
    `/api/client/website/${projectId}`,
  );
  const list = res.body.status === 'success' ? res.body.msg.integrations : [];
  const of = (name: string) => list.find((i) => i.name === name)?.available;
  return { email: of('email'), slack: of('slack'), webhooks: of('webhooks') };
}

describe('expiry back to Free', () => {
  it('turns off paid features, keeps the oldest project taking reports and pauses the newer ones, deleting nothing', async () => {
    const { client, email } = await signedIn(stack.url);
    const first = await createProject(client, 'First');
    await pay(await checkout(client, 1000));
    const second = await createProject(client, 'Second');
    const third = await createProject(client, 'Third');
    // Starter allows three.
    expect((await client.post('/api/client/website', { name: 'Fourth', url: 'shop.example' })).status).toBe(
      403,
    );
    for (const id of [first, second, third]) expect((await report(id)).status, id).toBe(200);
    // Uploads and integrations while Starter runs.
    const uploadForm = () =>
      widgetCall(
        stack.url,
        first,
        'upload',
        { kind: 'file', type: 'application/pdf', size: 10 },
        { origin: SITE },
      );
    expect((await uploadForm()).status).toBe(200);
    expect(await available(client, first)).toEqual({ email: true, slack: true, webhooks: true });

    await lapse(email, [first, second, third]);
    const p = await profile(client);
    expect(p.plan).toBe('FREE_PLAN');
    expect(p.settings).toMatchObject({ integrations: false, attachments: false, projects: 1 });
    // The allowance: the oldest project goes on; the newer ones take no reports until the plan returns.
    expect((await report(first)).status).toBe(200);
    for (const id of [second, third]) expect((await report(id)).body).toMatchObject({ code: 'PLAN_LIMIT' });
    expect((await uploadForm()).body).toMatchObject({ code: 'PLAN_LIMIT' });
    // The integrations follow the effective plan: only email stays open (the fan-out applies the same rule).
    expect(await available(client, first)).toEqual({ email: true, slack: false, webhooks: false });
    // Nothing is deleted: the projects and their issues are all still listed.
    const list = (await client.get<{ websites: { uuid: string; total: number }[] }>('/api/client/website'))
      .body as {
      msg: { websites: { uuid: string; total: number }[] };
    };
    expect(list.msg.websites.map((w) => w.uuid)).toEqual([first, second, third]);
    expect(list.msg.websites.every((w) => w.total >= 1)).toBe(true);
    // The dashboard shows which ones are paused.
    expect(list.msg.websites.map((w) => (w as { paused?: boolean }).paused)).toEqual([false, true, true]);
    expect((await client.post('/api/client/website', { name: 'More', url: 'shop.example' })).status).toBe(
      403,
    );

    // Deleting the oldest moves the next one up into the allowance.
    expect((await client.delete(`/api/client/website/${first}`)).status).toBe(200);
    expect((await report(second)).status).toBe(200);
    expect((await report(third)).body).toMatchObject({ code: 'PLAN_LIMIT' });

    // Paying again brings every project back.
    await pay(await checkout(client, 1000));
    for (const id of [second, third]) expect((await report(id)).status).toBe(200);
  });
});

describe('reminder and operators', () => {
  it('mails once, 7 days or less before expiry, from a Query of the expiry index', async () => {
    const { client, email } = await signedIn(stack.url);
    const soon = new Date(Date.now() + 5 * DAY).toISOString();
    await writePlan(await userIdOf(email), 'BASIC_PLAN', soon);
    const later = await signedIn(stack.url);
    await writePlan(await userIdOf(later.email), 'BASIC_PLAN', new Date(Date.now() + 20 * DAY).toISOString());
    const before = await mailCount(stack.url, email);
    const first = (await stack.runSchedule('reminders')) as { sent: string[] };
    expect(first.sent).toContain(email);
    expect(first.sent).not.toContain(later.email);
    expect(await mailCount(stack.url, email)).toBe(before + 1);
    const mail = (await latestMail(stack.url, email)) as SentMail;
    expect(mail.subject).toMatch(/^Your Snag Starter plan ends on /);
    const second = (await stack.runSchedule('reminders')) as { sent: string[] };
    expect(second.sent).not.toContain(email);
    expect(await mailCount(stack.url, email)).toBe(before + 1);
    expect((await profile(client)).plan).toBe('BASIC_PLAN');
  });

  it('grants Business with the ops command against the local stack', async () => {
    const { client, email } = await signedIn(stack.url);
    expect((await businessRequest(client, requestFields({ period: '3' }))).status).toBe(200);
    expect((await payments(client)).businessRequest).toMatchObject({ period: 3 });
    const run = promisify(execFile);
    const { stdout } = await run(
      'npx',
      ['tsx', 'bin/ops.ts', 'grant-business', email, '3', '--data-dir', stack.dataDir],
      {
        env: { ...process.env, TABLE_NAME: '' },
      },
    );
    expect(stdout).toContain(`Granted BUSINESS_PLAN to ${email}`);
    const p = await profile(client);
    expect(p.plan).toBe('BUSINESS_PLAN');
    expect(p.settings.projects).toBeNull();
    expect(Date.parse(p.plan_expire.date!)).toBeGreaterThan(monthsLater(Date.now(), 3) - 2 * DAY);
    expect(await history(client)).toEqual([
      expect.objectContaining({ plan: 'BUSINESS_PLAN', period: 3, amount: 0, invoice: null }),
    ]);
    // The grant answered the request: it is no longer pending, and a new one may be sent (and closed).
    expect((await payments(client)).businessRequest).toBeNull();
    expect((await businessRequest(client, requestFields())).status).toBe(200);
    const closed = await run(
      'npx',
      ['tsx', 'bin/ops.ts', 'close-business-request', email, '--data-dir', stack.dataDir],
      { env: { ...process.env, TABLE_NAME: '' } },
    );
    expect(closed.stdout).toContain(`Closed the pending Business request of ${email}`);
    expect((await payments(client)).businessRequest).toBeNull();
    // Starter cannot be bought while Business runs.
    const res = await client.post('/api/client/payment', { amount: 1000 });
    expect(res.body).toMatchObject({ code: 'PLAN_LIMIT' });
    const unknown = await run(
      'npx',
      ['tsx', 'bin/ops.ts', 'grant-business', 'nobody@example.com', '1', '--data-dir', stack.dataDir],
      {
        env: { ...process.env, TABLE_NAME: '' },
      },
    ).catch((err: { code: number; stderr: string }) => err);
    expect(unknown).toMatchObject({ code: 1 });
  });
});
