/**
 * The page each vendor fake serves at `GET /_fake` (README "Vendor fakes"): what it received, newest
 * first, so that someone trying Snag with `npm start` can see a report arrive in
 * GitLab, Jira, Slack, Asana, Linear or at the webhook receiver without reading logs. It refreshes itself.
 *
 * Everything shown came from a visitor's report or a client's settings, so every value is escaped, and
 * credentials are shown by their scheme only (headers) or as `••••` (body fields and query parameters named
 * like secrets).
 */
import { escapeHtml as esc } from '#runtime/mail';
import type { RecordedRequest } from './recorded';

export const INSPECT_PATH = '/_fake';

/** Headers worth seeing; anything else stays in the recorded requests the tests read. */
const shownHeaders = [
  'content-type',
  'accept',
  'x-github-api-version',
  'x-atlassian-token',
  'x-snag-signature',
  'x-snag-correlation-id',
];
const BODY_SHOWN = 4000;

/** Body fields that carry credentials (OAuth exchanges, token refreshes). */
const secretKey = /secret|token|password/i;
const redact = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(redact)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value).map(([k, v]) => [
            k,
            secretKey.test(k) && typeof v === 'string' ? '••••' : redact(v),
          ]),
        )
      : value;

/**
 * `Bearer ••••`: enough to see which scheme arrived, nothing of the secret. A header that is one word is
 * a bare key (Linear's personal API keys have no scheme), so none of it is shown.
 */
const credentialScheme = (headers: Record<string, string>) => {
  const auth = headers.authorization?.trim();
  if (auth) return /\s/.test(auth) ? `${auth.split(/\s+/)[0]} ••••` : 'API key ••••';
  if (headers['x-snag-token']) return 'X-Snag-Token ••••';
  if (headers['private-token']) return 'PRIVATE-TOKEN ••••';
  return '';
};

function requestBlock(r: RecordedRequest): string {
  const headers = shownHeaders
    .filter((h) => r.headers[h])
    .map((h) => `<div><b>${esc(h)}</b>: ${esc(r.headers[h] ?? '')}</div>`);
  const credentials = credentialScheme(r.headers);
  if (credentials) headers.unshift(`<div><b>credentials</b>: ${esc(credentials)}</div>`);
  const body = r.body === undefined ? '' : JSON.stringify(redact(r.body), null, 2);
  const shown =
    body.length > BODY_SHOWN ? `${body.slice(0, BODY_SHOWN)}\n… (${body.length} characters)` : body;
  const files = r.files.map((f) => `<li>${esc(f.name)} (${esc(f.type || 'no type')}, ${f.size} bytes)</li>`);
  // Query parameters named like secrets are credentials too (Trello's `token`, as its spec puts it there).
  const query = Object.entries(redact(r.query) as Record<string, string>)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `<section><h2><span class="m">${esc(r.method)}</span> ${esc(r.path)}${query ? `?${esc(query)}` : ''}
<time>${esc(r.at)}</time></h2>${headers.join('')}${shown ? `<pre>${esc(shown)}</pre>` : ''}${
    files.length ? `<ul>${files.join('')}</ul>` : ''
  }</section>`;
}

export function receivedPage(vendor: string, requests: readonly RecordedRequest[]): string {
  const list = [...requests].reverse().map(requestBlock).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(vendor)} (local fake): received</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
section{border-top:1px solid #ddd;padding:.5rem 0}h2{font-size:1rem;margin:.3rem 0;overflow-wrap:anywhere}
.m{font-family:monospace;background:#eef;padding:0 .3rem}time{float:right;font-weight:normal;color:#666;font-size:.85rem}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;max-height:24rem;font-size:.8rem}div{font-size:.85rem}</style></head>
<body><h1>${esc(vendor)}: what the local fake received</h1>
<p>${requests.length} request${requests.length === 1 ? '' : 's'} since it started, newest first. This page refreshes every 5 seconds.</p>
${list || '<p>Nothing yet.</p>'}</body></html>`;
}
