/**
 * The billing entities (docs/data-model.md 3 and 4.10), each owning its keys:
 * - CHECKOUT#<csId>/CHECKOUT: a started checkout (pending → paid), the server's own record of the amount.
 * - TEAM#<tid>/PAYMENT#<paidAt ISO>#<ref>: a payment of the team's history (issue 22; before it, in USER#<uid>).
 * - TEAM#<tid>/BIZREQ#<createdAt ISO>#<id>: a Business request, in gsi1 BIZREQ for an operator inbox.
 * - STRIPE_EVENT#<evtId>/STRIPE_EVENT: a handled Stripe event (idempotency on the event id, 30-day TTL).
 * - TEAM#<tid>/BIZREQ_PENDING: the team's open Business request (one at a time, issue 19), until an
 *   operator grants it or it is `businessRequestOpenDays` old.
 * - INVOICE_SEQ#<prefix>/INVOICE_SEQ: the seller's last invoice number; INVOICE#<number>/INVOICE: an invoice.
 * - The plan fields of TEAM#<tid>/TEAM with the expiry index: gsi1pk EXPIRE#<YYYY-MM-DD of planExpire>,
 *   gsi1sk TEAM#<tid>, present only while a paid plan has an expiry (the reminder's Query). Accounts not
 *   migrated yet keep theirs on USER#<uid>/USER (gsi1sk USER#<uid>) until their first use.
 *
 * Pre-team CHECKOUT and INVOICE items name only `userId`: readers use `teamId ?? userId` (a personal
 * team's id is its user's id, decision T2).
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BusinessRequestInput } from '#contracts/countries';
import type { PlanName } from '#contracts/plans';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { DAY, epochSeconds, nowMs } from '#runtime/time';
import { teamKey } from '../teams/team';
import type { Invoice } from './invoice';

export const checkoutKey = (csId: string) => ({ pk: `CHECKOUT#${csId}`, sk: 'CHECKOUT' });
export const stripeEventKey = (id: string) => ({ pk: `STRIPE_EVENT#${id}`, sk: 'STRIPE_EVENT' });
export const paymentSk = (paidAt: string, ref: string) => `PAYMENT#${paidAt}#${ref}`;
export const expiryPartition = (planExpire: string) => `EXPIRE#${planExpire.slice(0, 10)}`;

export interface Checkout {
  id: string;
  /** Who paid (the team's OWNER). */
  userId: string;
  /** The team paid for; absent on checkouts started before teams (then `userId`'s personal team). */
  teamId?: string;
  plan: 'BASIC_PLAN';
  periodMonths: number;
  amount: number;
  vat: string;
  country: string;
  company: string;
  lang: 'en' | 'de';
  status: 'pending' | 'paid';
  createdAt: number;
}

export interface Payment {
  date: string;
  type: PlanName;
  amount: number;
  periodMonths: number;
  currency: 'eur';
  stripeCheckoutId?: string;
  planExpire: string;
  /** The invoice of a card payment (issue 19); grants and older payments have none. */
  invoiceNumber?: string;
}

/** The team a checkout pays for (`teamId ?? userId`, T2). */
export const checkoutTeam = (c: Pick<Checkout, 'teamId' | 'userId'>) => c.teamId ?? c.userId;

/** Put CHECKOUT (pending) and keep the billing details on TEAM, in one transaction (A60). */
export function checkoutItems(c: Checkout & { teamId: string }) {
  return [
    {
      Put: {
        TableName: tableName(),
        Item: { ...checkoutKey(c.id), ...c, ttl: epochSeconds(c.createdAt + 30 * DAY) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: teamKey(c.teamId),
        UpdateExpression: 'SET country = :c, company = :co, vat = :v, lang = :l',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':c': c.country, ':co': c.company, ':v': c.vat, ':l': c.lang },
      },
    },
  ];
}

export async function getCheckout(csId: string): Promise<Checkout | null> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: checkoutKey(csId), ConsistentRead: true }),
  );
  if (!out.Item) return null;
  const { pk: _p, sk: _s, ttl: _t, ...rest } = out.Item;
  return rest as Checkout;
}

/**
 * The TEAM update that sets a plan and its expiry index, only while the expiry is still the one read
 * (`readExpire`), so two payments applied at once cannot both extend from the same date.
 */
export function planUpdate(
  teamId: string,
  plan: PlanName,
  planExpire: string | null,
  readExpire: string | null,
) {
  const values: Record<string, unknown> = { ':p': plan, ':e': planExpire };
  let condition = 'attribute_exists(pk)';
  if (readExpire === null) condition += ' AND (attribute_not_exists(planExpire) OR planExpire = :null)';
  else condition += ' AND planExpire = :read';
  if (readExpire === null) values[':null'] = null;
  else values[':read'] = readExpire;
  let expression = 'SET #plan = :p, planExpire = :e';
  if (planExpire && plan !== 'FREE_PLAN') {
    expression += ', gsi1pk = :g, gsi1sk = :gs';
    values[':g'] = expiryPartition(planExpire);
    values[':gs'] = teamKey(teamId).pk;
  } else {
    expression += ' REMOVE gsi1pk, gsi1sk';
  }
  return {
    TableName: tableName(),
    Key: teamKey(teamId),
    UpdateExpression: expression,
    ConditionExpression: condition,
    ExpressionAttributeNames: { '#plan': 'plan' },
    ExpressionAttributeValues: values,
  };
}

/** Sets the plan unconditionally (ops, the local dev route), keeping the expiry index. */
export async function writePlan(teamId: string, plan: PlanName, planExpire: string | null): Promise<void> {
  const update = planUpdate(teamId, plan, planExpire, null);
  update.ConditionExpression = 'attribute_exists(pk)';
  delete update.ExpressionAttributeValues[':null'];
  await db().send(new UpdateCommand(update));
}

export function paymentPut(teamId: string, ref: string, p: Payment) {
  return {
    TableName: tableName(),
    Item: { pk: teamKey(teamId).pk, sk: paymentSk(p.date, ref), ...p },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

export async function putPayment(teamId: string, ref: string, p: Payment): Promise<void> {
  await db().send(new PutCommand(paymentPut(teamId, ref, p)));
}

/** The team's history, newest first (A63). */
export async function listPayments(teamId: string): Promise<Payment[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': teamKey(teamId).pk, ':p': 'PAYMENT#' },
      ScanIndexForward: false,
      Limit: 100,
    }),
  );
  return (out.Items ?? []).map((i) => {
    const { pk: _p, sk: _s, ...rest } = i;
    return rest as Payment;
  });
}

export interface BusinessRequest extends BusinessRequestInput {
  id: string;
  /** Who asked; `teamId` the team it is for (absent on requests made before teams: `userId`'s). */
  userId: string;
  teamId?: string;
  status: 'new' | 'done';
  createdAt: string;
}

/** How long a Business request blocks the next one when no operator closes it (docs/decisions.md). */
export const businessRequestOpenDays = 30;

export const pendingRequestKey = (teamId: string) => ({ pk: teamKey(teamId).pk, sk: 'BIZREQ_PENDING' });

export interface PendingRequest {
  createdAt: string;
  period: number;
  payment_method: BusinessRequestInput['payment_method'];
  /** The request's own item, marked done when the pending marker is closed. */
  requestSk: string;
  expiresAt: number;
}

/**
 * A Business request (A64) as two Puts for one transaction: the pending marker, which refuses a second
 * request while the first is open (its condition), and the request itself, in gsi1 BIZREQ for operators.
 */
export function businessRequestItems(
  teamId: string,
  userId: string,
  input: BusinessRequestInput,
  now: number,
) {
  const createdAt = new Date(now).toISOString();
  const request: BusinessRequest = { ...input, id: randomUUID(), userId, teamId, status: 'new', createdAt };
  const requestSk = `BIZREQ#${createdAt}#${request.id}`;
  const expiresAt = now + businessRequestOpenDays * DAY;
  const pending: PendingRequest = {
    createdAt,
    period: input.period,
    payment_method: input.payment_method,
    requestSk,
    expiresAt,
  };
  return [
    {
      Put: {
        TableName: tableName(),
        Item: { ...pendingRequestKey(teamId), ...pending, ttl: epochSeconds(expiresAt) },
        // TTL deletes late (up to days): an expired marker that is still there does not block.
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': now },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          pk: teamKey(teamId).pk,
          sk: requestSk,
          gsi1pk: 'BIZREQ',
          gsi1sk: `${createdAt}#${teamId}`,
          ...request,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** The team's open Business request, or null (none, or older than `businessRequestOpenDays`). */
export function pendingOf(item: Record<string, unknown> | undefined, now = nowMs()): PendingRequest | null {
  const found = item as (PendingRequest & Record<string, unknown>) | undefined;
  if (!found || found.expiresAt < now) return null;
  const { createdAt, period, payment_method, requestSk, expiresAt } = found;
  return { createdAt, period, payment_method, requestSk, expiresAt };
}

export async function getPendingRequest(teamId: string, now = nowMs()): Promise<PendingRequest | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: pendingRequestKey(teamId) }));
  return pendingOf(out.Item, now);
}

/** Closes the open Business request (an operator granted it): the marker goes, the request is done. */
export async function closePendingRequest(teamId: string): Promise<void> {
  const out = await db().send(
    new DeleteCommand({ TableName: tableName(), Key: pendingRequestKey(teamId), ReturnValues: 'ALL_OLD' }),
  );
  const requestSk = out.Attributes?.requestSk;
  if (typeof requestSk !== 'string') return;
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: teamKey(teamId).pk, sk: requestSk },
      UpdateExpression: 'SET #s = :done',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':done': 'done' },
    }),
  );
}

export const invoiceSequenceKey = (prefix: string) => ({
  pk: `INVOICE_SEQ#${prefix}`,
  sk: 'INVOICE_SEQ',
});
export const invoiceKey = (number: string) => ({ pk: `INVOICE#${number}`, sk: 'INVOICE' });

/** The seller's last issued invoice number (0 before the first), read consistently. */
export async function lastInvoiceNumber(prefix: string): Promise<number> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: invoiceSequenceKey(prefix), ConsistentRead: true }),
  );
  return typeof out.Item?.last === 'number' ? out.Item.last : 0;
}

/**
 * The two transaction actions that issue invoice number `read + 1`: the sequence moves on only from the
 * number it was read at, and the invoice is written in the same transaction as the payment. So a number
 * is used exactly when its payment is recorded: no gaps, no doubles (docs/decisions.md "Invoices").
 */
export function invoiceItems(prefix: string, read: number, invoice: Invoice) {
  return [
    {
      Update: {
        TableName: tableName(),
        Key: invoiceSequenceKey(prefix),
        UpdateExpression: 'SET #last = :next',
        ConditionExpression: read === 0 ? 'attribute_not_exists(pk)' : '#last = :read',
        ExpressionAttributeNames: { '#last': 'last' },
        ExpressionAttributeValues: { ':next': read + 1, ...(read === 0 ? {} : { ':read': read }) },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...invoiceKey(invoice.number), ...invoice },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

export async function getInvoice(number: string): Promise<Invoice | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: invoiceKey(number) }));
  if (!out.Item) return null;
  const { pk: _p, sk: _s, ...rest } = out.Item;
  return rest as Invoice;
}
