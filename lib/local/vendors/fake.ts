/**
 * What the vendor fakes share (lib/local/vendors/*): a loopback HTTP server on a free port that parses
 * every request (JSON, form, multipart), records it for tests, and can be told to fail the next matching
 * requests. Each vendor module adds its routes, following ../shared/api-specs and its README. The fakes
 * that send hooks back (GitHub, GitLab, Jira, Linear) post them with `postHook`; GitLab's and Jira's keep
 * what they fire after answering in `backgroundWork`, which their `settled()` waits for.
 * `GET <fake>/_fake` shows a person trying Snag locally what the fake received (lib/local/vendors/inspect.ts).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml as esc } from '#runtime/mail';
import { INSPECT_PATH, receivedPage } from './inspect';
import type { RecordedFile, RecordedRequest } from './recorded';

export interface FakeRequest extends RecordedRequest {
  url: URL;
  /** The body as received, for fakes that check a signature over it. */
  raw: Buffer;
}

export interface FakeReply {
  status?: number;
  json?: unknown;
  text?: string;
  html?: string;
  headers?: Record<string, string>;
}

/** A failure to inject: the next `times` requests whose path matches answer `reply` instead. */
export interface Failure {
  match: string | RegExp;
  times?: number;
  reply: FakeReply;
}

export type Route = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

export interface Fake {
  url: string;
  requests: RecordedRequest[];
  /** Requests whose path matches, in order. */
  calls(match: string | RegExp): RecordedRequest[];
  fail(failure: Failure): void;
  reset(): void;
  stop(): Promise<void>;
}

const BODY_CAP = 120 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_CAP) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function parse(req: IncomingMessage, url: URL): Promise<FakeRequest> {
  const raw = await readBody(req);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
  const type = headers['content-type'] ?? '';
  let body: unknown;
  const files: RecordedFile[] = [];
  if (raw.length > 0) {
    if (type.includes('application/json')) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = { invalidJson: raw.toString('utf8').slice(0, 200) };
      }
    } else if (type.includes('application/x-www-form-urlencoded')) {
      body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    } else if (type.includes('multipart/form-data')) {
      // undici's multipart parser, as a Request body.
      const form = await new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': type },
        body: new Uint8Array(raw),
      })
        .formData()
        .catch(() => undefined);
      const fields: Record<string, string> = {};
      for (const [field, value] of form?.entries() ?? []) {
        if (typeof value === 'string') fields[field] = value;
        else files.push({ field, name: value.name, size: value.size, type: value.type });
      }
      body = fields;
    } else {
      body = { bytes: raw.length };
    }
  }
  return {
    at: new Date().toISOString(),
    url,
    raw,
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body,
    files,
  };
}

function reply(res: ServerResponse, out: FakeReply) {
  const headers = { 'cache-control': 'no-store', ...out.headers };
  if (out.html !== undefined) {
    res
      .writeHead(out.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...headers })
      .end(out.html);
  } else if (out.json !== undefined) {
    res
      .writeHead(out.status ?? 200, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify(out.json));
  } else {
    res.writeHead(out.status ?? 200, { 'content-type': 'text/plain', ...headers }).end(out.text ?? '');
  }
}

const matches = (match: string | RegExp, path: string) =>
  typeof match === 'string' ? path === match || path.endsWith(match) : match.test(path);

/**
 * Starts a fake on 127.0.0.1 (a free port unless given); `route` answers every request but `GET /_fake`,
 * the page of what `vendor` received.
 */
export async function startFake(route: Route, vendor: string, port = 0): Promise<Fake> {
  const requests: RecordedRequest[] = [];
  let failures: Failure[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === INSPECT_PATH) {
      reply(res, { html: receivedPage(vendor, requests) });
      return;
    }
    parse(req, url)
      .then(async (parsed) => {
        const { url: _u, raw: _r, ...recorded } = parsed;
        requests.push(recorded);
        const failure = failures.find((f) => matches(f.match, parsed.path));
        if (failure) {
          if (failure.times !== undefined && --failure.times <= 0)
            failures = failures.filter((f) => f !== failure);
          return reply(res, failure.reply);
        }
        return reply(res, await route(parsed));
      })
      .catch((err) => {
        if (!res.headersSent) reply(res, { status: 500, json: { error: String(err) } });
      });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    calls: (match) => requests.filter((r) => matches(match, r.path)),
    fail: (failure) => failures.push({ ...failure, times: failure.times ?? 1 }),
    reset: () => {
      requests.length = 0;
      failures = [];
    },
    stop: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** A code the consent step handed out: the redirect it was issued for, and whether it was exchanged. */
export interface ConsentCode {
  redirectUri: string;
  used: boolean;
}

/**
 * The consent step of Slack's and Asana's OAuth: issues a code for `redirectUri` (kept in `codes` for the
 * token exchange to check), and answers the consent page, whose Allow returns to the app with the code and
 * the state, and whose Cancel returns with `error=access_denied`.
 */
export function consent(
  vendor: string,
  scopes: string,
  redirectUri: string,
  state: string,
  codes: Map<string, ConsentCode>,
): FakeReply {
  const code = randomBytes(12).toString('hex');
  codes.set(code, { redirectUri, used: false });
  const back = (q: Record<string, string>) => {
    const u = new URL(redirectUri);
    for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
    return u.toString();
  };
  return {
    html: consentPage(vendor, scopes, back({ code, state }), back({ error: 'access_denied', state })),
  };
}

/** The small OAuth consent page of Slack's and Asana's fakes: "Allow" returns to the app with a code. */
function consentPage(vendor: string, scopes: string, allowUrl: string, denyUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(vendor)} (local fake): authorise Snag</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}a{display:inline-block;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:.3rem;text-decoration:none}
.allow{background:#2a7a3b;color:#fff}.deny{border:1px solid #999;color:#333}</style></head>
<body><h1>${esc(vendor)}</h1><p>This is Snag's local stand-in for ${esc(vendor)}. Snag asks for: <code>${esc(scopes)}</code>.</p>
<p><a class="allow" id="allow" href="${esc(allowUrl)}">Allow</a><a class="deny" id="deny" href="${esc(denyUrl)}">Cancel</a></p></body></html>`;
}

/** What the page of an item a fake created shows: its title, a line of facts, its text and comments. */
export interface ItemPage {
  /** The vendor's name for the page's title and first line, e.g. "GitHub". */
  vendor: string;
  /** Where the item lives (a repository, project or channel). */
  place: string;
  title: string;
  /** A short reference shown after the title (`#3`, `WEB-1`), if the vendor has one. */
  reference?: string;
  /** Facts such as the state and labels, shown on one line. */
  facts?: string[];
  body?: string;
  /** Absent: the vendor's item has no comments (a chat message); empty: none yet. */
  comments?: { author: string; body: string }[];
}

/**
 * The page a fake serves at the web address its vendor gives for an item it created (GitHub's `html_url`,
 * GitLab's `web_url`, Jira's `{site}/browse/{key}`, Slack's permalink, Linear's `url`), so the issue
 * page's "Open in …" link opens something on `npm start` instead of a 404. Everything shown is escaped:
 * it is what a visitor typed.
 */
export function itemPage(item: ItemPage): FakeReply {
  const heading = `${esc(item.title)}${item.reference ? ` ${esc(item.reference)}` : ''}`;
  const facts = item.facts?.length ? `<p>${item.facts.map(esc).join(' · ')}</p>` : '';
  const body = item.body ? `<pre>${esc(item.body)}</pre>` : '';
  const comments =
    item.comments === undefined
      ? ''
      : `<h2>Comments</h2><ul>${
          item.comments.map((c) => `<li><b>${esc(c.author)}</b>: <pre>${esc(c.body)}</pre></li>`).join('') ||
          '<li>None yet.</li>'
        }</ul>`;
  return {
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(item.title)} · ${esc(item.place)} (local ${esc(item.vendor)} fake)</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}</style></head>
<body><main><p>${esc(item.vendor)} (local fake) · ${esc(item.place)}</p><h1>${heading}</h1>${facts}${body}${comments}</main></body></html>`,
  };
}

/** The Basic credentials of a request, if any. */
export function basicAuth(headers: Record<string, string>): { user: string; pass: string } | undefined {
  const m = /^Basic\s+(.+)$/i.exec(headers.authorization ?? '');
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), pass: decoded.slice(colon + 1) };
}

export const bearerToken = (headers: Record<string, string>) =>
  /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];

/**
 * Posts one hook delivery to its receiver, as a vendor's webhook sender does: the receiver's status, or 0
 * when it could not be reached or did not answer within `timeoutMs` (no limit when absent). The answer's
 * body is not read.
 */
export async function postHook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs?: number,
): Promise<number> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
    });
    await res.body?.cancel().catch(() => {});
    return res.status;
  } catch {
    return 0;
  }
}

/**
 * What a fake does after it has answered (a vendor fires its hooks in a background job): `track` each
 * piece; `settled()` waits until none is left, including what the awaited ones started meanwhile.
 */
export function backgroundWork() {
  let pending: Promise<unknown>[] = [];
  return {
    track<T>(work: Promise<T>): Promise<T> {
      pending.push(work);
      return work;
    },
    async settled(): Promise<void> {
      while (pending.length > 0) {
        const now = pending;
        pending = [];
        await Promise.all(now);
      }
    },
  };
}
