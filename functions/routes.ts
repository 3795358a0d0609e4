/**
 * The one route table (DESIGN.md section 3), gathered at the roof from the API functions the domains'
 * manifests declare (functions/manifests.ts): CDK builds the HTTP API and one Lambda per resource from it,
 * the local gateway serves the same table, and the dashboard's endpoint table is generated from it. Each
 * resource's handler module is `functions/handlers/<resource>.ts`, exporting `operations` (plain functions,
 * one per `op`) and `handler` (its declaration and operations through the pipeline, runtime/http.ts).
 */
import { pathParamNames, type RouteDef, routeKey } from '#contracts/routes';
import { apiFunctions, type ResourceName, resources } from './manifests';

export { type ResourceName, resources };

/** Every route of every domain, each with the resource function that serves it. */
export const routes: readonly RouteDef<ResourceName>[] = Object.values(apiFunctions).flatMap((fn) =>
  fn.routes.map((route) => ({ ...route, resource: fn.resource })),
);

/** Routes that exist in AWS (everything but the local developer tools). */
export const deployedRoutes = (): readonly RouteDef<ResourceName>[] => routes.filter((r) => !r.localOnly);

/** Routes served by one resource function. */
export const routesOf = (resource: ResourceName): readonly RouteDef<ResourceName>[] =>
  routes.filter((r) => r.resource === resource);

const byKey = new Map(routes.map((r) => [routeKey(r), r]));
export const findRouteByKey = (key: string): RouteDef<ResourceName> | undefined => byKey.get(key);

/** Compiled path matchers, used by the local gateway (API Gateway does this in AWS). */
const matchers = routes.map((r) => {
  const pattern = r.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '([^/]+)');
  return { route: r, names: pathParamNames(r.path), re: new RegExp(`^${pattern}$`) };
});

export interface RouteMatch {
  route: RouteDef<ResourceName>;
  /** The raw path parameters; the function's pipeline parses them with the route's params schema. */
  params: Record<string, string>;
}

/**
 * A path parameter decoded as API Gateway does; a malformed escape (`%ZZ`, a lone `%C3`) stays as it is, and
 * the function's params schema or lookup then finds that it names nothing (404), as in AWS.
 */
function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
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
      params[n] = decodeParam(hit[i + 1] ?? '');
    });
    return { route: m.route, params };
  }
  return { methodMismatch };
}
