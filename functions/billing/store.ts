/**
 * The billing entities (docs/data-model.md 3 and 4.10), each owning its keys:
 * - CHECKOUT#<csId>/CHECKOUT: a started checkout (pending → paid), the server's own record of the amount.
 * - USER#<uid>/PAYMENT#<paidAt ISO>#<ref>: a payment of the history.
 * - USER#<uid>/BIZREQ#<createdAt ISO>#<id>: a Business request, in gsi1 BIZREQ for an operator inbox.
 * - STRIPE_EVENT#<evtId>/STRIPE_EVENT: a handled Stripe event (idempotency on the event id, 30-day TTL).
 * - The plan fields of USER#<uid>/USER with the expiry index: gsi1pk EXPIRE#<YYYY-MM-DD of planExpire>,
 *   gsi1sk USER#<uid>, present only while a paid plan has an expiry (the reminder's Query).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { userKey } from '../accounts/users';
import { db } from '../core/aws/dynamo';
import { tableName } from '../core/db';
import { DAY, epochSeconds, nowMs } from '../core/time';
import type { BusinessRequestInput } from '../shared/countries';
import type { PlanName } from '../shared/plans';

export const checkoutKey = (csId: string) => ({ pk: `CHECKOUT#${csId}`, sk: 'CHECKOUT' });
export const stripeEventKey = (id: string) => ({ pk: `STRIPE_EVENT#${id}`, sk: 'STRIPE_EVENT' });
export const paymentSk = (paidAt: string, ref: string) => `PAYMENT#${paidAt}#${ref}`;
export const expiryPartition = (planExpire: string) => `EXPIRE#${planExpire.slice(0, 10)}`;

export interface Checkout {
  id: string;
  userId: string;
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
}

/** Put CHECKOUT (pending) and keep the billing details on USER, in one transaction (A60). */
export function checkoutItems(c: Checkout) {
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
        Key: userKey(c.userId),
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
 * The USER update that sets a plan and its expiry index, only while the expiry is still the one read
 * (`readExpire`), so two payments applied at once cannot both extend from the same date.
 */
export function planUpdate(
  userId: string,
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
    values[':gs'] = userKey(userId).pk;
  } else {
    expression += ' REMOVE gsi1pk, gsi1sk';
  }
  return {
    TableName: tableName(),
    Key: userKey(userId),
    UpdateExpression: expression,
    ConditionExpression: condition,
    ExpressionAttributeNames: { '#plan': 'plan' },
    ExpressionAttributeValues: values,
  };
}

/** Sets the plan unconditionally (ops, the local dev route), keeping the expiry index. */
export async function writePlan(userId: string, plan: PlanName, planExpire: string | null): Promise<void> {
  const update = planUpdate(userId, plan, planExpire, null);
  update.ConditionExpression = 'attribute_exists(pk)';
  delete update.ExpressionAttributeValues[':null'];
  await db().send(new UpdateCommand(update));
}

export function paymentPut(userId: string, ref: string, p: Payment) {
  return {
    TableName: tableName(),
    Item: { pk: userKey(userId).pk, sk: paymentSk(p.date, ref), ...p },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

export async function putPayment(userId: string, ref: string, p: Payment): Promise<void> {
  await db().send(new PutCommand(paymentPut(userId, ref, p)));
}

/** The history, newest first (A63). */
export async function listPayments(userId: string): Promise<Payment[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':p': 'PAYMENT#' },
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
  userId: string;
  status: 'new' | 'done';
  createdAt: string;
}

/** Stores a Business request (A64); gsi1 BIZREQ lists them for operators without a Scan. */
export async function putBusinessRequest(
  userId: string,
  input: BusinessRequestInput,
): Promise<BusinessRequest> {
  const createdAt = new Date(nowMs()).toISOString();
  const request: BusinessRequest = { ...input, id: randomUUID(), userId, status: 'new', createdAt };
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        pk: userKey(userId).pk,
        sk: `BIZREQ#${createdAt}#${request.id}`,
        gsi1pk: 'BIZREQ',
        gsi1sk: `${createdAt}#${userId}`,
        ...request,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return request;
}
