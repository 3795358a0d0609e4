/**
 * Similar-reports consumer (docs/similar.md): computes each new report's signals, indexes them and stores
 * its suggestions (functions/issues/similar.ts), after the intake and never on the report's request path.
 * A failure (a database hiccup, S3 unavailable) fails the record, which comes back after the queue's delays;
 * the dashboard answers `ready: false` meanwhile.
 */
import { issueCreatedMessageSchema } from '#contracts/messages';
import { batchHandler } from '#runtime/batch';
import { computeSimilar } from '../issues/similar';
import { similarQueue } from '../issues/similar-queue';

export const handler = batchHandler(
  'similar',
  issueCreatedMessageSchema,
  async (msg, log) => {
    const started = performance.now();
    const run = await computeSimilar(msg.projectId, msg.issueNumber, log);
    log.info('similar reports computed', {
      projectId: msg.projectId,
      number: msg.issueNumber,
      ...run,
      ms: Math.round(performance.now() - started),
    });
  },
  {
    queue: 'similar',
    maxReceiveCount: similarQueue.maxReceiveCount,
    retryDelaysSeconds: similarQueue.retryDelaysSeconds,
  },
);
