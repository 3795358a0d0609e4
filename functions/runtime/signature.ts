/**
 * The timestamped HMAC signature that Stripe puts on its webhooks and that Snag puts on its own
 * (DESIGN.md section 8): `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>", keyed with the secret>`.
 * One scheme, so one signer and one verifier: Stripe's webhook check (functions/billing), Snag's webhook
 * deliveries (functions/integrations/webhooks.ts), and the local stand-ins that send or receive them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Stripe's own default tolerance for a webhook's timestamp; docs/webhooks.md tells receivers the same. */
export const signatureToleranceSeconds = 300;

const hmacHex = (payload: string, secret: string, timestamp: number) =>
  createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');

/** The header value for `payload` signed with `secret` at `timestamp` (unix seconds). */
export function timestampedSignature(payload: string, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(payload, secret, timestamp)}`;
}

/**
 * Whether `header` signs `payload` with `secret` at a time within the tolerance of `nowSeconds`. Several
 * v1 values may come (Stripe sends them while a secret is rotated); every one is compared in constant
 * time. A missing, malformed or stale header is false.
 */
export function verifyTimestampedSignature(
  payload: string,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
  tolerance = signatureToleranceSeconds,
): boolean {
  if (!header) return false;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  if (Math.abs(nowSeconds - timestamp) > tolerance) return false;
  const expected = Buffer.from(hmacHex(payload, secret, timestamp));
  let ok = false;
  // No early exit: every candidate is compared.
  for (const s of signatures) if (timingSafeEqual(Buffer.from(s), expected)) ok = true;
  return ok;
}
