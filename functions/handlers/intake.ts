/**
 * The widget's intake (issue 7): POST website/{id}/upload and website/{id}/request, and their CORS
 * preflights. Public (no session); every call is admitted first for the project's own domain, so that
 * every answer to an admitted origin, errors included, carries the CORS headers the widget needs to read it.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { correlationIdSchema } from '#contracts/messages';
import type { reportSchema, uploadRequestSchema } from '#contracts/schemas';
import { type RequestInput, resourceHandler } from '#runtime/http';
import { admit, fileReport, preflightHeaders, requestUpload } from '../issues/intake';
import type { Project } from '../projects/project';

type In<S extends z.ZodType> = RequestInput<z.infer<S>> & { admitted: Project };

export const operations = {
  async upload({ admitted, event, body }: In<typeof uploadRequestSchema>) {
    return { msg: await requestUpload(admitted, event, body) };
  },
  async report({ admitted, event, body, log }: In<typeof reportSchema>) {
    // The report's correlation id is this request's id; issue.created carries it to every delivery. An id
    // the message schema would refuse (none, or an unexpected shape) is replaced, never sent to fail there.
    const requestId = event.requestContext?.requestId;
    const correlationId = correlationIdSchema.safeParse(requestId).success ? requestId! : randomUUID();
    return { msg: await fileReport(admitted, event, body, log.child({ correlationId }), correlationId) };
  },
  async preflight() {
    return { raw: { statusCode: 204, headers: { ...preflightHeaders, 'cache-control': 'no-store' } } };
  },
};

export const handler = resourceHandler('intake', operations, { admit });
