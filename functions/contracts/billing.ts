/**
 * Billing rules shared by the dashboard and the API (SPEC.md sections 7 and 9): the Starter price table in
 * cents and the schema of `POST client/payment`. Light on purpose: the manifests import it, so every
 * function's bundle carries it. The country list and VAT rules are in `countries.ts`.
 */
import * as z from 'zod';
import type { ErrorCode } from './errors';
import { starterPricesEur } from './plans';
import { teamIdParam } from './teams';

/** Starter periods in months and their prices in cents (euros times 100, SPEC.md section 9). */
export const starterPeriods = Object.entries(starterPricesEur)
  .map(([months, eur]) => ({ months: Number(months), amount: eur * 100 }))
  .sort((a, b) => a.months - b.months);
export const starterAmounts = starterPeriods.map((p) => p.amount);

/** The period a Starter amount buys, or undefined for any other figure. */
export const starterMonthsFor = (amount: number): number | undefined =>
  starterPeriods.find((p) => p.amount === amount)?.months;

/** Euros as the dashboard shows them: cents / 100 with a euro sign. */
export const euros = (cents: number) => `€${(cents / 100).toFixed(2).replace(/\.00$/, '')}`;

const code = (c: ErrorCode) => ({ error: c });

/**
 * The checkout call: the amount only chooses a Starter period (the server prices it from its own table).
 * The VAT number, when a country is given, is checked by the service (countries.ts `vatProblem`).
 */
export const paymentSchema = z.object({
  amount: z
    .number()
    .int()
    .refine((a) => starterMonthsFor(a) !== undefined, code('INVALID_PARAMETERS')),
  vat: z.string().trim().max(30).default(''),
  country: z.string().trim().max(2).default(''),
  company: z.string().trim().max(100).default(''),
  /** The team to pay for (issue 22); default the team in use. */
  teamId: teamIdParam.optional(),
});
export type PaymentInput = z.infer<typeof paymentSchema>;

/** `GET client/payment?teamId=`: the team whose history to show; default the team in use. */
export const billingTeamQuery = z.object({ teamId: teamIdParam.optional() });

export const paymentMethods = ['card', 'invoice'] as const;
