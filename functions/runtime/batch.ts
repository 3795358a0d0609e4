/**
 * SQS consumers report partial batch failures: each record is handled on its own, and only the ones that
 * failed go back to the queue (and after maxReceiveCount to its DLQ). A record that does not even parse
 * fails too, so that it ends up in the DLQ where an operator can read it, rather than vanishing. With a
 * retry policy, a failed record comes back after a growing delay (functions/runtime/retry.ts).
 */
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { createLogger, type Logger } from './log';
import { delayRetry, type RetryPolicy } from './retry';

/** Every message on the async path may carry the correlation id of the report it is about. */
type Correlated = { correlationId?: string };

export function batchHandler<T extends Correlated>(
  name: string,
  schema: z.ZodType<T>,
  handle: (
    message: T & { correlationId: string },
    log: Logger,
    record: SQSRecord,
    // Lambda's, for the time left (a consumer that budgets its work); tests may leave it out.
    context?: Context,
  ) => Promise<void>,
  retry?: RetryPolicy,
) {
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      let log = createLogger({ consumer: name, messageId: record.messageId });
      try {
        const parsed = schema.safeParse(JSON.parse(record.body));
        if (!parsed.success) throw new Error(`malformed message: ${parsed.error.message}`);
        // Every line about this message, its failure included, carries the report's correlation id.
        const correlationId = parsed.data.correlationId ?? record.messageId;
        log = log.child({ correlationId });
        await handle({ ...parsed.data, correlationId }, log, record, context);
      } catch (err) {
        log.error('message failed', { err, receiveCount: record.attributes?.ApproximateReceiveCount });
        if (retry) await delayRetry(retry, record, log, err);
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  };
}
