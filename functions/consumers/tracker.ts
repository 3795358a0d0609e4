/**
 * Tracker consumer (issue 24, docs/webhooks.md "Inbound tracker hooks"): applies each verified, queued
 * hook delivery to its Snag issue (functions/integrations/sync/apply.ts). A vendor that is down when the
 * tracker issue is re-read, or a database hiccup, fails the record: it comes back after the queue's
 * growing delays, and after its last receive goes to the DLQ for an operator.
 */
import { trackerEventSchema } from '#contracts/sync';
import { batchHandler } from '#runtime/batch';
import { trackerQueue } from '../integrations/queues';
import { applyTrackerEvent } from '../integrations/sync/apply';

export const handler = batchHandler(
  'tracker',
  trackerEventSchema,
  async (ev, log) => {
    const outcome = await applyTrackerEvent(ev, log);
    log.info('tracker event applied', { projectId: ev.projectId, vendor: ev.vendor, kind: ev.kind, outcome });
  },
  {
    queue: 'tracker',
    maxReceiveCount: trackerQueue.maxReceiveCount,
    retryDelaysSeconds: trackerQueue.retryDelaysSeconds,
  },
);
