/**
 * Stripe's webhook (DESIGN.md section 8): `POST /api/stripe/webhook` with the raw body, checked against
 * `Stripe-Signature` before anything is parsed. Errors answer 4xx/5xx, so Stripe retries them.
 */

import { type RequestInput, resourceHandler } from '#runtime/http';
import { stripeApi } from '../billing/manifest';
import { handleWebhook } from '../billing/service';

export const operations = {
  async webhook({ event, log }: RequestInput) {
    const raw = event.body
      ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8').toString('utf8')
      : '';
    return { msg: await handleWebhook(raw, event.headers['stripe-signature'], log) };
  },
};

export const handler = resourceHandler(stripeApi, operations);
