/**
 * The HTTP layer every resource function shares: route lookup, origin check, body size, JSON parsing,
 * zod validation of body, query and path parameters, session, correlation id, and the mapping of every
 * outcome to the envelope of DESIGN.md section 2. Handlers stay thin: `operations` receive parsed input
 * and return `{ msg }` (or throw an AppError). A handler passes its own declaration from its domain's
 * manifest (`resourceHandler(issuesApi, operations)`), so the pipeline needs no route table of its own,
 * and the declaration's schemas type-check the operations (docs/decisions.md "A handler passes its own
 * declaration").
 */

import { randomUUID, timingSafeEqual } from 'node:crypto';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod';
import { type RequestAccess, requestAccess } from '#contracts/access';
import { correlationIdSchema } from '#contracts/correlation';
import {
  type ErrorCode,
  type ErrorDetails,
  type ErrorEnvelope,
  errorMessage,
  errorStatus,
  type Lang,
  withRetryAt,
} from '#contracts/errors';
import { limits } from '#contracts/limits';
import type { ApiDecl } from '#contracts/manifest';
import { type RouteDecl, type RouteDef, routeKey } from '#contracts/routes';
import { API_RATE_LIMIT, type TokenCaller, type TokenScope } from '#contracts/token-caller';
import { describeExpected, expectedOf, fieldErrors, firstErrorCode } from '#contracts/validation';
import { EDGE_SECRET_HEADER, getConfig, isLocal } from './config';
import { AppError, isStoreUnreachable } from './errors';
import { createLogger, type Logger } from './log';
import { rateLimitStand } from './rate-limit';
import { resolveSession, type Session } from './session';
import { nowMs } from './time';

export interface RequestInput<B = unknown, Q = unknown, P = unknown> {
  body: B;
  query: Q;
  /** The path parameters as the route's `params` schema produced them. */
  params: P;
  /** The signed-in client on `session: true` routes; always null on public routes. */
  session: Session | null;
  /** The API token a `token` route was called with, checked (issue 25); null on every other route. */
  token: TokenCaller | null;
  /**
   * What the route declares it asks of the access policy (`RouteDecl.access`), its `queryActions` resolved
   * against this query: the operation hands its action to the policy, so the declaration is what is
   * enforced (docs/data-model.md 4.12, decision T7). `account` on public routes.
   */
  access: RequestAccess;
  lang: Lang;
  log: Logger;
  requestId: string;
  /**
   * The id that ties this request to the messages it sends and to every log line about them downstream:
   * the API request id (a fresh UUID in the rare case it has a shape the message schemas refuse).
   */
  correlationId: string;
  route: RouteDef;
  event: APIGatewayProxyEventV2;
  /** What the resource's admission returned (the project, for the widget's intake); undefined without one. */
  admitted: unknown;
  /** Headers every answer of this request carries, errors included (CORS of the intake routes). */
  responseHeaders: Record<string, string>;
}

/** A signed-in request: what operations of `session: true` routes receive. */
export type AuthedInput<B = unknown, Q = unknown, P = unknown> = RequestInput<B, Q, P> & { session: Session };

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

/**
 * Bytes answered as they are (a stored recording): base64 in the result, which API Gateway (and the local
 * gateway, lib/local/api-result.ts) decodes on the way out, so the client receives the bytes themselves.
 */
export function binaryReply(bytes: Uint8Array, headers: Record<string, string>): RawReply {
  return {
    raw: {
      statusCode: 200,
      headers: { 'x-content-type-options': 'nosniff', ...headers },
      body: Buffer.from(bytes).toString('base64'),
      isBase64Encoded: true,
    },
  };
}

/** What an operation may answer. */
export type OperationResult = Promise<Reply | RawReply>;

/*
 * The type check of a handler against its declaration, in the direction contracts → handler: for each
 * route, the input the pipeline builds from the route's schemas (and the session, and the admission's
 * value) must be assignable to what its operation declares it reads. Function parameters are compared
 * contravariantly (strictFunctionTypes; the targets below are function types, not methods), so an
 * operation that reads a field the schema does not produce, or reads it with another type, fails tsc.
 */
type SchemaOut<S, Otherwise> = S extends z.ZodType ? z.output<S> : Otherwise;

/** The input the pipeline hands the operation of one route (a union of routes gives a union of inputs). */
export type RouteInput<R extends RouteDecl, Admitted = undefined> = R extends unknown
  ? RequestInput<
      SchemaOut<R['body'], undefined>,
      SchemaOut<R['query'], Record<string, string | undefined>>,
      SchemaOut<R['params'], Record<string, never>>
    > &
      (R extends { session: true } ? { session: Session } : unknown) &
      (R extends { token: TokenScope } ? { token: TokenCaller } : unknown) & { admitted: Admitted }
  : never;

type RouteOf<D extends ApiDecl> = D['routes'][number];
/** The operations a declaration names. */
export type OpName<D extends ApiDecl> = RouteOf<D>['op'];

/** The input of an operation of a declaration, for handlers that take their input types from it. */
export type InputOf<D extends ApiDecl, Op extends OpName<D>, Admitted = undefined> = RouteInput<
  Extract<RouteOf<D>, { op: Op }>,
  Admitted
>;

/** What a declaration asks of its handler's `operations`: one function per `op`, reading what its routes produce. */
export type OperationsFor<D extends ApiDecl, Admitted = undefined> = {
  [Op in OpName<D>]: (input: InputOf<D, Op, Admitted>) => OperationResult;
};

/** Operations the declaration has no route for are refused too (never reachable, and never in the dashboard). */
type NoExtraOperations<D extends ApiDecl, Ops> = { [K in Exclude<keyof Ops, OpName<D>>]: never };

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

/** A block's end as the API words it: the time of day in UTC (the dashboard shows `retryAt` in the reader's). */
const utcTime = (iso: string) => `${iso.slice(11, 16)} UTC`;

export function errorResponse(
  code: ErrorCode,
  lang: Lang = 'en',
  route?: RouteDef,
  fields?: Record<string, string>,
  details: ErrorDetails = {},
): APIGatewayProxyStructuredResultV2 {
  let message = errorMessage(code, lang, route?.context);
  if (details.retryAt) message = withRetryAt(message, lang, utcTime(details.retryAt));
  // The generic "Invalid parameters" names the fields and what they take; a screen's own wording
  // (SPEC's "Registration failed") stays as it is, `expected` beside it.
  if (code === 'INVALID_PARAMETERS' && details.expected && message === errorMessage(code, lang)) {
    message = `${message}: ${describeExpected(details.expected)}`;
  }
  if (code === 'INSUFFICIENT_SCOPE' && details.scope) message = `${message}: ${details.scope}`;
  const body: ErrorEnvelope = {
    status: 'error',
    code,
    msg: message,
    ...(fields ? { fields } : {}),
    ...details,
  };
  const retrySeconds = details.retryAt
    ? Math.ceil((Date.parse(details.retryAt) - nowMs()) / 1000)
    : // Not ready is for a moment (the store restarting): the client may try again after it.
      code === 'NOT_READY'
      ? notReadyRetrySeconds
      : code === 'BUSY'
        ? busyRetrySeconds
        : 0;
  return jsonResponse(
    errorStatus(code),
    body,
    retrySeconds > 0 ? { headers: { 'retry-after': String(retrySeconds) } } : undefined,
  );
}

/** What a NOT_READY answer asks the client to wait (`Retry-After`): DynamoDB Local restarts within it. */
export const notReadyRetrySeconds = 5;
/** What a BUSY answer asks the client to wait: a burst of changes to one item is over within it. */
export const busyRetrySeconds = 1;

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
  /** The checked API token of a `token` route. */
  token?: TokenCaller;
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
 * It sees the raw path parameters (the route's params schema runs later, just before the operation).
 */
export type Admission<A = unknown> = (request: {
  event: APIGatewayProxyEventV2;
  route: RouteDef;
  params: Record<string, string>;
  headers: Record<string, string>;
}) => Promise<A>;

export interface HandlerOptions<A = unknown> {
  admit?: Admission<A>;
  /**
   * How a resource with `token` routes finds the live token a bearer value names (null: unknown, revoked,
   * expired): the domain's, handed in by the entry point, since the runtime knows no token items.
   */
  authenticate?: (bearer: string) => Promise<TokenCaller | null>;
}

const bearerOf = (header: string | undefined) => /^Bearer +(\S+)$/i.exec(header ?? '')?.[1];

/**
 * The token mode of the pipeline (issue 25, docs/api.md): the bearer token resolved (401 without a live
 * one), its rate limit counted (`RateLimit-*` on every later answer, errors included; 429 with
 * `Retry-After` past it), then the route's scope (403). From here on every log line of the request
 * carries the token's id, never the token: the `api call` line is the API's access log.
 */
async function authenticateToken(req: SnagRequest, route: RouteDef, options: HandlerOptions) {
  const { event, snag } = req;
  const header = event.headers.authorization;
  const bearer = bearerOf(header);
  const token = bearer && options.authenticate ? await options.authenticate(bearer) : null;
  if (!token) {
    // Without credentials the caller is told to authenticate; with a bad one, that this token is the problem.
    snag.headers['www-authenticate'] =
      header === undefined ? 'Bearer realm="snag"' : 'Bearer realm="snag", error="invalid_token"';
    throw new AppError(header === undefined ? 'UNAUTHORIZED' : 'TOKEN_INVALID');
  }
  snag.log = snag.log.child({ tokenId: token.id, teamId: token.teamId });
  snag.log.info('api call', { method: event.requestContext?.http?.method, path: event.rawPath });
  const stand = await rateLimitStand({ action: 'api', key: token.id, ...API_RATE_LIMIT });
  snag.headers['ratelimit-limit'] = String(stand.limit);
  snag.headers['ratelimit-remaining'] = String(stand.remaining);
  snag.headers['ratelimit-reset'] = String(stand.resetSeconds);
  if (!stand.allowed) {
    snag.headers['retry-after'] = String(stand.resetSeconds);
    throw new AppError('RATE_LIMITED');
  }
  if (route.token && !token.scopes.includes(route.token))
    throw new AppError('INSUFFICIENT_SCOPE', undefined, undefined, { scope: route.token });
  snag.token = token;
}

/** The declaration's own routes by route key: only these reach its function (API Gateway, local gateway). */
function routeFinder(decl: ApiDecl): RouteFinder {
  const byKey = new Map<string, RouteDef>(
    decl.routes.map((r) => [routeKey(r), { ...r, resource: decl.resource }]),
  );
  return (key) => byKey.get(key);
}

function routeOf(event: APIGatewayProxyEventV2, findRoute: RouteFinder): RouteDef {
  const route = findRoute(event.routeKey);
  if (!route) throw new AppError('NOT_FOUND');
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
const prepare = (resource: string, findRoute: RouteFinder, options: HandlerOptions): MiddlewareObj => ({
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
    req.snag.route = routeOf(event, findRoute);
    checkEdge(event);
    checkOrigin(event, req.snag.route);
    if (req.snag.route.token) await authenticateToken(req, req.snag.route, options);
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
    let details: ErrorDetails | undefined;
    if (err instanceof AppError) {
      code = err.code;
      fields = err.fields;
      details = err.details;
    } else if (err instanceof z.ZodError) {
      code = firstErrorCode(err);
      fields = fieldErrors(err);
      details = { expected: expectedOf(err, state.lang) };
    } else if (isStoreUnreachable(err)) {
      code = 'NOT_READY';
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
    const response = errorResponse(code, state.lang, state.route, fields, details);
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
 * Path parameters through the route's schema. A value it refuses names nothing: NOT_FOUND, the same 404
 * as another client's project, so a malformed id tells no more than an unknown one.
 */
function parseParams(route: RouteDef, raw: Record<string, string> | undefined): unknown {
  if (!route.params) return {};
  const parsed = route.params.safeParse(raw ?? {});
  if (!parsed.success) throw new AppError('NOT_FOUND');
  return parsed.data;
}

/** The request id, when the message schemas would carry it; otherwise a fresh one, never a failed send. */
const correlationIdOf = (requestId: string | undefined): string =>
  requestId !== undefined && correlationIdSchema.safeParse(requestId).success ? requestId : randomUUID();

/**
 * Builds a resource's Lambda handler from its declaration (its domain's manifest) and its operations,
 * keyed by the routes' `op`. The type of `operations` is checked against the declaration (above); a unit
 * test also checks at run time that every route of every resource has its operation and no more.
 */
export function resourceHandler<
  const D extends ApiDecl,
  Ops extends OperationsFor<D, NoInfer<A>>,
  A = undefined,
>(
  declaration: D,
  operations: Ops & NoExtraOperations<D, Ops>,
  options: HandlerOptions<A> = {},
): LambdaHandler {
  const resource = declaration.resource;
  const ops = operations as unknown as Record<string, (input: RequestInput) => OperationResult>;
  const core = async (event: APIGatewayProxyEventV2, context: Context) => {
    const { route, lang, log, headers, admitted, token } = (context as unknown as { snag: SnagState }).snag;
    if (!route) throw new AppError('NOT_FOUND');
    const op = ops[route.op];
    if (!op) throw new Error(`${resource} has no operation ${route.op}`);
    // Only routes that need a signed-in client pay for the session read (DESIGN.md section 7 budget);
    // public routes that care (logout, login rotation) look at the cookie themselves.
    const session = route.session ? await resolveSession(event) : null;
    if (route.session && !session) throw new AppError('UNAUTHORIZED');
    const requestId = event.requestContext?.requestId;
    const body = parseWith(route.body, route.body ? event.body : undefined);
    const query = parseWith(route.query, event.queryStringParameters ?? {});
    const input: RequestInput = {
      body,
      query,
      // Last of the three, where the handlers used to parse them: a bad body still answers 400 first.
      params: parseParams(route, event.pathParameters as Record<string, string> | undefined),
      session,
      token: token ?? null,
      access: requestAccess(route.access, query),
      lang,
      log,
      requestId: requestId ?? 'local',
      correlationId: correlationIdOf(requestId),
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
    .use(prepare(resource, routeFinder(declaration), options as HandlerOptions))
    .use(parseJsonBody())
    .use({
      // Hand the prepared state to the core without widening the Lambda signature.
      before: (request) => {
        (request.context as unknown as { snag: SnagState }).snag = (request as SnagRequest).snag;
      },
    }) as unknown as LambdaHandler;
}
