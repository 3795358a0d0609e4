/**
 * The loader's function (issue 4), declared apart from the projects' API (manifest.ts lists both): the
 * function serves every page view of every customer site, so its bundle carries this declaration alone,
 * not the schemas of the dashboard's project routes.
 */
import * as z from 'zod';
import { apiFunction } from '#contracts/manifest';

// The loader, fetched on every page view of every customer site: reads the project only.
export const widgetApi = apiFunction({
  resource: 'widget',
  needs: { table: 'read', widget: true },
  routes: [
    {
      method: 'GET',
      path: '/api/website/{id}/code',
      op: 'code',
      session: false,
      caller: 'public',
      // Any string: the loader answers a harmless no-op for an id it does not know, malformed ones included
      // (docs/decisions.md, issue 4), never a 404 on a customer's page.
      params: z.object({ id: z.string() }),
    },
  ],
});
