/**
 * Route paths of SPEC.md section 2 and the pure rules around them (redirect targets, which sidebar section
 * is open). Kept free of React so unit tests cover them directly. The sign-in pages' own rules (notices,
 * error codes, the confirmation link) are accounts/login-model.ts: the shell loads this module at once.
 */
import {
  type IntegrationName,
  integrationNames,
  type OAuthVendor,
  oauthRedirectSegment,
  oauthVendors,
  siteIdOfOAuthState,
} from '#contracts/integration-names';

export { type IntegrationName, integrationNames };

/** Issue 23 adds the project's labels. */
export const configurationSections = ['installation', 'custom_fields', 'labels', 'general'] as const;
export type ConfigurationSection = (typeof configurationSections)[number];

const enc = encodeURIComponent;

export const paths = {
  login: '/login',
  registration: '/registration',
  /**
   * After registration: the address the confirmation mail went to travels in the query (survives reload),
   * and so does the page to return to once signed in (`next`, kept only when it passes `safeNext`).
   */
  confirmRegistration: (username: string, next?: string | null) =>
    `/confirm_registration?username=${enc(username)}${withNext(next)}`,
  reset: '/reset',
  profile: '/profile',
  profileEdit: '/profile/edit',
  billing: '/profile/billing',
  /** Issue 22: the team in use, its members, guests and invitations. */
  team: '/profile/team',
  /** Issue 25: the team's API tokens. */
  tokens: '/profile/team/tokens',
  /** Issue 35: the team's audit log. */
  audit: '/profile/team/audit',
  /** Issue 35: requests about a reporter's data (find, export, erase). */
  privacy: '/profile/team/privacy',
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
  /** Issue 37: a project's figures at a glance (every role that may read the project). */
  insights: (id: string) => `/profile/insights/${enc(id)}`,
  /** Issue 37: the same across the team's projects. */
  teamInsights: '/profile/team/insights',
  /** Issue 33: a tracker's signed link to one replay, public. */
  replay: (token: string) => `/replay/${enc(token)}`,
  configuration: (id: string, section?: ConfigurationSection) =>
    `/profile/configuration/${enc(id)}${section ? `/${section}` : ''}`,
  /** Issue 34: Profile → Browser extension, the member's connected browsers. */
  profileExtensions: '/profile/edit/extension',
  /**
   * Issue 34: the extension's connect page (contracts/extension.ts), opened by the extension with its
   * `challenge`, `state` and `browser`, and the page it ends on, whose address the extension reads.
   */
  connectExtension: '/connect/extension',
  connectExtensionDone: (answer: { code: string; state: string } | { error: 'denied'; state: string }) =>
    `/connect/extension/done?${new URLSearchParams(answer).toString()}`,
  /** The sign-in page that returns to `next` (an address of this dashboard) once signed in. */
  loginThen: (next: string) => `/login?next=${enc(next)}`,
  /**
   * The registration page that keeps `next` for after the account is confirmed and signed in: a new user
   * sent to sign in by the extension's connect page registers instead and still comes back to it.
   */
  registrationThen: (next: string | null) =>
    isSafeNext(next) ? `/registration?next=${enc(next)}` : '/registration',
} as const;

/**
 * Whether `next` is an address of this dashboard: a path, never `//host` or `/\\host` (browsers read both
 * as another site) and never a scheme. Every page that passes `next` on (sign-in, registration, the
 * confirmation pages) keeps it only when this holds, so a link cannot send a user off the dashboard.
 */
function isSafeNext(next: string | null | undefined): next is string {
  return !!next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\');
}

/** The query's `next` when it is an address of this dashboard (`isSafeNext`), else null. */
export function safeNext(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  return isSafeNext(next) ? next : null;
}

/** `&next=…` for an address that already has a query, or nothing when `next` is absent or unsafe. */
export function withNext(next: string | null | undefined): string {
  return isSafeNext(next) ? `&next=${enc(next)}` : '';
}

/** Where the sign-in page goes after signing in: its safe `next` (`safeNext`), else the projects. */
export function afterLogin(search: string): string {
  return safeNext(search) ?? paths.profile;
}

/**
 * /profile/<vendor>_redirect (`oauthRedirectSegment`): an OAuth vendor's return carries the site id in
 * `state`, before the first dot (`<siteId>.<nonce>.<expires>.<signature>`,
 * functions/integrations/oauth-state.ts); forward to that site's screen of the vendor keeping the whole
 * query (the screen needs `code` and the whole state). Without a state there is no site to return to,
 * so the dashboard is the only sensible target.
 */
export function oauthRedirectTarget(vendor: OAuthVendor, search: string): string {
  const query = search.startsWith('?') ? search : search ? `?${search}` : '';
  const siteId = siteIdOfOAuthState(new URLSearchParams(query).get('state') ?? '');
  if (!siteId) return paths.profile;
  return `${paths.integrations(siteId, vendor)}${query}`;
}

export type SidebarSection =
  | 'dashboard'
  | 'feedback'
  | 'archive'
  | 'integrations'
  | 'widget'
  | 'configuration'
  | 'insights';

/** Which sidebar section the address belongs to: sub-entries show only while their section is open. */
export function sidebarSection(pathname: string): SidebarSection | null {
  const [, root, section] = pathname.split('/');
  if (root !== 'profile') return null;
  if (oauthVendors.some((v) => section === oauthRedirectSegment(v))) return 'integrations';
  switch (section) {
    case undefined:
    case '':
      return 'dashboard';
    case 'site':
      return 'feedback';
    case 'resolved':
      return 'archive';
    case 'integrations':
      return 'integrations';
    case 'widget':
      return 'widget';
    case 'configuration':
      return 'configuration';
    case 'insights':
      return 'insights';
    default:
      return null;
  }
}

const projectSections = new Set(['site', 'resolved', 'integrations', 'widget', 'configuration', 'insights']);

/** The project (site) id in a profile address such as /profile/widget/{id}, or null outside a project. */
export function projectIdFromPath(pathname: string): string | null {
  const [, root, section, id] = pathname.split('/');
  if (root !== 'profile' || !section || !projectSections.has(section) || !id) return null;
  return decodeURIComponent(id);
}
