/**
 * The chat destinations' `data` (issue 36): Microsoft Teams (a channel's Workflows webhook URL) and Discord
 * (a channel's webhook URL). Each is post-only: one message per new issue, nothing synced back.
 *
 * The URL is the credential itself (Teams' signed `sig=` query, Discord's `/{id}/{token}` path), so it is
 * the integration's secret (the catalogue's `secrets: ['url']`): read back masked, and a masked value sent
 * back keeps the stored URL. Shared by the dashboard's forms and the save call; imports only zod.
 */
import * as z from 'zod';

/**
 * A masked secret as the dashboard read it: integrations.ts `maskSecret` (its `MASK`, then at most the last
 * 4 characters). Written out here because integrations.ts imports this file (a test holds the two equal).
 */
export const CHAT_MASK = '••••';
const masked = new RegExp(`^${CHAT_MASK}[\\x21-\\x7E]{0,4}$`);

/** The local stack's own receivers and vendor fakes (integrations.ts `isLoopbackHttp`): http on loopback only. */
const loopback = /^http:\/\/(?:localhost|127\.0\.0\.1)(?::\d{1,5})?(?:\/\S*)?$/i;

/**
 * A Discord channel webhook as Discord shows it ("Copy Webhook URL"): `https://discord.com/api/webhooks/
 * {id}/{token}` (also discordapp.com, the ptb./canary. clients, an explicit `/v10/` and a `thread_id`). The
 * loopback form keeps the same path, for the local fake.
 */
export const discordWebhookPath = /^\/api\/(?:v\d{1,2}\/)?webhooks\/(\d{5,25})\/([A-Za-z0-9_-]{20,200})\/?$/;
const discordHosts = /^(?:(?:ptb|canary)\.)?discord(?:app)?\.com$/;

/** The parts of a Discord webhook URL, or null when it is none (another host, another path, http). */
export function discordWebhookParts(
  value: string,
): { origin: string; id: string; token: string; threadId?: string } | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  const local = loopback.test(value.trim());
  if (!local && (url.protocol !== 'https:' || !discordHosts.test(url.hostname) || url.port !== ''))
    return null;
  if (url.username || url.password || url.hash) return null;
  const path = discordWebhookPath.exec(url.pathname);
  if (!path) return null;
  const thread = url.searchParams.get('thread_id');
  if (thread !== null && !/^\d{5,25}$/.test(thread)) return null;
  return {
    origin: url.origin,
    id: path[1] as string,
    token: path[2] as string,
    ...(thread ? { threadId: thread } : {}),
  };
}

/** What either URL field takes: empty, the masked value read back, or a new URL (`fits`). */
const chatUrl = (fits: (v: string) => boolean) =>
  z
    .string()
    .trim()
    .max(2000)
    .refine((v) => v === '' || masked.test(v) || fits(v), { error: 'INVALID_PARAMETERS' })
    .default('');

/** An https URL (any host: Workflows URLs move between Azure domains) or a loopback http one, no credentials in it. */
export const isTeamsWebhookUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    if (url.username || url.password) return false;
    return url.protocol === 'https:' || loopback.test(value);
  } catch {
    return false;
  }
};

/** Microsoft Teams: the Workflows webhook URL ("When a Teams webhook request is received"). */
export const teamsDataSchema = z.object({ url: chatUrl(isTeamsWebhookUrl) });

/** Discord: the channel webhook URL. */
export const discordDataSchema = z.object({ url: chatUrl((v) => discordWebhookParts(v) !== null) });

/**
 * How long the screenshot and replay links in a Teams card or a Discord embed work, in days: the message
 * stays in the channel, and Teams and Discord fetch the image again when someone scrolls back (Discord's
 * media proxy caches it for a while only). As long as GitHub's issues keep theirs (decision CH-2).
 */
export const CHAT_LINK_DAYS = 365;
