/**
 * The dashboard's writes and the cached reads they make stale. Each feature's data module (`<feature>/data.ts`)
 * declares in one table, per endpoint it writes, which SWR reads a successful write leaves stale; `write`
 * calls the endpoint and applies that entry, so no part calls SWR's `mutate` by hand and a write's effect on
 * the screens is read in one place. Where the answer is the new state of a read, the entry puts it into the
 * cache instead of fetching it again.
 */
import { mutate } from 'swr';
import { api } from '.';
import type { Answer, CallInput, Endpoint, ParamsOf } from './endpoints';

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
  /** Reads of a thing that is gone: emptied once the reloads are done, not fetched again. */
  forget?: readonly string[];
  /** Reads fetched again without waiting for them. */
  later?: readonly CachedRead[];
}

/** A feature's table: per endpoint it writes, the reads a successful write leaves stale. */
export type StaleReads = {
  [E in Endpoint]?: (params: ParamsOf<E>, answer: Answer<E>, input: CallInput<E>) => Stale;
};

/** Fetches the reads again (SWR fetches only the ones some screen shows). */
export async function reload(...reads: readonly CachedRead[]): Promise<void> {
  await Promise.all(
    reads.map((read) =>
      typeof read === 'string' ? mutate(read) : mutate((key) => typeof key === 'string' && read(key)),
    ),
  );
}

/** The feature's `write`: calls an endpoint, then applies the table's entry for it. */
export function writer(table: StaleReads) {
  return async function write<E extends Endpoint>(endpoint: E, input: CallInput<E> = {}): Promise<Answer<E>> {
    const answer = await api.call(endpoint, input);
    const entry = table[endpoint] as StaleReads[E];
    const stale = entry?.(input.params as ParamsOf<E>, answer, input) ?? {};
    for (const [read, value] of stale.put ?? []) await mutate(read, value, { revalidate: false });
    await reload(...(stale.reload ?? []));
    for (const read of stale.forget ?? []) await mutate(read, undefined, { revalidate: false });
    for (const read of stale.later ?? []) void reload(read);
    return answer;
  };
}
