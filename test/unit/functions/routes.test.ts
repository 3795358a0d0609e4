import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { pathParamNames, type RouteDecl, type RouteDef, routeKey } from '#contracts/routes';
import { matchRoute, resources, routes } from '../../../functions/routes';
import { endpointTableFile, endpointTableSource } from '../../../lib/codegen/endpoint-table';
import { handlerEntry } from '../../../lib/resources';

/** What is wrong with a route's `access` declaration (nothing for a public route). */
function accessProblems(route: RouteDecl): string[] {
  if (!route.session) return [];
  const access = route.access;
  if (!access) return ['no access'];
  if (access.scope === 'account') return [];
  const problems: string[] = [];
  const shapeOf = (schema: unknown) => Object.keys((schema as z.ZodObject | undefined)?.shape ?? {});
  const [where, name = ''] = access.from.split('.');
  if (where === 'params' && !pathParamNames(route.path).includes(name))
    problems.push(`no path parameter ${name}`);
  if (where === 'body' && !shapeOf(route.body).includes(name)) problems.push(`no body field ${name}`);
  if (access.scope === 'project')
    for (const q of Object.keys(access.queryActions ?? {}))
      if (!shapeOf(route.query).includes(q)) problems.push(`no query parameter ${q}`);
  return problems;
}

describe('the route table', () => {
  it('has no duplicate method + path', () => {
    const keys = routes.map((r: RouteDef) => routeKey(r));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(resources)(
    'resource %s exports a Lambda handler and an operation for each of its routes',
    async (resource) => {
      const mod = await import(/* @vite-ignore */ resolve(handlerEntry(resource)));
      expect(typeof mod.handler).toBe('function');
      const mine = routes.filter((r: RouteDef) => r.resource === resource);
      expect(mine.length).toBeGreaterThan(0);
      for (const r of mine) expect(typeof mod.operations[r.op], `${routeKey(r)} → ${r.op}`).toBe('function');
      // And the other way round: the dashboard's typed client offers every operation as an endpoint.
      for (const op of Object.keys(mod.operations)) expect(mine.map((r) => r.op)).toContain(op);
    },
  );

  it("the dashboard's endpoint table is the route table's (npm run gen:endpoints rewrites it)", () => {
    expect(readFileSync(endpointTableFile, 'utf8')).toBe(endpointTableSource());
  });

  it.each(routes.map((r) => [routeKey(r), r] as const))(
    "%s: the route's params schema covers exactly the {names} of its path",
    (_key, route) => {
      const names = pathParamNames(route.path).sort();
      if (names.length === 0) expect(route.params).toBeUndefined();
      else expect(Object.keys(route.params?.shape ?? {}).sort()).toEqual(names);
    },
  );

  it.each(routes.filter((r) => r.session).map((r) => [routeKey(r), r] as const))(
    '%s: a session route declares its access, from a parameter it has (docs/data-model.md 4.12, T7)',
    (_key, route) => {
      expect(accessProblems(route)).toEqual([]);
    },
  );

  it('the access check refuses a session route without access, or one read from nowhere', () => {
    const bare: RouteDecl = { method: 'GET', path: '/api/x/{id}', op: 'x', session: true };
    expect(accessProblems(bare)).toEqual(['no access']);
    const wrong: RouteDecl = { ...bare, access: { scope: 'project', action: 'read', from: 'params.siteId' } };
    expect(accessProblems(wrong)).toEqual(['no path parameter siteId']);
  });

  it('matches path parameters and tells 405 from 404', () => {
    expect(matchRoute('GET', '/api/health')).toMatchObject({ route: { op: 'health' }, params: {} });
    expect(matchRoute('POST', '/api/health')).toEqual({ methodMismatch: true });
    expect(matchRoute('GET', '/api/nothing')).toEqual({ methodMismatch: false });
  });

  it('decodes path parameters and keeps a malformed escape as it is, for the function to find nothing', () => {
    expect(matchRoute('GET', '/api/client/website/a%20b')).toMatchObject({ params: { id: 'a b' } });
    expect(matchRoute('GET', '/api/client/website/%ZZ')).toMatchObject({ params: { id: '%ZZ' } });
    expect(matchRoute('GET', '/api/client/website/%C3')).toMatchObject({ params: { id: '%C3' } });
  });
});
