/**
 * Route paths of SPEC.md section 2 and the pure rules around them (redirect targets, login notices,
 * which sidebar section is open). Kept free of React so unit tests cover them directly.
 */
import type { ErrorCode } from '#contracts/errors';
import { type IntegrationName, integrationNames, siteIdOfOAuthState } from '#contracts/integration-names';
import { limits } from '#contracts/limits';

export { type IntegrationName, integrationNames };

/** Issue 23 adds the project's labels. */
export const configurationSections = ['installation', 'custom_fields', 'labels', 'general'] as const;
export type ConfigurationSection = (typeof configurationSections)[number];

const enc = encodeURIComponent;

export const paths = {
  login: '/login',
  registration: '/registration',
  /** After registration: the address the confirmation mail went to travels in the query (survives reload). */
  confirmRegistration: (username: string) => `/confirm_registration?username=${enc(username)}`,
  reset: '/reset',
  profile: '/profile',
  profileEdit: '/profile/edit',
  billing: '/profile/billing',
  /** Issue 22: the team in use, its members, guests and invitations. */
  team: '/profile/team',
  /** Issue 25: the team's API tokens. */
  tokens: '/profile/team/tokens',
  /** Issue 25: the public REST API's reference, open without a session. */
  apiReference: '/docs/api',
  createProject: '/profile/create/project',
  site: (id: string) => `/profile/site/${enc(id)}`,
  /** Issue 23: the project's issues as a board, one column per status. */
  board: (id: string) => `/profile/site/${enc(id)}/board`,
  ticket: (id: string, ticketId: string) => `/profile/site/${enc(id)}/ticket/${enc(ticketId)}`,
  resolved: (id: string) => `/profile/resolved/${enc(id)}`,
  integrations: (id: string, name?: IntegrationName) =>
    `/profile/integrations/${enc(id)}${name ? `/${name}` : ''}`,
  widget: (id: string) => `/profile/widget/${enc(id)}`,
  configuration: (id: string, section?: ConfigurationSection) =>
    `/profile/configuration/${enc(id)}${section ? `/${section}` : ''}`,
} as const;

/**
 * /profile/asana_redirect and /profile/slack_redirect: the vendor's OAuth return carries the site id in
 * `state`, before the first dot (`<siteId>.<nonce>.<expires>.<signature>`,
 * functions/integrations/oauth-state.ts); forward to that site's screen of the vendor keeping the whole
 * query (the screen needs `code` and the whole state). Without a state there is no site to return to,
 * so the dashboard is the only sensible target.
 */
export function oauthRedirectTarget(vendor: 'slack' | 'asana', search: string): string {
  const query = search.startsWith('?') ? search : search ? `?${search}` : '';
  const siteId = siteIdOfOAuthState(new URLSearchParams(query).get('state') ?? '');
  if (!siteId) return paths.profile;
  return `${paths.integrations(siteId, vendor)}${query}`;
}

export type LoginNotice = 'registered' | 'invalidCode' | 'reset';

/** Login query parameters that show a notice (SPEC.md section 2); they are removed once read. */
export const loginNoticeParams = ['username', 'code', 'reset'] as const;

export function loginNotice(search: string): LoginNotice | null {
  const params = new URLSearchParams(search);
  if (params.get('code') === '1') return 'invalidCode';
  if (params.get('reset') === '1') return 'reset';
  if (params.get('username')) return 'registered';
  return null;
}

/** The query without the notice parameters, for replacing the address after the notice is shown. */
export function stripLoginNoticeParams(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of loginNoticeParams) params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** Login addresses that show a notice (SPEC.md section 2). */
export const loginWith = {
  registered: (username: string) => `/login?username=${enc(username)}`,
  invalidCode: '/login?code=1',
  reset: '/login?reset=1',
} as const;

/**
 * /confirm_email (SPEC.md section 2): the confirmation call its query asks for, or null when the link is
 * malformed (username shorter than 3 characters or a code that is not exactly 8), which goes straight to
 * login with code=1.
 */
export function confirmEmailRequest(search: string): { _username: string; confirmationCode: string } | null {
  const params = new URLSearchParams(search);
  const username = (params.get('username') ?? '').trim();
  const code = (params.get('code') ?? '').trim();
  if (username.length < limits.confirmUsernameMin || code.length !== limits.confirmationCodeLength)
    return null;
  return { _username: username, confirmationCode: code };
}

const loginCodes: ReadonlySet<ErrorCode> = new Set([
  'ACCESS_DENIED',
  'ACCESS_DISABLED',
  'CONFIRMATION_REQUIRED',
  // Ours, not SPEC's (the per-source throttle, issue 9): 'Service is not available' would be untrue.
  'RATE_LIMITED',
]);

/**
 * SPEC.md section 8, login: three codes have their own message; SYSTEM_ERROR "and any other" share one.
 * RATE_LIMITED keeps its own too: the throttle must say what it is.
 */
export function loginErrorCode(code: ErrorCode): ErrorCode {
  return loginCodes.has(code) ? code : 'SYSTEM_ERROR';
}

export type SidebarSection =
  | 'dashboard'
  | 'feedback'
  | 'archive'
  | 'integrations'
  | 'widget'
  | 'configuration';

/** Which sidebar section the address belongs to: sub-entries show only while their section is open. */
export function sidebarSection(pathname: string): SidebarSection | null {
  const [, root, section] = pathname.split('/');
  if (root !== 'profile') return null;
  switch (section) {
    case undefined:
    case '':
      return 'dashboard';
    case 'site':
      return 'feedback';
    case 'resolved':
      return 'archive';
    case 'integrations':
    case 'asana_redirect':
    case 'slack_redirect':
      return 'integrations';
    case 'widget':
      return 'widget';
    case 'configuration':
      return 'configuration';
    default:
      return null;
  }
}

const projectSections = new Set(['site', 'resolved', 'integrations', 'widget', 'configuration']);

/** The project (site) id in a profile address such as /profile/widget/{id}, or null outside a project. */
export function projectIdFromPath(pathname: string): string | null {
  const [, root, section, id] = pathname.split('/');
  if (root !== 'profile' || !section || !projectSections.has(section) || !id) return null;
  return decodeURIComponent(id);
}
