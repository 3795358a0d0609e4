/**
 * The public REST API, version 1 (issue 25, docs/api.md). The pipeline has checked the bearer token (its
 * scope, its rate limit) before an operation runs; each operation hands the token's principal and the
 * action its route declares to the same domain functions and the same policy as the dashboard's routes,
 * and maps their answers to the documented v1 shapes (contracts/api-v1.ts).
 */
import { projectActionOf } from '#contracts/access';
import {
  decodeCursor,
  encodeCursor,
  V1_PAGE_MAX,
  V1_REPLAY_LINK_HOURS,
  type V1Delivery,
  type V1Issue,
  type V1IssuePage,
  type V1IssueSummary,
  type V1Project,
  type V1WidgetConfig,
  v1IdempotencyHeaders,
} from '#contracts/api-v1';
import { EXTENSION_TOKEN_PREFIX, extensionScopes } from '#contracts/extension';
import { ticketStatus } from '#contracts/limits';
import { integrationNames } from '#contracts/messages';
import { openApiDocument } from '#contracts/openapi';
import type { IssueAnswer, IssueRow } from '#contracts/review';
import { API_RATE_LIMIT, type TokenCaller } from '#contracts/tokens';
import { isOpenStatus } from '#contracts/triage';
import { getConfig } from '#runtime/config';
import { AppError } from '#runtime/errors';
import { type InputOf, type OpName, type RawReply, resourceHandler } from '#runtime/http';
import { HOUR } from '#runtime/time';
import { resolveExtensionToken, touchExtensionToken } from '../accounts/extension-tokens';
import { replayLink } from '../integrations/links';
import { fileApiIssue, requestApiUpload, widgetForCaller } from '../issues/api-filing';
import { listComments, postComment } from '../issues/comments';
import { DOWNLOAD_EXPIRY_SECONDS, presignStored } from '../issues/downloads';
import { projectInsights } from '../issues/insights';
import { listIssues } from '../issues/list';
import { v1Api } from '../issues/manifest';
import { mergeIssue, unmergeIssue } from '../issues/merge';
import { projectForTriage } from '../issues/project-detail';
import { getIssue } from '../issues/review';
import { similarFor } from '../issues/similar';
import { patchIssue } from '../issues/triage';
import { authorizeTeam, may, membershipOf, tokenMembership } from '../projects/access';
import { listProjects, type Project, toProject } from '../projects/project';
import { teamOf } from '../teams/member';
import { teamsOf } from '../teams/team';
import { resolveToken, tokenPrincipal, touchToken } from '../teams/token';

type In<Op extends OpName<typeof v1Api>> = InputOf<typeof v1Api, Op>;

/**
 * The pipeline's token check: the live token, its last use recorded at most once a minute. A token whose
 * creator may no longer make tokens in its team (removed or demoted) is refused like a revoked one: the
 * membership change revokes their tokens in its own transaction, this covers a token made in the moment
 * before it that the change's (eventually consistent) token list did not see yet.
 */
async function authenticateTeamToken(bearer: string): Promise<TokenCaller | null> {
  const found = await resolveToken(bearer);
  if (!found?.creatorRole || !may(found.creatorRole, 'team.tokens')) return null;
  const { token } = found;
  await touchToken(token);
  const { id, teamId, name, creatorName, scopes } = token;
  return { id, kind: 'team', teamId, name, creatorName, scopes, principal: tokenPrincipal(id) };
}

/**
 * A browser extension's connection (contracts/extension.ts) acts as its member: principal their user id,
 * so the one policy applies their own role in every team (a GUEST sees their guest projects, nothing else),
 * and the fixed extensionScopes narrow it further. Revoked, expired or the member deleted: null.
 */
async function authenticateExtension(bearer: string): Promise<TokenCaller | null> {
  const found = await resolveExtensionToken(bearer);
  if (!found) return null;
  const { token, name } = found;
  await touchExtensionToken(token);
  return {
    id: token.id,
    kind: 'extension',
    teamId: null,
    name: token.browser,
    creatorName: name,
    scopes: extensionScopes,
    principal: token.userId,
  };
}

const authenticate = (bearer: string): Promise<TokenCaller | null> =>
  bearer.startsWith(EXTENSION_TOKEN_PREFIX) ? authenticateExtension(bearer) : authenticateTeamToken(bearer);

/**
 * Every project the extension's member may see, across their teams, as the dashboard's "all teams" list
 * shows them: a team's every project to its members, only the named ones to a GUEST. TEAMS, then one Query
 * per team (a member of many teams pays one Query each, as the dashboard's list does).
 */
async function memberProjects(userId: string): Promise<Project[]> {
  const teams = await teamsOf(userId);
  const teamIds = Object.keys(teams.teams);
  const lists = await Promise.all(teamIds.map((tid) => listProjects(tid)));
  return teamIds.flatMap((tid, i) => {
    const member = membershipOf(teams, tid);
    if (!member) return [];
    const all = lists[i] ?? [];
    return member.role === 'GUEST' ? all.filter((p) => member.projects?.includes(p.id)) : all;
  });
}

function projectOf(p: Project): V1Project {
  return {
    id: p.id,
    teamId: teamOf(p),
    name: p.name,
    url: p.url,
    domain: p.host,
    active: p.active === 1,
    openIssues: p.openCount,
    resolvedIssues: p.resolvedCount,
    createdAt: new Date(p.createdAt).toISOString(),
  };
}

const triageOf = ({ status, priority, assignee, labels, dueDate, updatedAt }: IssueRow | IssueAnswer) => ({
  status,
  priority,
  assignee,
  labels,
  dueDate,
  updatedAt,
});

function summaryOf(r: IssueRow): V1IssueSummary {
  return {
    number: r.number,
    title: r.title,
    preview: r.preview,
    resolved: !isOpenStatus(r.status),
    createdAt: r.date_created.date,
    files: r.total_files,
    screenshots: r.total_screenshots,
    reports: r.reports ?? 1,
    duplicateOf: r.duplicateOf ?? null,
    ...triageOf(r),
  };
}

const deliveryStatuses: Record<number, V1Delivery['status']> = {
  [ticketStatus.inProgress]: 'in_progress',
  [ticketStatus.passed]: 'delivered',
  [ticketStatus.failed]: 'failed',
};

/** The integrations the issue was sent to, as the dashboard's rows show them (status 0 is none). */
const deliveriesOf = (a: IssueAnswer): V1Delivery[] =>
  integrationNames.flatMap((integration) => {
    const status = deliveryStatuses[a[`${integration}_status`]];
    if (!status) return [];
    return [
      {
        integration,
        status,
        url: a[`${integration}_url`] ?? null,
        reason: status === 'failed' ? (a[`${integration}_reason`] ?? null) : null,
      },
    ];
  });

/**
 * The issue's replay as links a person and a script can open: the player's page and the recording's bytes,
 * under the replay's own signed token (the one trackers carry), for an hour: long enough to pass the link
 * on from an assistant's answer, short for a link that needs no sign-in.
 */
async function replayOf(projectId: string, a: IssueAnswer): Promise<V1Issue['replay']> {
  if (!a.replay) return null;
  const { name, start, end, stopped } = a.replay;
  const link = await replayLink(projectId, name, V1_REPLAY_LINK_HOURS * HOUR);
  return {
    url: link.url,
    dataUrl: link.dataUrl,
    expiresAt: new Date(link.expiresAt).toISOString(),
    start,
    end,
    ...(stopped ? { stopped } : {}),
  };
}

/**
 * The issue with signed links (the review's own signing, `presignStored`): screenshots inline, files and
 * page snapshots as downloads. The links live 5 minutes; `linksExpireAt` says when (the replay's its own).
 */
async function issueOf(projectId: string, a: IssueAnswer): Promise<V1Issue> {
  const sign = (kind: 'file' | 'screenshot', name: string, download: boolean) =>
    presignStored(projectId, kind, name, download);
  const { title, msg, username, href, customFields, ...device } = a.data;
  const [files, screenshots, replay] = await Promise.all([
    Promise.all(
      a.files.map(async (f) => ({
        name: f.name,
        originalName: f.original_name,
        size: f.size,
        type: f.type,
        url: await sign('file', f.name, true),
      })),
    ),
    Promise.all(
      a.screenshots.map(async (s) => ({
        name: s.name,
        type: s.type,
        size: s.size,
        url: await sign('screenshot', s.name, false),
        snapshotUrl: s.html ? await sign('screenshot', s.html, true).catch(() => null) : null,
      })),
    ),
    replayOf(projectId, a),
  ]);
  return {
    number: a.number,
    title,
    description: msg,
    resolved: a.deleted === 1,
    createdAt: a.date_created.date,
    reporter: username || null,
    pageUrl: href || null,
    device,
    customFields: customFields ?? [],
    files,
    screenshots,
    linksExpireAt: new Date(Date.now() + DOWNLOAD_EXPIRY_SECONDS * 1000).toISOString(),
    deliveries: deliveriesOf(a),
    steps: a.steps.map(({ t, kind, label }) => ({ t, kind, label })),
    sentAt: a.sent_at,
    replay,
    filedVia: a.filedVia,
    duplicateOf: a.duplicateOf ?? null,
    reports: a.reports,
    ...triageOf(a),
  };
}

/**
 * The document's own words (Markdown; renderers show it above the operations): enough to write a client from
 * the document alone, the rules docs/api.md explains at length.
 */
const documentDescription = [
  'The public REST API of Snag: the projects, issues, triage fields and comments of one team, and filing new ' +
    'issues with their screenshots and files, for scripts and tools.',
  '',
  "**Authentication.** `Authorization: Bearer snag_pat_…`, a token an owner or admin makes under the team's " +
    'settings (Team → API tokens), shown once. Each operation names the scope it needs. No cookies, no CSRF token. ' +
    'The browser extension holds a `snag_ext_…` token of its own (read projects and issues, file issues), acting as ' +
    'the member who connected it, in every team as their own role allows.',
  '',
  '**Answers.** `{"status":"success","msg":…}`; a refusal is `{"status":"error","code":…,"msg":…,"fields":…}` ' +
    'with a stable `code` (add `?lng=de` for German messages).',
  '',
  `**Paging.** \`limit\` 1–${V1_PAGE_MAX} and the \`cursor\` from the previous page's \`next\` (null on the last ` +
    'page); every page costs the same, however deep.',
  '',
  `**Rate limit.** ${API_RATE_LIMIT.max} calls a minute per token; every answer carries \`RateLimit-Limit\`, ` +
    '`RateLimit-Remaining` and `RateLimit-Reset`; past the limit, 429 with `Retry-After`.',
  '',
  '**Labels and assignees** are ids: `GET /api/v1/projects/{projectId}` lists them with their names.',
  '',
  '**Versioning.** Within v1, fields and operations are only added, never removed or changed in meaning.',
].join('\n');

/** The OpenAPI document of this declaration's token routes: built once per function instance. */
let document: string | undefined;
function openApi(): string {
  document ??= JSON.stringify(
    openApiDocument(v1Api.routes, {
      title: 'Snag API',
      version: '1.0.0',
      description: documentDescription,
      serverUrl: getConfig().APP_ORIGIN,
    }),
  );
  return document;
}

export const operations = {
  /** The document, public and cacheable for a few minutes (it changes only with a deploy). */
  async openapi(): Promise<RawReply> {
    return {
      raw: {
        statusCode: 200,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'public, max-age=300',
          'access-control-allow-origin': '*',
        },
        body: openApi(),
      },
    };
  },
  /**
   * A team token: token, rate window, the team's project Query (3 requests). An extension: token, member,
   * rate window, TEAMS, one Query per team of theirs.
   */
  async listProjects({ token }: In<'listProjects'>) {
    const { teamId } = token;
    let found: Project[];
    if (token.kind === 'extension' || teamId === null) found = await memberProjects(token.principal);
    else {
      authorizeTeam(tokenMembership(token, teamId), 'team.read');
      found = await listProjects(teamId);
    }
    found.sort((a, b) => a.createdAt - b.createdAt);
    return { msg: { projects: found.map(projectOf) } };
  },
  /** Token, rate window, META with LABELS through the policy, the members and their names: 5 requests. */
  async getProject({ token, params, access }: In<'getProject'>) {
    const { project, labels, assignees } = await projectForTriage(
      token.principal,
      params.projectId,
      projectActionOf(access),
    );
    return { msg: { ...projectOf(toProject(project)), labels, assignees } };
  },
  /** Token, rate window, then the dashboard's own insights reads (3: the access batch and two Queries). */
  async getInsights({ token, params, query, access }: In<'getInsights'>) {
    const action = projectActionOf(access);
    return { msg: await projectInsights(token.principal, params.projectId, query.period, action) };
  },
  /** Token, rate window, then the dashboard list's own reads for this window (≤ 3 for one filter or sort). */
  async listIssues({ token, params, query, access }: In<'listIssues'>) {
    const { limit, cursor, ...filters } = query;
    const skip = cursor ? (decodeCursor(cursor) ?? 0) : 0;
    const answer = await listIssues(
      token.principal,
      params.projectId,
      { ...filters, page: 1 },
      projectActionOf(access),
      { skip, size: limit },
    );
    const end = skip + answer.requests.length;
    const page: V1IssuePage = {
      issues: answer.requests.map(summaryOf),
      total: answer.total_requests,
      next: answer.requests.length === limit && end < answer.total_requests ? encodeCursor(end) : null,
    };
    return { msg: page };
  },
  async getIssue({ token, params, access }: In<'getIssue'>) {
    const answer = await getIssue(token.principal, params.projectId, params.number, projectActionOf(access));
    return { msg: await issueOf(params.projectId, answer) };
  },
  /** The dashboard's triage PATCH (one core, one activity), by "<creator> via API token <name>". */
  async updateIssue({ token, params, body, access }: In<'updateIssue'>) {
    const action = projectActionOf(access);
    const answer = await patchIssue(token.principal, params.projectId, params.number, body, action);
    return { msg: await issueOf(params.projectId, answer) };
  },
  /** Issue 37: the dashboard's merge and unmerge (one transaction, the activity on both issues). */
  async mergeIssue({ token, params, body, access }: In<'mergeIssue'>) {
    const action = projectActionOf(access);
    return { msg: await mergeIssue(token.principal, params.projectId, params.number, body.into, action) };
  },
  async unmergeIssue({ token, params, access }: In<'unmergeIssue'>) {
    const action = projectActionOf(access);
    return { msg: await unmergeIssue(token.principal, params.projectId, params.number, action) };
  },
  /** The dashboard's suggestions, the same shape (docs/similar.md): access check, one Query, one BatchGetItem. */
  async listSimilar({ token, params, access }: In<'listSimilar'>) {
    return {
      msg: await similarFor(token.principal, params.projectId, params.number, projectActionOf(access)),
    };
  },
  async listComments({ token, params, query, access }: In<'listComments'>) {
    const action = projectActionOf(access);
    const page = await listComments(token.principal, params.projectId, params.number, query, action);
    return { msg: { comments: page.entries, next: page.next } };
  },
  async addComment({ token, params, body, access, log, correlationId }: In<'addComment'>) {
    const action = projectActionOf(access);
    const { comment } = await postComment(token.principal, params.projectId, params.number, body, action, {
      log,
      correlationId,
    });
    return { msg: comment, statusCode: 201 };
  },
  /** Issue 34: the widget's upload form for the caller's project, counted by the token's own limit only. */
  async createUpload({ token, params, body }: In<'createUpload'>) {
    return { msg: await requestApiUpload(token, params.projectId, body), statusCode: 201 };
  },
  /** Issue 34: files an issue; a retry with the same Idempotency-Key and body answers the first (200). */
  async createIssue({ token, params, body, event, log, correlationId }: In<'createIssue'>) {
    const header = v1IdempotencyHeaders.safeParse({
      'Idempotency-Key': event.headers['idempotency-key'],
    });
    // The route's declared header schema (the one the document shows), refused like a bad field.
    if (!header.success)
      throw new AppError('INVALID_PARAMETERS', { 'Idempotency-Key': 'INVALID_PARAMETERS' });
    const filed = await fileApiIssue(token, params.projectId, body, header.data['Idempotency-Key'], {
      log,
      correlationId,
    });
    return { msg: { number: filed.number, url: filed.url }, statusCode: filed.created ? 201 : 200 };
  },
  async getWidget({ token, params }: In<'getWidget'>) {
    // Typed as the documented schema, so the loader's configuration and the document cannot drift apart.
    const msg: V1WidgetConfig = await widgetForCaller(token, params.projectId);
    return { msg };
  },
};

export const handler = resourceHandler(v1Api, operations, { authenticate });
