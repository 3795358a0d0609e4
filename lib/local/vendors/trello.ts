/**
 * Trello's local fake (../shared/api-specs/trello/trello-openapi.EXCERPTS.json and the README's "Trello"
 * and "Trello webhooks" facts), under `/1` as Trello's API: every call needs `key` (the fake app's API
 * key) and `token` as query parameters (a token containing "invalid", or a revoked one, is 401 "invalid
 * token", as Trello answers in plain text). Two boards with three lists each; cards with their list,
 * archive flag, attachments (multipart `file`) and comments; write parameters are read from the query
 * string, as the spec declares them.
 *
 * Webhooks: `POST /1/webhooks/` first sends `HEAD callbackURL` and creates nothing unless it answers 200;
 * then every change on the board (the API's included) posts `{action, model}` with `X-Trello-Webhook`,
 * the base64 HMAC-SHA1 of the body + the callback URL keyed by the app's secret. `actAsHuman` (or
 * `POST /_control/cards/:id/{move|archive|comment}`) changes a card as "Jane Doe" would. Its page `/`
 * is the app's key, secret and a token, as Trello's Power-Up admin page and its authorize page show them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { escapeHtml as esc } from '#runtime/mail';
import {
  backgroundWork,
  type Fake,
  type FakeReply,
  type FakeRequest,
  itemPage,
  postHook,
  startFake,
} from './fake';
import { linesOutsideFences } from './markdown';

export const trelloFakeApp = { key: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', secret: 'fake-trello-app-secret' };
export const trelloApiMember = { id: '5f0000000000000000000007', fullName: 'Snag Bot', username: 'snagbot' };
export const trelloHuman = { id: '5f0000000000000000000042', fullName: 'Jane Doe', username: 'janedoe' };

const hex24 = (n: number, prefix = '6') => `${prefix}${n.toString(16).padStart(23, '0')}`;
export const trelloBoards = [
  { id: hex24(1, 'b'), name: 'Website', lists: ['To do', 'Doing', 'Done'] },
  { id: hex24(2, 'b'), name: 'Shop', lists: ['Inbox', 'Fixing', 'Shipped'] },
].map((b, bi) => ({
  ...b,
  lists: b.lists.map((name, li) => ({ id: hex24(bi * 10 + li + 1, 'c'), name })),
}));
const listById = (id: string) =>
  trelloBoards.flatMap((b) => b.lists.map((l) => ({ ...l, board: b }))).find((l) => l.id === id);

export interface TrelloCard {
  id: string;
  shortLink: string;
  idList: string;
  idBoard: string;
  name: string;
  desc: string;
  closed: boolean;
  /** What Trello would act on: mentions and links outside code in the name and description. */
  mentions: string[];
  links: string[];
  attachments: { id: string; name: string; size: number; mimeType: string }[];
  comments: { id: string; text: string; member: string }[];
}

export interface TrelloWebhook {
  id: string;
  callbackURL: string;
  idModel: string;
}

export interface TrelloDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

export type TrelloHumanAction =
  | { kind: 'move'; list: string }
  | { kind: 'archive' }
  | { kind: 'comment'; text: string };

/**
 * What Trello acts on in a card's text: mentions (`@name`) and bare addresses (`https://…`, `www.…`)
 * everywhere; in Markdown (the description, comments) also link targets (`[x](y)`), and nothing of it
 * inside code. A card's name is plain text: no Markdown links there.
 */
export function trelloActions(text: string, markdown = true): { mentions: string[]; links: string[] } {
  const mentions: string[] = [];
  const links: string[] = [];
  for (const line of markdown ? linesOutsideFences(text) : text.split('\n')) {
    const prose = markdown ? line.replace(/(`+)[\s\S]*?\1/g, '') : line;
    for (const m of prose.matchAll(/(?:^|[^\w])@([a-z0-9_]+)/gi)) mentions.push(`@${m[1]}`);
    if (markdown) for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) links.push(m[1] ?? '');
    for (const m of prose.matchAll(/\b(?:https?:\/\/|www\.)[^\s)>]*/gi)) links.push(m[0]);
  }
  return { mentions, links };
}

export interface TrelloFake extends Fake {
  apiUrl: string;
  cards: TrelloCard[];
  webhooks: TrelloWebhook[];
  deliveries: TrelloDelivery[];
  /** Trello's HEAD checks of callback URLs before creating a webhook, with the status answered. */
  headChecks: { url: string; status: number }[];
  actAsHuman(cardId: string, action: TrelloHumanAction): Promise<TrelloDelivery[]>;
  resend(delivery: TrelloDelivery): Promise<number>;
  settled(): Promise<void>;
  revoke(token: string): void;
}

const text = (status: number, body: string): FakeReply => ({ status, text: body });

export async function startTrelloFake(port = 0): Promise<TrelloFake> {
  const cards: TrelloCard[] = [];
  const webhooks: TrelloWebhook[] = [];
  const deliveries: TrelloDelivery[] = [];
  const headChecks: { url: string; status: number }[] = [];
  const revoked = new Set<string>();
  const background = backgroundWork();
  let base = '';
  let ids = 0;
  const newId = () => hex24(++ids, 'a');

  async function send(d: TrelloDelivery): Promise<TrelloDelivery> {
    const out = { ...d, status: await postHook(d.url, d.headers, d.body) };
    deliveries.push(out);
    return out;
  }
  const cardJson = (c: TrelloCard) => ({
    id: c.id,
    name: c.name,
    desc: c.desc,
    idList: c.idList,
    idBoard: c.idBoard,
    closed: c.closed,
    shortLink: c.shortLink,
    shortUrl: `${base}/c/${c.shortLink}`,
    url: `${base}/c/${c.shortLink}`,
  });
  /** Posts an action on the card's board to every webhook on that board, as Trello does after answering. */
  function fire(card: TrelloCard, member: typeof trelloHuman, type: string, data: Record<string, unknown>) {
    const board = trelloBoards.find((b) => b.id === card.idBoard);
    const action = {
      id: newId(),
      idMemberCreator: member.id,
      type,
      date: new Date().toISOString(),
      data: {
        card: { id: card.id, name: card.name, idShort: 1, shortLink: card.shortLink, closed: card.closed },
        board: { id: card.idBoard, name: board?.name ?? '', shortLink: 'brd' },
        ...data,
      },
      memberCreator: { id: member.id, fullName: member.fullName, username: member.username },
    };
    const wanted = webhooks.filter((w) => w.idModel === card.idBoard);
    const sent = Promise.all(
      wanted.map((w) => {
        const body = JSON.stringify({ action, model: { id: card.idBoard, name: board?.name ?? '' } });
        const signature = createHmac('sha1', trelloFakeApp.secret)
          .update(body + w.callbackURL, 'utf8')
          .digest('base64');
        return send({
          url: w.callbackURL,
          headers: { 'content-type': 'application/json', 'x-trello-webhook': signature },
          body,
          status: 0,
        });
      }),
    );
    return { actionId: action.id, sent: background.track(sent) };
  }
  function change(card: TrelloCard, member: typeof trelloHuman, action: TrelloHumanAction) {
    if (action.kind === 'comment') {
      const fired = fire(card, member, 'commentCard', { text: action.text });
      card.comments.push({ id: fired.actionId, text: action.text, member: member.username });
      return fired;
    }
    const old: Record<string, unknown> = {};
    const extra: Record<string, unknown> = {};
    if (action.kind === 'archive') {
      old.closed = card.closed;
      card.closed = true;
    } else {
      const to = listById(action.list);
      old.idList = card.idList;
      extra.listBefore = { id: card.idList, name: listById(card.idList)?.name ?? '' };
      extra.listAfter = { id: action.list, name: to?.name ?? '' };
      card.idList = action.list;
    }
    return fire(card, member, 'updateCard', { old, ...extra });
  }

  const route = async (req: FakeRequest): Promise<FakeReply> => {
    if (req.method === 'GET' && req.path === '/') {
      return {
        html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trello (local fake): API key and token</title></head>
<body><main><h1>Trello (local fake)</h1><p>What Trello's Power-Up admin page and its authorize page would show. Enter these in Snag.</p>
<dl><dt>API key</dt><dd><code id="key">${esc(trelloFakeApp.key)}</code></dd>
<dt>Secret</dt><dd><code id="secret">${esc(trelloFakeApp.secret)}</code></dd>
<dt>Token</dt><dd><code id="token">${esc(`fake-trello-token-${randomBytes(8).toString('hex')}`)}</code></dd></dl></main></body></html>`,
      };
    }
    const control = /^\/_control\/cards\/([0-9a-f]{24})\/(move|archive|comment)$/.exec(req.path);
    if (control && req.method === 'POST') {
      const card = cards.find((c) => c.id === control[1]);
      if (!card) return text(404, 'The requested resource was not found.');
      const body = (req.body ?? {}) as Record<string, string>;
      const kind = control[2];
      void change(
        card,
        trelloHuman,
        kind === 'comment'
          ? { kind, text: body.text ?? 'A comment on Trello' }
          : kind === 'move'
            ? { kind, list: body.list ?? '' }
            : { kind: 'archive' },
      ).sent;
      return { status: 202, json: { done: kind } };
    }
    const page = /^\/c\/([A-Za-z0-9]+)$/.exec(req.path);
    if (page && req.method === 'GET') {
      const card = cards.find((c) => c.shortLink === page[1]);
      if (!card) return text(404, 'Card not found');
      return itemPage({
        vendor: 'Trello',
        place: trelloBoards.find((b) => b.id === card.idBoard)?.name ?? '',
        title: card.name,
        facts: [`List: ${listById(card.idList)?.name ?? '?'}`, card.closed ? 'Archived' : 'Open'],
        body: card.desc,
        comments: card.comments.map((c) => ({ author: c.member, body: c.text })),
      });
    }
    if (!req.path.startsWith('/1/')) return text(404, 'Cannot find that path');
    const q = req.query;
    // APIKey + APIToken security: both query parameters, the key the app's.
    if (q.key !== trelloFakeApp.key) return text(401, 'invalid key');
    if (!q.token || q.token.includes('invalid') || revoked.has(q.token)) return text(401, 'invalid token');
    const path = req.path.slice(2);
    if (req.method === 'GET' && path === '/members/me/boards')
      return { json: trelloBoards.map((b) => ({ id: b.id, name: b.name, closed: false })) };
    const lists = /^\/boards\/([^/]+)\/lists$/.exec(path);
    if (lists && req.method === 'GET') {
      const board = trelloBoards.find((b) => b.id === lists[1]);
      if (!board) return text(404, 'The requested resource was not found.');
      return { json: board.lists.map((l, i) => ({ id: l.id, name: l.name, idBoard: board.id, pos: i + 1 })) };
    }
    if (req.method === 'POST' && path === '/cards') {
      const list = listById(q.idList ?? '');
      if (!list) return text(400, 'invalid value for idList');
      const name = q.name ?? '';
      const desc = q.desc ?? '';
      if (name.length > 16_384 || desc.length > 16_384) return text(400, 'invalid value for desc');
      const inName = trelloActions(name, false);
      const acted = trelloActions(desc);
      const card: TrelloCard = {
        id: newId(),
        shortLink: randomBytes(4).toString('hex'),
        idList: list.id,
        idBoard: list.board.id,
        name,
        desc,
        closed: false,
        mentions: [...inName.mentions, ...acted.mentions],
        links: [...inName.links, ...acted.links],
        attachments: [],
        comments: [],
      };
      cards.push(card);
      return { json: cardJson(card) };
    }
    if (req.method === 'POST' && path === '/webhooks/') {
      const callbackURL = q.callbackURL ?? '';
      if (!/^https?:\/\//.test(callbackURL)) return text(400, 'invalid value for callbackURL');
      if (!trelloBoards.some((b) => b.id === q.idModel)) return text(400, 'invalid value for idModel');
      // Trello checks the callback first and creates nothing unless it answers 200.
      const check = await fetch(callbackURL, { method: 'HEAD' }).then(
        (r) => r.status,
        () => 0,
      );
      headChecks.push({ url: callbackURL, status: check });
      if (check !== 200)
        return text(400, `URL (${callbackURL}) did not return 200 status code, got ${check}`);
      const hook = { id: newId(), callbackURL, idModel: q.idModel ?? '' };
      webhooks.push(hook);
      return { json: { ...hook, description: q.description ?? '', active: q.active !== 'false' } };
    }
    // `DELETE /webhooks/{id}` answers 200 (the spec's delete-webhooks-id); the webhook stops posting.
    const hookPath = req.method === 'DELETE' ? /^\/webhooks\/([^/]+)$/.exec(path) : null;
    if (hookPath) {
      const at = webhooks.findIndex((w) => w.id === hookPath[1]);
      if (at < 0) return text(404, 'The requested resource was not found.');
      webhooks.splice(at, 1);
      return { json: { _value: null } };
    }
    const cardPath = /^\/cards\/([^/]+)(\/attachments|\/actions\/comments)?$/.exec(path);
    const card = cardPath && cards.find((c) => c.id === cardPath[1]);
    if (!cardPath || !card) return text(404, 'The requested resource was not found.');
    if (!cardPath[2] && req.method === 'GET') return { json: cardJson(card) };
    if (!cardPath[2] && req.method === 'PUT') {
      if (q.idList !== undefined && !listById(q.idList)) return text(400, 'invalid value for idList');
      if (q.closed !== undefined && q.closed !== 'true' && q.closed !== 'false')
        return text(400, 'invalid value for closed');
      if (q.idList !== undefined && q.idList !== card.idList)
        void change(card, trelloApiMember, { kind: 'move', list: q.idList }).sent;
      if (q.closed === 'true' && !card.closed) void change(card, trelloApiMember, { kind: 'archive' }).sent;
      if (q.closed === 'false' && card.closed) {
        card.closed = false;
        void fire(card, trelloApiMember, 'updateCard', { old: { closed: true } }).sent;
      }
      return { json: cardJson(card) };
    }
    if (cardPath[2] === '/attachments' && req.method === 'GET')
      return { json: card.attachments.map((a) => ({ id: a.id, name: a.name })) };
    if (cardPath[2] === '/attachments' && req.method === 'POST') {
      const file = req.files.find((f) => f.field === 'file');
      if (!file) return text(400, 'invalid value for file');
      const fields = (req.body ?? {}) as Record<string, string>;
      const attachment = {
        id: newId(),
        name: fields.name ?? file.name,
        size: file.size,
        mimeType: fields.mimeType ?? file.type,
      };
      card.attachments.push(attachment);
      return { json: { ...attachment, bytes: file.size, isUpload: true } };
    }
    if (cardPath[2] === '/actions/comments' && req.method === 'POST') {
      if (!q.text) return text(400, 'invalid value for text');
      const fired = change(card, trelloApiMember, { kind: 'comment', text: q.text });
      void fired.sent;
      return { json: { id: fired.actionId, type: 'commentCard', data: { text: q.text } } };
    }
    return text(404, 'Cannot find that path');
  };

  const fake = await startFake(route, 'Trello', port);
  base = fake.url;
  return {
    ...fake,
    apiUrl: `${fake.url}/1`,
    cards,
    webhooks,
    deliveries,
    headChecks,
    actAsHuman: (cardId, action) => {
      const card = cards.find((c) => c.id === cardId);
      if (!card) throw new Error(`no Trello card ${cardId}`);
      return change(card, trelloHuman, action).sent;
    },
    resend: async (d) => (await send({ ...d, status: 0 })).status,
    settled: background.settled,
    revoke: (token) => revoked.add(token),
    reset: () => {
      fake.reset();
      cards.length = 0;
      webhooks.length = 0;
      deliveries.length = 0;
      headChecks.length = 0;
      revoked.clear();
    },
  };
}
