/**
 * GET /api/website/{id}/code: the script the install snippet loads on every page view of a customer's
 * site. Public, cached for a minute (the configuration is embedded, so changes show within a minute),
 * and harmless when the project is unknown, deleted or switched off.
 */

import { projectIdParam } from '#contracts/schemas';
import { type InputOf, resourceHandler } from '#runtime/http';
import { noopLoader, renderLoader, widgetConfig } from '../projects/loader';
import { getProject, ownerPlanOf } from '../projects/project';
import { widgetApi } from '../projects/widget-manifest';

const scriptHeaders = {
  'content-type': 'text/javascript; charset=utf-8',
  'cache-control': 'public, max-age=60',
  'x-content-type-options': 'nosniff',
  // Loaded by <script> from any site; the header only matters to pages that fetch it.
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
};

const script = (body: string) => ({ raw: { statusCode: 200, headers: scriptHeaders, body } });

export const operations = {
  async code({ params }: InputOf<typeof widgetApi, 'code'>) {
    // Parsed here, not by the route's params schema: a malformed id is a no-op script, not a 404.
    const id = projectIdParam.safeParse(params.id);
    if (!id.success) return script(noopLoader);
    const project = await getProject(id.data);
    if (project?.active !== 1) return script(noopLoader);
    return script(renderLoader(widgetConfig(project, ownerPlanOf(project))));
  },
};

export const handler = resourceHandler(widgetApi, operations);
