/**
 * Billing flows (issue 12, docs/data-model.md 4.10): start a Starter checkout, apply Stripe's webhook
 * once per checkout, the payment history, Business requests, an operator's Business grant, and the
 * expiry reminder.
 */
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type PaymentInput, starterMonthsFor } from '#contracts/billing';
import { type BusinessRequestInput, vatProblem } from '#contracts/countries';
import type { Lang } from '#contracts/errors';
import { effectivePlan, type PlanName } from '#contracts/plans';
import { db } from '#runtime/aws/dynamo';
import { getConfig } from '#runtime/config';
import {
  failedConditions,
  isConditionFailure,
  queryAll,
  retryConflicts,
  tableName,
  transactWrite,
} from '#runtime/db';
import { AppError } from '#runtime/errors';
import type { Logger } from '#runtime/log';
import { sendMail } from '#runtime/mail';
import { countBusiness } from '#runtime/metrics';
import { type RateLimit, rateLimitWrite } from '#runtime/rate-limit';
import { getSecrets } from '#runtime/secrets';
import { verifyTimestampedSignature } from '#runtime/signature';
import { DAY, epochSeconds, HOUR, nowMs } from '#runtime/time';
import { findUserByEmail, getUser, type User, userKey } from '../accounts/user';
import { businessConfirmationMail, operatorRequestMail, receiptMail, reminderMail } from './emails';
import { grantPlan } from './grant';
import {
  formatInvoiceNumber,
  type Invoice,
  invoiceHtml,
  invoiceNumberPattern,
  type Seller,
  vatSplit,
} from './invoice';
import {
  businessRequestItems,
  type Checkout,
  checkoutItems,
  checkoutKey,
  closePendingRequest,
  expiryPartition,
  getCheckout,
  getInvoice,
  getPendingRequest,
  invoiceItems,
  lastInvoiceNumber,
  listPayments,
  paymentPut,
  planUpdate,
  putPayment,
  stripeEventKey,
} from './store';
import { createCheckoutSession, type StripeEvent, stripeEventSchema } from './stripe';

/** `months` calendar months after `fromMs`, as an ISO date. */
export function addMonths(fromMs: number, months: number): string {
  const d = new Date(fromMs);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.toISOString();
}

/** The start of an extension of `plan`: its current expiry while that plan still runs, else now. */
function extensionBase(user: Pick<User, 'plan' | 'planExpire'>, plan: PlanName, now: number): number {
  if (effectivePlan(user.plan, user.planExpire, now) !== plan || !user.planExpire) return now;
  return Math.max(now, Date.parse(user.planExpire));
}

async function requireUser(userId: string): Promise<User> {
  const user = await getUser(userId);
  if (!user) throw new AppError('UNAUTHORIZED');
  return user;
}

/** POST client/payment: a Stripe Checkout Session for a Starter period, priced from the server's table. */
export async function startCheckout(userId: string, input: PaymentInput, lang: Lang) {
  const months = starterMonthsFor(input.amount);
  if (!months) throw new AppError('INVALID_PARAMETERS');
  const vat = input.country ? vatProblem(input.country, input.vat) : undefined;
  if (vat) throw new AppError(vat, { vat });
  const user = await requireUser(userId);
  // Business is granted by operators; buying Starter while it runs would only shorten it.
  if (effectivePlan(user.plan, user.planExpire, nowMs()) === 'BUSINESS_PLAN')
    throw new AppError('PLAN_LIMIT');
  const app = getConfig().APP_ORIGIN;
  const checkoutRef = randomUUID();
  const session = await createCheckoutSession({
    amount: input.amount,
    productName: lang === 'de' ? `Snag Starter, ${months} Monat(e)` : `Snag Starter, ${months} month(s)`,
    customerEmail: user.email,
    clientReferenceId: user.id,
    metadata: { userId: user.id, plan: 'BASIC_PLAN', periodMonths: String(months), checkoutRef },
    successUrl: `${app}/profile/billing?success`,
    // The screen says the checkout was cancelled and drops the parameter, as it does for success.
    cancelUrl: `${app}/profile/billing?canceled`,
    locale: lang,
  });
  const checkout: Checkout = {
    id: session.id,
    userId: user.id,
    plan: 'BASIC_PLAN',
    periodMonths: months,
    amount: input.amount,
    vat: input.vat,
    country: input.country,
    company: input.company,
    lang,
    status: 'pending',
    createdAt: nowMs(),
  };
  await transactWrite(checkoutItems(checkout), 'UNAUTHORIZED');
  return { id: session.id, url: session.url };
}

/** GET client/payment: the history (with each payment's invoice) and the open Business request. */
export async function payments(userId: string) {
  const [list, pending] = await Promise.all([listPayments(userId), getPendingRequest(userId)]);
  return {
    payments: list.map((p) => ({
      date: { date: p.date },
      period: p.periodMonths,
      plan: p.type,
      amount: p.amount,
      planExpire: p.planExpire,
      invoice: p.invoiceNumber ?? null,
    })),
    businessRequest: pending
      ? { date: pending.createdAt, period: pending.period, payment_method: pending.payment_method }
      : null,
  };
}

/**
 * Business requests mail operators, so they are throttled (issue 19) per account (the team's, once teams
 * exist: DESIGN.md section 10) and per source, besides one open request per account. Counted in the
 * request's own transaction: only requests that are stored (and mailed) count.
 */
export const businessRequestsPerAccount: Omit<RateLimit, 'key'> = {
  action: 'bizreq',
  max: 3,
  windowMs: DAY,
};
export const businessRequestsPerSource: Omit<RateLimit, 'key'> = {
  action: 'bizreq-src',
  max: 5,
  windowMs: HOUR,
};

export async function businessRequest(
  userId: string,
  input: BusinessRequestInput,
  source: string,
  lang: Lang,
  log: Logger,
) {
  const user = await requireUser(userId);
  await transactWrite(
    [
      ...businessRequestItems(user.id, input, nowMs()),
      rateLimitWrite({ ...businessRequestsPerAccount, key: user.id }),
      rateLimitWrite({ ...businessRequestsPerSource, key: source }),
    ],
    // 0: the pending marker; 2 and 3: the counts. Anything else is not the client's doing: rethrown.
    (failed) =>
      failed.includes(0)
        ? 'BUSINESS_REQUEST_PENDING'
        : failed.includes(2) || failed.includes(3)
          ? 'RATE_LIMITED'
          : undefined,
  );
  const mailLang = user.lang ?? lang;
  // The request is stored either way; a mail that fails is logged, and operators find it in gsi1 BIZREQ.
  const results = await Promise.allSettled([
    sendMail(operatorRequestMail(user.email, input)),
    sendMail(businessConfirmationMail(mailLang, user.email, input)),
  ]);
  for (const r of results)
    if (r.status === 'rejected') log.error('business request mail failed', { err: r.reason });
  return { sent: true };
}

/** The seller of new invoices, from configuration (README "Configuration"). */
export function currentSeller(): Seller {
  const c = getConfig();
  return {
    name: c.SELLER_NAME,
    address: c.SELLER_ADDRESS.split(';')
      .map((l) => l.trim())
      .filter(Boolean),
    country: c.SELLER_COUNTRY,
    vatId: c.SELLER_VAT_ID,
    vatRate: c.SELLER_VAT_RATE,
  };
}

/**
 * GET client/invoice/{number}: the printable invoice of one of the caller's payments. Another client's
 * number, an unknown one and a malformed one all answer 404 (existence is not revealed).
 */
export async function invoicePage(userId: string, number: string, lang: Lang): Promise<string> {
  const invoice = invoiceNumberPattern.test(number) ? await getInvoice(number) : null;
  if (!invoice || invoice.userId !== userId) throw new AppError('NOT_FOUND');
  return invoiceHtml(lang, invoice);
}

type WebhookOutcome = { received: true; applied?: boolean; duplicate?: boolean; ignored?: string };

/** Stripe's POST /api/stripe/webhook: the raw body, its signature, then the event, once. */
export async function handleWebhook(
  raw: string,
  signature: string | undefined,
  log: Logger,
): Promise<WebhookOutcome> {
  const { STRIPE_WEBHOOK_SECRET } = await getSecrets();
  if (!STRIPE_WEBHOOK_SECRET) throw new Error('STRIPE_WEBHOOK_SECRET is not configured');
  if (!verifyTimestampedSignature(raw, signature, STRIPE_WEBHOOK_SECRET, epochSeconds(nowMs())))
    throw new AppError('INVALID_SIGNATURE');
  let event: StripeEvent;
  try {
    event = stripeEventSchema.parse(JSON.parse(raw));
  } catch {
    throw new AppError('INVALID_PARAMETERS');
  }
  const session = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed':
      // Delayed methods (SEPA, …) complete unpaid; their async_payment_succeeded applies them later.
      if (session.payment_status !== 'paid') return { received: true, ignored: 'unpaid' };
      return applyPayment(event, log);
    case 'checkout.session.async_payment_succeeded':
      return applyPayment(event, log);
    case 'checkout.session.async_payment_failed':
      log.info('async payment failed', { checkout: session.id });
      return { received: true, ignored: 'failed' };
    default:
      return { received: true, ignored: event.type };
  }
}

async function applyPayment(event: StripeEvent, log: Logger): Promise<WebhookOutcome> {
  const session = event.data.object;
  const checkout = await getCheckout(session.id);
  // Not a checkout of this deployment (another environment on the same Stripe account): acknowledge.
  if (!checkout) return { received: true, ignored: 'unknown checkout' };
  // The server's record decides what was bought; a session that disagrees with it is refused.
  if (
    session.amount_total !== checkout.amount ||
    (session.currency ?? '').toLowerCase() !== 'eur' ||
    session.client_reference_id !== checkout.userId
  ) {
    log.warn('payment does not match its checkout', { checkout: session.id });
    throw new AppError('PAYMENT_MISMATCH');
  }
  if (checkout.status === 'paid') return resync(checkout.userId, true);
  const seller = currentSeller();
  const prefix = getConfig().INVOICE_PREFIX;
  for (let attempt = 1; ; attempt++) {
    const [user, lastInvoice] = await Promise.all([getUser(checkout.userId), lastInvoiceNumber(prefix)]);
    if (!user) return { received: true, ignored: 'account deleted' };
    const now = nowMs();
    const serviceFrom = extensionBase(user, 'BASIC_PLAN', now);
    const planExpire = addMonths(serviceFrom, checkout.periodMonths);
    const date = new Date(now).toISOString();
    const lang = checkout.lang ?? user.lang ?? 'en';
    // The buyer as the profile says at payment time (the checkout has just saved its fields there).
    const buyer = { email: user.email, company: user.company, country: user.country, vat: user.vat };
    const invoice: Invoice = {
      number: formatInvoiceNumber(prefix, lastInvoice + 1),
      userId: user.id,
      issuedAt: date,
      seller,
      buyer,
      plan: 'BASIC_PLAN',
      periodMonths: checkout.periodMonths,
      serviceFrom: new Date(serviceFrom).toISOString(),
      serviceTo: planExpire,
      currency: 'eur',
      total: checkout.amount,
      ...vatSplit(checkout.amount, seller, buyer),
      lang,
      stripeCheckoutId: checkout.id,
    };
    const payment = {
      date,
      type: 'BASIC_PLAN' as const,
      amount: checkout.amount,
      periodMonths: checkout.periodMonths,
      currency: 'eur' as const,
      stripeCheckoutId: checkout.id,
      planExpire,
      invoiceNumber: invoice.number,
    };
    try {
      await retryConflicts(() =>
        db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName(),
                  Key: checkoutKey(checkout.id),
                  UpdateExpression: 'SET #s = :paid, paidAt = :at, eventId = :e',
                  ConditionExpression: '#s = :pending',
                  ExpressionAttributeNames: { '#s': 'status' },
                  ExpressionAttributeValues: {
                    ':paid': 'paid',
                    ':pending': 'pending',
                    ':at': date,
                    ':e': event.id,
                  },
                },
              },
              {
                Put: {
                  TableName: tableName(),
                  Item: {
                    ...stripeEventKey(event.id),
                    checkoutId: checkout.id,
                    ttl: epochSeconds(now + 30 * DAY),
                  },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              { Put: paymentPut(checkout.userId, checkout.id, payment) },
              { Update: planUpdate(user.id, 'BASIC_PLAN', planExpire, user.planExpire ?? null) },
              ...invoiceItems(prefix, lastInvoice, invoice),
            ],
          }),
        ),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const failed = failedConditions(err);
      // Another event or delivery applied this checkout first: it extended the plan, this one does not.
      if (failed.includes(0) || failed.includes(1)) return resync(checkout.userId, true);
      // The plan changed since it was read (another payment, an operator), or another payment took the
      // next invoice number: read both again. Nothing was written, so no number is lost.
      if ((failed.includes(3) || failed.includes(4)) && attempt < 10) continue;
      throw err;
    }
    await grantPlan(user.id, 'BASIC_PLAN', planExpire, { written: true });
    countBusiness('checkoutCompleted');
    try {
      await sendMail(receiptMail(lang, user.email, { ...payment, plan: 'BASIC_PLAN' }, invoice));
    } catch (err) {
      log.error('receipt mail failed', { err, checkout: checkout.id });
    }
    log.info('payment applied', { checkout: checkout.id, planExpire });
    return { received: true, applied: true };
  }
}

/**
 * A repeated delivery: the payment is in; copy the user's plan to the projects again, in case the first
 * delivery failed after its transaction (Stripe retries on the error it answered).
 */
async function resync(userId: string, duplicate: boolean): Promise<WebhookOutcome> {
  const user = await getUser(userId);
  if (user) await grantPlan(user.id, user.plan, user.planExpire ?? null, { written: true });
  return { received: true, duplicate };
}

/** An operator's grant (bin/ops.ts): Business for `months` more, recorded in the history. */
export async function grantBusiness(email: string, months: number, amount = 0) {
  const user = await findUserByEmail(email);
  if (!user) throw new AppError('NOT_FOUND');
  const now = nowMs();
  const planExpire = addMonths(extensionBase(user, 'BUSINESS_PLAN', now), months);
  await grantPlan(user.id, 'BUSINESS_PLAN', planExpire);
  await putPayment(user.id, randomUUID(), {
    date: new Date(now).toISOString(),
    type: 'BUSINESS_PLAN',
    amount,
    periodMonths: months,
    currency: 'eur',
    planExpire,
  });
  // The request it answers is no longer pending: the client may ask again (to extend, later on).
  await closePendingRequest(user.id);
  return { username: user.email, plan: 'BUSINESS_PLAN' as const, planExpire };
}

/** An operator declines or settles a Business request outside Snag (bin/ops.ts): it is no longer pending. */
export async function closeBusinessRequest(email: string) {
  const user = await findUserByEmail(email);
  if (!user) throw new AppError('NOT_FOUND');
  await closePendingRequest(user.id);
  return { username: user.email };
}

/** Days ahead the reminder looks: a plan ending within them that was not reminded yet gets one mail. */
export const reminderDays = 7;

/**
 * Mails every client whose paid plan ends within the next `reminderDays` days and who was not reminded
 * for this expiry yet: one Query of gsi1 EXPIRE#<day> per day, never a Scan. A conditional write of
 * `remindedFor` makes a second run (or two at once) send nothing more.
 */
export async function sendReminders(log: Logger, now = nowMs()): Promise<{ sent: string[] }> {
  const sent: string[] = [];
  for (let d = 1; d <= reminderDays; d++) {
    const partition = expiryPartition(new Date(now + d * DAY).toISOString());
    const due = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': partition },
    });
    for (const item of due) {
      const user = item as unknown as User;
      if (!user.planExpire || user.plan === 'FREE_PLAN' || user.remindedFor === user.planExpire) continue;
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: userKey(user.id),
            UpdateExpression: 'SET remindedFor = :e',
            ConditionExpression:
              'planExpire = :e AND (attribute_not_exists(remindedFor) OR remindedFor <> :e)',
            ExpressionAttributeValues: { ':e': user.planExpire },
          }),
        );
      } catch (err) {
        if (isConditionFailure(err)) continue;
        throw err;
      }
      try {
        await sendMail(reminderMail(user.lang ?? 'en', user.email, user.plan, user.planExpire));
        sent.push(user.email);
      } catch (err) {
        log.error('reminder mail failed', { err, userId: user.id });
      }
    }
  }
  return { sent };
}
