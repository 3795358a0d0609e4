/**
 * The delivery DLQ's consumer: parses each dead letter and has it settled (functions/integrations/
 * dead-letters.ts). A record that fails comes back after the DLQ's visibility timeout and stays in the DLQ
 * (14 days, the DLQ alarm) until it passes.
 */
import { deliveryMessageSchema } from '#contracts/messages';
import { batchHandler } from '#runtime/batch';
import { settleDeadLetter } from '../integrations/dead-letters';

export const handler = batchHandler('delivery-dlq', deliveryMessageSchema, (msg, log, record) =>
  settleDeadLetter(msg, log, {
    messageId: record.messageId,
    sentAt: Number(record.attributes.SentTimestamp),
  }),
);
