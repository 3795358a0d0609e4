/**
 * What the vendor clients share: a fetch-compatible `Http` function (the
 * SSRF-guarded client of functions/runtime/outbound.ts for user hosts, plain fetch for fixed vendor URLs),
 * capped response reading, and the one mapping of vendor failures to permanent or retryable
 * (docs/decisions.md "Vendor errors").
 */
import { titleOf, type VendorName } from '#contracts/integration-catalogue';

/** A fetch-compatible function; each client takes one so that a guard (or a test double) plugs in. */
export type Http = (input: string | URL, init?: RequestInit) => Promise<Response>;

export type { VendorName };

/** Largest vendor answer read; vendors' lists are paged well below it. */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Time limit of one vendor call (the delivery consumer's timeout is 60 s for all of them). */
export const VENDOR_TIMEOUT_MS = 15_000;

/**
 * A vendor call that failed. `permanent` failures (a refused token, a missing project or channel, a
 * refused request) fail the delivery at once with `reason`, which the client sees; the others are
 * retried through the queue. `retryAfterSeconds` carries a 429's Retry-After.
 */
export class VendorError extends Error {
  constructor(
    readonly vendor: VendorName,
    readonly permanent: boolean,
    /** A short, user-visible reason without secrets. */
    readonly reason: string,
    readonly details: { status?: number; code?: string; retryAfterSeconds?: number } = {},
  ) {
    super(`${vendor}: ${reason}`);
    this.name = 'VendorError';
  }
}

export const isVendorError = (err: unknown): err is VendorError => err instanceof VendorError;

/**
 * Whether the vendor itself is out of order (5xx, 408, 429, a timeout, no connection), as opposed to
 * refusing what the client gave it (a token, a host, a project): only the former is a 5xx of Snag's API
 * (docs/decisions.md "Vendor authorisation errors").
 */
export const isVendorOutage = (err: VendorError): boolean => {
  if (err.permanent) return false;
  const { status, code } = err.details;
  // A 403 that is not permanent is GitHub's rate limit (statusError).
  if (status !== undefined && status !== 200)
    return status === 403 || status === 408 || status === 429 || status >= 500;
  // Slack's retryable `ok: false` codes (ratelimited, internal_error…), a timeout, no connection; a host
  // the guard cannot resolve is the client's (a typo), as is an answer that is not the vendor's API.
  return code !== undefined && code !== 'host_refused';
};

/** Retry-After in seconds (delta-seconds or an HTTP date), bounded to 15 minutes. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  const secs = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  if (!Number.isFinite(secs)) return undefined;
  return Math.min(900, Math.max(0, Math.ceil(secs)));
}

/**
 * An HTTP status as a VendorError: 401/403 (token refused) and 404/410 (project, channel or issue gone)
 * and other 4xx are permanent; 408, 429 and 5xx are retryable.
 */
export function statusError(vendor: VendorName, res: Response, what: string, code?: string): VendorError {
  const title = titleOf(vendor);
  const status = res.status;
  const retryAfter = retryAfterSeconds(res.headers.get('retry-after'));
  if (status === 429) {
    return new VendorError(vendor, false, `${title} is rate limiting requests (${what})`, {
      status,
      ...(code ? { code } : {}),
      ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
    });
  }
  // GitHub's rate limits answer 403 too: with Retry-After (secondary limits) or no requests left
  // (`x-ratelimit-remaining: 0`, primary). Waiting fixes those; a refused token is the other 403.
  const limited =
    status === 403 && (retryAfter !== undefined || res.headers.get('x-ratelimit-remaining') === '0');
  if (limited) {
    return new VendorError(vendor, false, `${title} is rate limiting requests (${what})`, {
      status,
      ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
    });
  }
  if (status === 408 || status >= 500) {
    return new VendorError(vendor, false, `${title} is not available (${status}, ${what})`, { status });
  }
  const reason =
    status === 401 || status === 403
      ? `${title} refused the token (${status}): check the authorisation`
      : status === 404 || status === 410
        ? `${title} could not find the ${what} (${status}): check the chosen project`
        : `${title} refused the request (${status}, ${what})`;
  return new VendorError(vendor, true, reason, { status, ...(code ? { code } : {}) });
}

/** Reads at most `cap` bytes of a body; a longer one fails (retryable: nothing was recorded). */
export async function readCapped(vendor: VendorName, res: Response, cap = MAX_RESPONSE_BYTES) {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > cap) {
    await res.body?.cancel().catch(() => {});
    throw new VendorError(vendor, false, `${titleOf(vendor)} answered more than ${cap} bytes`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      throw new VendorError(vendor, false, `${titleOf(vendor)} answered more than ${cap} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body as JSON (capped); a body that is not JSON is undefined. */
export async function readJson(vendor: VendorName, res: Response): Promise<unknown> {
  const text = await readCapped(vendor, res);
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A 429 whose Retry-After is at most this is retried once in place. */
export const INLINE_RETRY_MAX_SECONDS = 5;
const inlineRetried = new WeakSet<RequestInit>();

/**
 * One vendor call with a time limit. A network failure or a timeout is retryable; the caller maps the
 * answer (`ok` or `statusError`).
 */
export async function send(
  vendor: VendorName,
  http: Http,
  url: string | URL,
  init: RequestInit,
  timeoutMs = VENDOR_TIMEOUT_MS,
): Promise<Response> {
  try {
    const res = await http(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(timeoutMs) });
    // A short Retry-After is waited out once here; a longer one is left to the queue's retry.
    const wait = res.status === 429 ? retryAfterSeconds(res.headers.get('retry-after')) : undefined;
    if (wait !== undefined && wait <= INLINE_RETRY_MAX_SECONDS && !inlineRetried.has(init)) {
      await res.body?.cancel().catch(() => {});
      await new Promise((r) => setTimeout(r, wait * 1000));
      inlineRetried.add(init);
      return await send(vendor, http, url, init, timeoutMs);
    }
    return res;
  } catch (err) {
    if (err instanceof VendorError) throw err;
    const name = (err as Error)?.name;
    if (name === 'OutboundRefused') {
      // The SSRF guard (functions/runtime/outbound.ts): a refused target is permanent, a refused answer not.
      const refused = err as Error & { reason?: string; permanent?: boolean };
      throw new VendorError(
        vendor,
        refused.permanent !== false,
        `${titleOf(vendor)} host is not allowed (${refused.reason ?? 'refused'})`,
        { code: 'host_refused' },
      );
    }
    const timedOut = name === 'TimeoutError' || name === 'AbortError';
    throw new VendorError(
      vendor,
      false,
      `${titleOf(vendor)} ${timedOut ? 'timed out' : 'could not be reached'}`,
      {
        code: timedOut ? 'timeout' : 'unreachable',
      },
    );
  }
}

/** A call whose JSON answer is wanted: non-2xx becomes a VendorError, redirects included. */
export async function sendJson(
  vendor: VendorName,
  http: Http,
  url: string | URL,
  init: RequestInit,
  what: string,
): Promise<unknown> {
  const res = await send(vendor, http, url, init);
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel().catch(() => {});
    throw new VendorError(
      vendor,
      true,
      `${titleOf(vendor)} redirected the request (${what}): check the host`,
      {
        status: res.status,
      },
    );
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw statusError(vendor, res, what);
  }
  return readJson(vendor, res);
}

/**
 * A user-supplied host as a base URL: `gitlab.example.com` → `https://gitlab.example.com`; an explicit
 * http(s) scheme is kept (the outbound guard decides whether plain http is allowed), a path prefix too
 * (GitLab under /gitlab), the trailing slash dropped. Anything else is refused.
 */
export function baseUrlOf(vendor: VendorName, host: string): string {
  const raw = host.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new VendorError(vendor, true, `${titleOf(vendor)} host is not a valid address`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    throw new VendorError(vendor, true, `${titleOf(vendor)} host is not a valid address`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A file to upload to a vendor. */
export interface VendorFile {
  name: string;
  type: string;
  data: Uint8Array;
}

export const blobOf = (file: VendorFile) =>
  new Blob([file.data as Uint8Array<ArrayBuffer>], { type: file.type });

/** What the SSRF-guarded client (functions/runtime/outbound.ts) takes: a string or byte body, plain headers. */
export type GuardedFetch = (
  url: string | URL,
  init?: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array;
    signal?: AbortSignal;
  },
) => Promise<Response>;

/**
 * The guarded client as an `Http`: bodies the guard does not take (FormData, URLSearchParams) are
 * serialised first, with the content type (and multipart boundary) they produce.
 */
export function guardedHttp(guarded: GuardedFetch): Http {
  return async (url, init = {}) => {
    const method = init.method ?? 'GET';
    const request = new Request(String(url), {
      method,
      headers: init.headers ?? {},
      ...(init.body !== undefined && init.body !== null ? { body: init.body } : {}),
    });
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      headers[k] = v;
    });
    const body = init.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    return guarded(url, {
      method,
      headers,
      ...(body ? { body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  };
}
