/**
 * A webhook receiver beside the vendor fakes, so that `npm start` reaches all six
 * integrations: enter `<url>/hook` (any path) and any token on the Webhooks screen. It checks each POST as
 * docs/webhooks.md tells receivers to (the `X-Snag-Signature` over the raw body, keyed with the token,
 * within 5 minutes) and answers 401 to a bad one, so a broken signer shows as a failed delivery rather than
 * passing unseen. What it received is on `<url>/_fake`.
 *
 * It keys the check with the `X-Snag-Token` the request brings, since it cannot know what the client typed.
 */
import { verifyTimestampedSignature } from '#runtime/signature';
import { type Fake, type FakeRequest, startFake } from './fake';

export interface WebhookFake extends Fake {
  /** The payloads that passed the signature check, in arrival order. */
  deliveries: unknown[];
}

function signedBySnag(req: FakeRequest): boolean {
  const token = req.headers['x-snag-token'] ?? '';
  if (!token) return false;
  const now = Math.floor(Date.now() / 1000);
  return verifyTimestampedSignature(req.raw.toString('utf8'), req.headers['x-snag-signature'], token, now);
}

export async function startWebhookFake(port = 0): Promise<WebhookFake> {
  const deliveries: unknown[] = [];
  const fake = await startFake(
    (req) => {
      if (req.method !== 'POST')
        return { text: `POST webhooks to any path here; see ${req.url.origin}/_fake` };
      if (!signedBySnag(req)) return { status: 401, json: { error: 'bad or missing X-Snag-Signature' } };
      deliveries.push(req.body);
      return { json: { received: true } };
    },
    'Webhook receiver',
    port,
  );
  return {
    ...fake,
    deliveries,
    reset: () => {
      fake.reset();
      deliveries.length = 0;
    },
  };
}
