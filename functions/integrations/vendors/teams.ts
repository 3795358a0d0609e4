/**
 * The Microsoft Teams client (issue 36): a channel's Workflows webhook ("Post to a channel when a webhook
 * request is received", ../shared/api-specs/README.md "Microsoft Teams, Workflows webhook"). The URL the
 * client pasted is the only credential (its signed `sig=` query); it is called through the guarded client
 * (functions/runtime/outbound.ts), as every address a client types.
 *
 * The body is the Adaptive Card message envelope of teams/adaptive-card-message.example.json: `type`
 * `message`, one attachment of content type `application/vnd.microsoft.card.adaptive` whose `content` is
 * the card. A Workflows webhook answers 202 with an empty body (no message id to keep).
 */
import type { OutboundFetch } from '#runtime/outbound';
import { PermanentFailure } from '../deliver';
import { retryAfterSeconds } from './http';

/** The card as the Adaptive Card schema 1.5.0 takes it (teams/adaptive-card.schema-1.5.0.json, strict). */
export type AdaptiveCard = {
  $schema: string;
  type: 'AdaptiveCard';
  version: string;
  body: Record<string, unknown>[];
  actions?: Record<string, unknown>[];
  fallbackText?: string;
};

export interface TeamsMessage {
  type: 'message';
  attachments: [
    { contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: AdaptiveCard },
  ];
}

export const CARD_SCHEMA = 'http://adaptivecards.io/schemas/adaptive-card.json';
/** Teams renders cards up to 1.5 in channels; nothing here needs more than 1.2 (RichTextBlock, TextRun). */
export const CARD_VERSION = '1.4';

export const teamsMessage = (card: AdaptiveCard): TeamsMessage => ({
  type: 'message',
  attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
});

/** A retryable Teams failure (an outage, a rate limit): the queue sends it again later. */
export class TeamsUnavailable extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(`Microsoft Teams answered ${status}`);
    this.name = 'TeamsUnavailable';
  }
}

/**
 * POSTs the message. Answers the HTTP status of a 2xx; throws PermanentFailure when the URL or the card is
 * refused (400, 401, 403, 404, 410, 413: a retry sends the same), TeamsUnavailable otherwise.
 */
export async function postTeamsMessage(
  http: OutboundFetch,
  url: string,
  message: TeamsMessage,
  signal?: AbortSignal,
): Promise<number> {
  const res = await http(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Snag-Teams/1' },
    body: JSON.stringify(message),
    ...(signal ? { signal } : {}),
  });
  await res.body?.cancel().catch(() => {});
  if (res.status >= 200 && res.status < 300) return res.status;
  if (res.status === 401 || res.status === 403 || res.status === 404 || res.status === 410) {
    throw new PermanentFailure(
      `Microsoft Teams refused the workflow URL (${res.status}): the flow may be off or deleted; paste its URL again`,
    );
  }
  if (res.status === 400 || res.status === 413) {
    throw new PermanentFailure(`Microsoft Teams refused the card (${res.status})`);
  }
  throw new TeamsUnavailable(res.status, retryAfterSeconds(res.headers.get('retry-after')));
}
