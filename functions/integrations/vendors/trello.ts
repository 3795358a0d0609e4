/**
 * Trello REST (../shared/api-specs/trello/trello-openapi.EXCERPTS.json and the README's "Trello" facts):
 * base `TRELLO_API_URL` (https://api.trello.com/1); every call carries the app's API key and the member's
 * token as the query parameters `key` and `token` (the spec's security `APIKey` + `APIToken`), and every
 * write parameter is a query parameter as the spec declares them, except a file, which goes as a
 * multipart `file` part (the README: a query parameter cannot carry bytes).
 */
import * as z from 'zod';
import { blobOf, type Http, sendJson, VendorError, type VendorFile } from './http';

export interface TrelloAuth {
  /** The API base, `https://api.trello.com/1` (config). */
  base: string;
  key: string;
  token: string;
}

export interface Named {
  id: string;
  name: string;
}

/** The address of `path` with the credentials and `params` as query parameters. */
export function trelloUrl(auth: TrelloAuth, path: string, params: Record<string, string> = {}): string {
  const url = new URL(`${auth.base.replace(/\/+$/, '')}${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  url.searchParams.set('key', auth.key);
  url.searchParams.set('token', auth.token);
  return url.toString();
}

const accept = { accept: 'application/json' };
const id = (v: string) => encodeURIComponent(v);
const unexpected = (what: string) =>
  new VendorError('trello', false, `Trello answered an unexpected ${what}`);

const namedList = z.array(z.looseObject({ id: z.string(), name: z.string().optional() }));
const named = (items: z.infer<typeof namedList>): Named[] =>
  items.map((i) => ({ id: i.id, name: (i.name ?? i.id).slice(0, 200) }));

/** The open boards of the token's member (`GET /members/me/boards?filter=open`). */
export async function listBoards(http: Http, auth: TrelloAuth): Promise<Named[]> {
  const url = trelloUrl(auth, '/members/me/boards', { filter: 'open', fields: 'id,name' });
  const parsed = namedList.safeParse(await sendJson('trello', http, url, { headers: accept }, 'boards'));
  if (!parsed.success) throw unexpected('board list');
  return named(parsed.data).slice(0, 500);
}

/** The open lists of a board, in their order on it (`GET /boards/{id}/lists?filter=open`). */
export async function listLists(http: Http, auth: TrelloAuth, board: string): Promise<Named[]> {
  const url = trelloUrl(auth, `/boards/${id(board)}/lists`, { filter: 'open', fields: 'id,name' });
  const parsed = namedList.safeParse(await sendJson('trello', http, url, { headers: accept }, 'board'));
  if (!parsed.success) throw unexpected('list of lists');
  return named(parsed.data).slice(0, 500);
}

const cardSchema = z.looseObject({
  id: z.string(),
  idList: z.string().optional(),
  closed: z.boolean().optional(),
  shortUrl: z.string().optional(),
  url: z.string().optional(),
});
export type TrelloCard = z.infer<typeof cardSchema>;

/** Trello's limits: a card's name 16,384 characters, its description 16,384 (the API refuses more). */
export const TRELLO_TEXT_MAX = 16_384;

/** Creates a card at the bottom of `list`: `POST /cards?idList&name&desc&pos=bottom`. */
export async function createCard(
  http: Http,
  auth: TrelloAuth,
  card: { list: string; name: string; desc: string },
): Promise<{ id: string; url?: string }> {
  const url = trelloUrl(auth, '/cards', {
    idList: card.list,
    name: card.name.slice(0, TRELLO_TEXT_MAX),
    desc: card.desc.slice(0, TRELLO_TEXT_MAX),
    pos: 'bottom',
  });
  const parsed = cardSchema.safeParse(
    await sendJson('trello', http, url, { method: 'POST', headers: accept }, 'list'),
  );
  if (!parsed.success) throw unexpected('card');
  const web = parsed.data.shortUrl ?? parsed.data.url;
  return { id: parsed.data.id, ...(web ? { url: web } : {}) };
}

/** Attaches a file to a card: `POST /cards/{id}/attachments`, multipart `file`, `name`, `mimeType`. */
export async function attachFile(
  http: Http,
  auth: TrelloAuth,
  card: string,
  file: VendorFile,
): Promise<void> {
  const form = new FormData();
  form.set('name', file.name.slice(0, 256));
  form.set('mimeType', file.type);
  form.set('file', blobOf(file), file.name);
  await sendJson(
    'trello',
    http,
    trelloUrl(auth, `/cards/${id(card)}/attachments`),
    { method: 'POST', headers: accept, body: form },
    'card',
  );
}

/** A card's list and whether it is archived (`GET /cards/{id}?fields=idList,closed,shortUrl`). */
export async function getCard(http: Http, auth: TrelloAuth, card: string): Promise<TrelloCard> {
  const url = trelloUrl(auth, `/cards/${id(card)}`, { fields: 'idList,closed,shortUrl' });
  const parsed = cardSchema.safeParse(await sendJson('trello', http, url, { headers: accept }, 'card'));
  if (!parsed.success) throw unexpected('card');
  return parsed.data;
}

/** Moves a card to a list and restores it from the archive: `PUT /cards/{id}?idList&closed=false`. */
export async function moveCard(http: Http, auth: TrelloAuth, card: string, list: string): Promise<void> {
  await sendJson(
    'trello',
    http,
    trelloUrl(auth, `/cards/${id(card)}`, { idList: list, closed: 'false' }),
    { method: 'PUT', headers: accept },
    'card',
  );
}

const actionSchema = z.looseObject({ id: z.string() });

/** Comments on a card (`POST /cards/{id}/actions/comments?text`); answers the comment action's id. */
export async function commentCard(http: Http, auth: TrelloAuth, card: string, text: string): Promise<string> {
  const parsed = actionSchema.safeParse(
    await sendJson(
      'trello',
      http,
      trelloUrl(auth, `/cards/${id(card)}/actions/comments`, { text: text.slice(0, TRELLO_TEXT_MAX) }),
      { method: 'POST', headers: accept },
      'card',
    ),
  );
  if (!parsed.success) throw unexpected('comment');
  return parsed.data.id;
}

const webhookSchema = z.looseObject({ id: z.string() });

/**
 * Registers a webhook on the board (`POST /webhooks/?callbackURL&idModel&description&active=true`):
 * Trello first sends `HEAD callbackURL` and creates nothing unless it answers 200.
 */
export async function createWebhook(
  http: Http,
  auth: TrelloAuth,
  hook: { callbackURL: string; idModel: string },
): Promise<string> {
  const parsed = webhookSchema.safeParse(
    await sendJson(
      'trello',
      http,
      trelloUrl(auth, '/webhooks/', {
        callbackURL: hook.callbackURL,
        idModel: hook.idModel,
        description: 'Snag two-way sync',
        active: 'true',
      }),
      { method: 'POST', headers: accept },
      'board',
    ),
  );
  if (!parsed.success) throw unexpected('webhook');
  return parsed.data.id;
}

/** Deletes a webhook (`DELETE /webhooks/{id}`, 200): the one a removed integration leaves behind. */
export async function deleteWebhook(http: Http, auth: TrelloAuth, webhookId: string): Promise<void> {
  await sendJson(
    'trello',
    http,
    trelloUrl(auth, `/webhooks/${id(webhookId)}`),
    { method: 'DELETE', headers: accept },
    'webhook',
  );
}

const attachmentsSchema = z.array(z.looseObject({ id: z.string(), name: z.string().optional() }));

/** The names of a card's attachments (`GET /cards/{id}/attachments?fields=name`): a retry adds the missing. */
export async function attachmentNames(http: Http, auth: TrelloAuth, card: string): Promise<string[]> {
  const url = trelloUrl(auth, `/cards/${id(card)}/attachments`, { fields: 'name' });
  const parsed = attachmentsSchema.safeParse(
    await sendJson('trello', http, url, { headers: accept }, 'card'),
  );
  if (!parsed.success) throw unexpected('attachment list');
  return parsed.data.map((a) => a.name ?? '');
}

/** Archives a card (`PUT /cards/{id}?closed=true`): resolving when no list means done. */
export async function archiveCard(http: Http, auth: TrelloAuth, card: string): Promise<void> {
  await sendJson(
    'trello',
    http,
    trelloUrl(auth, `/cards/${id(card)}`, { closed: 'true' }),
    { method: 'PUT', headers: accept },
    'card',
  );
}
