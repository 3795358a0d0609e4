/**
 * Every route of the route table, fed hostile input through the local gateway, signed in and not: bad
 * JSON, wrong types, odd path parameters, prototype keys, oversized strings. Whatever the route, the
 * answer is a 4xx envelope with a catalogue code (or the route's success), never a 500.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue } from '#contracts/errors';
import type { TokenVendor } from '#contracts/integration-catalogue';
import type { RouteDef } from '#contracts/routes';
import { tokenVendorLists } from '#contracts/vendor-auth';
import { routes } from '../../functions/routes';
import { ApiClient } from '../support/api-client';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';

const stack = setUpTestStack();
let signedInClient: ApiClient;

beforeAll(async () => {
  signedInClient = (await signedIn(stack.url)).client;
});

const pathValues = [
  '0f8fad5b-d9cb-469f-a165-70867728950e',
  'not-a-uuid',
  '..%2F..%2Fetc%2Fpasswd',
  'x'.repeat(2000),
  '%00',
  '%F0%9F%92%A9',
];

const bodies: (string | undefined)[] = [
  undefined,
  '',
  'null',
  '[]',
  '"text"',
  '42',
  '{',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  JSON.stringify({
    _username: ['a'],
    _password: { $ne: null },
    name: 1,
    url: true,
    data: 'x',
    firstName: null,
  }),
  JSON.stringify({
    _username: 'a@b.co',
    _password: 'x'.repeat(5000),
    name: 'x'.repeat(5000),
    url: '\u0000',
    data: { widgetColor: {} },
  }),
  JSON.stringify({ data: { customFields: 'nope', widgetText: 7 }, active: 'yes', activeParam: -1 }),
  `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
];

/** The vendors a `{vendor}` route serves (its params' enum), so each vendor's URL meets the odd values. */
function vendorsOf(route: RouteDef): readonly string[] {
  const vendor = route.params?.shape.vendor as { options?: readonly string[] } | undefined;
  return vendor?.options ?? [];
}

/**
 * Every concrete path for a route, with each odd value in each path parameter; a `{vendor}` route also
 * with each of its vendors and the odd value in the other parameters (the URL each vendor had of its own),
 * and a list call with each vendor's own list (`gitlab/projects`), where the odd bodies meet its schema.
 */
function paths(route: RouteDef): string[] {
  if (!route.path.includes('{')) return [route.path];
  const each = (path: string) => pathValues.map((v) => path.replace(/\{\w+\}/g, v));
  const ofVendor = (v: string) => route.path.replace('{vendor}', v);
  const listed = (v: string) =>
    route.path.includes('{list}') ? [ofVendor(v).replace('{list}', tokenVendorLists[v as TokenVendor])] : [];
  return [...each(route.path), ...vendorsOf(route).flatMap((v) => [...each(ofVendor(v)), ...listed(v)])];
}

function expectEnvelope(status: number, body: unknown, label: string) {
  expect(status, label).toBeLessThan(500);
  if (status >= 400) {
    const code = (body as { code?: string } | undefined)?.code;
    expect(body, label).toMatchObject({ status: 'error' });
    expect(code !== undefined && Object.hasOwn(errorCatalogue, code), `${label}: ${code}`).toBe(true);
  }
}

/** Routes whose every answer is an HTML page (the reporter's, issue 24), not the JSON envelope. */
const reporterPages = new Set([
  'GET /api/reporter/{token}/page',
  'GET /api/reporter/{token}/unsubscribe',
  'POST /api/reporter/{token}/unsubscribe',
]);

// Deleting the account would end the signed-in session for the routes after it; it is covered elsewhere.
const probed = (routes as readonly RouteDef[]).filter(
  (r) => !(r.method === 'DELETE' && r.path === '/api/client/profile'),
);

describe.each(probed.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_key, route) => {
  it.each([
    ['anonymous', () => new ApiClient(stack.url)],
    ['signed in', () => signedInClient],
  ])('never answers 500 to hostile input (%s)', async (_who, clientOf) => {
    const client = clientOf();
    for (const path of paths(route)) {
      if (route.path === '/api/website/{id}/code') {
        // The loader answers JavaScript, and a harmless no-op for anything it does not know.
        const res = await fetch(new URL(path, stack.url));
        expect(res.status, path.slice(0, 80)).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
        continue;
      }
      if (reporterPages.has(`${route.method} ${route.path}`)) {
        // The reporter's status and unsubscribe pages answer HTML, their own 404 page included (issue 24).
        for (const body of route.method === 'GET' || route.method === 'HEAD' ? [undefined] : bodies) {
          const res = await fetch(new URL(path, stack.url), {
            method: route.method,
            headers: { 'cloudfront-viewer-address': client.source },
            ...(body === undefined ? {} : { body }),
          });
          expect(res.status, path.slice(0, 80)).toBeLessThan(500);
          expect(res.headers.get('content-type') ?? '', path.slice(0, 80)).toMatch(
            res.status === 404 ? /^text\/html/ : /./,
          );
          await res.arrayBuffer();
        }
        continue;
      }
      for (const body of route.method === 'GET' || route.method === 'HEAD' ? [undefined] : bodies) {
        const headers: Record<string, string> =
          body === undefined ? {} : { 'content-type': 'application/json' };
        const res = await client.call(route.method, path, body, headers);
        const label = `${route.method} ${path.slice(0, 80)} ${String(body).slice(0, 60)}`;
        // An answer to HEAD has no body (HTTP): its status alone is the answer.
        if (route.method === 'HEAD') expect(res.status, label).toBeLessThan(500);
        else expectEnvelope(res.status, res.body, label);
      }
    }
  });
});

// A malformed percent-escape names nothing: the same answer as a well-formed id that does not exist (404 where
// the path is what is wrong; the route's own 401/400/415 where it checks the caller or body first), never a 500.
describe('a malformed escape in a path parameter', () => {
  // A session of its own: the probe above signs its client out (GET /api/client/logout).
  let signedInClient: ApiClient;
  beforeAll(async () => {
    signedInClient = (await signedIn(stack.url)).client;
  });
  const cookieOf = () => [...signedInClient.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const withParams = (routes as readonly RouteDef[]).filter((r) => r.path.includes('{') && !r.localOnly);
  const nobody = '0f8fad5b-d9cb-469f-a165-70867728950e';
  it.each(withParams.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s answers as for an id that names nothing',
    async (_key, route) => {
      const call = async (value: string) => {
        const res = await fetch(new URL(route.path.replace(/\{\w+\}/g, value), stack.url), {
          method: route.method,
          headers: {
            origin: stack.url,
            'cloudfront-viewer-address': signedInClient.source,
            cookie: cookieOf(),
          },
        });
        const text = await res.text();
        // An answer to HEAD has no body: then its status alone is compared.
        const code =
          text && res.headers.get('content-type')?.startsWith('application/json')
            ? JSON.parse(text).code
            : text;
        return { status: res.status, code: res.status === 404 ? 'not found' : code };
      };
      const malformed = await call('%ZZ');
      expect(malformed.status).toBeLessThan(500);
      expect(malformed).toEqual(await call(nobody));
    },
  );

  it('GET /api/client/website/%ZZ and the reporter page /r/%ZZ say 404', async () => {
    expect((await signedInClient.get('/api/client/website/%ZZ')).body).toMatchObject({ code: 'NOT_FOUND' });
    const res = await fetch(new URL('/r/%ZZ', stack.url));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    await res.arrayBuffer();
  });
});
