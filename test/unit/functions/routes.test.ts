import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathParamNames, type RouteDef, routeKey } from '#contracts/routes';
import { matchRoute, resources, routes } from '../../../functions/routes';
import { endpointTableFile, endpointTableSource } from '../../../lib/codegen/endpoint-table';
import { handlerEntry } from '../../../lib/resources';

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

  it('matches path parameters and tells 405 from 404', () => {
    expect(matchRoute('GET', '/api/health')).toMatchObject({ route: { op: 'health' }, params: {} });
    expect(matchRoute('POST', '/api/health')).toEqual({ methodMismatch: true });
    expect(matchRoute('GET', '/api/nothing')).toEqual({ methodMismatch: false });
  });
});
