/**
 * The integration screens' pure rules (issue 11, SPEC.md sections 2, 4 and 5): which integration a
 * project answer holds, what the plan lets the client use, the OAuth return in the address, and the sync
 * selection. Kept free of React so unit tests cover them directly.
 */

import { isOneOf, vendorNames } from '#contracts/integration-names';
import {
  type IntegrationName,
  type IntegrationsAnswer,
  type IntegrationView,
  integrationNames,
  isMasked,
  vendorKeyText,
} from '#contracts/integrations';
import { ApiError } from '../api/client';

export type ViewOf<N extends IntegrationName> = Extract<IntegrationView, { name: N }>;

/** The integration named `name` in `msg.integrations` (the API answers all six; a default if it did not). */
export function viewOf<N extends IntegrationName>(
  list: IntegrationsAnswer | undefined,
  name: N,
): ViewOf<N> | null {
  return (list?.find((i) => i.name === name) as ViewOf<N> | undefined) ?? null;
}

/**
 * The token field's rule, the server's own (`vendorKeyText`: a header carries it): the message key a typed key
 * earns, or null when it is fine.
 */
export const vendorKeyProblem = (
  value: string,
): 'validation.required' | 'integrationScreen.keyInvalid' | null =>
  value.trim() === ''
    ? 'validation.required'
    : vendorKeyText.safeParse(value).success
      ? null
      : 'integrationScreen.keyInvalid';

/** SPEC.md section 6: email is open on every plan; the other five need the plan's integrations flag. */
export const needsIntegrationsFlag = (name: IntegrationName) => name !== 'email';

export function isAvailable(
  name: IntegrationName,
  planAllows: boolean | undefined,
  view: IntegrationView | null,
) {
  if (!needsIntegrationsFlag(name)) return true;
  // The server says per integration (it knows the effective plan); the profile's flag is the fallback.
  return view ? view.available : planAllows === true;
}

export const isIntegrationName = (value: string | undefined): value is IntegrationName =>
  (integrationNames as readonly string[]).includes(value ?? '');

/** An OAuth provider's return to the dashboard: `?code=…&state=…` (or `?error=…` when the client declined). */
export type OAuthReturn = { kind: 'code'; code: string; state: string } | { kind: 'declined' } | null;

export function oauthReturnOf(search: string): OAuthReturn {
  const params = new URLSearchParams(search);
  if (params.get('error')) return { kind: 'declined' };
  const code = params.get('code');
  const state = params.get('state');
  if (!code || !state) return null;
  return { kind: 'code', code, state };
}

/** The sync lists' selection: ticket numbers as the API takes them (strings), newest first, unique. */
export function toggleTicket(selected: readonly number[], n: number, on: boolean): number[] {
  const rest = selected.filter((x) => x !== n);
  return on ? [...rest, n].sort((a, b) => b - a) : rest;
}

/** What the sync lists need first: an active integration, and for the vendors an authorisation. */
export function syncState(view: IntegrationView): 'active' | 'off' | 'unauthorized' {
  if (view.active === 1) return 'active';
  // Only the token and OAuth vendors authorise; email, webhooks and the chat webhooks are set up by their form.
  const authorises = isOneOf<string>(vendorNames, view.name);
  return authorises && view.authorized !== 1 ? 'unauthorized' : 'off';
}

/** A list's select-all: every ticket of `list` added to the selection, or all of them taken out. */
export function toggleAll(selected: readonly number[], list: readonly number[], on: boolean): number[] {
  return list.reduce((s, n) => toggleTicket(s, n, on), [...selected]);
}

/** How much of `list` is selected, for its select-all box (checked, or indeterminate when partly). */
export function selectionOf(selected: readonly number[], list: readonly number[]): 'none' | 'some' | 'all' {
  const count = list.filter((n) => selected.includes(n)).length;
  return count === 0 ? 'none' : count === list.length ? 'all' : 'some';
}

/**
 * A vendor's refusal as the server worded it (e.g. GitLab answering 401 to the token): a 4xx answer's
 * envelope message, already in the UI language. Null for anything else (the vendor down, no network),
 * which the catalogue text of its code says better.
 */
export function vendorRefusal(error: unknown): string | null {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.message
    ? error.message
    : null;
}

/** A secret field as the form shows it: the masked value read from the API means "stored, unchanged". */
export const hasStoredSecret = (value: string) => isMasked(value);

/**
 * The form field an API refusal of the integration save names: the save takes a list of integrations,
 * each with its settings under `data`, so the API says `0.data.url` or `data.key` where the form has
 * `url` or `key` (a changed host with the masked token is refused on `data.key`, SECRET_REQUIRED).
 */
export const integrationFieldPath = (apiPath: string) => apiPath.replace(/^\d+\./, '').replace(/^data\./, '');
