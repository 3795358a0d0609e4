/** Issues: the widget's intake (issue 7) and their review (issue 8). */
import * as z from 'zod';
import { apiFunction, bucketPrefixes, type DomainManifest } from '#contracts/manifest';
import { reporterParams, reporterReplySchema } from '#contracts/reporter';
import {
  downloadQuerySchema,
  projectIdParam,
  reportSchema,
  ticketIdParam,
  uploadRequestSchema,
} from '#contracts/schemas';
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

const { pending, stored, exports } = bucketPrefixes;

const project = z.object({ id: projectIdParam });
const issue = z.object({ id: projectIdParam, ticketId: ticketIdParam });
const label = z.object({ id: projectIdParam, labelId: labelIdParam });
const comment = z.object({ id: projectIdParam, ticketId: ticketIdParam, commentId: timelineIdParam });
/** A stored object of a project; review.ts checks the name's form itself (its NOT_FOUND). */
const storedObject = z.object({ siteId: projectIdParam, name: z.string() });

// Public, called cross-origin from customers' sites: presigns uploads to pending/, moves them to p/ and announces the issue.
export const intakeApi = apiFunction({
  resource: 'intake',
  needs: {
    table: 'readwrite',
    objects: { read: [pending], write: [pending, stored], delete: [pending, stored] },
    sendTo: ['fanout'],
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
        queryActions: { integration: 'triage' },
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
  ],
});

// The CSV export (issue 23): its own function for its own time and memory (the list's stay at 10 s). It
// writes the file under x/ in parts and answers a 302 to a presigned GET of it (issues/export-csv.ts). The
// 28 s timeout stays under API Gateway's 30 s integration limit.
export const exportsApi = apiFunction({
  resource: 'exports',
  needs: {
    table: 'read',
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
  api: [intakeApi, issuesApi, exportsApi, reporterApi],
} satisfies DomainManifest;
