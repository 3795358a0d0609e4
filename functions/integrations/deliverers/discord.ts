/**
 * The Discord deliverer (issue 36): one embed per new issue, posted to the channel's webhook with
 * `?wait=true`. The embed: the title (linking to the issue in Snag), the description, fields for the page,
 * the device and the other facts, the steps to reproduce, links to the files and the replay, the first
 * screenshot as the embed's image from its signed link. `allowed_mentions: {parse: []}` and `discordText`
 * (chat-text.ts) on every visitor value: nothing in a report pings anyone or links anywhere.
 *
 * The created message's `<channel>/<id>` is the vendor id (a redelivered message posts nothing twice), and
 * its jump link the delivery's URL when Discord names the webhook's server (decision CH-3); an attempt whose
 * outcome is unknown asks before Sync (the catalogue's `ask`).
 */
import { CHAT_LINK_DAYS } from '#contracts/chat-integrations';
import { DAY } from '#runtime/time';
import { discordLine, discordText, fitted } from '../chat-text';
import type { Deliverer, DeliveryContext } from '../deliver';
import { numbered, replayNote, stepSentences, stepTexts } from '../steps';
import {
  type DiscordWebhookBody,
  executeWebhook,
  discordLimits as L,
  messageLink,
  webhookGuild,
} from '../vendors/discord';
import { facts, mimeOf, needs, title } from './common';

/** Snag's colour on the embed's edge. */
const SNAG_COLOR = 0x5b5bd6;

/** A masked link whose text is Snag's own words (never the visitor's), its URL Snag's signed link. */
const link = (text: string, url: string) => `[${text}](${url.replace(/[()\s]/g, encodeURIComponent)})`;

/** The lines that fit whole within `room` characters (each with its line break). */
function whole(lines: string[], room: number): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.length + 1 > room) break;
    out.push(line);
    room -= line.length + 1;
  }
  return out;
}

/** The message of one issue (also what the unit tests check against the limits). */
export function discordMessage(
  ctx: Pick<DeliveryContext, 'issue' | 'issueUrl' | 'screenshots' | 'files' | 'replay'>,
): DiscordWebhookBody {
  const t = stepTexts();
  const fields = facts(ctx.issue)
    .slice(0, 10)
    .map(([name, value]) => ({
      name: fitted(discordLine(name), L.fieldName),
      value: fitted(discordLine(value), 600),
      inline: name !== 'Page',
    }));
  // The newest steps are kept when they do not all fit, with their own numbers.
  const steps = whole(
    numbered(stepSentences(ctx.issue, { text: discordLine })).reverse(),
    L.fieldValue,
  ).reverse();
  if (steps.length) fields.push({ name: t.heading, value: steps.join('\n'), inline: false });
  const image = ctx.screenshots.find((s) => mimeOf(s.type).startsWith('image/'));
  const files = whole(
    [
      ...ctx.screenshots.filter((s) => s !== image).map((s, i) => `• ${link(`Screenshot ${i + 2}`, s.url)}`),
      // The visitor's file name stays outside the link's text: `[x](y)` in it is escaped text.
      ...ctx.files.map((f, i) => `• ${link(`File ${i + 1}`, f.url)} ${fitted(discordLine(f.label), 100)}`),
    ],
    L.fieldValue,
  );
  if (files.length) {
    fields.push({
      name: `Files (links work for ${CHAT_LINK_DAYS} days)`,
      value: files.join('\n'),
      inline: false,
    });
  }
  if (ctx.replay) {
    fields.push({
      name: t.watch,
      value: `${link(t.watch, ctx.replay.url)}: ${replayNote(ctx.replay, CHAT_LINK_DAYS)}`,
      inline: false,
    });
  }
  // The description takes what the other parts leave of the 6,000 characters of a message's embeds.
  const title_ = fitted(discordLine(title(ctx.issue)), L.title);
  const footer = 'Snag';
  const used = title_.length + footer.length + fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  const room = Math.max(100, Math.min(L.description, L.total - used - 100));
  return {
    username: 'Snag',
    // Snag's words only, for the notification: the visitor's text is in the embed.
    content: `New issue #${ctx.issue.number}`,
    embeds: [
      {
        title: title_,
        url: ctx.issueUrl,
        description: ctx.issue.msg ? fitted(discordText(ctx.issue.msg), room) : '*No description*',
        color: SNAG_COLOR,
        timestamp: new Date(Date.parse(ctx.issue.createdAt) || Date.now()).toISOString(),
        fields: fields.slice(0, L.fields),
        ...(image ? { image: { url: image.url } } : {}),
        footer: { text: footer },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

/** The links must work as long as the embed stays in the channel (decision CH-2). */
export const deliverDiscord: Deliverer<'discord'> = /* @__PURE__ */ Object.assign(
  async (ctx: DeliveryContext<'discord'>) => {
    if (ctx.vendorId) return { vendorId: ctx.vendorId };
    const pasted = ctx.integration.data.url;
    if (!pasted) needs('Discord', 'paste the webhook URL');
    const posted = await executeWebhook(ctx.http, pasted, discordMessage(ctx), ctx.signal);
    const vendorId = `${posted.channelId}/${posted.id}`;
    // The jump link is a convenience: without it (Discord did not name the server) the post still counts.
    const guild = posted.id
      ? await webhookGuild(ctx.http, pasted, ctx.signal).catch((err: unknown) => {
          ctx.log.warn('no server id for the Discord message link', { err });
          return undefined;
        })
      : undefined;
    return { vendorId, ...(guild ? { url: messageLink(pasted, guild, posted.channelId, posted.id) } : {}) };
  },
  { linkLifetimeMs: CHAT_LINK_DAYS * DAY },
);
