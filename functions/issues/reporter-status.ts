/**
 * What a status-page token opens (issue 24; docs/reporter.md): the reporter's own issue, read through the
 * token alone, and their reply. Nothing here reads another issue, an internal comment, a member's address
 * or a stored object: the answer is built field by field from the issue and its public comments.
 */
import {
  type ReporterComment,
  type ReporterStatusAnswer,
  reporterCommentsShown,
  reporterRateLimits,
  reporterStatusOf,
} from '#contracts/reporter';
import type { Actor } from '#contracts/triage';
import { getItems, tableName } from '#runtime/db';
import { AppError } from '#runtime/errors';
import type { Logger } from '#runtime/log';
import { rateLimitWrite } from '#runtime/rate-limit';
import { nowMs } from '#runtime/time';
import { type Project, projectKey, toProject } from '../projects/project';
import { commitComment, pageTimeline } from './comments';
import { issueDetailKey, issueHeaderKey, storedIssueOf } from './issue';
import { followedHeader } from './merge-state';
import { notifyPut } from './notify';
import { issueOfToken, type Reporter, reporterKey, toReporter } from './reporter';
import { type StoredComment, timelineId } from './timeline';
import { stateOf } from './triage';

type Item = Record<string, unknown>;

export const reporterActor: Actor = { kind: 'reporter', name: 'Reporter' };

export interface OpenedIssue {
  projectId: string;
  number: number;
  project: Project;
  header: Item;
  detail: Item;
  reporter: Reporter;
}

/**
 * The issue `token` opens, with its project, or NOT_FOUND: an unknown token, a project switched off, deleted
 * or with reporter updates off, or an issue gone. Two requests (the token's GetItem, one BatchGetItem).
 */
export async function openByToken(token: string): Promise<OpenedIssue> {
  const ref = await issueOfToken(token);
  if (!ref) throw new AppError('NOT_FOUND');
  const { projectId, number } = ref;
  const [meta, header, detail, reporterItem] = await getItems([
    projectKey(projectId),
    issueHeaderKey(projectId, number),
    issueDetailKey(projectId, number),
    reporterKey(projectId, number),
  ]);
  const reporter = toReporter(reporterItem);
  if (!meta || !header || !detail || !reporter) throw new AppError('NOT_FOUND');
  const project = toProject(meta);
  if (project.active !== 1 || !project.data.reporterUpdates) throw new AppError('NOT_FOUND');
  return { projectId, number, project, header, detail, reporter };
}

const isReporter = (c: Item) => (c.author as Actor | undefined)?.kind === 'reporter';

/** A public comment as the reporter may read it: a member's name, never an id or an address. */
export function reporterComment(c: Item): ReporterComment {
  const mine = isReporter(c);
  return {
    id: String(c.id),
    author: mine ? '' : String((c.author as Actor | undefined)?.name ?? ''),
    mine,
    body: String(c.body ?? ''),
    createdAt: String(c.createdAt ?? ''),
  };
}

/** The public comments of the issue, oldest first, after `after` (a comment id) when given. */
export async function publicComments(projectId: string, n: number, after?: string): Promise<Item[]> {
  const page = await pageTimeline(
    projectId,
    n,
    { cursor: after || undefined, limit: reporterCommentsShown },
    { commentsOnly: true, internal: false },
  );
  // The read's filter leaves internal entries out; this check keeps it so should the filter ever change.
  return page.items.filter((c) => c.kind === 'comment' && c.visibility !== 'internal');
}

/** GET /api/reporter/{token}: the issue as its reporter sees it (one Query more than `openByToken`). */
export async function reporterStatus(opened: OpenedIssue): Promise<ReporterStatusAnswer> {
  const { projectId, number, header, detail, reporter } = opened;
  const [comments, followed] = await Promise.all([
    publicComments(projectId, number),
    followedHeader(projectId, header),
  ]);
  const issue = storedIssueOf(number, header, detail);
  return {
    number,
    description: issue.msg,
    submittedAt: issue.createdAt,
    // A duplicate's reporter sees the status of the issue theirs was merged into (issue 37).
    status: reporterStatusOf(stateOf(followed).fields.status),
    comments: comments.map(reporterComment),
    mails: !reporter.unsubscribed,
  };
}

/**
 * POST /api/reporter/{token}/reply: a public comment by "Reporter" (the comments' own transaction, so the
 * issue moves in the `updated` order and `comment.created` goes out), with one outbox entry: for the
 * assignee, or with none for the team's owners and admins (notify-recipients.ts decides at the flush).
 * At most `replyPerIssue` replies per issue per window (RATE_LIMITED).
 */
export async function replyAsReporter(
  opened: OpenedIssue,
  body: string,
  opts: { log?: Logger; correlationId?: string } = {},
): Promise<ReporterComment> {
  const { projectId, number: n, header } = opened;
  const ms = nowMs();
  const comment: StoredComment = {
    kind: 'comment',
    id: timelineId(ms),
    number: n,
    author: reporterActor,
    body,
    visibility: 'public',
    createdAt: new Date(ms).toISOString(),
    mentions: [],
  };
  const assignee = typeof header.assignee === 'string' && header.assignee ? header.assignee : '';
  const extra = [
    // The page's own condition, held at the write: the project still shows it (switched off meanwhile: 404).
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: projectKey(projectId),
        ConditionExpression: 'active = :one AND (attribute_not_exists(#d.#r) OR #d.#r = :t)',
        ExpressionAttributeNames: { '#d': 'data', '#r': 'reporterUpdates' },
        ExpressionAttributeValues: { ':one': 1, ':t': true },
      },
    },
    notifyPut({
      kind: 'comment',
      projectId,
      number: n,
      assignee,
      by: reporterActor,
      commentId: comment.id,
      visibility: 'public',
    }),
  ];
  const rate = { ...reporterRateLimits.replyPerIssue, key: `${projectId}#${n}` };
  await commitComment(projectId, n, header, comment, {
    once: rateLimitWrite(rate),
    onceRefusal: 'RATE_LIMITED',
    checks: extra,
    ...opts,
  });
  return reporterComment(comment as unknown as Item);
}
