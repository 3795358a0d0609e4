/**
 * Webhook events after an issue's creation (issue 23, DESIGN section 8 `event`, docs/webhooks.md): the
 * payloads of `issue.updated` and `comment.created`, sent to the webhook integration when its `events`
 * subscribe to them, signed like `issue.created` (webhooks.ts `postSigned`).
 *
 * They are fire-and-retry (decision Tr-M7): no status on the issue, no sync marker, no Sync. The delivery
 * consumer sends each one; a receiver that is down is retried with the delivery queue's backoff (1, 5, 20,
 * 60 minutes); after the last receive, or at once on a permanent refusal (401/403/404/410, a refused
 * target), the event is dropped with a warning in the log. Each failed attempt counts in `DeliveriesFailed`
 * (integration webhooks), like an issue delivery's.
 */

import { createHash } from 'node:crypto';
import type { DeliveryMessage } from '#contracts/messages';
import type { Actor, WebhookEvent } from '#contracts/triage';
import type { OutboundFetch } from '#runtime/outbound';
import { postSigned } from './webhooks';

export type IssueEvent = NonNullable<DeliveryMessage['event']>;

/** What the payload says of the project and issue. */
export interface EventContext {
  project: { id: string; name: string; url: string };
  issue: { number: number; title: string; url: string };
}

/** The comment of a `comment.created` event as read from the timeline (kind 'comment'). */
export interface EventComment {
  id: string;
  body: string;
  visibility: 'internal' | 'public';
  author: Actor;
  createdAt: string;
}

interface EventPayloadBase {
  version: 1;
  event: Exclude<WebhookEvent, 'issue.created'>;
  /** Stable per event: the same on every retry, for receivers to drop duplicates. */
  deliveryId: string;
  project: EventContext['project'];
  issue: EventContext['issue'];
  /**
   * Who did it: a member's name (never an email), "Snag", a reporter; for an API token its creator's name
   * with the token's name in `token` (issue 25, additive: absent otherwise).
   */
  actor: Pick<Actor, 'kind' | 'name' | 'token'>;
  at: string;
}
export interface IssueUpdatedPayload extends EventPayloadBase {
  event: 'issue.updated';
  /** Each changed field, before and after (status, priority, assignee as a user id, labels as ids, dueDate). */
  changes: Record<string, { from: unknown; to: unknown }>;
}
export interface CommentCreatedPayload extends EventPayloadBase {
  event: 'comment.created';
  comment: { id: string; body: string; internal: boolean; author: string; createdAt: string };
}
/**
 * `issue.merged` / `issue.unmerged` (issue 37): `issue` is the duplicate, `primary` the issue it was merged
 * into (or taken out of); its number and its link.
 */
export interface IssueMergedPayload extends EventPayloadBase {
  event: 'issue.merged' | 'issue.unmerged';
  primary: { number: number; url: string };
}
export type EventPayload = IssueUpdatedPayload | CommentCreatedPayload | IssueMergedPayload;

/** The event's delivery id: the comment's id, or a digest of the change (the same message, the same id). */
export function eventDeliveryId(projectId: string, n: number, event: IssueEvent): string {
  const key =
    event.type === 'comment.created'
      ? String(event.commentId)
      : createHash('sha256')
          .update(JSON.stringify([event.at, event.actor, event.changes ?? {}, event.primary ?? null]))
          .digest('hex')
          .slice(0, 24);
  return `${projectId}:${n}:${event.type}:${key}`;
}

/** The payload; null for a comment that is gone (deleted before its event went out). */
export function eventPayload(
  ctx: EventContext,
  event: IssueEvent,
  comment: EventComment | null,
  primaryUrl: (n: number) => string = (n) => ctx.issue.url.replace(/\/\d+$/, `/${n}`),
): EventPayload | null {
  const base = {
    version: 1 as const,
    deliveryId: eventDeliveryId(ctx.project.id, ctx.issue.number, event),
    project: ctx.project,
    issue: ctx.issue,
    actor: {
      kind: event.actor.kind,
      name: event.actor.name,
      ...(event.actor.token ? { token: event.actor.token } : {}),
    },
    at: event.at,
  };
  if (event.type === 'issue.updated')
    return { ...base, event: 'issue.updated', changes: event.changes ?? {} };
  if (event.type === 'issue.merged' || event.type === 'issue.unmerged') {
    if (!event.primary) return null;
    return { ...base, event: event.type, primary: { number: event.primary, url: primaryUrl(event.primary) } };
  }
  if (!comment) return null;
  return {
    ...base,
    event: 'comment.created',
    comment: {
      id: comment.id,
      body: comment.body,
      internal: comment.visibility === 'internal',
      author: comment.author.name,
      createdAt: comment.createdAt,
    },
  };
}

/** Sends one event's payload, signed; PermanentFailure or an Error as `postSigned` throws them. */
export async function sendEvent(
  http: OutboundFetch,
  target: { url: string; token: string },
  payload: EventPayload,
): Promise<string> {
  return postSigned(http, target, JSON.stringify(payload), payload.deliveryId);
}
