/**
 * The reporter's status page and its calls (issue 24; docs/reporter.md): `GET /r/{token}` (served as
 * `GET /api/reporter/{token}/page`), `GET /api/reporter/{token}` (the status as JSON), `POST …/reply`, and
 * the mails' unsubscribe link `GET|POST …/unsubscribe`. Public: the token is the only credential. Every
 * call counts in the caller's per-source window first; a token that opens nothing is the same 404 whatever
 * the reason (unknown, another project's switched off, updates off), after the same two reads.
 */
import { reporterRateLimits, reporterTokenParam } from '#contracts/reporter';
import { AppError } from '#runtime/errors';
import { type InputOf, type OpName, type RawReply, resourceHandler } from '#runtime/http';
import { rateLimit } from '#runtime/rate-limit';
import { sourceOf } from '#runtime/source';
import { reporterApi } from '../issues/manifest';
import { unsubscribeReporter } from '../issues/reporter';
import {
  langOfHeader,
  notFoundPage,
  type PageLook,
  type RenderedPage,
  statusPage,
  unsubscribeAskPage,
  unsubscribedPage,
} from '../issues/reporter-page';
import { type OpenedIssue, openByToken, replyAsReporter, reporterStatus } from '../issues/reporter-status';

type In<Op extends OpName<typeof reporterApi>> = InputOf<typeof reporterApi, Op>;

/** No cache anywhere (the page changes and holds a credential), no index, no token in a Referer. */
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

const htmlReply = (statusCode: number, page: RenderedPage): RawReply => ({
  raw: {
    statusCode,
    headers: { ...pageHeaders, 'content-security-policy': page.csp },
    body: page.html,
  },
});

const countSource = (event: In<'status'>['event']) =>
  rateLimit({ ...reporterRateLimits.readPerSource, key: sourceOf(event) });

const lookOf = (opened: OpenedIssue): PageLook => ({
  // The language the report was filed in (the widget may follow the visitor's browser), else the project's.
  lang: opened.reporter.lang ?? opened.project.data.widgetLanguage,
  projectName: opened.project.name,
  color: opened.project.data.widgetColor,
});

/** The issue behind an HTML route's token, or null (a malformed token is looked up nowhere). */
async function openForPage(token: string): Promise<OpenedIssue | null> {
  if (!reporterTokenParam.safeParse(token).success) return null;
  try {
    return await openByToken(token);
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}

const notFound = (event: In<'page'>['event']) =>
  htmlReply(404, notFoundPage(langOfHeader(event.headers['accept-language'])));

const jsonHeaders = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex' };

export const operations = {
  async page({ params, event }: In<'page'>): Promise<RawReply> {
    await countSource(event);
    const opened = await openForPage(params.token);
    if (!opened) return notFound(event);
    return htmlReply(200, statusPage(lookOf(opened), await reporterStatus(opened), params.token));
  },
  async status({ params, event, responseHeaders }: In<'status'>) {
    Object.assign(responseHeaders, jsonHeaders);
    await countSource(event);
    return { msg: await reporterStatus(await openByToken(params.token)) };
  },
  async reply({ params, body, event, responseHeaders, log, correlationId }: In<'reply'>) {
    Object.assign(responseHeaders, jsonHeaders);
    await countSource(event);
    const opened = await openByToken(params.token);
    return { msg: { comment: await replyAsReporter(opened, body.body, { log, correlationId }) } };
  },
  async unsubscribeAsk({ params, event }: In<'unsubscribeAsk'>): Promise<RawReply> {
    await countSource(event);
    const opened = await openForPage(params.token);
    if (!opened) return notFound(event);
    return htmlReply(200, unsubscribeAskPage(lookOf(opened), opened.number));
  },
  async unsubscribe({ params, event }: In<'unsubscribe'>): Promise<RawReply> {
    await countSource(event);
    const opened = await openForPage(params.token);
    if (!opened) return notFound(event);
    await unsubscribeReporter(opened.projectId, opened.number);
    return htmlReply(200, unsubscribedPage(lookOf(opened), opened.number));
  },
};

export const handler = resourceHandler(reporterApi, operations);
