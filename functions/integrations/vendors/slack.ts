/**
 * Slack Web API (../shared/api-specs/slack, README notes): `oauth.v2.access` (form POST, client credentials
 * by HTTP Basic), `conversations.list` (public and private channels, cursor paging), `chat.postMessage`
 * with blocks, and file uploads through files.getUploadURLExternal → POST bytes → files.completeUploadExternal.
 * Slack answers 200 with `ok: false` and an error code for most failures; `slackError` maps them.
 */
import * as z from 'zod';
import { blobOf, type Http, readJson, send, statusError, VendorError, type VendorFile } from './http';

export interface SlackConfig {
  /** `https://slack.com/api` in AWS; the fake's locally. */
  apiUrl: string;
}

/** Scopes requested (SPEC 7). */
export const SLACK_SCOPES = ['chat:write', 'files:write', 'channels:read', 'groups:read'] as const;

/** Error codes that no retry can repair (docs/decisions.md "Vendor errors"). */
const permanentCodes: Record<string, string> = {
  not_in_channel:
    'The Snag app is not a member of the Slack channel: invite it by typing /invite @Snag in the channel',
  channel_not_found: 'The Slack channel was not found: choose another channel',
  is_archived: 'The Slack channel is archived: choose another channel',
  invalid_auth: 'Slack refused the token: authorise Slack again',
  not_authed: 'Slack refused the token: authorise Slack again',
  account_inactive: 'The Slack authorisation was revoked: authorise Slack again',
  token_revoked: 'The Slack authorisation was revoked: authorise Slack again',
  token_expired: 'The Slack authorisation expired: authorise Slack again',
  missing_scope: 'The Slack authorisation lacks a permission: authorise Slack again',
  no_permission: 'The Slack authorisation lacks a permission: authorise Slack again',
  invalid_code: 'The Slack authorisation code is invalid or used: authorise Slack again',
  code_already_used: 'The Slack authorisation code is invalid or used: authorise Slack again',
  bad_redirect_uri: 'Slack refused the redirect address',
  invalid_client_id: 'Slack refused the app credentials',
  bad_client_secret: 'Slack refused the app credentials',
  restricted_action: 'Slack does not allow the app to post in this channel',
  msg_too_long: 'The message is too long for Slack',
  invalid_blocks: 'Slack refused the message layout',
};
const retryableCodes = new Set([
  'ratelimited',
  'rate_limited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

export function slackError(code: string, status = 200, retryAfter?: number): VendorError {
  if (retryableCodes.has(code)) {
    return new VendorError('slack', false, `Slack is not available (${code})`, {
      status,
      code,
      ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
    });
  }
  return new VendorError('slack', true, permanentCodes[code] ?? `Slack refused the request (${code})`, {
    status,
    code,
  });
}

const envelope = z.looseObject({ ok: z.boolean(), error: z.string().optional() });

/** One Web API call: HTTP errors by status, `ok: false` by its code. */
async function call(
  http: Http,
  url: string,
  init: RequestInit,
  what: string,
): Promise<Record<string, unknown>> {
  const res = await send('slack', http, url, init);
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw statusError('slack', res, what);
  }
  const body = envelope.safeParse(await readJson('slack', res));
  if (!body.success) throw new VendorError('slack', false, `Slack answered an unexpected ${what}`);
  if (!body.data.ok) throw slackError(body.data.error ?? 'unknown_error');
  return body.data;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

const oauthSchema = z.looseObject({
  access_token: z.string().min(1),
  bot_user_id: z.string().optional(),
  team: z.looseObject({ id: z.string().optional(), name: z.string().optional() }).nullish(),
});

/** Exchanges an authorisation code for the bot token (client credentials by HTTP Basic). */
export async function exchangeCode(
  http: Http,
  cfg: SlackConfig,
  client: { id: string; secret: string },
  code: string,
  redirectUri: string,
): Promise<{ accessToken: string; team?: string }> {
  const body = await call(
    http,
    `${cfg.apiUrl}/oauth.v2.access`,
    {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form({ code, redirect_uri: redirectUri }),
    },
    'authorisation',
  );
  const parsed = oauthSchema.safeParse(body);
  if (!parsed.success) throw new VendorError('slack', false, 'Slack answered an unexpected authorisation');
  return {
    accessToken: parsed.data.access_token,
    ...(parsed.data.team?.name ? { team: parsed.data.team.name } : {}),
  };
}

const channelsPage = z.looseObject({
  channels: z.array(z.looseObject({ id: z.string(), name: z.string().optional() })),
  response_metadata: z.looseObject({ next_cursor: z.string().optional() }).optional(),
});

/** Public and private channels the token sees, following `next_cursor` (at most 20 pages of 200). */
export async function listChannels(http: Http, cfg: SlackConfig, token: string) {
  const out: { id: string; name: string }[] = [];
  let cursor = '';
  for (let page = 0; page < 20; page++) {
    const q = new URLSearchParams({
      types: 'public_channel,private_channel',
      exclude_archived: 'true',
      limit: '200',
      ...(cursor ? { cursor } : {}),
    });
    const body = await call(
      http,
      `${cfg.apiUrl}/conversations.list?${q}`,
      { headers: bearer(token) },
      'channel list',
    );
    const parsed = channelsPage.safeParse(body);
    if (!parsed.success) throw new VendorError('slack', false, 'Slack answered an unexpected channel list');
    out.push(...parsed.data.channels.map((c) => ({ id: c.id, name: c.name ?? c.id })));
    cursor = parsed.data.response_metadata?.next_cursor ?? '';
    if (!cursor) break;
  }
  return out;
}

/** Posts a message; answers its `ts` (the message's id in the channel). */
export async function postMessage(
  http: Http,
  cfg: SlackConfig,
  token: string,
  msg: { channel: string; text: string; blocks?: unknown[]; threadTs?: string },
): Promise<string> {
  const body = await call(
    http,
    `${cfg.apiUrl}/chat.postMessage`,
    {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        channel: msg.channel,
        text: msg.text,
        ...(msg.blocks ? { blocks: msg.blocks } : {}),
        ...(msg.threadTs ? { thread_ts: msg.threadTs } : {}),
        unfurl_links: false,
        unfurl_media: false,
      }),
    },
    'message',
  );
  const ts = typeof body.ts === 'string' ? body.ts : '';
  if (!ts) throw new VendorError('slack', false, 'Slack answered an unexpected message');
  return ts;
}

/**
 * A posted message's web address (chat.getPermalink), for the issue page's link to it; undefined when
 * Slack gives none (the link is a convenience: the delivery succeeded already).
 */
export async function getPermalink(
  http: Http,
  cfg: SlackConfig,
  token: string,
  message: { channel: string; ts: string },
): Promise<string | undefined> {
  const query = new URLSearchParams({ channel: message.channel, message_ts: message.ts });
  const body = await call(
    http,
    `${cfg.apiUrl}/chat.getPermalink?${query}`,
    { headers: bearer(token) },
    'permalink',
  );
  return typeof body.permalink === 'string' ? body.permalink : undefined;
}

/**
 * Uploads files in one share: each gets an upload URL (files.getUploadURLExternal), its bytes are POSTed
 * there, then files.completeUploadExternal shares them all in the channel (in the thread of `threadTs`).
 */
export async function uploadFiles(
  http: Http,
  cfg: SlackConfig,
  token: string,
  files: VendorFile[],
  share: { channel: string; threadTs?: string; comment?: string },
): Promise<string[]> {
  const ids: { id: string; title: string }[] = [];
  for (const file of files) {
    const got = await call(
      http,
      `${cfg.apiUrl}/files.getUploadURLExternal`,
      {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ filename: file.name, length: String(file.data.byteLength) }),
      },
      'upload',
    );
    const uploadUrl = typeof got.upload_url === 'string' ? got.upload_url : '';
    const fileId = typeof got.file_id === 'string' ? got.file_id : '';
    if (!uploadUrl || !fileId) throw new VendorError('slack', false, 'Slack answered an unexpected upload');
    // The upload URL is Slack's own (files.slack.com); the bytes go as a multipart `file` field.
    const data = new FormData();
    data.set('file', blobOf(file), file.name);
    const res = await send('slack', http, uploadUrl, { method: 'POST', body: data });
    await res.body?.cancel().catch(() => {});
    if (!res.ok) throw statusError('slack', res, 'upload');
    ids.push({ id: fileId, title: file.name });
  }
  if (ids.length === 0) return [];
  await call(
    http,
    `${cfg.apiUrl}/files.completeUploadExternal`,
    {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        files: ids,
        channel_id: share.channel,
        ...(share.threadTs ? { thread_ts: share.threadTs } : {}),
        ...(share.comment ? { initial_comment: share.comment } : {}),
      }),
    },
    'upload',
  );
  return ids.map((f) => f.id);
}

/** The address of Slack's authorisation page for this app. */
export function authorizeUrl(authorizeBase: string, clientId: string, redirectUri: string, state: string) {
  const q = new URLSearchParams({
    client_id: clientId,
    scope: SLACK_SCOPES.join(','),
    redirect_uri: redirectUri,
    state,
  });
  return `${authorizeBase}?${q}`;
}
