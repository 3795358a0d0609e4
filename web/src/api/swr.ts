/**
 * SWR wiring: one fetcher over the API client, the typed hook every screen loads its data with, and the
 * writes with the cached reads they make stale. Each feature's data module (`<feature>/data.ts`) declares
 * in one table, per endpoint it writes, which SWR reads a successful write leaves stale; `write` calls the
 * endpoint and applies that entry, so no part calls SWR's `mutate` by hand and a write's effect on the
 * screens is read in one place. Where the answer is the new state of a read, the entry puts it into the
 * cache instead of fetching it again.
 */
import { createElement, type ReactNode, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import useSWR, { mutate, SWRConfig, type SWRConfiguration } from 'swr';
import { ApiError, api } from '.';
import {
  type Answer,
  type BodyOf,
  type CallInput,
  type Endpoint,
  endpointPath,
  type ParamsOf,
} from './endpoints';

/** SWR's keys are the addresses `endpointPath` makes, so the fetcher only has to GET them. */
export const fetcher = <T>(path: string): Promise<T> => api.load<T>(path);

/** Global SWR options: client errors (4xx) are answers, not glitches, so they are not retried. */
const swrConfig: SWRConfiguration = {
  fetcher,
  onErrorRetry(error, _key, _config, revalidate, { retryCount }) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return;
    if (retryCount >= 3) return;
    setTimeout(() => revalidate({ retryCount }), 2000 * 2 ** retryCount);
  },
};

/** The cache every read and write of the dashboard shares, around the router (app/main.tsx). */
export function CacheProvider({ children }: { children: ReactNode }) {
  return createElement(SWRConfig, { value: swrConfig }, children);
}

export interface LoadOptions {
  /**
   * Where a failed load goes (null: stay). By default only a missing session goes to login; most screens
   * send every failure somewhere (SPEC.md section 2: "A failed data load ... redirects to login").
   */
  redirect?: (error: ApiError) => string | null;
  /** Keep the previous answer on screen while the next key loads (list pages). */
  keepPreviousData?: boolean;
  /**
   * Reload every this many ms while the page is visible (besides SWR's reload on focus), for data
   * teammates change while it is open.
   */
  /** Milliseconds between reloads, or a function of the latest answer (0: none), e.g. until it is ready. */
  refreshInterval?: number | ((latest: unknown) => number);
}

const toLoginWhenSignedOut = (error: ApiError) => (error.unauthorized ? '/login' : null);
/** For screens whose data is the page: any failure goes to login. */
export const toLogin = () => '/login';

/** Loads a GET endpoint (`input` null: don't load yet), typed by its handler's answer. */
export function useEndpoint<E extends Endpoint>(
  endpoint: E,
  input: Pick<CallInput<E>, 'params' | 'query'> | null,
  { redirect = toLoginWhenSignedOut, keepPreviousData = false, refreshInterval }: LoadOptions = {},
) {
  const navigate = useNavigate();
  // No interval (undefined) is SWR's default: no reloads besides focus and reconnection.
  const result = useSWR<Answer<E>, ApiError>(input ? endpointPath(endpoint, input) : null, {
    keepPreviousData,
    refreshInterval,
  });
  const { error } = result;
  // Callers pass inline functions: the latest one decides, without re-running the effect each render.
  const redirectRef = useRef(redirect);
  redirectRef.current = redirect;
  useEffect(() => {
    if (!error) return;
    // Anything thrown that is not an ApiError came from our own code: treat it as a system failure.
    const failure = error instanceof ApiError ? error : new ApiError(0, 'SYSTEM_ERROR', String(error));
    const to = redirectRef.current(failure);
    if (to) navigate(to, { replace: true });
  }, [error, navigate]);
  return result;
}

/** A cached read: its address (the SWR key `endpointPath` makes), or a test over addresses. */
export type CachedRead = string | ((key: string) => boolean);

/** What one successful write does to the cache, in this order. */
export interface Stale {
  /**
   * Reads whose new state the answer is: put into the cache without fetching. A function gets the cached
   * value and returns the new one (a deleted row taken out of its list at once).
   */
  put?: readonly (readonly [read: string, value: unknown])[];
  /** Reads fetched again (only the ones on screen fetch) before the write resolves. */
  reload?: readonly CachedRead[];
  /**
   * Reads emptied once the reloads are done, not fetched again: a thing that is gone, or rows that moved
   * elsewhere (named in `later` too, the ones on screen fetch again; a screen shown later loads afresh).
   */
  forget?: readonly CachedRead[];
  /** Reads fetched again without waiting for them. */
  later?: readonly CachedRead[];
}

/**
 * A feature's table: per endpoint it writes, the reads a successful write leaves stale. An endpoint whose
 * callers show different reads (or at a different time) has one variant per caller, by name: the caller
 * names it in `write` (`as`) and the entry picks it.
 */
export type StaleReads = {
  [E in Endpoint]?: (params: ParamsOf<E>, answer: Answer<E>, as: string, body: BodyOf<E>) => Stale;
};

/**
 * Paged reads (SWR's infinite loads) by their first page's address: SWR's key filters skip them and a
 * global `mutate` reloads only their first page, so each registers the reload of every page it loaded
 * while it is on screen.
 */
export const pagedReloads = new Map<string, () => Promise<unknown>>();

/** The SWR key (or key filter) of a cached read. */
const keyOf = (read: CachedRead) =>
  typeof read === 'string' ? read : (key?: string) => typeof key === 'string' && read(key);

/** A cached read's value as it is now (after a write's reloads), without fetching it. */
export function cachedValue<T>(read: string): Promise<T | undefined> {
  return mutate<T>(read, (current) => current, { revalidate: false });
}

/** Fetches the reads again (SWR fetches only the ones some screen shows). */
export async function reload(...reads: readonly CachedRead[]): Promise<void> {
  await Promise.all(reads.map((read) => pagedReloads.get(read as string)?.() ?? mutate(keyOf(read))));
}

/**
 * The feature's `write`: calls an endpoint, then applies the table's entry for it (`as`: the variant's
 * name, for an endpoint with one variant per caller). `answered` runs with the answer before the entry is applied
 * (a screen left before its reads are emptied).
 */
export function writer(table: StaleReads) {
  return async function write<E extends Endpoint>(
    endpoint: E,
    input: CallInput<E> = {},
    as = '',
    answered?: (answer: Answer<E>) => void,
  ): Promise<Answer<E>> {
    const answer = await api.call(endpoint, input);
    answered?.(answer);
    const entry = table[endpoint] as StaleReads[E];
    const stale = entry?.(input.params as ParamsOf<E>, answer, as, input.body as BodyOf<E>) ?? {};
    for (const [read, value] of stale.put ?? []) await mutate(read, value, { revalidate: false });
    await reload(...(stale.reload ?? []));
    for (const read of stale.forget ?? []) await mutate(keyOf(read), undefined, { revalidate: false });
    for (const read of stale.later ?? []) void reload(read);
    return answer;
  };
}
