/**
 * The gateway's API Gateway v2 events and result mapping, checked against what AWS sends (payload format
 * 2.0). No stack needed; the HTTP side of the same code runs in gateway.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { apiGatewayTime, buildApiEvent, isTextContent, parseQuery } from '../../lib/local/api-event';
import { toHttpReply } from '../../lib/local/api-result';
import { cacheControl, safeJoin } from '../../lib/local/static';

const request = (over: Partial<Parameters<typeof buildApiEvent>[0]> = {}) => ({
  method: 'POST',
  url: '/api/project/p-1?a=1&b=x%20y&a=2&flag&plus=a+b',
  headers: {
    Host: ['localhost:3000'],
    'User-Agent': ['test-agent'],
    'Content-Type': ['application/json'],
    Cookie: ['session=abc; theme=dark', 'lang=de'],
    'X-Multi': ['one', 'two'],
  },
  body: Buffer.from('{"name":"x"}'),
  sourceIp: '127.0.0.1',
  ...over,
});

describe('buildApiEvent', () => {
  const route = { routeKey: 'POST /api/project/{id}', pathParameters: { id: 'p-1' } };

  it('builds a payload format 2.0 event', () => {
    const now = new Date(Date.UTC(2025, 10, 21, 6, 4, 5));
    const e = buildApiEvent(request(), route, now);
    expect(e).toMatchObject({
      version: '2.0',
      routeKey: 'POST /api/project/{id}',
      rawPath: '/api/project/p-1',
      rawQueryString: 'a=1&b=x%20y&a=2&flag&plus=a+b',
      cookies: ['session=abc', 'theme=dark', 'lang=de'],
      queryStringParameters: { a: '1,2', b: 'x y', flag: '', plus: 'a b' },
      pathParameters: { id: 'p-1' },
      body: '{"name":"x"}',
      isBase64Encoded: false,
      requestContext: {
        accountId: expect.any(String),
        apiId: expect.any(String),
        domainName: 'localhost',
        http: {
          method: 'POST',
          path: '/api/project/p-1',
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: 'test-agent',
        },
        requestId: expect.any(String),
        routeKey: 'POST /api/project/{id}',
        stage: '$default',
        time: '21/Nov/2025:06:04:05 +0000',
        timeEpoch: now.getTime(),
      },
    });
    // Lower-cased names, repeated headers comma-joined, the cookie header moved to `cookies`.
    expect(e.headers).toEqual({
      host: 'localhost:3000',
      'user-agent': 'test-agent',
      'content-type': 'application/json',
      'x-multi': 'one,two',
    });
  });

  it('gives every request its own id', () => {
    expect(buildApiEvent(request(), route).requestContext.requestId).not.toBe(
      buildApiEvent(request(), route).requestContext.requestId,
    );
  });

  it('leaves out what the request does not have', () => {
    const e = buildApiEvent(
      request({ url: '/api/health', headers: {}, body: Buffer.alloc(0), method: 'GET' }),
      {
        routeKey: 'GET /api/health',
        pathParameters: {},
      },
    );
    expect(e.rawQueryString).toBe('');
    expect(e).not.toHaveProperty('queryStringParameters');
    expect(e).not.toHaveProperty('pathParameters');
    expect(e).not.toHaveProperty('cookies');
    expect(e).not.toHaveProperty('body');
    expect(e.isBase64Encoded).toBe(false);
  });

  it('base64-encodes bodies that are not text', () => {
    const bytes = Buffer.from([0, 255, 10, 128]);
    const e = buildApiEvent(request({ headers: { 'content-type': ['image/png'] }, body: bytes }), route);
    expect(e.isBase64Encoded).toBe(true);
    expect(e.body).toBe(bytes.toString('base64'));
  });

  it('knows text content types', () => {
    for (const t of [
      'text/plain',
      'application/json; charset=utf-8',
      'application/vnd.api+json',
      'application/xml',
    ])
      expect(isTextContent(t), t).toBe(true);
    for (const t of ['image/png', 'application/octet-stream', 'multipart/form-data; boundary=x'])
      expect(isTextContent(t), t).toBe(false);
  });

  it('parses query strings like API Gateway', () => {
    expect(parseQuery('')).toBeUndefined();
    expect(parseQuery('x=%E2%9C%93&bad=%zz')).toEqual({ x: '✓', bad: '%zz' });
    expect(apiGatewayTime(new Date(Date.UTC(2024, 0, 2, 3, 4, 5)))).toBe('02/Jan/2024:03:04:05 +0000');
  });
});

describe('toHttpReply', () => {
  it('maps a structured result, its cookies and base64 bodies', () => {
    const r = toHttpReply({
      statusCode: 201,
      headers: { 'Content-Type': 'image/png', 'X-N': 5 as unknown as string },
      cookies: ['a=1; HttpOnly', 'b=2'],
      body: Buffer.from([1, 2, 3]).toString('base64'),
      isBase64Encoded: true,
    });
    expect(r.statusCode).toBe(201);
    expect(r.headers).toEqual({
      'content-type': 'image/png',
      'x-n': '5',
      'set-cookie': ['a=1; HttpOnly', 'b=2'],
    });
    expect([...r.body]).toEqual([1, 2, 3]);
  });

  it('infers a 200 JSON response when the result has no statusCode, as API Gateway does', () => {
    const obj = toHttpReply({ hello: 'world' } as never);
    expect(obj.statusCode).toBe(200);
    expect(obj.headers['content-type']).toBe('application/json');
    expect(obj.body.toString()).toBe('{"hello":"world"}');
    expect(toHttpReply('plain').body.toString()).toBe('plain');
  });
});

describe('static file rules', () => {
  it('keeps paths inside the root', () => {
    expect(safeJoin('/srv/web', '/a/b.js')).toBe('/srv/web/a/b.js');
    expect(safeJoin('/srv/web', '/../etc/passwd')).toBeUndefined();
    expect(safeJoin('/srv/web', '/%2e%2e/%2e%2e/etc/passwd')).toBeUndefined();
    expect(safeJoin('/srv/web', '/a/../b.js')).toBe('/srv/web/b.js');
    expect(safeJoin('/srv/web', '/a%00.js')).toBeUndefined();
    expect(safeJoin('/srv/web', '/%E0%A4%A')).toBeUndefined();
  });

  it('caches only content-hashed files for long', () => {
    expect(cacheControl('/d/assets/index-BxY_12ab.js')).toContain('immutable');
    expect(cacheControl('/d/app.3f9a1c2b.js')).toContain('immutable');
    expect(cacheControl('/d/index.html')).toBe('no-cache');
    expect(cacheControl('/d/app-settings.js')).toBe('no-cache');
  });
});
