/**
 * Billing (issue 12, docs/data-model.md 4.10): Starter by card checkout, Business by request, the payment
 * history, Stripe's webhook, and the reminder before a paid plan runs out.
 */
import * as z from 'zod';
import { billingTeamQuery, paymentSchema } from '#contracts/billing';
import { apiFunction, type DomainManifest } from '#contracts/manifest';

// The dashboard's calls: Stripe's secret key starts a checkout; a Business request mails operators.
export const billingApi = apiFunction({
  resource: 'billing',
  needs: { table: 'readwrite', mail: true, secrets: true },
  routes: [
    // Billing is the team's (issue 22): `teamId` in the body, query or form, else the team in use; OWNER only.
    {
      method: 'POST',
      path: '/api/client/payment',
      op: 'checkout',
      session: true,
      access: { scope: 'team', action: 'team.billing', from: 'teamInUse' },
      body: paymentSchema,
    },
    {
      method: 'GET',
      path: '/api/client/payment',
      op: 'payments',
      session: true,
      access: { scope: 'team', action: 'team.billing', from: 'teamInUse' },
      query: billingTeamQuery,
    },
    // Multipart (SPEC.md section 7): the handler parses the form itself, with businessRequestSchema.
    {
      method: 'POST',
      path: '/api/client/profile/business_plan',
      op: 'businessRequest',
      session: true,
      access: { scope: 'team', action: 'team.billing', from: 'teamInUse' },
    },
    // The printable invoice of one of the caller's payments (issue 19); anyone else's is a 404. Its team is
    // the invoice's own (`teamId ?? userId`), checked for team.billing by the operation once it is read.
    {
      method: 'GET',
      path: '/api/client/invoice/{number}',
      op: 'invoice',
      session: true,
      access: { scope: 'account' },
      params: z.object({ number: z.string() }),
    },
  ],
});

// Stripe calls this (DESIGN.md section 8): raw body, Stripe-Signature checked with the webhook secret.
export const stripeApi = apiFunction({
  resource: 'stripe',
  needs: { table: 'readwrite', mail: true, secrets: true },
  routes: [{ method: 'POST', path: '/api/stripe/webhook', op: 'webhook', session: false, caller: 'public' }],
});

export const billing = {
  domain: 'billing',
  api: [billingApi, stripeApi],
  schedules: {
    // Daily: mails the clients whose paid plan ends in 7 days (a Query of gsi1 EXPIRE#<day>, no Scan).
    reminders: {
      expression: 'cron(0 8 * * ? *)',
      localEveryMs: 60 * 60 * 1000,
      needs: { table: 'readwrite', mail: true },
      timeoutSeconds: 60,
    },
  },
} satisfies DomainManifest;
