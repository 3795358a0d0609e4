/**
 * Billing flows (issue 12, docs/data-model.md 4.10): start a Starter checkout, apply Stripe's webhook
 * once per checkout, the payment history, Business requests, an operator's Business grant, and the
 * expiry reminder. Since issue 22 they belong to a team (4.12): the plan, billing details and billing items
 * are the team's, and only its OWNER may pay (`team.billing`, checked by billing/team.ts `teamFor`).
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
  getItems,
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
import { findUserByEmail, getUser, toUser, type User, userKey } from '../accounts/user';
import { authorizeTeam, membershipOf, teamGuard } from '../projects/access';
import { teamInUse, teamsKey, toTeamsItem } from '../teams/member';
import { type Team, teamKey, teamPlan, teamsOf, toTeam } from '../teams/team';
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
  checkoutTeam,
  closePendingRequest,
  expiryPartition,
  getCheckout,
  invoiceItems,
  invoiceKey,
  invoiceSequenceKey,
  listPayments,
  paymentPut,
  pendingOf,
  pendingRequestKey,
  planUpdate,
  putPayment,
  stripeEventKey,
} from './store';
import { createCheckoutSession, type StripeEvent, stripeEventSchema } from './stripe';
import { readTeam, type TeamChoice, teamFor } from './team';

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
function extensionBase(team: Pick<Team, 'plan' | 'planExpire'>, plan: PlanName, now: number): number {
  const planExpire = team.planExpire ?? null;
  if (effectivePlan(team.plan ?? 'FREE_PLAN', planExpire, now) !== plan || !planExpire) return now;
  return Math.max(now, Date.parse(planExpire));
}

/** The caller's USER item from the team read's batch; gone means the account was deleted meanwhile. */
function userFrom(item: Record<string, unknown> | undefined): User {
  if (!item) throw new AppError('UNAUTHORIZED');
  return toUser(item);
}

/**
 * POST client/payment: a Stripe Checkout Session for a Starter period of the team, priced from the
 * server's table. Session, one BatchGetItem (TEAMS, TEAM, USER), one transaction: 3 requests.
 */
export async function startCheckout(userId: string, choice: TeamChoice, input: PaymentInput, lang: Lang) {
  const months = starterMonthsFor(input.amount);
  if (!months) throw new AppError('INVALID_PARAMETERS');
  const vat = input.country ? vatProblem(input.country, input.vat) : undefined;
  if (vat) throw new AppError(vat, { vat });
  const { teamId, team, extra } = await teamFor(userId, choice, 'team.billing', () => [userKey(userId)]);
  const user = userFrom(extra[0]);
  // Business is granted by operators; buying Starter while it runs would only shorten it.
  if (teamPlan(team).plan === 'BUSINESS_PLAN') throw new AppError('PLAN_LIMIT');
  const app = getConfig().APP_ORIGIN;
  const checkoutRef = randomUUID();
  const session = await createCheckoutSession({
    amount: input.amount,
    productName: lang === 'de' ? `Snag Starter, ${months} Monat(e)` : `Snag Starter, ${months} month(s)`,
    customerEmail: user.email,
    // The team pays (a personal team's id is its user's, so pre-team references still name it, T2).
    clientReferenceId: teamId,
    metadata: { userId: user.id, teamId, plan: 'BASIC_PLAN', periodMonths: String(months), checkoutRef },
    successUrl: `${app}/profile/billing?success`,
    // The screen says the checkout was cancelled and drops the parameter, as it does for success.
    cancelUrl: `${app}/profile/billing?canceled`,
    locale: lang,
  });
  const checkout: Checkout & { teamId: string } = {
    id: session.id,
    userId: user.id,
    teamId,
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
  // The policy's guard rides along: an owner who lost the team meanwhile starts nothing (T4).
  await transactWrite([...checkoutItems(checkout), ...teamGuard(userId, teamId, 'team.billing')], (failed) =>
    failed.includes(2) ? 'FORBIDDEN' : 'NOT_FOUND',
  );
  return { id: session.id, url: session.url };
}

/**
 * GET client/payment: the team's history (with each payment's invoice) and its open Business request.
 * Session, one BatchGetItem (TEAMS, TEAM, the pending marker) beside the history's Query: 3 requests.
 */
export async function payments(userId: string, choice: TeamChoice) {
  const facts = await teamFor(
    userId,
    choice,
    'team.billing',
    (teamId) => [pendingRequestKey(teamId)],
    (teamId) => listPayments(teamId),
  );
  const list = facts.parallel ?? [];
  const pending = pendingOf(facts.extra[0]);
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
  choice: TeamChoice,
  /** The form, parsed once the caller's role is known to allow billing (403 before any 400). */
  parse: () => Omit<BusinessRequestInput, 'teamId'>,
  source: string,
  lang: Lang,
  log: Logger,
) {
  const { teamId, team, extra } = await teamFor(userId, choice, 'team.billing', () => [userKey(userId)]);
  const input = parse();
  const user = userFrom(extra[0]);
  await transactWrite(
    [
      ...businessRequestItems(teamId, user.id, input, nowMs()),
      // Per team (before teams the key was the account's, whose id its personal team's is).
      rateLimitWrite({ ...businessRequestsPerAccount, key: teamId }),
      rateLimitWrite({ ...businessRequestsPerSource, key: source }),
      ...teamGuard(userId, teamId, 'team.billing'),
    ],
    // 0: the pending marker; 2 and 3: the counts; 4: the caller's role. Anything else is rethrown.
    (failed) =>
      failed.includes(0)
        ? 'BUSINESS_REQUEST_PENDING'
        : failed.includes(2) || failed.includes(3)
          ? 'RATE_LIMITED'
          : failed.includes(4)
            ? 'FORBIDDEN'
            : undefined,
  );
  const mailLang = team.lang ?? user.lang ?? lang;
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
 * GET client/invoice/{number}: the printable invoice of a payment of one of the caller's teams, for its
 * OWNER (`team.billing`; another member 403). Another client's number, an unknown one and a malformed one
 * all answer 404 (existence is not revealed). Session, one BatchGetItem (INVOICE, TEAMS): 2 requests.
 */
export async function invoicePage(userId: string, number: string, lang: Lang): Promise<string> {
  if (!invoiceNumberPattern.test(number)) throw new AppError('NOT_FOUND');
  let [item, teamsItem] = await getItems([invoiceKey(number), teamsKey(userId)]);
  // A pre-team account: its personal team first (its invoices name the user, whose id the team's is).
  if (item && !teamsItem) {
    await teamsOf(userId);
    [item, teamsItem] = await getItems([invoiceKey(number), teamsKey(userId)]);
  }
  if (!item) throw new AppError('NOT_FOUND');
  const { pk: _p, sk: _s, ...invoice } = item as Record<string, unknown> & Invoice;
  const teams = teamsItem ? toTeamsItem(teamsItem) : null;
  authorizeTeam(membershipOf(teams, invoice.teamId ?? invoice.userId), 'team.billing');
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
  const teamId = checkoutTeam(checkout);
  // The server's record decides what was bought; a session that disagrees with it is refused.
  if (
    session.amount_total !== checkout.amount ||
    (session.currency ?? '').toLowerCase() !== 'eur' ||
    session.client_reference_id !== teamId
  ) {
    log.warn('payment does not match its checkout', { checkout: session.id });
    throw new AppError('PAYMENT_MISMATCH');
  }
  if (checkout.status === 'paid') return resync(teamId, true);
  // A checkout started before teams pays for its account's personal team: made (and migrated) now.
  if (!(await readTeam(teamId))) return { received: true, ignored: 'team deleted' };
  const seller = currentSeller();
  const prefix = getConfig().INVOICE_PREFIX;
  for (let attempt = 1; ; attempt++) {
    const [teamItem, sequence, userItem] = await getItems([
      teamKey(teamId),
      invoiceSequenceKey(prefix),
      userKey(checkout.userId),
    ]);
    if (!teamItem) return { received: true, ignored: 'team deleted' };
    const team = toTeam(teamItem);
    const lastInvoice = typeof sequence?.last === 'number' ? sequence.last : 0;
    const now = nowMs();
    const serviceFrom = extensionBase(team, 'BASIC_PLAN', now);
    const planExpire = addMonths(serviceFrom, checkout.periodMonths);
    const date = new Date(now).toISOString();
    const lang = checkout.lang ?? team.lang ?? 'en';
    // The payer's address, and the team's billing details as the checkout has just saved them there.
    const email = typeof userItem?.email === 'string' ? userItem.email : '';
    const buyer = { email, company: team.company ?? '', country: team.country ?? '', vat: team.vat ?? '' };
    const invoice: Invoice = {
      number: formatInvoiceNumber(prefix, lastInvoice + 1),
      userId: checkout.userId,
      teamId,
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
              { Put: paymentPut(teamId, checkout.id, payment) },
              { Update: planUpdate(teamId, 'BASIC_PLAN', planExpire, team.planExpire ?? null) },
              ...invoiceItems(prefix, lastInvoice, invoice),
            ],
          }),
        ),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const failed = failedConditions(err);
      // Another event or delivery applied this checkout first: it extended the plan, this one does not.
      if (failed.includes(0) || failed.includes(1)) return resync(teamId, true);
      // The plan changed since it was read (another payment, an operator), or another payment took the
      // next invoice number: read both again. Nothing was written, so no number is lost.
      if ((failed.includes(3) || failed.includes(4)) && attempt < 10) continue;
      throw err;
    }
    await grantPlan(teamId, 'BASIC_PLAN', planExpire, { written: true });
    countBusiness('checkoutCompleted');
    try {
      if (email) await sendMail(receiptMail(lang, email, { ...payment, plan: 'BASIC_PLAN' }, invoice));
    } catch (err) {
      log.error('receipt mail failed', { err, checkout: checkout.id });
    }
    log.info('payment applied', { checkout: checkout.id, planExpire });
    return { received: true, applied: true };
  }
}

/**
 * A repeated delivery: the payment is in; copy the team's plan to its projects again, in case the first
 * delivery failed after its transaction (Stripe retries on the error it answered).
 */
async function resync(teamId: string, duplicate: boolean): Promise<WebhookOutcome> {
  const team = await readTeam(teamId);
  if (team) await grantPlan(teamId, team.plan ?? 'FREE_PLAN', team.planExpire ?? null, { written: true });
  return { received: true, duplicate };
}

/**
 * The team an operator names (bin/ops.ts, the local dev route): `teamId` when given (it must exist), else
 * the user's team in use with no switcher, their personal team (made first for a pre-team account).
 */
export async function operatorTeam(email: string, teamId?: string): Promise<{ user: User; team: Team }> {
  const user = await findUserByEmail(email);
  if (!user) throw new AppError('NOT_FOUND');
  const id = teamId ?? teamInUse(await teamsOf(user.id), {});
  const team = id ? await readTeam(id) : null;
  if (!team) throw new AppError('NOT_FOUND');
  return { user, team };
}

/** An operator's grant (bin/ops.ts): Business for `months` more for the team, recorded in its history. */
export async function grantBusiness(email: string, months: number, amount = 0, teamId?: string) {
  const { user, team } = await operatorTeam(email, teamId);
  const now = nowMs();
  const planExpire = addMonths(extensionBase(team, 'BUSINESS_PLAN', now), months);
  await grantPlan(team.id, 'BUSINESS_PLAN', planExpire);
  await putPayment(team.id, randomUUID(), {
    date: new Date(now).toISOString(),
    type: 'BUSINESS_PLAN',
    amount,
    periodMonths: months,
    currency: 'eur',
    planExpire,
  });
  // The request it answers is no longer pending: the client may ask again (to extend, later on).
  await closePendingRequest(team.id);
  return { username: user.email, teamId: team.id, plan: 'BUSINESS_PLAN' as const, planExpire };
}

/** An operator declines or settles a Business request outside Snag (bin/ops.ts): it is no longer pending. */
export async function closeBusinessRequest(email: string, teamId?: string) {
  const { user, team } = await operatorTeam(email, teamId);
  await closePendingRequest(team.id);
  return { username: user.email, teamId: team.id };
}

/** Days ahead the reminder looks: a plan ending within them that was not reminded yet gets one mail. */
export const reminderDays = 7;

/**
 * Mails every team whose paid plan ends within the next `reminderDays` days and that was not reminded for
 * this expiry yet, to its OWNER: one Query of gsi1 EXPIRE#<day> per day, never a Scan. The partition holds
 * TEAM items, and USER items of accounts not migrated yet (pre-team, mailed as before). A conditional
 * write of `remindedFor` makes a second run (or two at once) send nothing more.
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
      const holder = item as { plan?: PlanName; planExpire?: string | null; remindedFor?: string };
      if (!holder.planExpire || holder.plan === 'FREE_PLAN' || holder.remindedFor === holder.planExpire)
        continue;
      const isTeam = item.sk === 'TEAM';
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { pk: String(item.pk), sk: String(item.sk) },
            UpdateExpression: 'SET remindedFor = :e',
            ConditionExpression:
              'planExpire = :e AND (attribute_not_exists(remindedFor) OR remindedFor <> :e)',
            ExpressionAttributeValues: { ':e': holder.planExpire },
          }),
        );
      } catch (err) {
        if (isConditionFailure(err)) continue;
        throw err;
      }
      const owner = isTeam ? await getUser(String(item.ownerId)) : toUser(item);
      if (!owner) continue;
      const lang = (isTeam ? (item.lang as Lang | undefined) : undefined) ?? owner.lang ?? 'en';
      try {
        await sendMail(reminderMail(lang, owner.email, holder.plan ?? 'BASIC_PLAN', holder.planExpire));
        sent.push(owner.email);
      } catch (err) {
        log.error('reminder mail failed', { err, pk: item.pk });
      }
    }
  }
  return { sent };
}
