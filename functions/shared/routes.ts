/**
 * The one route table (DESIGN.md section 3). CDK builds the HTTP API and one Lambda per `resource` from
 * it; the local gateway serves the same table. Each resource's handler module is
 * `functions/handlers/<resource>.ts` and exports `operations` (plain functions, one per `op`) and
 * `handler` (the middy-wrapped Lambda entry).
 */
import * as z from 'zod';
import type { ErrorContext } from './errors';
import {
  confirmationSchema,
  devPlanSchema,
  downloadQuerySchema,
  googleSignInSchema,
  issueListQuerySchema,
  issueStateSchema,
  loginSchema,
  passwordChangeSchema,
  profileSchema,
  projectSchema,
  projectUpdateSchema,
  registrationSchema,
  reportSchema,
  resetVerificationSchema,
  uploadRequestSchema,
  usernameOnlySchema,
} from './schemas';

export const resources = [
  'health',
  'dev',
  'auth',
  'profile',
  'projects',
  'widget',
  'intake',
  'issues',
] as const;
export type ResourceName = (typeof resources)[number];

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

export const devEmailsQuery = z.object({ to: z.string().trim().max(200).optional() });

export const routes = [
  { method: 'GET', path: '/api/health', resource: 'health', op: 'health', session: false, caller: 'public' },
  {
    method: 'GET',
    path: '/api/dev/emails',
    resource: 'dev',
    op: 'emails',
    session: false,
    query: devEmailsQuery,
    localOnly: true,
  },
  // Accounts (SPEC.md section 7)
  {
    method: 'POST',
    path: '/api/client/login',
    resource: 'auth',
    op: 'login',
    session: false,
    body: loginSchema,
  },
  {
    method: 'POST',
    path: '/api/registration/client',
    resource: 'auth',
    op: 'register',
    session: false,
    body: registrationSchema,
    context: 'registration',
  },
  {
    method: 'POST',
    path: '/api/registration/client/google',
    resource: 'auth',
    op: 'google',
    session: false,
    body: googleSignInSchema,
  },
  {
    method: 'POST',
    path: '/api/registration/client/confirm',
    resource: 'auth',
    op: 'confirm',
    session: false,
    body: confirmationSchema,
  },
  {
    method: 'POST',
    path: '/api/restore/code',
    resource: 'auth',
    op: 'resendCode',
    session: false,
    body: usernameOnlySchema,
    context: 'resendConfirmation',
  },
  {
    method: 'POST',
    path: '/api/restore/password',
    resource: 'auth',
    op: 'requestReset',
    session: false,
    body: usernameOnlySchema,
  },
  {
    method: 'POST',
    path: '/api/restore/verification',
    resource: 'auth',
    op: 'resetPassword',
    session: false,
    body: resetVerificationSchema,
  },
  { method: 'GET', path: '/api/client/logout', resource: 'auth', op: 'logout', session: false },
  { method: 'GET', path: '/api/altcha', resource: 'auth', op: 'altcha', session: false },
  { method: 'GET', path: '/api/client/profile', resource: 'profile', op: 'get', session: true },
  {
    method: 'PATCH',
    path: '/api/client/profile',
    resource: 'profile',
    op: 'update',
    session: true,
    body: profileSchema,
    context: 'profileUpdate',
  },
  {
    method: 'DELETE',
    path: '/api/client/profile',
    resource: 'profile',
    op: 'remove',
    session: true,
    context: 'profileDelete',
  },
  {
    method: 'PATCH',
    path: '/api/client/password',
    resource: 'profile',
    op: 'changePassword',
    session: true,
    body: passwordChangeSchema,
    context: 'passwordChange',
  },
  // Projects and the widget (issue 4)
  { method: 'GET', path: '/api/client/website', resource: 'projects', op: 'list', session: true },
  {
    method: 'POST',
    path: '/api/client/website',
    resource: 'projects',
    op: 'create',
    session: true,
    body: projectSchema,
    context: 'projectCreate',
  },
  { method: 'GET', path: '/api/client/website/{id}', resource: 'projects', op: 'get', session: true },
  {
    method: 'PATCH',
    path: '/api/client/website/{id}',
    resource: 'projects',
    op: 'update',
    session: true,
    body: projectUpdateSchema,
  },
  { method: 'DELETE', path: '/api/client/website/{id}', resource: 'projects', op: 'remove', session: true },
  {
    method: 'GET',
    path: '/api/website/{id}/code',
    resource: 'widget',
    op: 'code',
    session: false,
    caller: 'public',
  },
  // The widget's intake (issue 7): called cross-origin from the project's own domain, CORS for it only.
  {
    method: 'POST',
    path: '/api/website/{id}/upload',
    resource: 'intake',
    op: 'upload',
    session: false,
    caller: 'public',
    body: uploadRequestSchema,
  },
  {
    method: 'POST',
    path: '/api/website/{id}/request',
    resource: 'intake',
    op: 'report',
    session: false,
    caller: 'public',
    body: reportSchema,
  },
  {
    method: 'OPTIONS',
    path: '/api/website/{id}/upload',
    resource: 'intake',
    op: 'preflight',
    session: false,
    caller: 'public',
  },
  {
    method: 'OPTIONS',
    path: '/api/website/{id}/request',
    resource: 'intake',
    op: 'preflight',
    session: false,
    caller: 'public',
  },
  // Issue review (issue 8)
  {
    method: 'GET',
    path: '/api/client/website/{id}/request',
    resource: 'issues',
    op: 'list',
    session: true,
    query: issueListQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/client/website/{id}/request/{ticketId}',
    resource: 'issues',
    op: 'get',
    session: true,
  },
  {
    method: 'PATCH',
    path: '/api/client/website/{id}/request/{ticketId}',
    resource: 'issues',
    op: 'setState',
    session: true,
    body: issueStateSchema,
  },
  {
    method: 'GET',
    path: '/api/client/download/file/{siteId}/{name}',
    resource: 'issues',
    op: 'downloadFile',
    session: true,
    query: downloadQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/client/download/screenshot/{siteId}/{name}',
    resource: 'issues',
    op: 'downloadScreenshot',
    session: true,
    query: downloadQuerySchema,
  },
  {
    method: 'POST',
    path: '/api/dev/plan',
    resource: 'dev',
    op: 'plan',
    session: false,
    body: devPlanSchema,
    localOnly: true,
  },
] as const satisfies readonly RouteDef[];

export type Route = (typeof routes)[number];

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
