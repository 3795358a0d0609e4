/** CloudFront's edge compression as the local stack plays it (lib/local/compress.ts). */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { HttpReply } from '../../../lib/local/api-result';
import { chooseEncoding, compressReply } from '../../../lib/local/compress';

/** Text that compresses like a bundle: repetitive but not trivial. */
const text = (bytes: number) => Buffer.alloc(bytes, 'function snag(a,b){return a+b;}\n');

const js = (body: Buffer, headers: Record<string, string> = {}): HttpReply => ({
  statusCode: 200,
  headers: { 'content-type': 'text/javascript; charset=utf-8', ...headers },
  body,
});

describe('chooseEncoding', () => {
  it('prefers Brotli, then Gzip, as CloudFront does', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('GZIP')).toBe('gzip');
    // Weights do not reorder the two; q=0 refuses one.
    expect(chooseEncoding('br;q=0.1, gzip;q=1')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('br; q=0.0, gzip;q=0')).toBeUndefined();
  });

  it('compresses nothing for a viewer that does not ask, names only other codings, or speaks HTTP/1.0', () => {
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('')).toBeUndefined();
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('deflate, zstd, *')).toBeUndefined();
    expect(chooseEncoding('gzip, br', '1.0')).toBeUndefined();
  });
});

describe('compressReply', () => {
  it('sends Brotli or Gzip by Accept-Encoding, with Vary, and a body that decodes to the original', () => {
    const body = text(6000);
    const br = compressReply(js(body), { acceptEncoding: 'gzip, deflate, br' });
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'Accept-Encoding' });
    expect(br.body.length).toBeLessThan(body.length / 4);
    expect(brotliDecompressSync(br.body)).toEqual(body);

    const gz = compressReply(js(body), { acceptEncoding: 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body)).toEqual(body);
  });

  it('leaves a compressible body unencoded for a viewer that does not ask, but still says it varies', () => {
    const body = text(6000);
    const plain = compressReply(js(body), {});
    expect(plain.body).toBe(body);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
  });

  it('compresses from 1,000 bytes to 10,000,000 bytes, bounds included, and nothing outside them', () => {
    const viewer = { acceptEncoding: 'gzip' };
    expect(compressReply(js(text(999)), viewer).headers['content-encoding']).toBeUndefined();
    expect(compressReply(js(text(999)), viewer).headers.vary).toBeUndefined();
    expect(compressReply(js(text(1000)), viewer).headers['content-encoding']).toBe('gzip');
    expect(compressReply(js(text(10_000_000)), viewer).headers['content-encoding']).toBe('gzip');
    expect(compressReply(js(text(10_000_001)), viewer).headers['content-encoding']).toBeUndefined();
  });

  it('compresses only the types on CloudFront list', () => {
    const viewer = { acceptEncoding: 'br' };
    const as = (type: string) =>
      compressReply({ statusCode: 200, headers: { 'content-type': type }, body: text(5000) }, viewer).headers[
        'content-encoding'
      ];
    expect(as('text/html; charset=utf-8')).toBe('br');
    expect(as('text/css; charset=utf-8')).toBe('br');
    expect(as('application/json')).toBe('br');
    expect(as('image/svg+xml')).toBe('br');
    expect(as('image/png')).toBeUndefined();
    expect(as('font/woff2')).toBeUndefined();
    expect(as('application/octet-stream')).toBeUndefined();
    expect(compressReply({ statusCode: 200, headers: {}, body: text(5000) }, viewer).headers).toEqual({});
  });

  it('never compresses twice', () => {
    const already = js(text(5000), { 'content-encoding': 'gzip' });
    expect(compressReply(already, { acceptEncoding: 'br' })).toBe(already);
  });

  it('weakens a strong ETag, keeps a weak one, drops an invalid one, and adds to an existing Vary', () => {
    const viewer = { acceptEncoding: 'br' };
    expect(compressReply(js(text(5000), { etag: '"abc"' }), viewer).headers.etag).toBe('W/"abc"');
    expect(compressReply(js(text(5000), { etag: 'W/"abc"' }), viewer).headers.etag).toBe('W/"abc"');
    expect(compressReply(js(text(5000), { etag: 'abc' }), viewer).headers.etag).toBeUndefined();
    expect(compressReply(js(text(5000), { vary: 'Origin' }), viewer).headers.vary).toBe(
      'Origin, Accept-Encoding',
    );
    expect(compressReply(js(text(5000), { vary: 'accept-encoding' }), viewer).headers.vary).toBe(
      'accept-encoding',
    );
  });

  it('drops a Content-Length the origin set, which no longer fits the body', () => {
    const out = compressReply(js(text(5000), { 'content-length': '5000' }), { acceptEncoding: 'gzip' });
    expect(out.headers['content-length']).toBeUndefined();
  });
});
