/**
 * The Discord client (issue 36): a channel webhook, `POST /api/v10/webhooks/{id}/{token}?wait=true`
 * (../shared/api-specs/discord/openapi.webhooks.EXCERPTS.json `execute_webhook`, and the README's Discord
 * bullets). The token in the URL is the credential: no Authorization header. Called through the guarded
 * client (functions/runtime/outbound.ts), as every address a client types.
 *
 * Rate limits (README "Discord rate limits"): a 429 carries `retry_after` (seconds) in its JSON body and
 * `X-RateLimit-Reset-After`; a short wait is waited out once here, a longer one goes back to the queue,
 * whose retry comes no sooner than Discord asked (`DiscordUnavailable.retryAfterSeconds`, read by
 * runtime/retry.ts). A webhook that answered 404 is gone and must not be called again: permanent.
 */
import { discordWebhookParts } from '#contracts/chat-integrations';
import type { OutboundFetch } from '#runtime/outbound';
import { PermanentFailure } from '../deliver';

/** The embed as the spec's `RichEmbed` types it (the fields Snag sends). */
export interface DiscordEmbed {
  title: string;
  description?: string;
  url?: string;
  color?: number;
  timestamp?: string;
  fields?: { name: string; value: string; inline?: boolean }[];
  image?: { url: string };
  footer?: { text: string };
}

/** The spec's `IncomingWebhookRequestPartial` (the fields Snag sends). */
export interface DiscordWebhookBody {
  content?: string;
  username?: string;
  embeds: DiscordEmbed[];
  /** `{parse: []}`: no `@everyone`, role or user in the message notifies anyone. */
  allowed_mentions: { parse: [] };
}

/** Discord's limits (README "Discord"): over any of them the message is refused with 400. */
export const discordLimits = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000,
} as const;

/** A short rate limit is waited out in place once; a longer one goes back to the queue. */
export const INLINE_WAIT_MAX_SECONDS = 5;

/** A retryable Discord failure (an outage, a rate limit). */
export class DiscordUnavailable extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(`Discord answered ${status}`);
    this.name = 'DiscordUnavailable';
  }
}

/** The webhook's API address, from the URL the client pasted (`/api/webhooks/…` or a versioned one). */
export function executeUrl(pasted: string): string {
  const parts = discordWebhookParts(pasted);
  if (!parts) throw new PermanentFailure('Discord is not set up: the webhook URL is not a Discord webhook');
  const query = new URLSearchParams({
    wait: 'true',
    ...(parts.threadId ? { thread_id: parts.threadId } : {}),
  });
  return `${parts.origin}/api/v10/webhooks/${parts.id}/${parts.token}?${query}`;
}

/** How long a 429 asks to wait, in seconds: the body's `retry_after`, else `X-RateLimit-Reset-After`. */
async function retryAfterOf(res: Response): Promise<number | undefined> {
  const body = (await res.json().catch(() => undefined)) as { retry_after?: unknown } | undefined;
  const fromBody = Number(body?.retry_after);
  if (Number.isFinite(fromBody) && fromBody >= 0) return fromBody;
  const header = Number(res.headers.get('x-ratelimit-reset-after') ?? res.headers.get('retry-after'));
  return Number.isFinite(header) && header >= 0 ? header : undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Posts the message and answers the created message's id and channel (`wait=true`). Throws
 * PermanentFailure when Discord refuses the webhook or the body (400, 401, 403, 404), DiscordUnavailable
 * otherwise.
 */
export async function executeWebhook(
  http: OutboundFetch,
  pasted: string,
  body: DiscordWebhookBody,
  signal?: AbortSignal,
  waited = false,
): Promise<{ id: string; channelId: string }> {
  const res = await http(executeUrl(pasted), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Snag-Discord/1' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  if (res.status === 429) {
    const wait = await retryAfterOf(res);
    if (!waited && wait !== undefined && wait <= INLINE_WAIT_MAX_SECONDS) {
      await sleep(Math.ceil(wait * 1000));
      return executeWebhook(http, pasted, body, signal, true);
    }
    throw new DiscordUnavailable(429, wait);
  }
  if (res.status === 200) {
    const message = (await res.json().catch(() => undefined)) as
      | { id?: unknown; channel_id?: unknown }
      | undefined;
    return { id: String(message?.id ?? ''), channelId: String(message?.channel_id ?? '') };
  }
  await res.body?.cancel().catch(() => {});
  if (res.status === 204) return { id: '', channelId: '' };
  if (res.status === 404) {
    throw new PermanentFailure(
      'Discord says the webhook no longer exists (404): create one and paste its URL again',
    );
  }
  if (res.status === 401 || res.status === 403) {
    throw new PermanentFailure(`Discord refused the webhook (${res.status}): paste its URL again`);
  }
  if (res.status >= 400 && res.status < 500) {
    throw new PermanentFailure(`Discord refused the message (${res.status})`);
  }
  throw new DiscordUnavailable(res.status);
}

/** The webhook's server (guild) id, for a message's jump link; undefined when Discord does not say. */
export async function webhookGuild(http: OutboundFetch, pasted: string, signal?: AbortSignal) {
  const parts = discordWebhookParts(pasted);
  if (!parts) return undefined;
  const res = await http(`${parts.origin}/api/v10/webhooks/${parts.id}/${parts.token}`, {
    method: 'GET',
    headers: { 'user-agent': 'Snag-Discord/1' },
    ...(signal ? { signal } : {}),
  });
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    return undefined;
  }
  const hook = (await res.json().catch(() => undefined)) as { guild_id?: unknown } | undefined;
  return typeof hook?.guild_id === 'string' && /^\d{5,25}$/.test(hook.guild_id) ? hook.guild_id : undefined;
}

/**
 * A message's jump link, `https://discord.com/channels/{guild}/{channel}/{message}`: only with the guild id
 * (a webhook posts in a server's channel). On the local stack the fake's origin, where it shows the message.
 */
export function messageLink(pasted: string, guild: string, channel: string, message: string): string {
  const parts = discordWebhookParts(pasted);
  const origin = parts?.origin.startsWith('http://') ? parts.origin : 'https://discord.com';
  return `${origin}/channels/${guild}/${channel}/${message}`;
}
