/**
 * The widget's intake (issue 7): POST website/{id}/upload and website/{id}/request, and their CORS
 * preflights. Public (no session); every call is admitted first for the project's own domain, so that
 * every answer to an admitted origin, errors included, carries the CORS headers the widget needs to read it.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { z } from 'zod';
import type { reportSchema, uploadRequestSchema } from '#contracts/intake-schemas';
import { type RequestInput, resourceHandler } from '#runtime/http';
import { networkOf, sourceOf } from '#runtime/source';
import {
  checkTakesReports,
  fileReport,
  projectForOrigin,
  requestUpload,
  type Visitor,
} from '../issues/intake';
import { intakeApi } from '../issues/manifest';
import type { Project } from '../projects/project';

type In<S extends z.ZodType> = RequestInput<z.infer<S>> & { admitted: Project };

/** CORS answer to an admitted preflight (docs/decisions.md "Widget intake"). */
const preflightHeaders = {
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
};

/**
 * Admission of every intake call, before its body is read (issues/intake.ts `projectForOrigin`): once the
 * Origin is the project's, every answer carries the CORS header for it, the refusals that follow included.
 */
async function admit(request: {
  event: APIGatewayProxyEventV2;
  params: Record<string, string>;
  headers: Record<string, string>;
}): Promise<Project> {
  request.headers.vary = 'Origin';
  const origin = request.event.headers.origin;
  const project = await projectForOrigin(request.params.id, origin);
  request.headers['access-control-allow-origin'] = origin!;
  checkTakesReports(project);
  return project;
}

const visitorOf = (event: APIGatewayProxyEventV2): Visitor => ({
  source: sourceOf(event),
  network: networkOf(event),
});

export const operations = {
  async upload({ admitted, event, body }: In<typeof uploadRequestSchema>) {
    return { msg: await requestUpload(admitted, visitorOf(event), body) };
  },
  async report({ admitted, event, body, log, correlationId }: In<typeof reportSchema>) {
    // The report's correlation id is this request's (the pipeline's); issue.created carries it to every delivery.
    return {
      msg: await fileReport(admitted, visitorOf(event), body, log.child({ correlationId }), correlationId),
    };
  },
  async preflight() {
    return { raw: { statusCode: 204, headers: { ...preflightHeaders, 'cache-control': 'no-store' } } };
  },
};

export const handler = resourceHandler(intakeApi, operations, { admit });
