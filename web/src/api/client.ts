/**
 * The dashboard's one API client. Every call goes to `/api` on the same origin (session cookie sent
 * automatically) and unwraps the envelope of DESIGN.md section 2: success resolves to `msg`, anything
 * else throws an `ApiError` carrying a catalogue code, so screens translate errors by code only.
 */
import { type ErrorCode, type ErrorDetails, type ErrorEnvelope, isErrorCode } from '#contracts/errors';
import type { Lang } from '../i18n/language';
import { type Answer, type CallInput, type Endpoint, endpointPath, routeOf } from './endpoints';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status; 0 when the request never got a response. */
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Offending input fields, when the API names them. */
    readonly fields?: Record<string, string>,
    /** What the envelope adds: when a block ends, what each refused field expects. */
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }

  /** The session is missing or expired: the caller should go to login. */
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

/** The catalogue code of any failure: an ApiError's own, SYSTEM_ERROR for anything else. */
export const errorCodeOf = (error: unknown): ErrorCode =>
  error instanceof ApiError ? error.code : 'SYSTEM_ERROR';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiClientOptions {
  /** The current UI language; German adds `lng=de` so server messages come back in German. */
  language: () => Lang;
  /** Injected for tests; the browser's fetch otherwise. */
  fetch?: typeof fetch;
  base?: string;
}

/** `path` plus `lng=de` when the UI is German (SPEC.md section 7). */
export function withLanguage(path: string, lang: Lang): string {
  if (lang !== 'de') return path;
  return `${path}${path.includes('?') ? '&' : '?'}lng=de`;
}

function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  return typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'error';
}

function isSuccessEnvelope(body: unknown): body is { status: 'success'; msg: unknown } {
  return typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'success';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function createApiClient(options: ApiClientOptions) {
  const base = options.base ?? '/api';

  async function send(method: Method, path: string, body: unknown, accept: string): Promise<Response> {
    const doFetch = options.fetch ?? globalThis.fetch;
    const url = withLanguage(`${base}${path}`, options.language());
    // A FormData body goes as multipart (the browser sets its boundary); anything else as JSON.
    const form = typeof FormData !== 'undefined' && body instanceof FormData;
    try {
      return await doFetch(url, {
        method,
        credentials: 'same-origin',
        headers: body === undefined || form ? { accept } : { accept, 'content-type': 'application/json' },
        body: body === undefined ? undefined : form ? (body as FormData) : JSON.stringify(body),
      });
    } catch (cause) {
      throw new ApiError(0, 'SYSTEM_ERROR', cause instanceof Error ? cause.message : 'Network error');
    }
  }

  /** The ApiError of an answer that is not a success: its envelope's code, or SYSTEM_ERROR. */
  function refusal(response: Response, payload: unknown): ApiError {
    if (isErrorEnvelope(payload)) {
      // A code outside the catalogue (e.g. a proxy's own error page in JSON) reads as a system error.
      const code = isErrorCode(payload.code) ? payload.code : 'SYSTEM_ERROR';
      const { retryAt, expected } = payload;
      return new ApiError(response.status, code, String(payload.msg ?? code), payload.fields, {
        ...(typeof retryAt === 'string' ? { retryAt } : {}),
        ...(expected && typeof expected === 'object' ? { expected } : {}),
      });
    }
    // Not our envelope at all: a gateway page, an HTML fallback, an empty body.
    const code: ErrorCode = response.status === 401 ? 'UNAUTHORIZED' : 'SYSTEM_ERROR';
    return new ApiError(
      response.ok ? 502 : response.status,
      code,
      `Unexpected response (${response.status})`,
    );
  }

  async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const response = await send(method, path, body, 'application/json');
    const payload = parseJson(await response.text().catch(() => ''));
    if (response.ok && isSuccessEnvelope(payload)) return payload.msg as T;
    throw refusal(response, payload);
  }

  /** A GET the API answers with the bytes themselves (`type`), not an envelope; a refusal throws as `request`. */
  async function bytes(path: string, type: string): Promise<ArrayBuffer> {
    const response = await send('GET', path, undefined, `${type}, application/json`);
    if (response.ok && response.headers.get('content-type')?.split(';')[0]?.trim() === type)
      return response.arrayBuffer();
    throw refusal(response, parseJson(await response.text().catch(() => '')));
  }

  return {
    /** Calls an endpoint of the route table (web/src/api/endpoints.ts), typed by its handler. */
    call<E extends Endpoint>(endpoint: E, input: CallInput<E> = {}): Promise<Answer<E>> {
      const { method } = routeOf(endpoint);
      const hasBody = method !== 'GET' && method !== 'DELETE';
      return request<Answer<E>>(
        method as Method,
        endpointPath(endpoint, input),
        hasBody ? (input.form ?? input.body ?? {}) : undefined,
      );
    },
    /** GETs an address made by `endpointPath`: the SWR fetcher, whose cache keys are those addresses. */
    load: <T>(path: string) => request<T>('GET', path),
    /** GETs a file the API answers itself (a session replay's gzip): its bytes, when they are of `type`. */
    bytes,
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
