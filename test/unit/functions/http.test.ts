import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { correlationIdSchema } from '#contracts/correlation';
import { apiFunction } from '#contracts/manifest';
import { newPasswordField } from '#contracts/schemas';
import { EDGE_SECRET_HEADER, resetConfig } from '#runtime/config';
import { AppError } from '#runtime/errors';
import { type RequestInput, resourceHandler } from '#runtime/http';
import { httpEvent, lambdaContext } from '../../support/events';

// A declaration of made-up routes, so the pipeline is tested independently of the product's routes.
const testApi = apiFunction({
  resource: 'test',
  needs: {},
  routes: [
    {
      method: 'POST',
      path: '/api/echo',
      op: 'echo',
      session: false,
      body: z.object({ name: z.string().max(5), password: newPasswordField.optional() }),
      context: 'registration',
    },
    { method: 'GET', path: '/api/private', op: 'echo', session: true, access: { scope: 'account' } },
    { method: 'GET', path: '/api/boom', op: 'boom', session: false },
    { method: 'GET', path: '/api/fails', op: 'fails', session: false },
    { method: 'GET', path: '/api/js', op: 'js', session: false },
    {
      method: 'POST',
      path: '/api/public',
      op: 'echo',
      session: false,
      caller: 'public',
      body: z.object({ name: z.string() }),
    },
    {
      method: 'GET',
      path: '/api/public/fails',
      op: 'fails',
      session: false,
      caller: 'public',
    },
    {
      method: 'GET',
      path: '/api/thing/{id}/{n}',
      op: 'thing',
      session: false,
      params: z.object({
        id: z.uuid(),
        n: z
          .string()
          .regex(/^[1-9][0-9]*$/)
          .transform(Number),
      }),
    },
  ],
});

/** Calls of the `thing` operation, to show a refused path parameter stops before it. */
let thingCalls = 0;

const handler = resourceHandler(testApi, {
  echo: async ({ body }: RequestInput<{ name: string } | undefined>) => ({ msg: { hello: body?.name } }),
  boom: async () => {
    throw new Error('database on fire');
  },
  fails: async () => {
    throw new AppError('ACCESS_DENIED');
  },
  js: async () => ({
    raw: { statusCode: 200, headers: { 'content-type': 'text/javascript' }, body: 'void 0' },
  }),
  thing: async ({ params, correlationId }: RequestInput<undefined, unknown, { id: string; n: number }>) => {
    thingCalls++;
    return { msg: { params, correlationId } };
  },
});

const origin = { origin: 'http://localhost:3000', 'content-type': 'application/json' };
const call = async (routeKey: string, opts: Parameters<typeof httpEvent>[1] = {}) => {
  const res = await handler(httpEvent(routeKey, opts), lambdaContext);
  return {
    status: res.statusCode,
    headers: res.headers ?? {},
    json: res.body ? JSON.parse(res.body) : undefined,
  };
};

describe('the HTTP layer', () => {
  it('wraps results in the success envelope', async () => {
    const res = await call('POST /api/echo', { headers: origin, body: '{"name":"Ann"}' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'success', msg: { hello: 'Ann' } });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers malformed JSON with 400 INVALID_JSON, not a 500', async () => {
    const res = await call('POST /api/echo', { headers: origin, body: '{"name":' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 'error', code: 'INVALID_JSON' });
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await call('POST /api/echo', {
      headers: { ...origin, 'content-type': 'text/plain' },
      body: 'name=Ann',
    });
    expect(res.status).toBe(415);
    expect(res.json.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses prototype-pollution keys', async () => {
    const res = await call('POST /api/echo', { headers: origin, body: '{"name":"a","__proto__":{"x":1}}' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('refuses oversize bodies with 413', async () => {
    const res = await call('POST /api/echo', {
      headers: origin,
      body: JSON.stringify({ name: 'x'.repeat(300_000) }),
    });
    expect(res.status).toBe(413);
    expect(res.json.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('maps validation failures to the catalogue, with the screen wording and the field', async () => {
    const res = await call('POST /api/echo', { headers: origin, body: '{"name":"too long name"}' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'INVALID_PARAMETERS',
      msg: 'Registration failed',
      fields: { name: 'INVALID_PARAMETERS' },
    });
  });

  it('prefers a rule’s own code (password length) over INVALID_PARAMETERS', async () => {
    const res = await call('POST /api/echo', { headers: origin, body: '{"name":"a","password":"123"}' });
    expect(res.json).toMatchObject({
      code: 'USER_PASSWORD_LENGTH',
      msg: 'Password must be at least 6 characters',
    });
  });

  it('answers in German when lng=de', async () => {
    const res = await call('GET /api/fails', { query: { lng: 'de' } });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({
      status: 'error',
      code: 'ACCESS_DENIED',
      msg: 'Benutzername oder Passwort ist falsch',
    });
  });

  it('turns unexpected faults into a 500 SYSTEM_ERROR without leaking details', async () => {
    const res = await call('GET /api/boom');
    expect(res.status).toBe(500);
    expect(res.json).toEqual({
      status: 'error',
      code: 'SYSTEM_ERROR',
      msg: 'Service is not available at the moment',
    });
    expect(JSON.stringify(res.json)).not.toContain('fire');
  });

  it('answers 401 UNAUTHORIZED on session routes without a session (forged cookie included)', async () => {
    const res = await call('GET /api/private', { cookies: ['snag_session=forged'] });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('UNAUTHORIZED');
  });

  it('refuses state-changing dashboard calls from another origin', async () => {
    const foreign = await call('POST /api/echo', {
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{"name":"a"}',
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe('FORBIDDEN_ORIGIN');
    const none = await call('POST /api/echo', {
      headers: { 'content-type': 'application/json' },
      body: '{"name":"a"}',
    });
    expect(none.json.code).toBe('FORBIDDEN_ORIGIN');
    const referer = await call('POST /api/echo', {
      headers: { referer: 'http://localhost:3000/profile', 'content-type': 'application/json' },
      body: '{"name":"a"}',
    });
    expect(referer.status).toBe(200);
    const lookalike = await call('POST /api/echo', {
      headers: { referer: 'http://localhost:3000.evil.example/', 'content-type': 'application/json' },
      body: '{"name":"a"}',
    });
    expect(lookalike.json.code).toBe('FORBIDDEN_ORIGIN');
  });

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const res = await call('GET /api/nowhere');
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('NOT_FOUND');
  });

  it("parses path parameters with the route's schema, a refused one being NOT_FOUND before the operation runs", async () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const ok = await call('GET /api/thing/{id}/{n}', { params: { id, n: '12' } });
    expect(ok.status).toBe(200);
    expect(ok.json.msg.params).toEqual({ id, n: 12 });
    const before = thingCalls;
    const refused: (Record<string, string> | undefined)[] = [
      { id: 'not-a-uuid', n: '12' },
      { id, n: '0' },
      { id, n: '../1' },
      { id },
      undefined,
    ];
    for (const params of refused) {
      const res = await call('GET /api/thing/{id}/{n}', { params });
      expect(res.status, JSON.stringify(params)).toBe(404);
      expect(res.json).toEqual({ status: 'error', code: 'NOT_FOUND', msg: expect.any(String) });
    }
    expect(thingCalls).toBe(before);
  });

  it('hands the operation the request id as its correlation id, or a fresh one the messages would accept', async () => {
    const params = { id: '0f8fad5b-d9cb-469f-a165-70867728950e', n: '1' };
    const same = await call('GET /api/thing/{id}/{n}', { params });
    expect(same.json.msg.correlationId).toBe('req-1');
    const event = httpEvent('GET /api/thing/{id}/{n}', { params });
    event.requestContext.requestId = 'not a usable id\n';
    const res = await handler(event, lambdaContext);
    const fresh = JSON.parse(res.body ?? '{}').msg.correlationId;
    expect(fresh).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(correlationIdSchema.safeParse(fresh).success).toBe(true);
  });

  it('passes raw responses through untouched', async () => {
    const res = await handler(httpEvent('GET /api/js'), lambdaContext);
    expect(res).toMatchObject({ statusCode: 200, body: 'void 0' });
  });
});

describe('admission', () => {
  // The public routes of the declaration above, served by a function with an admission.
  const admittedApi = apiFunction({
    resource: 'test',
    needs: {},
    routes: [
      {
        method: 'POST',
        path: '/api/public',
        op: 'echo',
        session: false,
        caller: 'public',
        body: z.object({ name: z.string() }),
      },
      { method: 'GET', path: '/api/public/fails', op: 'fails', session: false, caller: 'public' },
    ],
  });
  const admitted = resourceHandler(
    admittedApi,
    {
      echo: async ({ admitted: who }: RequestInput<{ name: string }, unknown, unknown>) => ({ msg: { who } }),
      fails: async () => {
        throw new AppError('RATE_LIMITED');
      },
    },
    {
      admit: async ({ event, headers }) => {
        headers.vary = 'Origin';
        if (event.headers.origin !== 'https://shop.example') throw new AppError('FORBIDDEN_ORIGIN');
        headers['access-control-allow-origin'] = 'https://shop.example';
        return 'shop';
      },
    },
  );
  const send = async (routeKey: string, headers: Record<string, string>, body?: string) => {
    const res = await admitted(httpEvent(routeKey, { headers, body }), lambdaContext);
    return {
      status: res.statusCode,
      headers: res.headers ?? {},
      json: res.body ? JSON.parse(res.body) : undefined,
    };
  };

  it('hands its value to the operation and its headers to every answer, errors included', async () => {
    const shop = { origin: 'https://shop.example', 'content-type': 'application/json' };
    const ok = await send('POST /api/public', shop, '{"name":"Ann"}');
    expect(ok.json).toEqual({ status: 'success', msg: { who: 'shop' } });
    expect(ok.headers).toMatchObject({
      'access-control-allow-origin': 'https://shop.example',
      vary: 'Origin',
    });
    // A refusal of the body, and one of the operation, still carry the admitted origin's headers.
    for (const res of [
      await send('POST /api/public', shop, '{'),
      await send('GET /api/public/fails', shop),
    ]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
    }
  });

  it('runs before the body is read, and its refusal carries only what it set before refusing', async () => {
    const res = await send(
      'POST /api/public',
      { origin: 'https://evil.example', 'content-type': 'application/json' },
      '{',
    );
    expect(res.json.code).toBe('FORBIDDEN_ORIGIN');
    expect(res.headers.vary).toBe('Origin');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the edge secret in deployed stages', () => {
  const secret = 'e'.repeat(48);
  beforeAll(() => {
    Object.assign(process.env, { SNAG_STAGE: 'prod', EDGE_SECRET: secret });
    resetConfig();
  });
  afterAll(() => {
    process.env.SNAG_STAGE = 'local';
    delete process.env.EDGE_SECRET;
    resetConfig();
  });

  it('refuses requests that did not come through CloudFront', async () => {
    for (const given of [undefined, '', 'e'.repeat(47), 'f'.repeat(48)]) {
      const headers: Record<string, string> = given === undefined ? {} : { [EDGE_SECRET_HEADER]: given };
      const res = await handler(httpEvent('GET /api/fails', { headers }), lambdaContext);
      expect(res.statusCode, String(given)).toBe(403);
      expect(JSON.parse(res.body ?? '{}').code).toBe('FORBIDDEN_ORIGIN');
    }
    const through = await handler(
      httpEvent('GET /api/fails', { headers: { [EDGE_SECRET_HEADER]: secret } }),
      lambdaContext,
    );
    // Past the edge check, the route's own answer.
    expect(JSON.parse(through.body ?? '{}').code).toBe('ACCESS_DENIED');
  });
});
