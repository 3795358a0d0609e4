/** SWR wiring: one fetcher over the API client, and a hook that sends signed-out users to login. */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import useSWR, { type SWRConfiguration } from 'swr';
import { ApiError, api } from '.';

export const fetcher = <T>(path: string): Promise<T> => api.get<T>(path);

/** Global SWR options: client errors (4xx) are answers, not glitches, so they are not retried. */
export const swrConfig: SWRConfiguration = {
  fetcher,
  onErrorRetry(error, _key, _config, revalidate, { retryCount }) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return;
    if (retryCount >= 3) return;
    setTimeout(() => revalidate({ retryCount }), 2000 * 2 ** retryCount);
  },
};

/**
 * Loads `path` (null = don't load yet). A 401 sends the user to login; `redirectOnError` widens that to
 * any failure, as most screens do (SPEC.md section 2: "A failed data load ... redirects to login").
 */
export function useApi<T>(path: string | null, options: { redirectOnError?: boolean } = {}) {
  const navigate = useNavigate();
  const result = useSWR<T, ApiError>(path);
  const { error } = result;
  useEffect(() => {
    if (!error) return;
    if (options.redirectOnError || (error instanceof ApiError && error.unauthorized)) {
      navigate('/login', { replace: true });
    }
  }, [error, navigate, options.redirectOnError]);
  return result;
}
