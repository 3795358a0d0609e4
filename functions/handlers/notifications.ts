/**
 * A member's notification mails (issue 23): `GET|PUT client/notifications` (the settings on the caller's
 * USER item) and the mails' public unsubscribe link `GET notifications/unsubscribe?token=…`.
 */

import { type InputOf, type OpName, type RawReply, resourceHandler } from '#runtime/http';
import { rateLimit } from '#runtime/rate-limit';
import { sourceOf } from '#runtime/source';
import { HOUR } from '#runtime/time';
import { notificationsApi } from '../accounts/manifest';
import { readSettings, saveSettings, turnOff, verifyUnsubscribeToken } from '../accounts/notifications';
import { invalidLinkPage, unsubscribedPage } from '../accounts/unsubscribe-page';

type In<Op extends OpName<typeof notificationsApi>> = InputOf<typeof notificationsApi, Op>;

/** Per source: enough for a person clicking links, too few to try signatures (which cannot be guessed anyway). */
export const unsubscribesPerSource = { action: 'unsubscribe-src', max: 30, windowMs: HOUR } as const;

const htmlReply = (statusCode: number, body: string): RawReply => ({
  raw: {
    statusCode,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
    body,
  },
});

export const operations = {
  /** The caller's settings (defaults until saved): session, one GetItem. */
  async get({ session }: In<'get'>) {
    return { msg: { settings: await readSettings(session.userId) } };
  },
  /** Saves all four settings (the schema refuses a missing or unknown one): session, one UpdateItem. */
  async set({ session, body, lang }: In<'set'>) {
    return { msg: { settings: await saveSettings(session.userId, body, lang) } };
  },
  /**
   * The link of a mail's footer: a genuine token turns its kind off and answers a small page; anything
   * else answers the page saying the link is not valid (404). Rate-limited per source first.
   */
  async unsubscribe({ query, lang, event }: In<'unsubscribe'>): Promise<RawReply> {
    await rateLimit({ ...unsubscribesPerSource, key: sourceOf(event) });
    const claim = await verifyUnsubscribeToken(query.token);
    if (!claim) return htmlReply(404, invalidLinkPage(lang));
    await turnOff(claim.userId, claim.kind);
    return htmlReply(200, unsubscribedPage(lang, claim.kind));
  },
};

export const handler = resourceHandler(notificationsApi, operations);
