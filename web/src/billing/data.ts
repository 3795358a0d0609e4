/**
 * The billing feature's data: the payment history with the pending Business request, the card checkout
 * and the Business request. The only module of billing/ that calls the API; `staleReads` says which cached
 * reads each of its writes leaves stale (web/src/api/swr.ts applies it).
 */
import type { BodyOf } from '../api/endpoints';
import { endpointPath } from '../api/endpoints';
import { reload, type StaleReads, useEndpoint, writer } from '../api/swr';

const profilePath = endpointPath('profile.get');
const paymentsPath = endpointPath('billing.payments');

/** A sent Business request shows as pending in the history's answer instead of the form. */
const staleReads: StaleReads = {
  'billing.businessRequest': () => ({ later: [paymentsPath] }),
};
const write = writer(staleReads);

export function usePayments() {
  return useEndpoint('billing.payments', {});
}

/** Starts the card checkout; the answer names the provider's page to go to. */
export function startCheckout(body: BodyOf<'billing.checkout'>) {
  return write('billing.checkout', { body });
}

/** Sends the Business request (a multipart form, as the handler parses it). */
export async function requestBusinessPlan(form: FormData): Promise<void> {
  await write('billing.businessRequest', { form });
}

/** The history again: a refusal that says a request is pending means the one on screen is out of date. */
export function reloadPayments(): void {
  void reload(paymentsPath);
}

/** The plan (on the profile) and the history again, after the return from the card provider's checkout. */
export function reloadPlan(): void {
  void reload(profilePath);
  void reload(paymentsPath);
}
