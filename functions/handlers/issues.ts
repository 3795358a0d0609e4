/** Issue review and triage (issue 8, SPEC.md section 7; issue 23): lists, one issue, changes, labels, downloads. */
import { projectActionOf, teamActionOf } from '#contracts/access';
import { binaryReply, type InputOf, type OpName, type RawReply, resourceHandler } from '#runtime/http';
import { sourceOf } from '#runtime/source';
import { syncList } from '../integrations/service';
import { deleteComment, editComment, listActivity, listComments, postComment } from '../issues/comments';
import { downloadUrl, snapshotView } from '../issues/downloads';
import { projectInsights, teamInsights } from '../issues/insights';
import { createLabel, deleteLabel, listLabels, updateLabel } from '../issues/labels';
import { listIssues } from '../issues/list';
import { issuesApi } from '../issues/manifest';
import { mergeIssue, unmergeIssue } from '../issues/merge';
import { replayOfLink, replayOfProject } from '../issues/replay';
import { type ReplayAsset, replayAssetOfLink, replayAssetOfProject } from '../issues/replay-asset';
import { getIssue } from '../issues/review';
import { similarFor } from '../issues/similar';
import { bulkPatchIssues, patchIssue } from '../issues/triage';

/** What the pipeline hands each operation: params, query and body as the route's schemas produced them. */
type In<Op extends OpName<typeof issuesApi>> = InputOf<typeof issuesApi, Op>;

async function download(input: In<'downloadFile' | 'downloadScreenshot'>, kind: 'file' | 'screenshot') {
  const { session, params, query, access } = input;
  const url = await downloadUrl(
    session.userId,
    params.siteId,
    kind,
    params.name,
    query.download === '1' || query.download === 'true',
    projectActionOf(access),
  );
  const reply: RawReply = {
    raw: { statusCode: 302, headers: { location: url, 'cache-control': 'no-store' }, body: '' },
  };
  return reply;
}

/**
 * A recording's gzip as it is stored (the dashboard unpacks it), never cached, and a download rather than
 * anything a browser would show should the address be opened on its own.
 */
const gzipReply = (bytes: Uint8Array, extra: Record<string, string> = {}) =>
  binaryReply(bytes, {
    'content-type': 'application/gzip',
    'cache-control': 'private, no-store',
    'content-disposition': 'attachment; filename="replay.json.gz"',
    ...extra,
  });

// Each operation hands the action its route declares (input.access) to the policy (decision T7).
export const operations = {
  async list({ session, params, query, access }: In<'list'>) {
    const action = projectActionOf(access);
    if (query.integration)
      return { msg: await syncList(session.userId, params.id, query.integration, action) };
    return { msg: await listIssues(session.userId, params.id, query, action) };
  },
  async get({ session, params, access }: In<'get'>) {
    return { msg: await getIssue(session.userId, params.id, params.ticketId, projectActionOf(access)) };
  },
  async setState({ session, params, body, access }: In<'setState'>) {
    const action = projectActionOf(access);
    return { msg: await patchIssue(session.userId, params.id, params.ticketId, body, action) };
  },
  async merge({ session, params, body, access }: In<'merge'>) {
    const action = projectActionOf(access);
    return { msg: await mergeIssue(session.userId, params.id, params.ticketId, body.into, action) };
  },
  async unmerge({ session, params, access }: In<'unmerge'>) {
    return { msg: await unmergeIssue(session.userId, params.id, params.ticketId, projectActionOf(access)) };
  },
  async bulkUpdate({ session, params, body, access }: In<'bulkUpdate'>) {
    return { msg: await bulkPatchIssues(session.userId, params.id, body, projectActionOf(access)) };
  },
  async insights({ session, params, query, access }: In<'insights'>) {
    return { msg: await projectInsights(session.userId, params.id, query.period, projectActionOf(access)) };
  },
  async teamInsights({ session, params, query, access }: In<'teamInsights'>) {
    // The route's action (team.read) is what the domain checks; a GUEST's sum covers its projects only.
    teamActionOf(access);
    return { msg: await teamInsights(session.userId, params.teamId, query.period) };
  },
  async listLabels({ session, params, access }: In<'listLabels'>) {
    return { msg: await listLabels(session.userId, params.id, projectActionOf(access)) };
  },
  async createLabel({ session, params, body, access }: In<'createLabel'>) {
    return {
      msg: await createLabel(session.userId, params.id, body, projectActionOf(access)),
      statusCode: 201,
    };
  },
  async updateLabel({ session, params, body, access }: In<'updateLabel'>) {
    const action = projectActionOf(access);
    return { msg: await updateLabel(session.userId, params.id, params.labelId, body, action) };
  },
  async deleteLabel({ session, params, access }: In<'deleteLabel'>) {
    return { msg: await deleteLabel(session.userId, params.id, params.labelId, projectActionOf(access)) };
  },
  async comments({ session, params, query, access }: In<'comments'>) {
    const action = projectActionOf(access);
    return { msg: await listComments(session.userId, params.id, params.ticketId, query, action) };
  },
  async addComment({ session, params, body, access, log, correlationId }: In<'addComment'>) {
    const action = projectActionOf(access);
    const msg = await postComment(session.userId, params.id, params.ticketId, body, action, {
      log,
      correlationId,
    });
    return { msg, statusCode: 201 };
  },
  async editComment({ session, params, body, access }: In<'editComment'>) {
    const action = projectActionOf(access);
    return {
      msg: await editComment(session.userId, params.id, params.ticketId, params.commentId, body.body, action),
    };
  },
  async deleteComment({ session, params, access }: In<'deleteComment'>) {
    const action = projectActionOf(access);
    return {
      msg: await deleteComment(session.userId, params.id, params.ticketId, params.commentId, action),
    };
  },
  async similar({ session, params, access }: In<'similar'>) {
    return { msg: await similarFor(session.userId, params.id, params.ticketId, projectActionOf(access)) };
  },
  async activity({ session, params, query, access }: In<'activity'>) {
    const action = projectActionOf(access);
    return { msg: await listActivity(session.userId, params.id, params.ticketId, query, action) };
  },
  downloadFile: (input: In<'downloadFile'>) => download(input, 'file'),
  downloadScreenshot: (input: In<'downloadScreenshot'>) => download(input, 'screenshot'),
  async snapshot({ session, params, access }: In<'snapshot'>) {
    return { msg: await snapshotView(session.userId, params.siteId, params.name, projectActionOf(access)) };
  },
  async replay({ session, params, access }: In<'replay'>) {
    const action = projectActionOf(access);
    return gzipReply(await replayOfProject(session.userId, params.siteId, params.name, action));
  },
  async replayAsset({ session, params, query, access }: In<'replayAsset'>) {
    const action = projectActionOf(access);
    return assetReply(await replayAssetOfProject(session.userId, params.siteId, query.url, action));
  },
  async replayLinkAsset({ params, query, event }: In<'replayLinkAsset'>) {
    return assetReply(await replayAssetOfLink(params.token, query.url, sourceOf(event)));
  },
  async replayLink({ params, event }: In<'replayLink'>) {
    return gzipReply(await replayOfLink(params.token, sourceOf(event)), {
      'x-robots-tag': 'noindex, nofollow',
      'referrer-policy': 'no-referrer',
    });
  },
};

/** A proxied picture or font; the reader's browser keeps it for the hour (no second count on a replay watched again). */
function assetReply(asset: ReplayAsset) {
  return binaryReply(asset.bytes, {
    'content-type': asset.contentType,
    'cache-control': 'private, max-age=3600',
    ...(asset.document
      ? {
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
          'content-disposition': 'attachment; filename="image.svg"',
        }
      : {}),
  });
}

export const handler = resourceHandler(issuesApi, operations);
