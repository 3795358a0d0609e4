/**
 * The async path of DESIGN.md section 2: `issue.created` → fan-out → one delivery per integration. The
 * consumers are functions/consumers/<queue>.ts. Each visibility timeout is 6x its consumer's timeout, as
 * AWS advises for SQS event sources, so a slow batch is not delivered twice while it still runs.
 */
import type { DomainManifest } from '../shared/manifest';

export const integrations = {
  domain: 'integrations',
  queues: {
    fanout: {
      visibilityTimeoutSeconds: 120,
      maxReceiveCount: 5,
      batchSize: 10,
      maxConcurrency: 5,
      // Lists the project's integrations and enqueues one delivery each.
      consumer: { needs: { table: 'read', sendTo: ['delivery'] }, timeoutSeconds: 20 },
    },
    delivery: {
      visibilityTimeoutSeconds: 360,
      maxReceiveCount: 5,
      batchSize: 5,
      // Vendors rate-limit per token; a handful of parallel deliveries is plenty and stays under them.
      maxConcurrency: 5,
      // Reads the issue it sends; email goes through SES.
      consumer: { needs: { table: 'read', mail: true }, timeoutSeconds: 60 },
    },
  },
} satisfies DomainManifest;
