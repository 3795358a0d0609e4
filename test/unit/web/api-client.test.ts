import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, withLanguage } from '../../../web/src/api/client';
import { endpointPath } from '../../../web/src/api/endpoints';
import type { Lang } from '../../../web/src/i18n/language';

function respond(status: number, body: unknown, raw = false) {
  return vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => {
    return new Response(raw ? String(body) : JSON.stringify(body), { status });
  });
}

function client(fetchMock: ReturnType<typeof respond>, lang: Lang = 'en') {
  return createApiClient({ language: () => lang, fetch: fetchMock as unknown as typeof fetch });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('API client', () => {
  it('reads bytes the API answers itself (a replay), and refusals as any call (issue 33)', async () => {
    const gzip = new Uint8Array([0x1f, 0x8b, 8, 0]);
    const ok = vi.fn(
      async (_url: string | URL | Request, _init?: RequestInit) =>
        new Response(gzip, { status: 200, headers: { 'content-type': 'application/gzip' } }),
    );
    const bytes = await client(ok as never, 'de').bytes('/replay/a.b.1.c', 'application/gzip');
    expect(new Uint8Array(bytes)).toEqual(gzip);
    const [url, init] = ok.mock.calls[0]!;
    expect(url).toBe('/api/replay/a.b.1.c?lng=de');
    expect(init?.credentials).toBe('same-origin');
    const missing = respond(404, { status: 'error', code: 'NOT_FOUND', msg: 'Not found' });
    const error = await failure(client(missing).bytes('/replay/x', 'application/gzip'));
    expect([error.status, error.code]).toEqual([404, 'NOT_FOUND']);
    // A 200 of another type (an HTML fallback) is not the file.
    const html = respond(200, '<!doctype html>', true);
    expect((await failure(client(html).bytes('/replay/x', 'application/gzip'))).code).toBe('SYSTEM_ERROR');
  });

  it('resolves a success envelope to msg', async () => {
    const fetchMock = respond(200, { status: 'success', msg: { id: 'abc' } });
    await expect(
      client(fetchMock).call('projects.create', { body: { name: 'x', url: 'example.com' } }),
    ).resolves.toEqual({ id: 'abc' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/client/website');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe(JSON.stringify({ name: 'x', url: 'example.com' }));
    expect((init?.headers ?? {}) as Record<string, string>).toHaveProperty(
      'content-type',
      'application/json',
    );
  });

  it('sends GET without a body', async () => {
    const fetchMock = respond(200, { status: 'success', msg: [] });
    await client(fetchMock).call('projects.list');
    expect(fetchMock.mock.calls[0]![1]?.body).toBeUndefined();
  });

  it('throws ApiError with the catalogue code of an error envelope', async () => {
    const fetchMock = respond(401, {
      status: 'error',
      code: 'ACCESS_DENIED',
      msg: 'Incorrect username or password',
    });
    const error = await failure(
      client(fetchMock).call('auth.login', { body: { _username: 'a@b.c', _password: 'x' } }),
    );
    expect(error.status).toBe(401);
    expect(error.code).toBe('ACCESS_DENIED');
    expect(error.message).toBe('Incorrect username or password');
    expect(error.unauthorized).toBe(true);
  });

  it('maps an unknown code to SYSTEM_ERROR and keeps the status', async () => {
    const error = await failure(
      client(respond(409, { status: 'error', code: 'WHATEVER', msg: 'x' })).load('/x'),
    );
    expect(error.code).toBe('SYSTEM_ERROR');
    expect(error.status).toBe(409);
  });

  it('turns a non-JSON 502 into SYSTEM_ERROR', async () => {
    const error = await failure(client(respond(502, '<html>Bad gateway</html>', true)).call('profile.get'));
    expect(error.status).toBe(502);
    expect(error.code).toBe('SYSTEM_ERROR');
  });

  it('treats a 200 that is not an envelope (e.g. the SPA fallback page) as SYSTEM_ERROR', async () => {
    const error = await failure(client(respond(200, '<!doctype html>', true)).call('profile.get'));
    expect(error.code).toBe('SYSTEM_ERROR');
  });

  it('turns a network failure into SYSTEM_ERROR with status 0', async () => {
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const api = createApiClient({ language: () => 'en', fetch: fetchMock as unknown as typeof fetch });
    const error = await failure(api.call('profile.get'));
    expect(error.status).toBe(0);
    expect(error.code).toBe('SYSTEM_ERROR');
  });

  it('adds lng=de when the UI is German, and only then', async () => {
    const german = respond(200, { status: 'success', msg: null });
    await client(german, 'de').call('issues.list', { params: { id: '1' }, query: { page: 2 } });
    expect(german.mock.calls[0]![0]).toBe('/api/client/website/1/request?page=2&lng=de');
    await client(german, 'de').call('profile.get');
    expect(german.mock.calls[1]![0]).toBe('/api/client/profile?lng=de');

    const english = respond(200, { status: 'success', msg: null });
    await client(english, 'en').call('profile.get');
    expect(english.mock.calls[0]![0]).toBe('/api/client/profile');
  });

  it('takes method and path from the route table, filling path parameters in and leaving unset query values out', async () => {
    const fetchMock = respond(200, { status: 'success', msg: { deleted: 1 } });
    await client(fetchMock).call('issues.setState', {
      params: { id: 'p/1', ticketId: 7 },
      body: { restore: false },
    });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/client/website/p%2F1/request/7');
    expect(init?.method).toBe('PATCH');
    expect(
      endpointPath('issues.list', {
        params: { id: 'x' },
        query: { page: 3, search: '', resolved: undefined },
      }),
    ).toBe('/client/website/x/request?page=3');
    // A missing id must not silently call another route.
    expect(() => endpointPath('projects.get')).toThrow(/missing path parameter id/);
  });

  it("names path parameters as the route's params schema does (checked by the typecheck)", () => {
    // @ts-expect-error: the route's parameter is `id`, not `projectId`.
    expect(() => endpointPath('projects.get', { params: { projectId: 'x' } })).toThrow(
      /missing path parameter id/,
    );
    // @ts-expect-error: an issue's address needs its ticketId too.
    expect(() => endpointPath('issues.get', { params: { id: 'x' } })).toThrow(
      /missing path parameter ticketId/,
    );
    expect(endpointPath('issues.get', { params: { id: 'x', ticketId: 2 } })).toBe(
      '/client/website/x/request/2',
    );
  });

  it('withLanguage leaves English paths alone', () => {
    expect(withLanguage('/a?b=1', 'en')).toBe('/a?b=1');
    expect(withLanguage('/a?b=1', 'de')).toBe('/a?b=1&lng=de');
  });
});
