/**
 * What a route is (DESIGN.md sections 3 and 9). Each domain's manifest declares its API functions' routes
 * with these types; the one route table is gathered from the manifests at the roof (functions/routes.ts),
 * never here: the ground holds the shapes, not the table.
 */
import type * as z from 'zod';
import type { RouteAccess } from './access';
import type { ErrorCode, ErrorContext } from './errors';
import type { TokenScope } from './token-caller';

/**
 * OPTIONS only for CORS preflights of public routes, answered by their own function; HEAD only where a
 * sender checks an address before it posts there (Trello's webhook creation, the inbound hooks).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD';

/** A route as its domain's manifest declares it, inside the declaration of the function that serves it. */
export interface RouteDecl {
  method: HttpMethod;
  /** Full path as the browser calls it, `{name}` for path parameters. */
  path: `/api/${string}`;
  /** Key in the resource module's `operations`. */
  op: string;
  /** Needs a signed-in client: 401 envelope without one. */
  session: boolean;
  /**
   * What a `session: true` route asks of the policy (required there: tsc through `apiFunction` and a unit
   * test over the route table refuse a session route without it). The pipeline hands it to the operation
   * as `input.access`, which passes its action to the policy (docs/data-model.md 4.12, decision T7).
   */
  access?: RouteAccess;
  /**
   * zod object of the path parameters, one key per `{name}` of the path (a unit test checks every route);
   * routes without parameters have none. A value it refuses is NOT_FOUND: a malformed id names nothing,
   * the same 404 as another client's project.
   */
  params?: z.ZodObject;
  /** zod schema of the JSON body; routes without one accept no body. */
  body?: z.ZodType;
  /** zod schema of the query string. */
  query?: z.ZodType;
  /** Selects the screen-specific messages of the error catalogue. */
  context?: ErrorContext;
  /**
   * Who may call it: `dashboard` (the default) requires the dashboard's own Origin/Referer on state-changing
   * calls; `public` is called cross-origin by the widget on customers' sites.
   */
  caller?: 'dashboard' | 'public' | 'api';
  /**
   * A public REST API route (issue 25, docs/api.md): authenticated by `Authorization: Bearer snag_pat_…`
   * (no cookies, no Origin check), and the scope the token must hold. Such a route is `session: false`,
   * `caller: 'api'`; the pipeline resolves the token, refuses a missing scope and counts its rate limit.
   */
  token?: TokenScope;
  /**
   * The schema of the answer's `msg` (the public API's routes: the OpenAPI document is built from it, and a
   * unit test refuses a `token` route without one), with a one-line `summary` for the document.
   */
  response?: z.ZodType;
  summary?: string;
  /**
   * Request headers a token route reads (issue 34: `Idempotency-Key`), a zod object keyed by the header's
   * name as documented: the OpenAPI document lists them as header parameters, and the operation parses
   * them with this same schema (the pipeline reads no header of its own beyond the bearer token).
   */
  headers?: z.ZodObject;
  /**
   * The catalogue codes a token route may refuse with beyond every route's (401, 403 scope, 404, 429):
   * the OpenAPI document lists each under its status, so a client written from it knows them all.
   */
  refuses?: readonly ErrorCode[];
  /** Served by the local stack only (developer tools); never deployed. */
  localOnly?: boolean;
}

/**
 * A row of the route table: a declared route with the resource function that serves it
 * (`functions/handlers/<resource>.ts`, exporting `operations` and `handler`).
 */
export interface RouteDef<R extends string = string> extends RouteDecl {
  resource: R;
}

export const routeKey = (r: Pick<RouteDecl, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** The `{name}` parameters of a path, in order. */
export const pathParamNames = (path: string): string[] =>
  [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
