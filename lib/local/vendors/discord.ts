/**
 * Discord's channel webhooks, stood in for on the local stack (README "Vendor fakes"), from
 * ../shared/api-specs/discord/openapi.webhooks.EXCERPTS.json and its README bullets: `GET /` is the setup
 * page (what a channel's Integrations → Webhooks → "Copy Webhook URL" gives) and the channel, every embed
 * drawn with its image; `POST /api/v10/webhooks/{id}/{token}` executes (200 with the message on
 * `?wait=true`, 204 without), `GET` the same path answers the webhook (with its `guild_id`), and
 * `/channels/{guild}/{channel}/{message}` shows one message (its jump link).
 *
 * It checks what Discord would: the webhook's id and token (404 "Unknown Webhook" otherwise, as Discord
 * answers a deleted one), a JSON body with something to post, and the embed limits (title 256, description
 * 4096, 25 fields of 256/1024, 6000 in all: 400 code 50035). It records `allowed_mentions` and which
 * mentions the message would have pinged (`pinged`), so a test sees that nothing in a report pings anyone.
 */
import { escapeHtml as esc } from '#runtime/mail';
import { type Fake, type FakeRequest, startFake } from './fake';

export const DISCORD_FAKE_WEBHOOK = {
  id: '1187000000000000001',
  token: 'snag-local-fake-webhook-token-0123456789',
};
const GUILD = '1187000000000000100';
const CHANNEL = '1187000000000000200';
const HOOK_PATH = /^\/api\/(?:v\d{1,2}\/)?webhooks\/(\d+)\/([\w-]+)$/;

type Embed = {
  title?: string;
  description?: string;
  url?: string;
  fields?: { name?: string; value?: string }[];
  image?: { url?: string };
  footer?: { text?: string };
};
export interface DiscordMessage {
  id: string;
  channel_id: string;
  content?: string;
  embeds: Embed[];
  allowed_mentions?: { parse?: string[] };
  /** What Discord would have pinged: `@everyone`/`@here` and `<@…>` mentions the parse rules allow. */
  pinged: string[];
}

export interface DiscordFake extends Fake {
  /** The URL to paste on the Discord screen. */
  webhookUrl: string;
  messages: DiscordMessage[];
}

const error = (status: number, code: number, message: string) => ({ status, json: { code, message } });

/** Embed limits (README "Discord"): the first one broken, or null. */
function brokenLimit(embeds: Embed[]): string | null {
  let total = 0;
  for (const e of embeds) {
    if ((e.title ?? '').length > 256) return 'title';
    if ((e.description ?? '').length > 4096) return 'description';
    if ((e.fields ?? []).length > 25) return 'fields';
    for (const f of e.fields ?? []) {
      if (!f.name || (f.name ?? '').length > 256) return 'field name';
      if (!f.value || (f.value ?? '').length > 1024) return 'field value';
      total += f.name.length + f.value.length;
    }
    if ((e.footer?.text ?? '').length > 2048) return 'footer';
    total += (e.title ?? '').length + (e.description ?? '').length + (e.footer?.text ?? '').length;
  }
  return total > 6000 ? 'total' : null;
}

/** The mentions Discord would act on in `text`, given the message's `allowed_mentions` (default: all). */
function pingsIn(text: string, parse: string[] | undefined): string[] {
  const allowed = new Set(parse ?? ['everyone', 'users', 'roles']);
  const out: string[] = [];
  if (allowed.has('everyone')) out.push(...(text.match(/@(?:everyone|here)\b/g) ?? []));
  if (allowed.has('users')) out.push(...(text.match(/<@!?\d+>/g) ?? []));
  if (allowed.has('roles')) out.push(...(text.match(/<@&\d+>/g) ?? []));
  return out;
}

/**
 * Text as Discord shows it, as far as this page draws Markdown: a backslash before punctuation shows the
 * character alone (Snag escapes the visitor's `#`, `-`, `*`…; the raw escapes would read as clutter here).
 */
const md = (text: string) => esc(text.replace(/\\([^A-Za-z0-9\s])/g, '$1'));

function drawn(m: DiscordMessage): string {
  const embeds = m.embeds.map((e) => {
    const fields = (e.fields ?? []).map(
      (f) =>
        `<div><b>${md(f.name ?? '')}</b><div style="white-space:pre-wrap">${md(f.value ?? '')}</div></div>`,
    );
    return `<div class="e"><a href="${esc(e.url ?? '')}"><b>${md(e.title ?? '')}</b></a>
<div style="white-space:pre-wrap">${md(e.description ?? '')}</div>${fields.join('')}
${e.image?.url ? `<img src="${esc(e.image.url)}" alt="Screenshot" style="max-width:100%">` : ''}</div>`;
  });
  return `<article id="m${esc(m.id)}"><p>${esc(m.content ?? '')}</p>${embeds.join('')}</article>`;
}

function page(title: string, intro: string, messages: DiscordMessage[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:.2rem;overflow-wrap:anywhere}article{margin:1rem 0}
.e{border-left:4px solid #5b5bd6;background:#f6f6fb;padding:.5rem 1rem}</style></head>
<body><h1>${esc(title)}</h1>${intro}<h2>#snag-reports</h2>
${messages.length ? [...messages].reverse().map(drawn).join('\n') : '<p>No messages yet.</p>'}</body></html>`;
}

function execute(req: FakeRequest, messages: DiscordMessage[], id: string) {
  if (!(req.headers['content-type'] ?? '').includes('application/json'))
    return error(400, 50109, 'The request body contains invalid JSON.');
  const body = req.body as
    | { content?: string; embeds?: Embed[]; allowed_mentions?: { parse?: string[] } }
    | undefined;
  const embeds = Array.isArray(body?.embeds) ? body.embeds : [];
  if (!body?.content && embeds.length === 0) return error(400, 50006, 'Cannot send an empty message');
  if ((body?.content ?? '').length > 2000 || embeds.length > 10)
    return error(400, 50035, 'Invalid Form Body');
  const broken = brokenLimit(embeds);
  if (broken) return error(400, 50035, `Invalid Form Body (embeds: ${broken})`);
  const text = [
    body?.content ?? '',
    ...embeds.flatMap((e) => [e.title, e.description, ...(e.fields ?? []).map((f) => f.value)]),
  ]
    .filter(Boolean)
    .join('\n');
  const message: DiscordMessage = {
    id: String(BigInt(id) + BigInt(messages.length + 1) * 1000n),
    channel_id: CHANNEL,
    ...(body?.content ? { content: body.content } : {}),
    embeds,
    ...(body?.allowed_mentions ? { allowed_mentions: body.allowed_mentions } : {}),
    pinged: pingsIn(text ?? '', body?.allowed_mentions?.parse),
  };
  messages.push(message);
  if (req.url.searchParams.get('wait') !== 'true') return { status: 204, text: '' };
  return {
    json: {
      type: 0,
      id: message.id,
      channel_id: CHANNEL,
      webhook_id: id,
      content: message.content ?? '',
      embeds,
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      attachments: [],
      components: [],
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      flags: 0,
      pinned: false,
      tts: false,
      author: { id, username: 'Snag', bot: true },
    },
    headers: { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset-after': '1' },
  };
}

export async function startDiscordFake(port = 0): Promise<DiscordFake> {
  const messages: DiscordMessage[] = [];
  let webhookUrl = '';
  const fake = await startFake(
    (req) => {
      if (req.method === 'GET' && req.path === '/') {
        const intro = `<p>In Discord, a channel's Settings → Integrations → Webhooks → "Copy Webhook URL" gives a
URL. This stand-in's is:</p><p><code>${esc(webhookUrl)}</code></p><p>Paste it on the Discord screen of a
project's integrations. Messages posted to it appear below (this page refreshes every 5 seconds).</p>`;
        return { html: page('Discord: a local stand-in', intro, messages) };
      }
      const jump = /^\/channels\/\d+\/\d+\/(\d+)$/.exec(req.path);
      if (req.method === 'GET' && jump) {
        const shown = messages.filter((m) => m.id === jump[1]);
        return shown.length
          ? { html: page('Discord: one message', '', shown) }
          : { status: 404, text: 'Unknown Message' };
      }
      const hook = HOOK_PATH.exec(req.path);
      if (!hook) return error(404, 0, '404: Not Found');
      if (hook[1] !== DISCORD_FAKE_WEBHOOK.id || hook[2] !== DISCORD_FAKE_WEBHOOK.token)
        return error(404, 10015, 'Unknown Webhook');
      if (req.method === 'GET')
        return {
          json: {
            type: 1,
            id: hook[1],
            name: 'Snag',
            guild_id: GUILD,
            channel_id: CHANNEL,
            token: hook[2],
            application_id: null,
            avatar: null,
          },
        };
      if (req.method === 'POST') return execute(req, messages, hook[1]);
      return error(405, 0, '405: Method Not Allowed');
    },
    'Discord',
    port,
  );
  webhookUrl = `${fake.url}/api/webhooks/${DISCORD_FAKE_WEBHOOK.id}/${DISCORD_FAKE_WEBHOOK.token}`;
  return {
    ...fake,
    webhookUrl,
    messages,
    reset: () => {
      fake.reset();
      messages.length = 0;
    },
  };
}
