/** Messages on the async path (DESIGN.md section 2): issue created → fan-out → one delivery per integration. */
import * as z from 'zod';
import { correlationIdSchema } from './correlation';
import { dataExportMessageSchema } from './data-requests';
import { type IntegrationName, integrationNames } from './integration-names';
import type { QueueName } from './manifest';
import { trackerEventSchema } from './sync';
import { actorSchema } from './triage';

export { type IntegrationName, integrationNames };

export const issueCreatedMessageSchema = z.object({
  type: z.literal('issue.created'),
  projectId: z.uuid(),
  issueNumber: z.number().int().positive(),
  /** Limit the fan-out to these integrations (the dashboard's Sync); all active ones when absent. */
  only: z.array(z.enum(integrationNames)).optional(),
  correlationId: correlationIdSchema.optional(),
});

/**
 * A change of an issue after its creation (issue 23): triage fields, close and restore, a new comment. The
 * fan-out hands it to the integrations that subscribe to it (the webhook's `events`, DESIGN section 8).
 * `changes` holds each changed field's value before and after; a comment names its id (its body is read
 * when delivering, so a queue never carries it).
 */
export const issueEventMessageSchema = z.object({
  type: z.enum(['issue.updated', 'comment.created', 'issue.merged', 'issue.unmerged']),
  projectId: z.uuid(),
  issueNumber: z.number().int().positive(),
  /**
   * Who made the change: a member's name, "Reporter", a token's creator with the token's name (`token`), or
   * "<name> on GitLab" (kind tracker, with its `vendor`: the sync never sends that change back there,
   * docs/webhooks.md).
   */
  actor: actorSchema,
  at: z.iso.datetime(),
  changes: z.record(z.string().max(20), z.object({ from: z.unknown(), to: z.unknown() })).optional(),
  commentId: z
    .string()
    .regex(/^[0-9a-z]{20}$/)
    .optional(),
  /** `issue.merged` / `issue.unmerged` (issue 37): the primary the issue was merged into or taken out of. */
  primary: z.number().int().positive().optional(),
  correlationId: correlationIdSchema.optional(),
});
export type IssueEventMessage = z.infer<typeof issueEventMessageSchema>;

export const fanoutMessageSchema = z.discriminatedUnion('type', [
  issueCreatedMessageSchema,
  issueEventMessageSchema,
]);
export type FanoutMessage = z.infer<typeof fanoutMessageSchema>;

export const deliveryMessageSchema = z.object({
  projectId: z.uuid(),
  issueNumber: z.number().int().positive(),
  integration: z.enum(integrationNames),
  correlationId: correlationIdSchema.optional(),
  /**
   * The vendor already accepted this delivery, but its status could not be written: the consumer hands the
   * outcome on through the queue, and whoever receives this only records it (integrations/delivery-run.ts).
   */
  delivered: z
    .object({ vendorId: z.string().max(500).optional(), url: z.string().max(2000).optional() })
    .optional(),
  /**
   * An issue event for a webhook that subscribes to it (issue 23, DESIGN section 8 `event`): sent and
   * retried on its own, never touching the issue's delivery status (integrations/event-delivery.ts, docs/webhooks.md).
   */
  event: issueEventMessageSchema.omit({ projectId: true, issueNumber: true, correlationId: true }).optional(),
});
export type DeliveryMessage = z.infer<typeof deliveryMessageSchema>;

/** Each queue's message: `publish()` (functions/runtime/publish.ts) refuses a message its schema refuses. */
export const queueMessageSchemas = {
  fanout: fanoutMessageSchema,
  delivery: deliveryMessageSchema,
  tracker: trackerEventSchema,
  // The filed report's `issue.created` again, for the similar-reports consumer (docs/similar.md).
  similar: issueCreatedMessageSchema,
  privacy: dataExportMessageSchema,
} as const satisfies Record<QueueName, z.ZodType>;
export type QueueMessage<Q extends QueueName> = z.infer<(typeof queueMessageSchemas)[Q]>;
