/** Issue review (issue 8, SPEC.md section 7): the lists, one issue, close/restore, and downloads. */
import type * as z from 'zod';
import {
  type downloadQuerySchema,
  type issueListQuerySchema,
  type issueStateSchema,
  projectIdParam,
  ticketIdParam,
} from '#contracts/schemas';
import { AppError } from '#runtime/errors';
import { type AuthedInput, type RawReply, resourceHandler } from '#runtime/http';
import { syncList } from '../integrations/service';
import { downloadUrl, snapshotView } from '../issues/downloads';
import { getIssue, listIssues, setIssueState } from '../issues/review';

/** A malformed id cannot name a project or an issue: the same 404 as someone else's. */
function param<T>(schema: z.ZodType<T>, value: string | undefined): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError('NOT_FOUND');
  return parsed.data;
}

async function download(
  input: AuthedInput<unknown, z.infer<typeof downloadQuerySchema>>,
  kind: 'file' | 'screenshot',
) {
  const { session, params, query } = input;
  const url = await downloadUrl(
    session.userId,
    param(projectIdParam, params.siteId),
    kind,
    params.name ?? '',
    query.download === '1' || query.download === 'true',
  );
  const reply: RawReply = {
    raw: { statusCode: 302, headers: { location: url, 'cache-control': 'no-store' }, body: '' },
  };
  return reply;
}

export const operations = {
  async list({ session, params, query }: AuthedInput<unknown, z.infer<typeof issueListQuerySchema>>) {
    const id = param(projectIdParam, params.id);
    if (query.integration) return { msg: await syncList(session.userId, id, query.integration) };
    return { msg: await listIssues(session.userId, id, query) };
  },
  async get({ session, params }: AuthedInput) {
    const id = param(projectIdParam, params.id);
    return { msg: await getIssue(session.userId, id, param(ticketIdParam, params.ticketId)) };
  },
  async setState({ session, params, body }: AuthedInput<z.infer<typeof issueStateSchema>>) {
    const id = param(projectIdParam, params.id);
    const n = param(ticketIdParam, params.ticketId);
    return { msg: await setIssueState(session.userId, id, n, body.restore) };
  },
  downloadFile: (input: AuthedInput<unknown, z.infer<typeof downloadQuerySchema>>) => download(input, 'file'),
  downloadScreenshot: (input: AuthedInput<unknown, z.infer<typeof downloadQuerySchema>>) =>
    download(input, 'screenshot'),
  async snapshot({ session, params }: AuthedInput) {
    const id = param(projectIdParam, params.siteId);
    return { msg: await snapshotView(session.userId, id, params.name ?? '') };
  },
};

export const handler = resourceHandler('issues', operations);
