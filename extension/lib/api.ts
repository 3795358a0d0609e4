/**
 * The background worker's calls to the user's Snag (v1 API with the extension's own bearer token, and the
 * token exchange). Only the background worker calls the server: the page's Content-Security-Policy never
 * applies, and the token never enters a page.
 */
import { browser } from '@wxt-dev/browser';
import { CONNECTION_ENDED } from './messages';
import { load, save } from './storage';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status = 0,
  ) {
    super(code);
  }
}

/** A "!" on the toolbar button while the connection has ended: the popup behind it offers Connect again. */
export async function markEnded(ended: boolean): Promise<void> {
  await browser.action.setBadgeText({ text: ended ? '!' : '' }).catch(() => {});
  if (ended) await browser.action.setBadgeBackgroundColor({ color: '#a3141f' }).catch(() => {});
}

interface Envelope<T> {
  status?: string;
  code?: string;
  msg?: T;
}

/** A 401 whose challenge names `invalid_token`: revoked, expired or unknown, so connecting again helps. */
export function endsConnection(res: Pick<Response, 'status' | 'headers'>): boolean {
  return res.status === 401 && /error="?invalid_token"?/.test(res.headers.get('www-authenticate') ?? '');
}

/** Calls `{server}{path}`; `token: true` adds the connection's bearer token. Answers the envelope's `msg`. */
export async function call<T>(
  path: string,
  init: { method?: string; body?: unknown; token?: boolean; headers?: Record<string, string> } = {},
): Promise<T> {
  const stored = await load();
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) {
    if (!stored.token) throw new ApiError(stored.ended ? CONNECTION_ENDED : 'NOT_CONNECTED');
    headers.authorization = `Bearer ${stored.token}`;
  }
  let res: Response;
  try {
    res = await fetch(`${stored.server}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'omit',
    });
  } catch {
    throw new ApiError('NETWORK');
  }
  if (init.token && endsConnection(res)) {
    // Keep who it was for ("connect again"), drop the dead token: nothing else would accept it either.
    await save({ token: null, expiresAt: null, ended: true });
    await markEnded(true);
    throw new ApiError(CONNECTION_ENDED, 401);
  }
  const answer = (await res.json().catch(() => null)) as Envelope<T> | null;
  if (!res.ok || answer?.status !== 'success') throw new ApiError(answer?.code ?? 'GENERIC', res.status);
  return answer.msg as T;
}
