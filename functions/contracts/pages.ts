/**
 * A report's page as Snag groups reports by it: host and path, with what varies per visitor or per record
 * generalised (numbers, ids, hashes, addresses), so "/orders/1043/pay" and "/orders/2210/pay" are one page.
 * A hash route (`#/orders/12`) counts as path.
 * Shared by Insights (top pages, docs/insights.md) and similar reports (the "same page" signal), so both
 * speak of the same page. Pure; no query, no fragment, no scheme, no port.
 */

/** At most this many path segments are kept (deeper ones read as `…`), and this many characters in all. */
export const pageLimits = { segments: 8, length: 200 } as const;

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const hex = /^[0-9a-f]{8,}$/i;
const numeric = /^\d+([.,_-]\d+)*$/;

/** One path segment as the page key keeps it. */
function segment(raw: string): string {
  let s = raw;
  try {
    s = decodeURIComponent(raw);
  } catch {
    // A malformed escape stays as it came.
  }
  s = s.toLowerCase();
  if (numeric.test(s)) return ':n';
  if (uuid.test(s)) return ':id';
  if (s.includes('@')) return ':email';
  // Hashes and tokens: long hex, or a long run mixing letters and digits with no word separators.
  if (hex.test(s) && /\d/.test(s)) return ':id';
  if (s.length >= 16 && /\d/.test(s) && /[a-z]/.test(s) && !/[-_.~]/.test(s)) return ':id';
  // A slug ending in a number ("invoice-2024-118") keeps its words.
  if (/^[a-z]+([-_][a-z]+)*[-_]\d+([-_]\d+)*$/.test(s)) return s.replace(/([-_]\d+)+$/, '-:n');
  return s;
}

/**
 * The normalised page of an address: `host/path` (host lowercased, without `www.`), ids generalised, no
 * trailing slash; '' for anything that is not an http(s) address.
 */
export function normalisePage(href: string | undefined | null): string {
  if (!href) return '';
  let url: URL;
  try {
    url = new URL(href.slice(0, 2000));
  } catch {
    return '';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  // A single-page app's hash route (`#/orders/12`) is where the visitor was; any other fragment is not.
  const route = url.hash.startsWith('#/') ? (url.hash.slice(1).split('?')[0] ?? '') : '';
  const parts = `${url.pathname}${route}`
    .split('/')
    .filter((s) => s !== '' && s !== 'index.html')
    .map(segment)
    .filter((s) => s !== '');
  const kept = parts.slice(0, pageLimits.segments);
  if (parts.length > kept.length) kept.push('…');
  const path = kept.length ? `/${kept.join('/')}` : '/';
  return `${host}${path}`.slice(0, pageLimits.length);
}
