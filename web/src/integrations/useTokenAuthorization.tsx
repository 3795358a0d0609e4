/**
 * The authorisation of a token integration (GitHub; GitLab, Jira, Linear): its busy state and error, its
 * list calls, Authorize's frame and Reset. Every list call also saves the authorisation on the server
 * (with the state it read): a Save or Reset sent while one is under way would land first and then be
 * written over (the lost "Active"), so they wait for `settled()`, which never rejects.
 */

import { Anchor } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import type { TokenVendor } from '#contracts/integration-catalogue';
import { errorCodeOf } from '../api';
import { errorText } from '../i18n';
import { resetAuthorization } from './data';
import { type ViewOf, vendorRefusal } from './model';

/** Why a list call failed: the vendor's refusal as the server words it, else the catalogue's text. */
export const failureText = (error: unknown) => vendorRefusal(error) ?? errorText(errorCodeOf(error));

export function useTokenAuthorization<N extends TokenVendor, T extends Record<string, unknown>>({
  vendor,
  projectId,
  form,
  valuesOf,
  setErrorCode,
  forgetOptions,
}: {
  vendor: N;
  projectId: string;
  form: UseFormReturnType<T>;
  valuesOf: (view: ViewOf<N>) => T;
  setErrorCode: (code: ErrorCode | null) => void;
  /** Forgets what the list calls brought: after a reset there is no token to list with. */
  forgetOptions: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'authorize' | 'reset' | null>(null);
  const [authError, setAuthError] = useState<string | null>(null);
  const listing = useRef<Promise<unknown>>(Promise.resolve());

  /** Counts `call` among the list calls a Save or Reset waits for. */
  const track = useCallback(<R,>(call: Promise<R>): Promise<R> => {
    listing.current = Promise.allSettled([listing.current, call]);
    return call;
  }, []);
  const settled = useCallback(() => listing.current, []);

  /** Authorize's frame: busy while `run` runs, and its failure in the vendor's words. */
  async function authorizing(run: () => Promise<void>) {
    setBusy('authorize');
    setAuthError(null);
    setErrorCode(null);
    try {
      await run();
    } catch (error) {
      setAuthError(failureText(error));
    } finally {
      setBusy(null);
    }
  }

  async function reset() {
    setBusy('reset');
    setErrorCode(null);
    try {
      await settled();
      const fresh = valuesOf(await resetAuthorization(vendor, projectId));
      form.setInitialValues(fresh);
      form.setValues(fresh);
      forgetOptions();
      setAuthError(null);
    } catch (error) {
      setErrorCode(errorCodeOf(error));
    } finally {
      setBusy(null);
    }
  }

  const resetLink = (
    <Anchor component="button" type="button" onClick={reset} fw={600} inherit>
      {t('integrationScreen.resetAuthorization')}
    </Anchor>
  );

  return { busy, authError, setAuthError, track, settled, authorizing, resetLink };
}
