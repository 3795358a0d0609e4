/** Projects and the widget loader (issue 4). */
import * as z from 'zod';
import { apiFunction, bucketPrefixes, type DomainManifest } from '#contracts/manifest';
import { projectIdParam, projectSchema, projectUpdateSchema } from '#contracts/schemas';
import { teamIdParam } from '#contracts/teams';
import { widgetApi } from './widget-manifest';

const project = z.object({ id: projectIdParam });
/** `GET client/website?teamId=<id>|all`: one team's projects (default: the team in use) or every team's. */
const listQuery = z.object({ teamId: z.union([z.literal('all'), teamIdParam]).optional() });

// Deleting a project deletes its files.
export const projectsApi = apiFunction({
  resource: 'projects',
  needs: {
    table: 'readwrite',
    objects: { list: [bucketPrefixes.stored], delete: [bucketPrefixes.stored] },
  },
  routes: [
    {
      method: 'GET',
      path: '/api/client/website',
      op: 'list',
      session: true,
      access: { scope: 'team', action: 'team.read', from: 'teamInUse' },
      query: listQuery,
    },
    {
      method: 'POST',
      path: '/api/client/website',
      op: 'create',
      session: true,
      access: { scope: 'team', action: 'team.projects', from: 'teamInUse' },
      body: projectSchema,
      context: 'projectCreate',
    },
    {
      method: 'GET',
      path: '/api/client/website/{id}',
      op: 'get',
      session: true,
      access: { scope: 'project', action: 'read', from: 'params.id' },
      params: project,
    },
    {
      method: 'PATCH',
      path: '/api/client/website/{id}',
      op: 'update',
      session: true,
      access: { scope: 'project', action: 'settings', from: 'params.id' },
      params: project,
      body: projectUpdateSchema,
    },
    {
      method: 'DELETE',
      path: '/api/client/website/{id}',
      op: 'remove',
      session: true,
      access: { scope: 'project', action: 'delete', from: 'params.id' },
      params: project,
    },
  ],
});

export const projects = {
  domain: 'projects',
  api: [projectsApi, widgetApi],
} satisfies DomainManifest;
