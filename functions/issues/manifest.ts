/** Issues: the widget's intake (issue 7) and their review (issue 8). */
import * as z from 'zod';
import {
  v1CommentBody,
  v1CommentPageSchema,
  v1CommentQuery,
  v1CommentSchema,
  v1IdempotencyHeaders,
  v1IssueCreateBody,
  v1IssueCreatedSchema,
  v1IssueListQuery,
  v1IssuePageSchema,
  v1IssueParams,
  v1IssuePatch,
  v1IssueSchema,
  v1MergeSchema,
  v1ProjectDetailSchema,
  v1ProjectListSchema,
  v1ProjectParams,
  v1SimilarSchema,
  v1UploadBody,
  v1UploadSchema,
  v1WidgetConfigSchema,
} from '#contracts/api-v1';
import { insightsAnswerSchema, insightsQuerySchema } from '#contracts/insights';
import { reportSchema, uploadRequestSchema } from '#contracts/intake-schemas';
import { apiFunction, bucketPrefixes, type DomainManifest } from '#contracts/manifest';
import { reporterParams, reporterReplySchema } from '#contracts/reporter';
import {
  downloadQuerySchema,
  projectIdParam,
  replayAssetQuerySchema,
  ticketIdParam,
} from '#contracts/schemas';
import { mergeBodySchema } from '#contracts/similar';
import { teamParams } from '#contracts/teams';
import {
  bulkPatchSchema,
  commentSchema,
  commentUpdateSchema,
  exportQuerySchema,
  issuePatchSchema,
  labelIdParam,
  labelSchema,
  labelUpdateSchema,
  listQuerySchema,
  timelineIdParam,
  timelineQuerySchema,
} from '#contracts/triage';
import { similarQueue } from './similar-queue';

const { pending, stored, exports } = bucketPrefixes;

const project = z.object({ id: projectIdParam });
const issue = z.object({ id: projectIdParam, ticketId: ticketIdParam });
const label = z.object({ id: projectIdParam, labelId: labelIdParam });
const comment = z.object({ id: projectIdParam, ticketId: ticketIdParam, commentId: timelineIdParam });
/** A stored object of a project; review.ts checks the name's form itself (its NOT_FOUND). */
const storedObject = z.object({ siteId: projectIdParam, name: z.string() });
/** A replay's signed link (issues/replay-link.ts): any text, so a malformed one counts and is NOT_FOUND like a forged one. */
const replayToken = z.object({ token: z.string() });

// Public, called cross-origin from customers' sites: presigns uploads to pending/, moves them to p/ and announces the issue.
export const intakeApi = apiFunction({
  resource: 'intake',
  needs: {
    table: 'readwrite',
    objects: { read: [pending], write: [pending, stored], delete: [pending, stored] },
    sendTo: ['fanout', 'similar'],
  },
  routes: [
    {
      method: 'POST',
      path: '/api/website/{id}/upload',
      op: 'upload',
      session: false,
      caller: 'public',
      params: project,
      body: uploadRequestSchema,
    },
    {
      method: 'POST',
      path: '/api/website/{id}/request',
      op: 'report',
      session: false,
      caller: 'public',
      params: project,
      body: reportSchema,
    },
    {
      method: 'OPTIONS',
      path: '/api/website/{id}/upload',
      op: 'preflight',
      session: false,
      caller: 'public',
      params: project,
    },
    {
      method: 'OPTIONS',
      path: '/api/website/{id}/request',
      op: 'preflight',
      session: false,
      caller: 'public',
      params: project,
    },
  ],
});

// Review and triage: reads, lists and changes issues and the project's labels (issue 23: `issue.updated` to
// the fan-out queue); downloads are presigned GETs of stored objects. It writes one kind of object: the
// viewable copy of a page snapshot (p/<pid>/v1/, issues/downloads.ts snapshotView).
export const issuesApi = apiFunction({
  resource: 'issues',
  // 25 s: a bulk change of 100 issues is 100 transactions (8 at a time), retried under contention.
  needs: {
    table: 'readwrite',
    objects: { read: [stored], write: [stored] },
    sendTo: ['fanout'],
    timeoutSeconds: 25,
  },
  routes: [
    {
      method: 'GET',
      path: '/api/client/website/{id}/request',
      op: 'list',
      session: true,
      access: {
        scope: 'project',
        action: 'read',
        from: 'params.id',
        queryActions: { integration: 'integrations' },
      },
      params: project,
      query: listQuerySchema,
    },
    {
      method: 'PATCH',
      path: '/api/client/website/{id}/requests',
      op: 'bulkUpdate',
      session: true,
      access: { scope: 'project', action: 'triage', from: 'params.id' },
      params: project,
      body: bulkPatchSchema,
    },
    {
      method: 'GET',
      path: '/api/client/website/{id}/labels',
      op: 'listLabels',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.id' },
      params: project,
    },
    {
      method: 'POST',
      path: '/api/client/website/{id}/labels',
      op: 'createLabel',
      session: true,
      access: { scope: 'project', action: 'labels', from: 'params.id' },
      params: project,
      body: labelSchema,
    },
    {
      method: 'PATCH',
      path: '/api/client/website/{id}/labels/{labelId}',
      op: 'updateLabel',
      session: true,
      access: { scope: 'project', action: 'labels', from: 'params.id' },
      params: label,
      body: labelUpdateSchema,
    },
    {
      method: 'DELETE',
      path: '/api/client/website/{id}/labels/{labelId}',
      op: 'deleteLabel',
      session: true,
      access: { scope: 'project', action: 'labels', from: 'params.id' },
      params: label,
    },
    {
      method: 'GET',
      path: '/api/client/website/{id}/request/{ticketId}',
      op: 'get',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.id' },
      params: issue,
    },
    {
      method: 'PATCH',
      path: '/api/client/website/{id}/request/{ticketId}',
      op: 'setState',
      session: true,
      access: { scope: 'project', action: 'triage', from: 'params.id' },
      params: issue,
      // SPEC's {restore} and the triage fields (issue 23); the answer is the issue, as `get` answers it.
      body: issuePatchSchema,
    },
    // Insights (issue 37, issues/insights.ts): figures read from counters, the same cost at any size. A
    // team's sums the projects its caller may read, so a GUEST sees its own projects' figures only.
    {
      method: 'GET',
      path: '/api/client/website/{id}/insights',
      op: 'insights',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.id' },
      params: project,
      query: insightsQuerySchema,
    },
    {
      method: 'GET',
      path: '/api/client/team/{teamId}/insights',
      op: 'teamInsights',
      session: true,
      access: { scope: 'team', action: 'team.read', from: 'params.teamId' },
      params: teamParams,
      query: insightsQuerySchema,
    },
    // Comments and the timeline (issue 23, functions/issues/comments.ts). Reads are `read` (a GUEST's
    // answers leave internal entries out); writing is `comment`, and an internal comment also needs
    // `internal`, an edit the authorship, and deleting another's comment `moderate`: the operations check.
    {
      method: 'GET',
      path: '/api/client/website/{id}/request/{ticketId}/comments',
      op: 'comments',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.id' },
      params: issue,
      query: timelineQuerySchema,
    },
    {
      method: 'POST',
      path: '/api/client/website/{id}/request/{ticketId}/comments',
      op: 'addComment',
      session: true,
      access: { scope: 'project', action: 'comment', from: 'params.id' },
      params: issue,
      body: commentSchema,
    },
    {
      method: 'PATCH',
      path: '/api/client/website/{id}/request/{ticketId}/comments/{commentId}',
      op: 'editComment',
      session: true,
      access: { scope: 'project', action: 'comment', from: 'params.id' },
      params: comment,
      body: commentUpdateSchema,
    },
    {
      method: 'DELETE',
      path: '/api/client/website/{id}/request/{ticketId}/comments/{commentId}',
      op: 'deleteComment',
      session: true,
      access: { scope: 'project', action: 'comment', from: 'params.id' },
      params: comment,
    },
    {
      method: 'GET',
      path: '/api/client/website/{id}/request/{ticketId}/activity',
      op: 'activity',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.id' },
      params: issue,
      query: timelineQuerySchema,
    },
    // Merging similar reports (issue 37, functions/issues/merge.ts): who may triage may merge and unmerge.
    {
      method: 'POST',
      path: '/api/client/website/{id}/request/{ticketId}/merge',
      op: 'merge',
      session: true,
      access: { scope: 'project', action: 'triage', from: 'params.id' },
      params: issue,
      body: mergeBodySchema,
    },
    {
      method: 'DELETE',
      path: '/api/client/website/{id}/request/{ticketId}/merge',
      op: 'unmerge',
      session: true,
      access: { scope: 'project', action: 'triage', from: 'params.id' },
      params: issue,
    },
    // Similar reports (docs/similar.md, contracts/similar.ts): anyone who may read the issue, guests included.
    {
      method: 'GET',
      path: '/api/client/website/{id}/request/{ticketId}/similar',
      op: 'similar',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.id' },
      params: issue,
    },
    {
      method: 'GET',
      path: '/api/client/download/file/{siteId}/{name}',
      op: 'downloadFile',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.siteId' },
      params: storedObject,
      query: downloadQuerySchema,
    },
    {
      method: 'GET',
      path: '/api/client/download/screenshot/{siteId}/{name}',
      op: 'downloadScreenshot',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.siteId' },
      params: storedObject,
      query: downloadQuerySchema,
    },
    {
      method: 'GET',
      path: '/api/client/snapshot/{siteId}/{name}',
      op: 'snapshot',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.siteId' },
      params: storedObject,
    },
    // The session replay's bytes (issues/replay.ts), signed in as for the downloads, or from a tracker's
    // signed link: public, the token the only credential, the caller's source counted.
    {
      method: 'GET',
      path: '/api/client/replay/{siteId}/{name}',
      op: 'replay',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.siteId' },
      params: storedObject,
    },
    // The images and fonts a recording names, fetched by the server through the outbound guard so the
    // reader's browser never calls a host the visitor chose (issues/replay-asset.ts); the recording's own
    // access, and its own path so `{name}` above never takes it.
    {
      method: 'GET',
      path: '/api/client/replay-asset/{siteId}',
      op: 'replayAsset',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.siteId' },
      params: z.object({ siteId: projectIdParam }),
      query: replayAssetQuerySchema,
    },
    {
      method: 'GET',
      path: '/api/replay/{token}',
      op: 'replayLink',
      session: false,
      caller: 'public',
      params: replayToken,
    },
    // The public player's images and fonts: the proxy above, the signed link its only credential.
    {
      method: 'GET',
      path: '/api/replay/{token}/asset',
      op: 'replayLinkAsset',
      session: false,
      caller: 'public',
      params: replayToken,
      query: replayAssetQuerySchema,
    },
  ],
});

// The CSV export (issue 23): its own function for its own time and memory (the list's stay at 10 s). It
// writes the file under x/ in parts and answers a 302 to a presigned GET of it (issues/export-csv.ts). The
// 28 s timeout stays under API Gateway's 30 s integration limit.
export const exportsApi = apiFunction({
  resource: 'exports',
  needs: {
    // Write: the export's entry in the team's audit log (teams/audit.ts recordAudit), nothing else.
    table: 'readwrite',
    objects: { read: [exports], write: [exports] },
    timeoutSeconds: 28,
    memoryMb: 1024,
  },
  routes: [
    {
      method: 'GET',
      path: '/api/client/website/{id}/requests.csv',
      op: 'exportCsv',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.id' },
      params: project,
      query: exportQuerySchema,
    },
  ],
});

/**
 * The public REST API, version 1 (issue 25, docs/api.md): bearer-token routes (`token`: the scope each
 * needs), no cookies, no Origin check. The projects and issues of the token's team, through the same
 * domain functions and policy as the dashboard's routes; `response` feeds the OpenAPI document.
 */
const v1Project = { scope: 'project', from: 'params.projectId' } as const;
export const v1Api = apiFunction({
  resource: 'v1',
  // Issue 34: filing presigns uploads to pending/, copies them to p/ and removes the pending objects.
  needs: {
    table: 'readwrite',
    objects: { read: [pending, stored], write: [pending, stored], delete: [pending, stored] },
    sendTo: ['fanout', 'similar'],
  },
  routes: [
    // The document itself: public (no token), built from this declaration's routes.
    { method: 'GET', path: '/api/v1/openapi.json', op: 'openapi', session: false, caller: 'api' },
    {
      method: 'GET',
      path: '/api/v1/projects',
      op: 'listProjects',
      session: false,
      caller: 'api',
      token: 'projects:read',
      summary: "List the projects the token may see (a team token: its team's; an extension's: its member's)",
      response: v1ProjectListSchema,
    },
    {
      method: 'GET',
      path: '/api/v1/projects/{projectId}',
      op: 'getProject',
      session: false,
      caller: 'api',
      token: 'projects:read',
      access: { ...v1Project, action: 'read' },
      params: v1ProjectParams,
      summary: 'Get a project, with its labels and the people it may assign',
      response: v1ProjectDetailSchema,
    },
    {
      method: 'GET',
      path: '/api/v1/projects/{projectId}/issues',
      op: 'listIssues',
      session: false,
      caller: 'api',
      token: 'issues:read',
      access: { ...v1Project, action: 'read' },
      params: v1ProjectParams,
      query: v1IssueListQuery,
      summary: 'List issues, filtered and sorted, a cursor page at a time',
      response: v1IssuePageSchema,
    },
    {
      method: 'GET',
      path: '/api/v1/projects/{projectId}/issues/{number}',
      op: 'getIssue',
      session: false,
      caller: 'api',
      token: 'issues:read',
      access: { ...v1Project, action: 'read' },
      params: v1IssueParams,
      summary: 'Get an issue with signed links to its screenshots, files and page snapshots',
      response: v1IssueSchema,
    },
    {
      method: 'PATCH',
      path: '/api/v1/projects/{projectId}/issues/{number}',
      op: 'updateIssue',
      session: false,
      caller: 'api',
      token: 'issues:write',
      access: { ...v1Project, action: 'triage' },
      params: v1IssueParams,
      body: v1IssuePatch,
      summary: 'Change status, priority, assignee, labels or due date',
      response: v1IssueSchema,
    },
    {
      method: 'GET',
      path: '/api/v1/projects/{projectId}/issues/{number}/comments',
      op: 'listComments',
      session: false,
      caller: 'api',
      token: 'issues:read',
      access: { ...v1Project, action: 'read' },
      params: v1IssueParams,
      query: v1CommentQuery,
      summary: "List an issue's comments, oldest first",
      response: v1CommentPageSchema,
    },
    // Similar reports (docs/similar.md): up to five open issues that look like this one, never merged or hidden.
    {
      method: 'GET',
      path: '/api/v1/projects/{projectId}/issues/{number}/similar',
      op: 'listSimilar',
      session: false,
      caller: 'api',
      token: 'issues:read',
      access: { ...v1Project, action: 'read' },
      params: v1IssueParams,
      summary: 'List up to five open issues that look like this one, best first, with their reasons',
      response: v1SimilarSchema,
    },
    {
      method: 'POST',
      path: '/api/v1/projects/{projectId}/issues/{number}/comments',
      op: 'addComment',
      session: false,
      caller: 'api',
      token: 'comments:write',
      access: { ...v1Project, action: 'comment' },
      params: v1IssueParams,
      body: v1CommentBody,
      summary: 'Comment on an issue (public or internal)',
      response: v1CommentSchema,
    },
    // Merging (issue 37, docs/api.md "Merging"): the dashboard's merge and unmerge, answered under `data`.
    {
      method: 'POST',
      path: '/api/v1/projects/{projectId}/issues/{number}/merge',
      op: 'mergeIssue',
      session: false,
      caller: 'api',
      token: 'issues:write',
      access: { ...v1Project, action: 'triage' },
      params: v1IssueParams,
      body: mergeBodySchema,
      refuses: [
        'MERGE_TARGET_MISSING',
        'MERGE_INTO_DUPLICATE',
        'MERGE_HAS_DUPLICATES',
        'ALREADY_MERGED',
        'MERGE_LIMIT',
      ],
      summary: 'Merge the issue into another as its duplicate (its reporter then follows the other)',
      response: v1MergeSchema,
    },
    {
      method: 'DELETE',
      path: '/api/v1/projects/{projectId}/issues/{number}/merge',
      op: 'unmergeIssue',
      session: false,
      caller: 'api',
      token: 'issues:write',
      access: { ...v1Project, action: 'triage' },
      params: v1IssueParams,
      summary: 'Take a duplicate out of its primary: it stands alone again',
      response: v1MergeSchema,
    },
    {
      method: 'GET',
      path: '/api/v1/projects/{projectId}/insights',
      op: 'getInsights',
      session: false,
      caller: 'api',
      token: 'issues:read',
      access: { ...v1Project, action: 'read' },
      params: v1ProjectParams,
      query: insightsQuerySchema,
      summary:
        "A project's figures for 7, 30 or 90 days: reports per day, open issues, top pages and devices, time to resolve",
      response: insightsAnswerSchema,
    },
    // Filing issues (issue 34, docs/api.md "Filing issues"): the widget's intake rules and the plan's
    // limits, as the caller (`report`: anyone who may read the project), without the visitor windows.
    {
      method: 'POST',
      path: '/api/v1/projects/{projectId}/uploads',
      op: 'createUpload',
      session: false,
      caller: 'api',
      token: 'issues:create',
      access: { ...v1Project, action: 'report' },
      params: v1ProjectParams,
      body: v1UploadBody,
      refuses: ['PLAN_LIMIT', 'FILE_TOO_LARGE', 'FILE_TYPE_NOT_ALLOWED'],
      summary: 'Get a presigned form to upload a screenshot, video, page snapshot, file or replay',
      response: v1UploadSchema,
    },
    {
      method: 'POST',
      path: '/api/v1/projects/{projectId}/issues',
      op: 'createIssue',
      session: false,
      caller: 'api',
      token: 'issues:create',
      access: { ...v1Project, action: 'report' },
      params: v1ProjectParams,
      headers: v1IdempotencyHeaders,
      body: v1IssueCreateBody,
      refuses: [
        'INVALID_UPLOAD',
        'PLAN_LIMIT',
        'QUOTA_EXCEEDED',
        'IDEMPOTENCY_KEY_REUSED',
        'IDEMPOTENCY_IN_PROGRESS',
      ],
      summary: 'File an issue with the uploaded screenshots and files (idempotent with Idempotency-Key)',
      response: v1IssueCreatedSchema,
    },
    {
      method: 'GET',
      path: '/api/v1/projects/{projectId}/widget',
      op: 'getWidget',
      session: false,
      caller: 'api',
      token: 'issues:create',
      access: { ...v1Project, action: 'report' },
      params: v1ProjectParams,
      summary: "The project's widget (form, custom fields, languages, what it may send), after the plan",
      response: v1WidgetConfigSchema,
    },
  ],
});

// The reporter hears back (issue 24, docs/reporter.md): the status page and its calls, public, with the
// token in the path as the only credential. `/r/{token}` (DESIGN section 8) is served by the page route:
// CloudFront and the local server rewrite it to `/api/reporter/{token}/page` (contracts/reporter.ts). The
// HTML routes take any token text and answer their own 404 page; the JSON routes refuse a malformed one.
const anyToken = z.object({ token: z.string() });
export const reporterApi = apiFunction({
  resource: 'reporter',
  needs: { table: 'readwrite', sendTo: ['fanout'] },
  routes: [
    {
      method: 'GET',
      path: '/api/reporter/{token}/page',
      op: 'page',
      session: false,
      caller: 'public',
      params: anyToken,
    },
    {
      method: 'GET',
      path: '/api/reporter/{token}',
      op: 'status',
      session: false,
      caller: 'public',
      params: reporterParams,
    },
    {
      method: 'POST',
      path: '/api/reporter/{token}/reply',
      op: 'reply',
      session: false,
      caller: 'public',
      params: reporterParams,
      body: reporterReplySchema,
    },
    {
      method: 'GET',
      path: '/api/reporter/{token}/unsubscribe',
      op: 'unsubscribeAsk',
      session: false,
      caller: 'public',
      params: anyToken,
    },
    // RFC 8058's one-click POST and the confirmation page's button: any body is ignored (no schema).
    {
      method: 'POST',
      path: '/api/reporter/{token}/unsubscribe',
      op: 'unsubscribe',
      session: false,
      caller: 'public',
      params: anyToken,
    },
  ],
});

export const issues = {
  domain: 'issues',
  api: [intakeApi, issuesApi, exportsApi, reporterApi, v1Api],
  queues: { similar: similarQueue },
  schedules: {
    // Retention (functions/schedules/retention.ts, docs/retention.md): daily, resolved issues past their
    // project's period deleted with their files; locally also the sweep of pending uploads older than a day.
    retention: {
      expression: 'cron(30 3 * * ? *)',
      localEveryMs: 60 * 60 * 1000,
      needs: {
        table: 'readwrite',
        objects: { delete: [bucketPrefixes.stored, bucketPrefixes.pending], list: [bucketPrefixes.pending] },
      },
      timeoutSeconds: 300,
    },
  },
} satisfies DomainManifest;
