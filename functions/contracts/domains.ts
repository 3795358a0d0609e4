/**
 * Project domains: what a client types (a domain or a URL) becomes a normalised host, and the widget
 * loader decides with the same function whether a page belongs to the project. One rule, two runtimes:
 * the API (validation, display) and the loader (in the customer's browser).
 *
 * Matching (docs/decisions.md "Domain matching"): the page host equals the project host, or is one of its
 * subdomains (www.example.com and shop.example.com belong to a project for example.com). A project for
 * www.example.com also matches the bare example.com. The wildcard setting matches every host.
 */

/** The normalised host of a domain or URL, or null when it is not one (lower case, punycode, no port). */
export function normaliseHost(input: string): string | null {
  const value = input.trim();
  if (value === '' || /\s/.test(value)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  const host = url.hostname.replace(/\.$/, '');
  // A host is "localhost", an IP address, or dotted labels of letters, digits and hyphens.
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  const labels = host.split('.');
  const isIpv4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
  const isIpv6 = host.startsWith('[') && host.endsWith(']');
  // WHATWG URL turns shorthand like "1.2.3" into 1.2.0.3; only a literally written address counts.
  if (isIpv4 && !value.includes(host)) return null;
  if (host === 'localhost' || isIpv4 || isIpv6) return host;
  if (labels.length < 2 || !labels.every((l) => label.test(l))) return null;
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return null;
  return host;
}

/** Whether a page on `pageHost` shows the widget of a project for `projectHost`. */
export function hostMatches(pageHost: string, projectHost: string, wildcard: boolean): boolean {
  if (wildcard) return true;
  const page = pageHost.toLowerCase().replace(/\.$/, '');
  const project = projectHost.toLowerCase();
  const bare = project.startsWith('www.') ? project.slice(4) : project;
  return page === project || page === bare || page.endsWith(`.${bare}`);
}

/**
 * The one form in which the dashboard shows a project's domain (list, header, installation, preview): the
 * normalised host without a leading `www.`, which is also exactly what `hostMatches` matches (the bare
 * domain and its subdomains). Only where the domain is edited does the client see the URL as typed.
 */
export function displayDomain(host: string): string {
  const bare = host.startsWith('www.') ? host.slice(4) : host;
  return bare.includes('.') ? bare : host;
}
