/**
 * Slack's local fake (../shared/api-specs/slack and README notes). Web API methods under `/api`, Bearer
 * tokens it issued through its own OAuth (`/oauth/v2/authorize` serves a consent page whose "Allow"
 * returns to the redirect_uri with `code` and `state`; `oauth.v2.access` checks the client credentials by
 * HTTP Basic, the code and its redirect_uri). Errors as Slack sends them: 200 with `ok: false`.
 *
 * chat.getPermalink answers a posted message's address under the fake's own origin.
 *
 * Channels: #general and #bugs (private) with the bot in them, #random without (posting there answers
 * `not_in_channel`), three pages of conversations.list at limit 2.
 */
import { randomBytes } from 'node:crypto';
import {
  basicAuth,
  bearerToken,
  type ConsentCode,
  consent,
  type Fake,
  type FakeReply,
  type FakeRequest,
  itemPage,
  startFake,
} from './fake';

export interface SlackMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[];
  threadTs?: string;
  /**
   * The control sequences Slack acts on, as it parses them in `text` and in every mrkdwn text of the
   * blocks: special mentions (`<!channel>`, `<!here>`), user and group mentions (`<@U…>`) and links
   * (`<https://…|label>`). plain_text is never parsed.
   */
  controls: { mentions: string[]; links: string[] };
}

/** What Slack would act on in a message (see `SlackMessage.controls`). */
export function slackControls(text: string, blocks: unknown[]): SlackMessage['controls'] {
  const texts = [text];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (o.type === 'mrkdwn' && typeof o.text === 'string') texts.push(o.text);
      for (const [k, v] of Object.entries(o)) if (k !== 'text' || typeof v !== 'string') walk(v);
    }
  };
  walk(blocks);
  const out: SlackMessage['controls'] = { mentions: [], links: [] };
  for (const t of texts) {
    for (const [, inner = ''] of t.matchAll(/<([^<>]+)>/g)) {
      if (/^[!@#]/.test(inner)) out.mentions.push(`<${inner}>`);
      else out.links.push(`<${inner}>`);
    }
  }
  return out;
}

export interface SlackFile {
  id: string;
  name: string;
  length: number;
  uploadedBytes?: number;
  channel?: string;
  threadTs?: string;
  comment?: string;
}

export interface SlackFake extends Fake {
  messages: SlackMessage[];
  files: SlackFile[];
  /** Tokens it issued (a test may add one directly). */
  tokens: Set<string>;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  apiUrl: string;
}

export const slackChannels = [
  { id: 'C0GENERAL', name: 'general', is_private: false, member: true },
  { id: 'C0RANDOM', name: 'random', is_private: false, member: false },
  { id: 'G0BUGS', name: 'bugs', is_private: true, member: true },
  { id: 'C0ANNOUNCE', name: 'announcements', is_private: false, member: true },
  { id: 'C0ARCHIVED', name: 'old', is_private: false, member: true, archived: true },
];

const slackError = (error: string): FakeReply => ({ json: { ok: false, error } });

export async function startSlackFake(
  opts: {
    port?: number;
    clientId?: string;
    clientSecret?: string;
    /** Where issued tokens are kept; `npm start` passes one saved in the data dir (vendors/saved.ts). */
    tokens?: Set<string>;
  } = {},
): Promise<SlackFake> {
  const clientId = opts.clientId ?? 'local-slack-client';
  const clientSecret = opts.clientSecret ?? 'local-slack-secret';
  const messages: SlackMessage[] = [];
  const files: SlackFile[] = [];
  const tokens = opts.tokens ?? new Set<string>();
  const codes = new Map<string, ConsentCode>();
  let base = '';
  let tsCounter = 0;

  /** Form or JSON arguments (Slack takes both for most methods). */
  const args = (req: FakeRequest) => ({ ...req.query, ...((req.body as Record<string, unknown>) ?? {}) });

  const api = (method: string, req: FakeRequest): FakeReply => {
    const a = args(req);
    if (method === 'oauth.v2.access') {
      const basic = basicAuth(req.headers);
      const id = basic?.user ?? a.client_id;
      const secret = basic?.pass ?? a.client_secret;
      if (id !== clientId) return slackError('invalid_client_id');
      if (secret !== clientSecret) return slackError('bad_client_secret');
      const code = codes.get(String(a.code ?? ''));
      if (!code || code.used) return slackError('invalid_code');
      if (code.redirectUri !== String(a.redirect_uri ?? '')) return slackError('bad_redirect_uri');
      code.used = true;
      const token = `xoxb-local-${randomBytes(12).toString('hex')}`;
      tokens.add(token);
      return {
        json: {
          ok: true,
          access_token: token,
          token_type: 'bot',
          scope: 'chat:write,files:write,channels:read,groups:read',
          bot_user_id: 'U0SNAGBOT',
          app_id: 'A0SNAG',
          team: { id: 'T0LOCAL', name: 'Local workspace' },
          enterprise: null,
          authed_user: { id: 'U0LOCAL' },
        },
      };
    }
    const token = bearerToken(req.headers);
    if (!token) return slackError('not_authed');
    if (!tokens.has(token)) return slackError('invalid_auth');
    const channelOf = (id: unknown) => slackChannels.find((c) => c.id === id);
    switch (method) {
      case 'conversations.list': {
        const types = String(a.types ?? 'public_channel').split(',');
        const limit = Math.max(1, Math.min(1000, Number(a.limit ?? 100)));
        const pageSize = Math.min(limit, 2); // small pages, so that clients must follow the cursor
        const start = a.cursor
          ? Number(Buffer.from(String(a.cursor), 'base64').toString('utf8').slice(4))
          : 0;
        const visible = slackChannels.filter(
          (c) =>
            (c.is_private ? types.includes('private_channel') : types.includes('public_channel')) &&
            !(a.exclude_archived === 'true' || a.exclude_archived === true ? c.archived : false),
        );
        const page = visible.slice(start, start + pageSize);
        const next =
          start + pageSize < visible.length ? Buffer.from(`pos:${start + pageSize}`).toString('base64') : '';
        return {
          json: {
            ok: true,
            channels: page.map((c) => ({
              id: c.id,
              name: c.name,
              is_channel: !c.is_private,
              is_group: c.is_private,
              is_private: c.is_private,
              is_member: c.member,
              is_archived: !!c.archived,
            })),
            response_metadata: { next_cursor: next },
          },
        };
      }
      case 'chat.postMessage': {
        const channel = channelOf(a.channel);
        if (!channel) return slackError('channel_not_found');
        if (channel.archived) return slackError('is_archived');
        if (!channel.member) return slackError('not_in_channel');
        const blocks = typeof a.blocks === 'string' ? JSON.parse(a.blocks) : a.blocks;
        if (!a.text && !blocks) return slackError('no_text');
        if (
          blocks !== undefined &&
          (!Array.isArray(blocks) || blocks.some((b) => typeof b?.type !== 'string'))
        ) {
          return slackError('invalid_blocks');
        }
        const ts = `${Math.floor(Date.now() / 1000)}.${String(++tsCounter).padStart(6, '0')}`;
        messages.push({
          channel: channel.id,
          ts,
          text: String(a.text ?? ''),
          blocks: blocks ?? [],
          controls: slackControls(String(a.text ?? ''), blocks ?? []),
          ...(a.thread_ts ? { threadTs: String(a.thread_ts) } : {}),
        });
        return {
          json: { ok: true, channel: channel.id, ts, message: { type: 'message', text: a.text, ts } },
        };
      }
      case 'files.getUploadURLExternal': {
        const length = Number(a.length);
        if (!a.filename || !Number.isInteger(length) || length <= 0) return slackError('invalid_arguments');
        const id = `F0${randomBytes(5).toString('hex').toUpperCase()}`;
        files.push({ id, name: String(a.filename), length });
        return { json: { ok: true, upload_url: `${base}/upload/v1/${id}`, file_id: id } };
      }
      case 'chat.getPermalink': {
        // Slack's answer: the message's page in the workspace, `/archives/<channel>/p<ts without the dot>`.
        const channel = channelOf(a.channel);
        if (!channel) return slackError('channel_not_found');
        const ts = String(a.message_ts ?? '');
        if (!messages.some((m) => m.channel === channel.id && m.ts === ts))
          return slackError('message_not_found');
        return {
          json: {
            ok: true,
            channel: channel.id,
            permalink: `${base}/archives/${channel.id}/p${ts.replace('.', '')}`,
          },
        };
      }
      case 'files.completeUploadExternal': {
        const list = typeof a.files === 'string' ? JSON.parse(a.files) : a.files;
        if (!Array.isArray(list) || list.length === 0) return slackError('invalid_arguments');
        const channel = a.channel_id ? channelOf(a.channel_id) : undefined;
        if (a.channel_id && !channel) return slackError('channel_not_found');
        if (channel && !channel.member) return slackError('not_in_channel');
        const done: SlackFile[] = [];
        for (const entry of list as { id?: string; title?: string }[]) {
          const file = files.find((f) => f.id === entry.id);
          if (!file || file.uploadedBytes === undefined) return slackError('file_not_found');
          if (file.uploadedBytes !== file.length) return slackError('file_upload_size_mismatch');
          if (channel) file.channel = channel.id;
          if (a.thread_ts) file.threadTs = String(a.thread_ts);
          if (a.initial_comment) file.comment = String(a.initial_comment);
          done.push(file);
        }
        return { json: { ok: true, files: done.map((f) => ({ id: f.id, title: f.name })) } };
      }
      default:
        return slackError('unknown_method');
    }
  };

  const route = (req: FakeRequest): FakeReply => {
    if (req.method === 'GET' && req.path === '/oauth/v2/authorize') {
      const redirect = req.query.redirect_uri;
      if (req.query.client_id !== clientId || !redirect) {
        return { status: 400, html: '<p>invalid_client_id or missing redirect_uri</p>' };
      }
      return consent('Slack', req.query.scope ?? '', redirect, req.query.state ?? '', codes);
    }
    // A message's permalink (chat.getPermalink) shows the message, so the issue page's link opens locally.
    const archived = /^\/archives\/(\w+)\/p(\d+)$/.exec(req.path);
    if (archived && req.method === 'GET') {
      const message = messages.find(
        (m) => m.channel === archived[1] && m.ts.replace('.', '') === archived[2] && !m.threadTs,
      );
      if (!message) return { status: 404, text: 'not found' };
      const channel = slackChannels.find((c) => c.id === message.channel)?.name ?? message.channel;
      return itemPage({ vendor: 'Slack', place: `#${channel}`, title: message.text });
    }
    const upload = /^\/upload\/v1\/(\w+)$/.exec(req.path);
    if (upload && req.method === 'POST') {
      const file = files.find((f) => f.id === upload[1]);
      if (!file) return { status: 404, text: 'not found' };
      const part = req.files[0];
      file.uploadedBytes = part ? part.size : ((req.body as { bytes?: number })?.bytes ?? 0);
      return { text: `OK - ${file.uploadedBytes}` };
    }
    const method = /^\/api\/([\w.]+)$/.exec(req.path)?.[1];
    if (method) return api(method, req);
    return { status: 404, text: 'not found' };
  };

  const fake = await startFake(route, 'Slack', opts.port ?? 0);
  base = fake.url;
  return {
    ...fake,
    messages,
    files,
    tokens,
    clientId,
    clientSecret,
    authorizeUrl: `${base}/oauth/v2/authorize`,
    apiUrl: `${base}/api`,
    reset: () => {
      fake.reset();
      messages.length = 0;
      files.length = 0;
    },
  };
}
