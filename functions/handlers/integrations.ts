/**
 * Integrations (issue 11, SPEC.md section 7): save one integration, sync tickets again, and the signed
 * file links that deliveries carry. The sync lists are `GET client/website/{id}/request?integration=`
 * (functions/handlers/issues.ts), the vendor calls are the vendor issue's.
 */
import type * as z from 'zod';
import type { integrationSaveSchema, syncRequestSchema } from '#contracts/integrations';
import { correlationIdSchema } from '#contracts/messages';
import { projectIdParam } from '#contracts/schemas';
import { AppError } from '#runtime/errors';
import { type AuthedInput, type RawReply, type RequestInput, resourceHandler } from '#runtime/http';
import * as integrations from '../integrations/service';

/** A malformed id cannot name a project: the same 404 as someone else's. */
function projectId(value: string | undefined): string {
  const parsed = projectIdParam.safeParse(value);
  if (!parsed.success) throw new AppError('NOT_FOUND');
  return parsed.data;
}

export const operations = {
  async save({ session, params, body }: AuthedInput<z.infer<typeof integrationSaveSchema>>) {
    return { msg: await integrations.save(session.userId, projectId(params.siteId), body) };
  },
  async sync({ session, params, body, requestId }: AuthedInput<z.infer<typeof syncRequestSchema>>) {
    const correlationId = correlationIdSchema.safeParse(requestId);
    return {
      msg: await integrations.sync(
        session.userId,
        projectId(params.siteUuid),
        body,
        correlationId.success ? correlationId.data : undefined,
      ),
    };
  },
  async file({ params }: RequestInput) {
    const url = await integrations.fileLinkTarget(params.token ?? '');
    const reply: RawReply = {
      raw: { statusCode: 302, headers: { location: url, 'cache-control': 'no-store' }, body: '' },
    };
    return reply;
  },
};

export const handler = resourceHandler('integrations', operations);
