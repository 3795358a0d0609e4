// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countPlaceholders, imageFetcher } from '../../../widget/src/capture/image-cache';

const PLACEHOLDER = 'data:image/svg+xml,grey';

/** Fetch as the browser answers it: other origins without CORS are refused, /missing.png is a 404. */
function fakeFetch(url: string | URL | Request): Promise<Response> {
  const u = new URL(String(url), location.href);
  if (u.origin !== location.origin && !u.pathname.startsWith('/cors/'))
    return Promise.reject(new TypeError('Failed to fetch'));
  if (u.pathname === '/missing.png') return Promise.resolve(new Response('', { status: 404 }));
  return Promise.resolve(new Response(new Blob(['png'], { type: 'image/png' })));
}

let run = 0;
/** A fresh URL per test: the cache lives as long as the page (the module). */
const url = (path: string) => `${path}?t=${run}`;

beforeEach(() => {
  run++;
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
});
afterEach(() => vi.unstubAllGlobals());

describe('counting the images a capture replaced with the placeholder', () => {
  it('counts each other-origin image without CORS once, and nothing else', async () => {
    const fetchFn = imageFetcher(PLACEHOLDER);
    const foreign = url('https://photos.example.net/a.jpg');
    const { value, placeholders } = await countPlaceholders(async () =>
      Promise.all([
        fetchFn(foreign),
        fetchFn(foreign), // the same image twice on the page
        fetchFn(url('https://cdn.example.org/b.png')),
        fetchFn(url('https://photos.example.net/cors/ok.png')), // sends CORS headers: copied
        fetchFn(url('/missing.png')), // broken on the page itself: not the capture's doing
        fetchFn(url('/logo.png')),
        fetchFn('data:image/png;base64,AAAA'),
      ]),
    );
    expect(placeholders).toBe(2);
    expect(value.filter((v) => v === PLACEHOLDER)).toHaveLength(4);
  });

  it('counts a cached failure again in the next capture, and nothing outside a capture', async () => {
    const fetchFn = imageFetcher(PLACEHOLDER);
    const foreign = url('https://photos.example.net/c.jpg');
    expect((await countPlaceholders(() => fetchFn(foreign))).placeholders).toBe(1);
    expect((await countPlaceholders(() => fetchFn(foreign))).placeholders).toBe(1);
    expect(fetch).toHaveBeenCalledTimes(1); // the second capture used the cache
    expect(await fetchFn(foreign)).toBe(PLACEHOLDER);
    expect((await countPlaceholders(async () => 'no images')).placeholders).toBe(0);
  });
});
