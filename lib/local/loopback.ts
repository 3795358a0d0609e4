/**
 * The one local URL is `http://localhost:<port>`: it is APP_ORIGIN, so mail links, the API's origin check
 * and the session cookie's host all name it. A browser opened on another spelling of the same loopback
 * address (`127.0.0.1`, `[::1]`) would load the dashboard but have every form refused as coming from a
 * foreign origin, so pages asked for there are redirected to the one URL (docs/decisions.md "One local
 * origin"). The API is not redirected: a script calling it by address gets its answer, and browsers only
 * call it from pages, which are on the one URL.
 */
import type { IncomingMessage } from 'node:http';

const otherSpellings = new Set(['127.0.0.1', '[::1]']);

/** Where to send a page request that used another loopback spelling; undefined to serve it as it is. */
export function loopbackRedirect(
  req: Pick<IncomingMessage, 'headers' | 'url'>,
  url: string,
): string | undefined {
  const host = req.headers.host ?? '';
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  if (!otherSpellings.has(name ?? '')) return undefined;
  const path = req.url ?? '/';
  // Only a path, never a scheme-relative `//host` that would make this an open redirect.
  return `${url}${path.startsWith('/') && !path.startsWith('//') ? path : '/'}`;
}
