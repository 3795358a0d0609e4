/**
 * The type check of `resourceHandler(declaration, operations)` (functions/runtime/http.ts), in the direction
 * contracts → handler: each `@ts-expect-error` below is a drift between a declaration's schemas and its
 * operations that `npm run typecheck` must refuse (an unused `@ts-expect-error` fails it too, so a check
 * that stops working is noticed). The `it`s only run what compiled.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { apiFunction } from '#contracts/manifest';
import { type AuthedInput, type InputOf, type RequestInput, resourceHandler } from '#runtime/http';
import { operations as issueOperations } from '../../../functions/handlers/issues';
import type { issuesApi } from '../../../functions/issues/manifest';
import { projectsApi } from '../../../functions/projects/manifest';

const api = apiFunction({
  resource: 'test',
  needs: {},
  routes: [
    {
      method: 'PATCH',
      path: '/api/thing/{id}/part/{n}',
      op: 'update',
      session: true,
      access: { scope: 'account' },
      params: z.object({ id: z.uuid(), n: z.string().transform(Number) }),
      body: z.object({ name: z.string() }),
    },
    {
      method: 'GET',
      path: '/api/things',
      op: 'list',
      session: false,
      query: z.object({ page: z.coerce.number() }),
    },
  ],
});

type Params = { id: string; n: number };
const ok = {
  async update({ params, body, session }: AuthedInput<{ name: string }, unknown, Params>) {
    return { msg: `${session.userId}:${params.id}:${params.n}:${body.name}` };
  },
  async list({ query }: RequestInput<undefined, { page: number }>) {
    return { msg: query.page };
  },
};

describe('the pipeline type check', () => {
  it('accepts operations that read what the schemas produce', () => {
    expect(typeof resourceHandler(api, ok)).toBe('function');
  });

  it('refuses a missing operation, an extra one, and a body, query or params the schemas do not produce', () => {
    // @ts-expect-error `list` is missing.
    resourceHandler(api, { update: ok.update });
    // @ts-expect-error `remove` has no route.
    resourceHandler(api, { ...ok, remove: ok.list });
    resourceHandler(api, {
      ...ok,
      // @ts-expect-error the body schema produces `name`, not `title`.
      update: async ({ body }: AuthedInput<{ title: string }, unknown, Params>) => ({ msg: body.title }),
    });
    resourceHandler(api, {
      ...ok,
      // @ts-expect-error the query schema produces a number.
      list: async ({ query }: RequestInput<undefined, { page: string }>) => ({ msg: query.page }),
    });
    resourceHandler(api, {
      ...ok,
      // @ts-expect-error the params schema produces `n` as a number, not a string.
      update: async ({ params }: AuthedInput<{ name: string }, unknown, { id: string; n: string }>) => ({
        msg: params.n,
      }),
    });
    resourceHandler(api, {
      ...ok,
      // @ts-expect-error the path has no `{slug}`.
      update: async ({ params }: AuthedInput<{ name: string }, unknown, { slug: string }>) => ({
        msg: params.slug,
      }),
    });
    resourceHandler(api, {
      ...ok,
      // @ts-expect-error a public route has no session for certain.
      list: async ({ session }: AuthedInput) => ({ msg: session.userId }),
    });
    // @ts-expect-error the issues' operations do not serve the projects' routes.
    resourceHandler(projectsApi, issueOperations);
  });

  it("types an admission's value into the operations' input", () => {
    const publicApi = apiFunction({
      resource: 'test',
      needs: {},
      routes: [
        {
          method: 'POST',
          path: '/api/thing/{id}',
          op: 'take',
          session: false,
          params: z.object({ id: z.string() }),
        },
      ],
    });
    const take = async ({ admitted }: RequestInput & { admitted: { shop: string } }) => ({
      msg: admitted.shop,
    });
    expect(typeof resourceHandler(publicApi, { take }, { admit: async () => ({ shop: 'a' }) })).toBe(
      'function',
    );
    // @ts-expect-error the admission answers a string, the operation reads an object.
    resourceHandler(publicApi, { take }, { admit: async () => 'shop' });
    // @ts-expect-error without an admission there is nothing admitted.
    resourceHandler(publicApi, { take });
  });

  it('hands the handlers their params as the manifests declare them', () => {
    expectTypeOf<InputOf<typeof issuesApi, 'get'>['params']>().toEqualTypeOf<{
      id: string;
      ticketId: number;
    }>();
    expectTypeOf<InputOf<typeof issuesApi, 'list'>['params']>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<InputOf<typeof projectsApi, 'list'>['params']>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<InputOf<typeof issuesApi, 'get'>['session']>().not.toBeNullable();
  });
});

describe('a declaration', () => {
  it("refuses params that are not exactly its path's {names}", () => {
    const id = z.object({ id: z.string() });
    const ok = apiFunction({
      resource: 'test',
      needs: {},
      routes: [
        { method: 'GET', path: '/api/a/{id}', op: 'a', session: false, params: id },
        { method: 'GET', path: '/api/b', op: 'b', session: false },
      ],
    });
    expect(ok.routes).toHaveLength(2);
    apiFunction({
      resource: 'test',
      needs: {},
      // @ts-expect-error `{id}` has no params schema.
      routes: [{ method: 'GET', path: '/api/a/{id}', op: 'a', session: false }],
    });
    apiFunction({
      resource: 'test',
      needs: {},
      // @ts-expect-error the path has `{n}` too.
      routes: [{ method: 'GET', path: '/api/a/{id}/{n}', op: 'a', session: false, params: id }],
    });
    apiFunction({
      resource: 'test',
      needs: {},
      // @ts-expect-error the path has no `{id}`.
      routes: [{ method: 'GET', path: '/api/b', op: 'b', session: false, params: id }],
    });
  });
});
