/**
 * The extension's pure rules (unit-tested in test/unit/extension.test.ts): which server addresses it
 * accepts, the permission pattern for an origin, and which project a page belongs to.
 */
import { hostMatches, normaliseHost } from '#contracts/domains';

/** `npm start`'s local Snag: the address a new install starts with. */
export const DEFAULT_SERVER = 'http://localhost:3000';

/**
 * The Snag server as the user typed it, reduced to its origin; null when it is not one. Only http(s), no
 * credentials, no query or fragment, and no path beyond `/`: the extension's calls are all under `/api/`
 * of that origin, so a path would silently be ignored (better refused).
 */
export function parseServer(input: string): string | null {
  const value = input.trim();
  if (!/^https?:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== '/' && url.pathname !== '') return null;
  if (!normaliseHost(url.hostname)) return null;
  return url.origin;
}

/**
 * The host permission that covers `origin`. Match patterns carry no port (Chromium and Firefox both match
 * any port of the host), so the pattern is scheme and host.
 */
export function hostPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}

/** A page's origin when the extension may work there (http and https pages only), else null. */
export function pageOrigin(href: string | undefined): string | null {
  if (!href) return null;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

export interface ProjectChoice {
  id: string;
  name: string;
  domain: string;
}

/**
 * The project a page on `host` belongs to: the one the user chose on this site before (while they still
 * see it), else the first whose domain matches the host as the widget matches it (subdomains included),
 * the most specific domain first; undefined when none does (the user picks).
 */
export function preselectProject(
  host: string,
  projects: readonly ProjectChoice[],
  remembered: string | undefined,
): string | undefined {
  if (remembered && projects.some((p) => p.id === remembered)) return remembered;
  const matching = projects
    .map((p) => ({ p, domain: normaliseHost(p.domain) }))
    .filter(
      (m): m is { p: ProjectChoice; domain: string } => !!m.domain && hostMatches(host, m.domain, false),
    )
    .sort((a, b) => b.domain.length - a.domain.length);
  return matching[0]?.p.id;
}
