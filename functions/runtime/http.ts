/**
 * The HTTP layer every resource function shares: route lookup, origin check, body size, JSON parsing,
 * zod validation, session, and the mapping of every outcome to the envelope of DESIGN.md section 2.
 * Handlers stay thin: `operations` receive parsed input and return `{ msg }` (or throw an AppError).
 */

import { timingSafeEqual } from 'node:crypto';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod';
import { type ErrorCode, errorMessage, errorStatus, type Lang } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { findRouteByKey, type ResourceName, type RouteDef } from '#contracts/routes';
import { fieldErrors, firstErrorCode } from '#contracts/schemas';
import { EDGE_SECRET_HEADER, getConfig, isLocal } from './config';
import { AppError } from './errors';
import { createLogger, type Logger } from './log';
import { resolveSession, type Session } from './session';

export interface RequestInput<B = unknown, Q = unknown> {
  body: B;
  query: Q;
  params: Record<string, string>;
  /** The signed-in client on `session: true` routes; always null on public routes. */
  session: Session | null;
  lang: Lang;
  log: Logger;
  requestId: string;
  route: RouteDef;
  event: APIGatewayProxyEventV2;
  /** What the resource's admission returned (the project, for the widget's intake); undefined without one. */
  admitted: unknown;
  /** Headers every answer of this request carries, errors included (CORS of the intake routes). */
  responseHeaders: Record<string, string>;
}

/** A signed-in request: what operations of `session: true` routes receive. */
export type AuthedInput<B = unknown, Q = unknown> = RequestInput<B, Q> & { session: Session };

export interface Reply {
  msg?: unknown;
  statusCode?: number;
  headers?: Record<string, string>;
  cookies?: string[];
}
/** A response that is not the JSON envelope (the widget loader's JavaScript). */
export interface RawReply {
  raw: APIGatewayProxyStructuredResultV2;
}

// biome-ignore lint/suspicious/noExplicitAny: each operation narrows its own input type.
export type Operation = (input: any) => Promise<Reply | RawReply>;
export type Operations = Record<string, Operation>;

export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

const baseHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export function jsonResponse(
  statusCode: number,
  body: unknown,
  extra?: Pick<Reply, 'headers' | 'cookies'>,
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: { ...baseHeaders, ...extra?.headers },
    body: JSON.stringify(body),
    ...(extra?.cookies?.length ? { cookies: extra.cookies } : {}),
  };
}

export function errorResponse(
  code: ErrorCode,
  lang: Lang = 'en',
  route?: RouteDef,
  fields?: Record<string, string>,
): APIGatewayProxyStructuredResultV2 {
  const body = {
    status: 'error',
    code,
    msg: errorMessage(code, lang, route?.context),
    ...(fields ? { fields } : {}),
  };
  return jsonResponse(errorStatus(code), body);
}

const langOf = (event: APIGatewayProxyEventV2): Lang =>
  event.queryStringParameters?.lng === 'de' ? 'de' : 'en';

const mutating = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** GET routes that still change state (logout), so they get the same origin check. */
const mutatingGets = new Set(['/api/client/logout']);

/** Dashboard calls that change state must come from the dashboard's own origin (DESIGN.md section 6). */
function checkOrigin(event: APIGatewayProxyEventV2, route: RouteDef) {
  if ((route.caller ?? 'dashboard') !== 'dashboard') return;
  if (!mutating.has(route.method) && !mutatingGets.has(route.path)) return;
  const { APP_ORIGIN } = getConfig();
  const origin = event.headers.origin;
  if (origin !== undefined) {
    if (origin !== APP_ORIGIN) throw new AppError('FORBIDDEN_ORIGIN');
    return;
  }
  const referer = event.headers.referer;
  if (referer === undefined || !(referer === APP_ORIGIN || referer.startsWith(`${APP_ORIGIN}/`))) {
    throw new AppError('FORBIDDEN_ORIGIN');
  }
}

interface SnagState {
  route?: RouteDef;
  lang: Lang;
  log: Logger;
  /** Added to every answer, errors included (set by the admission). */
  headers: Record<string, string>;
  admitted?: unknown;
}
type SnagRequest = middy.Request<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Error,
  Context
> & {
  snag: SnagState;
};

type RouteFinder = (key: string) => RouteDef | undefined;

/**
 * A resource's gate, run before the body is read: it may refuse (throw an AppError) and may add headers
 * that every later answer carries, errors included, so a cross-origin caller it admitted can read them.
 */
export type Admission = (request: {
  event: APIGatewayProxyEventV2;
  route: RouteDef;
  params: Record<string, string>;
  headers: Record<string, string>;
}) => Promise<unknown>;

export interface HandlerOptions {
  /** Tests pass their own table to exercise the pipeline with routes the product does not have. */
  findRoute?: RouteFinder;
  admit?: Admission;
}

function routeOf(event: APIGatewayProxyEventV2, resource: ResourceName, findRoute: RouteFinder): RouteDef {
  const route = findRoute(event.routeKey);
  // A route of another resource reaching this function is a deployment fault, not a client error.
  if (!route) throw new AppError('NOT_FOUND');
  if (route.resource !== resource) throw new Error(`route ${event.routeKey} is not served by ${resource}`);
  return route;
}

/**
 * Deployed stages answer only requests that came through CloudFront, which adds the edge secret as an
 * origin header (lib/stacks/web.ts); the API's own execute-api address is refused. Locally there is no edge.
 */
function checkEdge(event: APIGatewayProxyEventV2) {
  if (isLocal()) return;
  const expected = getConfig().EDGE_SECRET;
  const given = event.headers[EDGE_SECRET_HEADER];
  if (!expected || given === undefined) throw new AppError('FORBIDDEN_ORIGIN');
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new AppError('FORBIDDEN_ORIGIN');
}

/**
 * Route, logger and language first, so that every later failure is answered in the right words; then the
 * edge, the origin and the resource's admission, and only then the body.
 */
const prepare = (resource: ResourceName, options: HandlerOptions): MiddlewareObj => ({
  before: async (request) => {
    const req = request as SnagRequest;
    const event = req.event;
    event.headers ??= {};
    const requestId = event.requestContext?.requestId ?? req.context.awsRequestId ?? 'local';
    req.snag = {
      lang: langOf(event),
      log: createLogger({ requestId, resource, routeKey: event.routeKey }),
      headers: {},
    };
    req.snag.route = routeOf(event, resource, options.findRoute ?? findRouteByKey);
    checkEdge(event);
    checkOrigin(event, req.snag.route);
    if (options.admit) {
      req.snag.admitted = await options.admit({
        event,
        route: req.snag.route,
        params: (event.pathParameters ?? {}) as Record<string, string>,
        headers: req.snag.headers,
      });
    }
    const size = event.body ? Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : 0;
    if (size > limits.maxJsonBodyBytes) throw new AppError('PAYLOAD_TOO_LARGE');
  },
});

const jsonType = /^application\/(.+\+)?json($|;.+)/i;

/** Keys that would reach an object's prototype when a parsed body is merged or spread somewhere. */
const refusePrototypeKeys = (key: string, value: unknown) => {
  if (key === '__proto__' || key === 'constructor') throw new AppError('INVALID_JSON');
  return value;
};

/**
 * JSON bodies only for routes that declare a body schema; others ignore any body sent. Our own few lines
 * rather than @middy/http-json-body-parser: its Node 20 line answers malformed JSON with 415 and lets
 * `__proto__` through (docs/decisions.md "Node versions").
 */
const parseJsonBody = (): MiddlewareObj => ({
  before: (request) => {
    const { snag, event } = request as SnagRequest;
    if (!snag.route?.body) return;
    if (!jsonType.test(event.headers['content-type'] ?? '')) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    if (event.body === undefined) throw new AppError('INVALID_JSON');
    const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    try {
      (event as { body: unknown }).body = JSON.parse(text, refusePrototypeKeys);
    } catch {
      throw new AppError('INVALID_JSON');
    }
  },
});

/** One error middleware for every function: any outcome becomes an envelope, faults a logged 500. */
const envelopeErrors = (): MiddlewareObj => ({
  onError: (request) => {
    const req = request as SnagRequest;
    const state: SnagState = req.snag ?? { lang: 'en', log: createLogger(), headers: {} };
    const err = req.error;
    let code: ErrorCode = 'SYSTEM_ERROR';
    let fields: Record<string, string> | undefined;
    if (err instanceof AppError) {
      code = err.code;
      fields = err.fields;
    } else if (err instanceof z.ZodError) {
      code = firstErrorCode(err);
      fields = fieldErrors(err);
    } else if (isHttpError(err)) {
      code =
        err.statusCode === 415
          ? 'UNSUPPORTED_MEDIA_TYPE'
          : err.statusCode === 413
            ? 'PAYLOAD_TOO_LARGE'
            : 'INVALID_JSON';
    }
    if (code === 'SYSTEM_ERROR') state.log.error('request failed', { err });
    else state.log.info('request refused', { code });
    const response = errorResponse(code, state.lang, state.route, fields);
    response.headers = { ...response.headers, ...state.headers };
    req.response = response;
  },
});

function isHttpError(err: unknown): err is Error & { statusCode: number } {
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

function parseWith<T>(schema: z.ZodType<T> | undefined, value: unknown): T {
  return (schema ? schema.parse(value) : value) as T;
}

/**
 * Builds a resource's Lambda handler. `operations` are keyed by the route table's `op`; a test asserts
 * that every route of the resource has one.
 */
export function resourceHandler(
  resource: ResourceName,
  operations: Operations,
  options: HandlerOptions = {},
): LambdaHandler {
  const core = async (event: APIGatewayProxyEventV2, context: Context) => {
    const { route, lang, log, headers, admitted } = (context as unknown as { snag: SnagState }).snag;
    if (!route) throw new AppError('NOT_FOUND');
    const op = operations[route.op];
    if (!op) throw new Error(`${resource} has no operation ${route.op}`);
    // Only routes that need a signed-in client pay for the session read (DESIGN.md section 7 budget);
    // public routes that care (logout, login rotation) look at the cookie themselves.
    const session = route.session ? await resolveSession(event) : null;
    if (route.session && !session) throw new AppError('UNAUTHORIZED');
    const input: RequestInput = {
      body: parseWith(route.body, route.body ? event.body : undefined),
      query: parseWith(route.query, event.queryStringParameters ?? {}),
      params: (event.pathParameters ?? {}) as Record<string, string>,
      session,
      lang,
      log,
      requestId: event.requestContext?.requestId ?? 'local',
      route,
      event,
      admitted,
      responseHeaders: headers,
    };
    const reply = await op(input);
    if ('raw' in reply) return { ...reply.raw, headers: { ...headers, ...reply.raw.headers } };
    // A sliding session renewal rides on whatever the operation answers, unless it set its own cookie.
    const cookies = reply.cookies ?? session?.renewedCookies;
    return jsonResponse(
      reply.statusCode ?? 200,
      { status: 'success', msg: reply.msg ?? null },
      { headers: { ...headers, ...reply.headers }, cookies },
    );
  };

  return middy(core)
    .use(envelopeErrors())
    .use(prepare(resource, options))
    .use(parseJsonBody())
    .use({
      // Hand the prepared state to the core without widening the Lambda signature.
      before: (request) => {
        (request.context as unknown as { snag: SnagState }).snag = (request as SnagRequest).snag;
      },
    }) as unknown as LambdaHandler;
}
