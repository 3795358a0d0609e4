/**
 * What a session route may be asked for (issue 22, docs/data-model.md 4.12 "Route declarations and the
 * generated access matrix"): the actions of the one policy (functions/projects/access.ts decides who may do
 * them) and the `access` each `session: true` route declares. The ground holds the names only, so the route
 * declarations (contracts/routes.ts) can carry them; the role table is the policy's.
 */

/**
 * read: the project, its issues, files and sync lists · triage: resolve and reopen issues, send them to
 * integrations again (Sync) · settings: the project's own settings · integrations: set up and authorise
 * integrations · delete: the project with everything it owns · labels: manage the project's labels (issue 23;
 * `triage` also covers status, priority, assignee, labels and due date of issues, bulk changes).
 * Issue 23: comment: write public comments and edit one's own · internal: read and write internal
 * comments (and the activity only the team sees) · moderate: delete other people's comments.
 * Issue 34: report: file an issue into the project as oneself (the public API's create and its uploads, the
 * browser extension), as the widget lets any visitor do: everyone who may read the project may.
 */
export const projectActions = [
  'read',
  'triage',
  'settings',
  'integrations',
  'delete',
  'labels',
  'comment',
  'internal',
  'moderate',
  'report',
] as const;
export type ProjectAction = (typeof projectActions)[number];

/**
 * team.read the team and its members · team.rename · team.members invite, re-role and remove others ·
 * team.leave · team.projects create projects in the team · team.billing · team.transfer ownership ·
 * team.tokens create, list and revoke the team's API tokens (issue 25) · team.audit read and export the
 * team's audit log (issue 35; contracts/audit.ts).
 */
export const teamActions = [
  'team.read',
  'team.rename',
  'team.members',
  'team.leave',
  'team.projects',
  'team.billing',
  'team.transfer',
  'team.tokens',
  'team.audit',
] as const;
export type TeamAction = (typeof teamActions)[number];

/** Where a project route finds its project id. */
export type ProjectSource =
  | 'params.id'
  | 'params.siteId'
  | 'params.siteUuid'
  | 'body.siteId'
  /** The public API's `/api/v1/projects/{projectId}/…` (issue 25). */
  | 'params.projectId';
/** Where a team route finds its team: the path, or the team in use (query `teamId`, cookie, personal). */
export type TeamSource = 'params.teamId' | 'teamInUse';

/**
 * A session route's access (decision T7): the operation receives it (`input.access`) and hands its action to
 * the policy, so the declaration is what is enforced, and the access-matrix test walks it.
 * `queryActions` names a query parameter whose presence asks for another action (`GET …/request?integration`
 * is a sync list: integrations, as DESIGN section 10 gives a MEMBER or GUEST no integrations).
 */
export type RouteAccess =
  | {
      scope: 'project';
      action: ProjectAction;
      from: ProjectSource;
      queryActions?: Partial<Record<string, ProjectAction>>;
    }
  | { scope: 'team'; action: TeamAction; from: TeamSource }
  /** The caller's own: profile, password, the teams list, accepting an invitation, creating a team. */
  | { scope: 'account' };

/** A route's access as one request asks for it: `queryActions` resolved against the parsed query. */
export type RequestAccess =
  | { scope: 'project'; action: ProjectAction; from: ProjectSource }
  | { scope: 'team'; action: TeamAction; from: TeamSource }
  | { scope: 'account' };

/** The access a request asks for: the declared action, or the one a present query parameter names. */
export function requestAccess(declared: RouteAccess | undefined, query: unknown): RequestAccess {
  if (!declared) return { scope: 'account' };
  if (declared.scope !== 'project') return declared;
  const { queryActions, ...rest } = declared;
  const q = (query ?? {}) as Record<string, unknown>;
  for (const [name, action] of Object.entries(queryActions ?? {})) {
    if (action && q[name] !== undefined && q[name] !== '') return { ...rest, action };
  }
  return rest;
}

/**
 * The project action of a project-scoped request; a route declared otherwise is a programming error
 * (the route table's unit test pins each operation's scope), never the caller's.
 */
export function projectActionOf(access: RequestAccess | undefined): ProjectAction {
  if (access?.scope !== 'project') throw new Error(`project operation on a ${access?.scope} route`);
  return access.action;
}

/** The team action of a team-scoped request (as `projectActionOf`). */
export function teamActionOf(access: RequestAccess | undefined): TeamAction {
  if (access?.scope !== 'team') throw new Error(`team operation on a ${access?.scope} route`);
  return access.action;
}
