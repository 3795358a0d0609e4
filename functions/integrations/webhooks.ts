/**
 * The webhook deliverer (DESIGN.md section 8, docs/webhooks.md): POST of a versioned JSON payload to the
 * configured https URL through the guarded client (no redirect followed, 10 s), with
 *   X-Snag-Token: <token>
 *   X-Snag-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the token>
 *   X-Snag-Delivery and Idempotency-Key: the delivery id, the same on every attempt of one issue, so a
 *   receiver (or a proxy that honours Idempotency-Key) drops a repeat: Snag may send again when an earlier
 *   attempt's outcome is unknown (deliver.ts `afterUnknownOutcome`).
 * Any 2xx passes. 401/403/404/410 are permanent (the receiver refuses or is gone); other answers retry.
 */
import type { ReplayStop, StepKind } from '#contracts/intake';
import { timestampedSignature } from '#runtime/signature';
import { nowMs } from '#runtime/time';
import { type Deliverer, type DeliveryContext, PermanentFailure } from './deliver';

/** The payload of docs/webhooks.md, version 1. */
export interface WebhookPayloadV1 {
  version: 1;
  event: 'issue.created';
  /** Stable per issue and integration: the same on every retry, for receivers to drop duplicates. */
  deliveryId: string;
  project: { id: string; name: string; url: string };
  issue: {
    number: number;
    title: string;
    description: string;
    createdAt: string;
    url: string;
    page: string;
    reporter: string;
    device: {
      browser: string;
      browserVersion: string;
      os: string;
      osVersion: string;
      deviceType: string;
      screenResolution: string;
    };
    customFields: { name: string; value: string }[];
    screenshots: { name: string; type: string; size: number; url: string }[];
    files: { name: string; originalName: string; type: string; size: number; url: string }[];
    /** The visitor's last actions, oldest first (`t` epoch ms); empty for a report without them. */
    steps: { t: number; kind: StepKind; label: string }[];
    /** The session replay's page, signed like the files' links; null when the report has none. */
    replay: { url: string; start: number; end: number; stopped?: ReplayStop } | null;
  };
}

export function webhookPayload(ctx: DeliveryContext<'webhooks'>): WebhookPayloadV1 {
  const { issue, project } = ctx;
  const d = issue.data;
  return {
    version: 1,
    event: 'issue.created',
    deliveryId: ctx.deliveryId,
    project: { id: project.id, name: project.name, url: project.url },
    issue: {
      number: issue.number,
      title: issue.title,
      description: issue.msg,
      createdAt: issue.createdAt,
      url: ctx.issueUrl,
      page: d.href ?? '',
      reporter: d.username ?? '',
      device: {
        browser: d.browser ?? '',
        browserVersion: d.browserVersion ?? '',
        os: d.os ?? '',
        osVersion: d.osVersion ?? '',
        deviceType: d.deviceType ?? '',
        screenResolution: d.screenResolution ?? '',
      },
      customFields: d.customFields ?? [],
      screenshots: ctx.screenshots.map((s) => ({ name: s.label, type: s.type, size: s.size, url: s.url })),
      files: ctx.files.map((f) => ({
        name: f.name,
        originalName: f.label,
        type: f.type,
        size: f.size,
        url: f.url,
      })),
      // Copied field by field: the payload's shape is the documented one, whatever else a step may carry.
      steps: issue.steps.map(({ t, kind, label }) => ({ t, kind, label })),
      replay: ctx.replay,
    },
  };
}

/**
 * POSTs `body` to the receiver, signed (DESIGN section 8): the one sender of every webhook event. Answers
 * the receipt `<status>@<signed unix time>`; throws PermanentFailure on 401/403/404/410, an Error on other answers.
 */
export async function postSigned(
  http: DeliveryContext['http'],
  target: { url: string; token: string },
  body: string,
  deliveryId: string,
): Promise<string> {
  const { url, token } = target;
  if (!url) throw new PermanentFailure('No webhook URL is configured');
  const t = Math.floor(nowMs() / 1000);
  const res = await http(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Snag-Webhooks/1',
      'x-snag-token': token,
      'x-snag-signature': timestampedSignature(body, token, t),
      'x-snag-delivery': deliveryId,
      'idempotency-key': deliveryId,
    },
    body,
  });
  if (res.status >= 200 && res.status < 300) return `${res.status}@${t}`;
  if ([401, 403, 404, 410].includes(res.status)) {
    throw new PermanentFailure(`The webhook receiver answered ${res.status}`);
  }
  throw new Error(`webhook receiver answered ${res.status}`);
}

export const webhooksDeliverer: Deliverer<'webhooks'> = async (ctx) => {
  if (ctx.vendorId) return { vendorId: ctx.vendorId };
  const body = JSON.stringify(webhookPayload(ctx));
  return { vendorId: await postSigned(ctx.http, ctx.integration.data, body, ctx.deliveryId) };
};
