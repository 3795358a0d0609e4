/** Projects and the widget loader (issue 4). */
import { apiFunction, bucketPrefixes, type DomainManifest } from '#contracts/manifest';
import { projectSchema, projectUpdateSchema } from '#contracts/schemas';

export const projects = {
  domain: 'projects',
  api: {
    // Deleting a project deletes its files.
    projects: apiFunction<typeof import('../handlers/projects').operations>()({
      needs: {
        table: 'readwrite',
        objects: { list: [bucketPrefixes.stored], delete: [bucketPrefixes.stored] },
      },
      routes: [
        { method: 'GET', path: '/api/client/website', op: 'list', session: true },
        {
          method: 'POST',
          path: '/api/client/website',
          op: 'create',
          session: true,
          body: projectSchema,
          context: 'projectCreate',
        },
        { method: 'GET', path: '/api/client/website/{id}', op: 'get', session: true },
        {
          method: 'PATCH',
          path: '/api/client/website/{id}',
          op: 'update',
          session: true,
          body: projectUpdateSchema,
        },
        { method: 'DELETE', path: '/api/client/website/{id}', op: 'remove', session: true },
      ],
    }),
    // The loader, fetched on every page view of every customer site: reads the project only.
    widget: apiFunction<typeof import('../handlers/widget').operations>()({
      needs: { table: 'read', widget: true },
      routes: [
        {
          method: 'GET',
          path: '/api/website/{id}/code',
          op: 'code',
          session: false,
          caller: 'public',
        },
      ],
    }),
  },
} satisfies DomainManifest;
