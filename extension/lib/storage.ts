/**
 * What the extension keeps (`storage.local`, this browser profile only): the server, the connection (its
 * token and who it acts as) and the per-site choices. The PKCE verifier and state of a connect in progress
 * live in `storage.session` (memory only, gone with the browser).
 */
import { browser } from '@wxt-dev/browser';
import { DEFAULT_SERVER } from './server';

export interface Stored {
  server: string;
  token: string | null;
  expiresAt: string | null;
  user: { name: string; email: string } | null;
  /** The server refused the token (revoked or expired): "Your connection has ended". */
  ended: boolean;
  /** The project chosen per site host. */
  sites: Record<string, string>;
  /** Origins where a MAIN-world script captures logs from page load. */
  logOrigins: string[];
}

const defaults: Stored = {
  server: DEFAULT_SERVER,
  token: null,
  expiresAt: null,
  user: null,
  ended: false,
  sites: {},
  logOrigins: [],
};

export async function load(): Promise<Stored> {
  const got = (await browser.storage.local.get(Object.keys(defaults) as (keyof Stored)[])) as Partial<Stored>;
  return { ...defaults, ...got };
}

export async function save(patch: Partial<Stored>): Promise<void> {
  await browser.storage.local.set(patch);
}

export interface PendingConnect {
  verifier: string;
  state: string;
  server: string;
  tabId: number | null;
}

export async function loadPending(): Promise<PendingConnect | null> {
  const got = (await browser.storage.session.get('pending')) as { pending?: PendingConnect };
  return got.pending ?? null;
}

export async function savePending(pending: PendingConnect | null): Promise<void> {
  if (pending) await browser.storage.session.set({ pending });
  else await browser.storage.session.remove('pending');
}
