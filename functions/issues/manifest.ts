/** Issues: the widget's intake (issue 7) and their review (issue 8). */
import { apiFunction, bucketPrefixes, type DomainManifest } from '#contracts/manifest';
import {
  downloadQuerySchema,
  issueListQuerySchema,
  issueStateSchema,
  reportSchema,
  uploadRequestSchema,
} from '#contracts/schemas';

const { pending, stored } = bucketPrefixes;

export const issues = {
  domain: 'issues',
  api: {
    // Public, called cross-origin from customers' sites: presigns uploads to pending/, moves them to p/ and announces the issue.
    intake: apiFunction<typeof import('../handlers/intake').operations>()({
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
          body: uploadRequestSchema,
        },
        {
          method: 'POST',
          path: '/api/website/{id}/request',
          op: 'report',
          session: false,
          caller: 'public',
          body: reportSchema,
        },
        {
          method: 'OPTIONS',
          path: '/api/website/{id}/upload',
          op: 'preflight',
          session: false,
          caller: 'public',
        },
        {
          method: 'OPTIONS',
          path: '/api/website/{id}/request',
          op: 'preflight',
          session: false,
          caller: 'public',
        },
      ],
    }),
    // Review: reads and moves issues; downloads are presigned GETs of stored objects. It writes one kind of
    // object: the viewable copy of a page snapshot (p/<pid>/v1/, issues/review.ts snapshotView).
    issues: apiFunction<typeof import('../handlers/issues').operations>()({
      needs: { table: 'readwrite', objects: { read: [stored], write: [stored] } },
      routes: [
        {
          method: 'GET',
          path: '/api/client/website/{id}/request',
          op: 'list',
          session: true,
          query: issueListQuerySchema,
        },
        {
          method: 'GET',
          path: '/api/client/website/{id}/request/{ticketId}',
          op: 'get',
          session: true,
        },
        {
          method: 'PATCH',
          path: '/api/client/website/{id}/request/{ticketId}',
          op: 'setState',
          session: true,
          body: issueStateSchema,
        },
        {
          method: 'GET',
          path: '/api/client/download/file/{siteId}/{name}',
          op: 'downloadFile',
          session: true,
          query: downloadQuerySchema,
        },
        {
          method: 'GET',
          path: '/api/client/download/screenshot/{siteId}/{name}',
          op: 'downloadScreenshot',
          session: true,
          query: downloadQuerySchema,
        },
        {
          method: 'GET',
          path: '/api/client/snapshot/{siteId}/{name}',
          op: 'snapshot',
          session: true,
        },
      ],
    }),
  },
} satisfies DomainManifest;
