/**
 * Stripe stand-in for the local stack (issue 12): enough of Stripe's API and hosted checkout for the whole
 * purchase to work offline, following ../shared/api-specs/stripe (spec3 and fixtures3).
 * - `POST /v1/checkout/sessions`: form-encoded with bracket keys, authenticated with the secret key
 *   (Bearer, or Basic with the key as user name, as Stripe accepts); answers a checkout.session object.
 *   Refusals use Stripe's error shape (`{error: {type, message, param}}`).
 * - `GET /c/pay/<id>`: the checkout page, with a Pay button and a Cancel link to cancel_url.
 * - `POST /c/pay/<id>/pay`: completes the session, sends a correctly signed `checkout.session.completed`
 *   to the webhook route, then redirects to success_url.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml as esc } from '#runtime/mail';
import { timestampedSignature } from '#runtime/signature';

export interface StripeSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: string;
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  success_url: string;
  locale: string | null;
  url: string | null;
  line_items: { name: string; quantity: number; unit_amount: number; currency: string }[];
}

export interface LocalStripe {
  /** Base URL of its API (STRIPE_API_URL) and its checkout pages. */
  endpoint: string;
  sessions: Map<string, StripeSession>;
  /** A signed event for a session, sent to the webhook as Stripe would; answers the webhook's status. */
  sendEvent(type: string, session: StripeSession): Promise<number>;
  stop(): Promise<void>;
}

export interface LocalStripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where events go: `<one URL>/api/stripe/webhook`. */
  webhookUrl: () => string;
}

const id = (prefix: string) =>
  `${prefix}_test_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`;

/** `a[b][0][c]=1` → `{a: {b: [{c: '1'}]}}` (Stripe's form encoding). */
export function formDecode(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else {
        if (node[part] === undefined) node[part] = /^\d+$/.test(path[i + 1] ?? '') ? [] : {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

class StripeError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

function authorised(req: IncomingMessage, key: string): boolean {
  const header = req.headers.authorization ?? '';
  if (header.startsWith('Bearer ')) return header.slice(7) === key;
  if (header.startsWith('Basic '))
    return Buffer.from(header.slice(6), 'base64').toString().split(':')[0] === key;
  return false;
}

const int = (v: unknown, param: string) => {
  if (typeof v !== 'string' || !/^\d+$/.test(v))
    throw new StripeError(400, `Invalid integer: ${String(v)}`, param);
  return Number(v);
};
const url = (v: unknown, param: string) => {
  if (typeof v !== 'string' || !/^https?:\/\//.test(v)) throw new StripeError(400, `Not a valid URL`, param);
  return v;
};

/** Validates a create request as Stripe does for the parameters Snag sends; builds the session. */
function createSession(form: Record<string, unknown>, endpoint: string): StripeSession {
  const mode = form.mode;
  if (mode === undefined) throw new StripeError(400, 'Missing required param: mode.', 'mode');
  if (!['payment', 'setup', 'subscription'].includes(String(mode)))
    throw new StripeError(400, `Invalid mode: must be one of payment, setup, or subscription`, 'mode');
  const successUrl = url(form.success_url, 'success_url');
  const cancelUrl = form.cancel_url === undefined ? null : url(form.cancel_url, 'cancel_url');
  const items = form.line_items;
  if (mode === 'payment' && (!Array.isArray(items) || items.length === 0))
    throw new StripeError(400, 'You must specify `line_items` in `payment` mode.', 'line_items');
  const lineItems = (items as Record<string, unknown>[]).map((item, i) => {
    const p = `line_items[${i}]`;
    const quantity = int(item.quantity, `${p}[quantity]`);
    const data = item.price_data as Record<string, unknown> | undefined;
    if (!data)
      throw new StripeError(400, 'You must specify either `price` or `price_data`.', `${p}[price_data]`);
    const currency = String(data.currency ?? '');
    if (!/^[a-z]{3}$/.test(currency))
      throw new StripeError(400, 'Invalid currency', `${p}[price_data][currency]`);
    const unitAmount = int(data.unit_amount, `${p}[price_data][unit_amount]`);
    const product = data.product_data as Record<string, unknown> | undefined;
    if (!product?.name)
      throw new StripeError(400, 'Missing required param: name.', `${p}[price_data][product_data][name]`);
    return { name: String(product.name), quantity, unit_amount: unitAmount, currency };
  });
  const currency = String(form.currency ?? lineItems[0]?.currency ?? '');
  if (lineItems.some((l) => l.currency !== currency))
    throw new StripeError(400, 'All line items must use the same currency.', 'line_items');
  const metadata = (form.metadata ?? {}) as Record<string, string>;
  if (typeof metadata !== 'object' || Array.isArray(metadata))
    throw new StripeError(400, 'Invalid metadata', 'metadata');
  const total = lineItems.reduce((sum, l) => sum + l.quantity * l.unit_amount, 0);
  const sessionId = id('cs');
  const now = Math.floor(Date.now() / 1000);
  return {
    id: sessionId,
    object: 'checkout.session',
    amount_subtotal: total,
    amount_total: total,
    cancel_url: cancelUrl,
    client_reference_id: typeof form.client_reference_id === 'string' ? form.client_reference_id : null,
    created: now,
    currency,
    customer_email: typeof form.customer_email === 'string' ? form.customer_email : null,
    expires_at: now + 24 * 3600,
    livemode: false,
    metadata,
    mode: String(mode),
    payment_intent: null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    status: 'open',
    success_url: successUrl,
    locale: typeof form.locale === 'string' ? form.locale : null,
    url: `${endpoint}/c/pay/${sessionId}`,
    line_items: lineItems,
  };
}

function checkoutPage(s: StripeSession): string {
  const amount = `€${(s.amount_total / 100).toFixed(2)}`;
  const items = s.line_items.map((l) => `<li>${esc(l.name)} × ${l.quantity}</li>`).join('');
  const done = s.status !== 'open';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Checkout (local Stripe stand-in)</title>
<style>body{font-family:system-ui,sans-serif;background:#f6f9fc;color:#1a1f36;margin:0;display:flex;justify-content:center}
main{background:#fff;margin:48px 16px;padding:32px;border-radius:12px;box-shadow:0 2px 12px #0002;max-width:420px;width:100%}
.amount{font-size:32px;font-weight:700;margin:8px 0 16px}button{width:100%;padding:12px;font-size:16px;border:0;border-radius:6px;background:#635bff;color:#fff;cursor:pointer}
a{display:block;text-align:center;margin-top:16px;color:#635bff}small{color:#697386}</style></head>
<body><main><small>Local Stripe stand-in: test mode, no card is charged</small>
<h1>Snag</h1><ul>${items}</ul><div class="amount" data-testid="amount">${amount}</div>
<p><small>${esc(s.customer_email ?? '')}</small></p>
${done ? '<p>This checkout is already complete.</p>' : `<form method="post" action="/c/pay/${esc(s.id)}/pay"><button type="submit">Pay ${amount}</button></form>`}
${s.cancel_url ? `<a href="${esc(s.cancel_url)}">Cancel</a>` : ''}</main></body></html>`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1024 * 1024) throw new StripeError(413, 'Request too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripe(opts: LocalStripeOptions): Promise<LocalStripe> {
  const sessions = new Map<string, StripeSession>();
  const idempotent = new Map<string, StripeSession>();
  let endpoint = '';

  const eventFor = (type: string, session: StripeSession) =>
    JSON.stringify({
      id: id('evt'),
      object: 'event',
      api_version: '2023-10-16',
      created: Math.floor(Date.now() / 1000),
      data: { object: session },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });

  const sendEvent = async (type: string, session: StripeSession) => {
    const payload = eventFor(type, session);
    const res = await fetch(opts.webhookUrl(), {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': timestampedSignature(payload, opts.webhookSecret, Math.floor(Date.now() / 1000)),
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body: payload,
    });
    await res.arrayBuffer();
    return res.status;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    try {
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        if (!authorised(req, opts.secretKey))
          throw new StripeError(401, 'Invalid API Key provided. (local Stripe stand-in)');
        if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? ''))
          throw new StripeError(400, 'Invalid request: the body must be application/x-www-form-urlencoded');
        const body = await readBody(req);
        const key = req.headers['idempotency-key'];
        const known = typeof key === 'string' ? idempotent.get(key) : undefined;
        if (known) return json(200, known);
        const session = createSession(formDecode(body), endpoint);
        sessions.set(session.id, session);
        if (typeof key === 'string') idempotent.set(key, session);
        return json(200, session);
      }
      const page = /^\/c\/pay\/([\w-]+)(\/pay)?$/.exec(path);
      const session = page ? sessions.get(page[1] ?? '') : undefined;
      if (page && !session) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('No such checkout session');
        return;
      }
      if (session && req.method === 'GET' && !page?.[2]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(checkoutPage(session));
        return;
      }
      if (session && req.method === 'POST' && page?.[2]) {
        if (session.status === 'open') {
          session.status = 'complete';
          session.payment_status = 'paid';
          session.payment_intent = id('pi');
          const status = await sendEvent('checkout.session.completed', session);
          if (status < 200 || status > 299) {
            session.status = 'open';
            session.payment_status = 'unpaid';
            res.writeHead(502, { 'content-type': 'text/plain' }).end(`The webhook answered ${status}`);
            return;
          }
        }
        res.writeHead(303, { location: session.success_url }).end();
        return;
      }
      throw new StripeError(404, `Unrecognized request URL (${req.method}: ${path}).`);
    } catch (err) {
      if (err instanceof StripeError)
        return json(err.status, {
          error: {
            type: 'invalid_request_error',
            message: err.message,
            ...(err.param ? { param: err.param } : {}),
          },
        });
      return json(500, { error: { type: 'api_error', message: String(err) } });
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    sessions,
    sendEvent,
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
