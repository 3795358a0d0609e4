/**
 * Trello's adapter for the two-way sync (issue 36; ../shared/api-specs/README.md "Trello webhooks"): a
 * webhook on the chosen board (its `idModel`) posts `{action, model}` for every change on it, signed in
 * `X-Trello-Webhook` with the app's secret over the raw body and the callback URL (verify.ts). An
 * `updateCard` whose `data.old` names `idList` (moved) or `closed` (archived, restored) is a state change,
 * re-read before Snag acts (a card in the done list or archived is resolved); a `commentCard` is a
 * comment. Trello sends no delivery id: the action's id is one (each action is one change, and a retry
 * repeats it). Only actions on the integration's board count.
 * Write-back: resolving moves the card to the done list (archives it when no list means done), reopening
 * moves it back to the list new cards go to (restoring it from the archive); comments are card comments.
 * Registration: `POST /webhooks/` with the board as `idModel`, after which Trello's HEAD check of the
 * callback URL is answered by the hooks' HEAD route.
 */
import * as z from 'zod';
import { triageLimits } from '#contracts/triage';
import { trelloAuthOf, trelloFenced, trelloLine } from '../deliverers/trello';
import * as trello from '../vendors/trello';
import { header, MalformedDelivery, type TrackerAdapter, type TrackerContext } from './adapter';
import { verifyTrelloSignature } from './verify';

const id = z.string().min(1).max(100);
const delivery = z.looseObject({
  action: z.looseObject({
    id,
    type: z.string().max(60),
    date: z.string().max(40),
    idMemberCreator: id.optional(),
    memberCreator: z
      .looseObject({ id: id.optional(), fullName: z.string().optional(), username: z.string().optional() })
      .nullish(),
    data: z.looseObject({
      card: z.looseObject({ id, shortLink: z.string().max(40).optional() }).optional(),
      board: z.looseObject({ id }).optional(),
      old: z.record(z.string(), z.unknown()).optional(),
      text: z.string().optional(),
    }),
  }),
});

const auth = ({ integration }: TrackerContext<'trello'>) => trelloAuthOf(integration.data);
const cardUrl = (shortLink: string | undefined) =>
  shortLink && /^[A-Za-z0-9]+$/.test(shortLink) ? `https://trello.com/c/${shortLink}` : undefined;

export const trelloAdapter: TrackerAdapter<'trello'> = {
  vendor: 'trello',
  verify: (raw, headers, _secret, nowMs, at) =>
    verifyTrelloSignature(
      header(headers, 'x-trello-webhook'),
      at.integration.data.secret,
      raw,
      at.url,
      nowMs,
    ),
  parse(body, _headers, integration) {
    const hook = delivery.safeParse(body);
    if (!hook.success) throw new MalformedDelivery('not a Trello webhook delivery');
    const { action } = hook.data;
    if (action.data.board?.id !== integration.data.board) return null;
    const card = action.data.card;
    if (!card) return null;
    const who = action.memberCreator;
    const author = {
      id: (who?.id ?? action.idMemberCreator ?? 'trello').slice(0, 200),
      name: (who?.fullName || who?.username || 'Trello member').slice(0, 200),
    };
    const url = cardUrl(card.shortLink);
    const common = { deliveryId: action.id, issue: card.id, author, ...(url ? { url } : {}) };
    if (action.type === 'updateCard') {
      const old = action.data.old ?? {};
      // A rename or a new description is no state change; a move or an archive (or its undoing) may be.
      if (!('idList' in old) && !('closed' in old)) return null;
      return { ...common, kind: 'state' };
    }
    if (action.type === 'commentCard') {
      if (typeof action.data.text !== 'string') throw new MalformedDelivery('a comment without its text');
      return {
        ...common,
        kind: 'comment',
        comment: { id: action.id, body: action.data.text.slice(0, triageLimits.commentMax) },
      };
    }
    return null;
  },
  async state(ctx, card) {
    const now = await trello.getCard(ctx.http, auth(ctx), card);
    const { doneList } = ctx.integration.data;
    return {
      closed: now.closed === true || (!!doneList && now.idList === doneList),
      ...(now.shortUrl ? { url: now.shortUrl } : {}),
    };
  },
  async setState(ctx, card, closed) {
    const { doneList, list } = ctx.integration.data;
    if (closed) {
      if (doneList) await trello.moveCard(ctx.http, auth(ctx), card, doneList);
      else await trello.archiveCard(ctx.http, auth(ctx), card);
      return true;
    }
    if (!list) return false;
    await trello.moveCard(ctx.http, auth(ctx), card, list);
    return true;
  },
  // The text in a fence, as the card's description (deliverers/trello.ts): a reporter's public reply may
  // hold `@board` or a link, which Trello would otherwise send or show with the client's token.
  comment: (ctx, card, c) =>
    trello.commentCard(
      ctx.http,
      auth(ctx),
      card,
      `**${trelloLine(c.author)}** wrote in Snag:\n\n${trelloFenced(c.body)}`,
    ),
  issueUrl: () => undefined,
  register: (ctx, hook) =>
    trello.createWebhook(ctx.http, auth(ctx), { callbackURL: hook.url, idModel: ctx.integration.data.board }),
  unregister: (ctx, webhookId) => trello.deleteWebhook(ctx.http, auth(ctx), webhookId),
  ready: ({ data }) => !!data.key && !!data.token && !!data.secret && !!data.board && !!data.list,
};
