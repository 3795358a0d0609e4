/**
 * A browser-like API client for integration tests: keeps cookies per client (so two clients are two
 * signed-in people), sends the dashboard's Origin, and returns status + parsed envelope.
 */
export interface ApiReply<T = unknown> {
  status: number;
  body:
    | { status: 'success'; msg: T }
    | { status: 'error'; code: string; msg: string; fields?: Record<string, string> };
  setCookies: string[];
  /** The response's headers (Retry-After, RateLimit-*). */
  headers: Headers;
}

let clients = 0;
/** A caller address of its own (`ip:port`, as CloudFront sends it) for every new client. */
export const newSource = () => {
  const n = ++clients;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}:40000`;
};

export class ApiClient {
  readonly cookies = new Map<string, string>();

  /**
   * Each client is a browser on a network of its own (its own `CloudFront-Viewer-Address`), so the
   * per-source throttles of one test do not spill into the next; clients given one `source` share it.
   */
  constructor(
    readonly baseUrl: string,
    readonly origin = baseUrl,
    readonly source = newSource(),
  ) {}

  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: {
        origin: this.origin,
        'cloudfront-viewer-address': this.source,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const setCookies = res.headers.getSetCookie();
    for (const c of setCookies) {
      const [pair = '', ...attrs] = c.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    return {
      status: res.status,
      body: text ? JSON.parse(text) : undefined,
      setCookies,
      headers: res.headers,
    } as ApiReply<T>;
  }

  get<T = unknown>(path: string) {
    return this.call<T>('GET', path);
  }
  post<T = unknown>(path: string, body: unknown = {}) {
    return this.call<T>('POST', path, body);
  }
  patch<T = unknown>(path: string, body: unknown = {}) {
    return this.call<T>('PATCH', path, body);
  }
  delete<T = unknown>(path: string) {
    return this.call<T>('DELETE', path);
  }
}

export interface SentMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  date: string;
}

/** The newest mail to `to` from the local mailbox (GET /api/dev/emails). */
export async function latestMail(baseUrl: string, to: string): Promise<SentMail | undefined> {
  const res = await fetch(new URL(`/api/dev/emails?to=${encodeURIComponent(to)}`, baseUrl));
  const body = (await res.json()) as { msg: SentMail[] };
  return body.msg[0];
}

export async function mailCount(baseUrl: string, to: string): Promise<number> {
  const res = await fetch(new URL(`/api/dev/emails?to=${encodeURIComponent(to)}`, baseUrl));
  return ((await res.json()) as { msg: SentMail[] }).msg.length;
}

/** The first link in a mail's text that points at `path`. */
export function linkIn(mail: SentMail | undefined, path: string): URL {
  const match = mail?.text.match(new RegExp(`https?://\\S+${path}\\S*`));
  if (!match) throw new Error(`no ${path} link in mail: ${mail?.text}`);
  return new URL(match[0]);
}
