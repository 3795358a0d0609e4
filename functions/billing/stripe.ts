/**
 * Stripe, as much as Snag uses (../shared/api-specs/stripe): creating a Checkout Session (form-encoded
 * POST /v1/checkout/sessions, bracket keys); its webhook signatures are checked by functions/runtime/signature.ts.
 * The base URL is configuration (STRIPE_API_URL), so the same code talks to Stripe in AWS and to the local stand-in.
 */
import * as z from 'zod';
import { getConfig } from '#runtime/config';
import { getSecrets } from '#runtime/secrets';

/** Flattens `{a: {b: [1]}}` into Stripe's form keys: `a[b][0]=1`. */
export function formEncode(value: Record<string, unknown>): URLSearchParams {
  const out = new URLSearchParams();
  const walk = (prefix: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) walk(`${prefix}[${i}]`, item);
    } else if (typeof v === 'object')
      for (const [k, inner] of Object.entries(v as Record<string, unknown>))
        walk(prefix ? `${prefix}[${k}]` : k, inner);
    else out.append(prefix, String(v));
  };
  walk('', value);
  return out;
}

export interface CheckoutRequest {
  amount: number;
  productName: string;
  customerEmail: string;
  clientReferenceId: string;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  /** The checkout page's language (Stripe's `locale`): the dashboard's. */
  locale: 'en' | 'de';
}

const sessionSchema = z.object({ id: z.string().min(1), url: z.url() });

export async function createCheckoutSession(req: CheckoutRequest): Promise<{ id: string; url: string }> {
  const { STRIPE_SECRET_KEY } = await getSecrets();
  if (!STRIPE_SECRET_KEY) throw new Error('STRIPE_SECRET_KEY is not configured');
  const form = formEncode({
    mode: 'payment',
    currency: 'eur',
    customer_email: req.customerEmail,
    client_reference_id: req.clientReferenceId,
    success_url: req.successUrl,
    cancel_url: req.cancelUrl,
    locale: req.locale,
    metadata: req.metadata,
    payment_intent_data: { metadata: req.metadata },
    line_items: [
      {
        quantity: 1,
        price_data: { currency: 'eur', unit_amount: req.amount, product_data: { name: req.productName } },
      },
    ],
  });
  const res = await fetch(new URL('/v1/checkout/sessions', getConfig().STRIPE_API_URL), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${STRIPE_SECRET_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
      // A retried create with the same key returns the same session instead of a second one.
      'idempotency-key': `${req.clientReferenceId}-${req.metadata.checkoutRef ?? ''}`,
    },
    body: form.toString(),
    signal: AbortSignal.timeout(8000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`Stripe answered ${res.status}: ${text.slice(0, 300)}`);
  return sessionSchema.parse(JSON.parse(text));
}

/** The part of a Stripe event Snag reads (spec3: event, checkout.session). */
export const stripeEventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({
    object: z
      .object({
        id: z.string().min(1).max(255),
        object: z.string().optional(),
        payment_status: z.string().optional(),
        amount_total: z.number().int().nullable().optional(),
        currency: z.string().nullable().optional(),
        client_reference_id: z.string().nullable().optional(),
        metadata: z.record(z.string(), z.string()).nullable().optional(),
      })
      .loose(),
  }),
});
export type StripeEvent = z.infer<typeof stripeEventSchema>;
