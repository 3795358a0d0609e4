/**
 * Integrations (issue 11, SPEC.md section 7): save one integration, sync tickets again, and the signed
 * file links that deliveries carry. The sync lists are `GET client/website/{id}/request?integration=`
 * (functions/handlers/issues.ts), the vendor calls are the vendor issue's.
 */
import { projectActionOf } from '#contracts/access';
import { type InputOf, type OpName, type RawReply, resourceHandler } from '#runtime/http';
import { integrationsApi } from '../integrations/manifest';
import * as integrations from '../integrations/service';

/** What the pipeline hands each operation: params and body as the route's schemas produced them. */
type In<Op extends OpName<typeof integrationsApi>> = InputOf<typeof integrationsApi, Op>;

export const operations = {
  // The action each route declares (input.access) is what the policy checks (decision T7).
  async save({ session, params, body, access }: In<'save'>) {
    return { msg: await integrations.save(session.userId, params.siteId, body, projectActionOf(access)) };
  },
  async sync({ session, params, body, correlationId, access }: In<'sync'>) {
    const action = projectActionOf(access);
    return { msg: await integrations.sync(session.userId, params.siteUuid, body, correlationId, action) };
  },
  async file({ params }: In<'file'>) {
    const url = await integrations.fileLinkTarget(params.token);
    const reply: RawReply = {
      raw: { statusCode: 302, headers: { location: url, 'cache-control': 'no-store' }, body: '' },
    };
    return reply;
  },
};

export const handler = resourceHandler(integrationsApi, operations);
