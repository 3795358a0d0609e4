/**
 * Tracker consumer (issue 24, docs/webhooks.md "Inbound tracker hooks"): applies each verified, queued
 * hook delivery to its Snag issue (functions/integrations/sync/apply.ts). A vendor that is down when the
 * tracker issue is re-read, or a database hiccup, fails the record: it comes back after the queue's
 * growing delays, and after its last receive goes to the DLQ for an operator. A permanent refusal (the
 * token revoked, the issue gone there) is dropped with a warning at once: retrying cannot change it.
 */
import { trackerEventSchema } from '#contracts/sync';
import { batchHandler } from '#runtime/batch';
import { OutboundRefused } from '#runtime/outbound';
import { trackerQueue } from '../integrations/queues';
import { applyTrackerEvent } from '../integrations/sync/apply';
import { isVendorError } from '../integrations/vendors/http';

export const handler = batchHandler(
  'tracker',
  trackerEventSchema,
  async (ev, log) => {
    const where = { projectId: ev.projectId, vendor: ev.vendor, kind: ev.kind };
    try {
      const outcome = await applyTrackerEvent(ev, log);
      log.info('tracker event applied', { ...where, outcome });
    } catch (err) {
      const permanent =
        (isVendorError(err) && err.permanent) || (err instanceof OutboundRefused && err.permanent);
      if (!permanent) throw err;
      log.warn('tracker event dropped: the tracker refused', { ...where, reason: (err as Error).message });
    }
  },
  {
    queue: 'tracker',
    maxReceiveCount: trackerQueue.maxReceiveCount,
    retryDelaysSeconds: trackerQueue.retryDelaysSeconds,
  },
);
