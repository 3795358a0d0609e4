/**
 * Delivery consumer (docs/data-model.md 4.8): parses each delivery message, reads which receive it is and
 * the invocation's time left off SQS and Lambda, and hands it to the delivery run
 * (functions/integrations/delivery-run.ts), one record per invocation. A thrown record is retried with
 * the manifest's growing delays, then goes to the DLQ (delivery-dlq.ts).
 */
import { deliveryMessageSchema } from '#contracts/messages';
import { batchHandler } from '#runtime/batch';
import { receiveCount } from '#runtime/retry';
import { budgetMs } from '../integrations/delivery-budget';
import { runDelivery } from '../integrations/delivery-run';
import { deliveryQueue } from '../integrations/queues';

export const handler = batchHandler(
  'delivery',
  deliveryMessageSchema,
  (msg, log, record, context) =>
    runDelivery(msg, log, {
      messageId: record.messageId,
      receive: receiveCount(record),
      budgetMs: budgetMs(context),
    }),
  { queue: 'delivery', ...deliveryQueue },
);
