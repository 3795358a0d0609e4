/**
 * The typed side of the dashboard's API client (issue 10). A call names its endpoint as
 * `<resource>.<operation>` of the domain manifests; its body, query and answer types are the declared
 * route's and the handler operation's own, read from the type-only registry at the roof
 * (functions/registry.ts), and its method and path come from the one route table, through the table
 * generated from it (endpoint-table.ts, `npm run gen:endpoints`). A renamed route, a changed body schema or a changed answer therefore breaks the dashboard's
 * typecheck (or, for a route that no longer exists, its first call), instead of drifting silently.
 */
import type * as z from 'zod';
import type { HttpMethod } from '#contracts/routes';
import type { DeclaredRoutesOf, OperationsOf, ResourceName } from '../../../functions/registry';
import { endpointTable } from './endpoint-table';

/** Every operation of every resource function, e.g. `projects.get`, `issues.list`. */
export type Endpoint = { [R in ResourceName]: `${R}.${keyof OperationsOf<R> & string}` }[ResourceName];

type OperationOf<E extends Endpoint> = E extends `${infer R}.${infer O}`
  ? R extends ResourceName
    ? O extends keyof OperationsOf<R>
      ? OperationsOf<R>[O]
      : never
    : never
  : never;

/** The route (or routes) the manifest declares for the endpoint, with their schemas' own types. */
type DeclaredRouteOf<E extends Endpoint> = E extends `${infer R}.${infer O}`
  ? R extends ResourceName
    ? DeclaredRoutesOf<R> extends readonly (infer D)[]
      ? Extract<D, { op: O }>
      : never
    : never
  : never;

/** The body to send: the input of the route's schema (fields with defaults may be left out). */
export type BodyOf<E extends Endpoint> =
  DeclaredRouteOf<E> extends { body: infer S extends z.ZodType } ? z.input<S> : never;

/** The query's names are the schema's; values go into the address as strings whatever their type. */
export type QueryOf<E extends Endpoint> =
  DeclaredRouteOf<E> extends { query: infer S extends z.ZodType }
    ? { [K in keyof z.output<S>]?: string | number | boolean }
    : never;

/** What the call resolves to: the operation's `msg`. */
export type Answer<E extends Endpoint> =
  Awaited<ReturnType<OperationOf<E>>> extends infer R ? (R extends { msg: infer M } ? M : never) : never;

/**
 * Path parameters by the names of the route's `{name}` segments, as its `params` schema names them (a
 * misspelt or missing name is a type error); values go into the address as strings.
 */
export type ParamsOf<E extends Endpoint> =
  DeclaredRouteOf<E> extends { params: infer S extends z.ZodType }
    ? { [K in keyof z.output<S>]: string | number }
    : never;

export interface CallInput<E extends Endpoint> {
  params?: ParamsOf<E>;
  query?: QueryOf<E>;
  body?: BodyOf<E>;
  /** A multipart body, for the routes whose handler parses a form itself (client/profile/business_plan). */
  form?: FormData;
}

/**
 * The generated table as a table of every endpoint: a route the table lacks is a type error here. (The
 * table itself imports nothing, so the generated file and these types form no circle.)
 */
const routeTable: Record<Endpoint, readonly [method: HttpMethod, path: string]> = endpointTable;

export function routeOf(endpoint: Endpoint): { method: HttpMethod; path: string } {
  const entry = routeTable[endpoint];
  if (!entry) throw new Error(`No route serves ${endpoint}: run npm run gen:endpoints`);
  return { method: entry[0], path: entry[1] };
}

/**
 * The address of a call below `/api`, with its path parameters filled in and the query's set values in
 * the order given. It is also the SWR cache key of a GET, so a load and a later `mutate` of the same
 * endpoint always name the same entry.
 */
export function endpointPath<E extends Endpoint>(
  endpoint: E,
  input: Pick<CallInput<E>, 'params' | 'query'> = {},
): string {
  const route = routeOf(endpoint);
  const path = route.path.slice('/api'.length).replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = (input.params as Record<string, string | number> | undefined)?.[name];
    // A missing id would call another route (or the list) instead of failing.
    if (value === undefined || value === '') throw new Error(`${endpoint}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
