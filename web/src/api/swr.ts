/** SWR wiring: one fetcher over the API client, and the typed hook every screen loads its data with. */
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import useSWR, { type SWRConfiguration } from 'swr';
import { ApiError, api } from '.';
import { type Answer, type CallInput, type Endpoint, endpointPath } from './endpoints';

/** SWR's keys are the addresses `endpointPath` makes, so the fetcher only has to GET them. */
export const fetcher = <T>(path: string): Promise<T> => api.load<T>(path);

/** Global SWR options: client errors (4xx) are answers, not glitches, so they are not retried. */
export const swrConfig: SWRConfiguration = {
  fetcher,
  onErrorRetry(error, _key, _config, revalidate, { retryCount }) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return;
    if (retryCount >= 3) return;
    setTimeout(() => revalidate({ retryCount }), 2000 * 2 ** retryCount);
  },
};

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
  refreshInterval?: number;
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
  const result = useSWR<Answer<E>, ApiError>(input ? endpointPath(endpoint, input) : null, {
    keepPreviousData,
    ...(refreshInterval ? { refreshInterval } : {}),
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
