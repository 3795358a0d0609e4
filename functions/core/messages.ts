/** Messages on the async path (DESIGN.md section 2): issue created → fan-out → one delivery per integration. */
import * as z from 'zod';

export const integrationNames = ['email', 'gitlab', 'jira', 'slack', 'asana', 'webhooks'] as const;
export type IntegrationName = (typeof integrationNames)[number];

export const fanoutMessageSchema = z.object({
  type: z.literal('issue.created'),
  projectId: z.uuid(),
  issueNumber: z.number().int().positive(),
  /** Limit the fan-out to these integrations (the dashboard's Sync); all active ones when absent. */
  only: z.array(z.enum(integrationNames)).optional(),
});
export type FanoutMessage = z.infer<typeof fanoutMessageSchema>;

export const deliveryMessageSchema = z.object({
  projectId: z.uuid(),
  issueNumber: z.number().int().positive(),
  integration: z.enum(integrationNames),
});
export type DeliveryMessage = z.infer<typeof deliveryMessageSchema>;
