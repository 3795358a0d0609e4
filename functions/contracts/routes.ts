/**
 * The one route table (DESIGN.md section 3), gathered from the domains' manifests (functions/manifests.ts):
 * CDK builds the HTTP API and one Lambda per resource from it, and the local gateway serves the same
 * table. Each resource's handler module is `functions/handlers/<resource>.ts` and exports `operations`
 * (plain functions, one per `op`) and `handler` (the middy-wrapped Lambda entry).
 */
import type * as z from 'zod';
import { apiFunctions, type ResourceName, resources } from '../manifests';
import type { ErrorContext } from './errors';

export { type ResourceName, resources };

/** OPTIONS only for CORS preflights of public routes, answered by their own function. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface RouteDef {
  method: HttpMethod;
  /** Full path as the browser calls it, `{name}` for path parameters. */
  path: `/api/${string}`;
  resource: ResourceName;
  /** Key in the resource module's `operations`. */
  op: string;
  /** Needs a signed-in client: 401 envelope without one. */
  session: boolean;
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
  caller?: 'dashboard' | 'public';
  /** Served by the local stack only (developer tools); never deployed. */
  localOnly?: boolean;
}

/** Every route of every domain, each with the resource function that serves it. */
export const routes: readonly RouteDef[] = Object.entries(apiFunctions).flatMap(([resource, fn]) =>
  fn.routes.map((route) => ({ ...route, resource: resource as ResourceName })),
);

export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** Routes that exist in AWS (everything but the local developer tools). */
export const deployedRoutes = (): readonly RouteDef[] => routes.filter((r: RouteDef) => !r.localOnly);

/** Routes served by one resource function. */
export const routesOf = (resource: ResourceName): readonly RouteDef[] =>
  routes.filter((r: RouteDef) => r.resource === resource);

const byKey = new Map<string, RouteDef>(routes.map((r: RouteDef) => [routeKey(r), r]));
export const findRouteByKey = (key: string): RouteDef | undefined => byKey.get(key);

/** Compiled path matchers, used by the local gateway (API Gateway does this in AWS). */
const matchers = routes.map((r: RouteDef) => {
  const names: string[] = [];
  const pattern = r.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route: r, names, re: new RegExp(`^${pattern}$`) };
});

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
}

/** Finds the route for a request; `methodMismatch` tells a 405 from a 404. */
export function matchRoute(method: string, path: string): RouteMatch | { methodMismatch: boolean } {
  let methodMismatch = false;
  for (const m of matchers) {
    const hit = m.re.exec(path);
    if (!hit) continue;
    if (m.route.method !== method) {
      methodMismatch = true;
      continue;
    }
    const params: Record<string, string> = {};
    m.names.forEach((n, i) => {
      params[n] = decodeURIComponent(hit[i + 1] ?? '');
    });
    return { route: m.route, params };
  }
  return { methodMismatch };
}
