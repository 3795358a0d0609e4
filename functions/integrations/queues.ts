/**
 * The queues of the async path (DESIGN.md section 2): `issue.created` → fan-out → one delivery per
 * integration, listed by this domain's manifest (manifest.ts). Apart from the manifest so that a consumer,
 * which reads its own queue's declaration, carries none of the domain's API declarations and their schemas
 * (`npx tsx test/bench/lambda.ts`). Each visibility timeout is 6x its consumer's timeout, as AWS advises
 * for SQS event sources, so a slow batch is not delivered twice while it still runs.
 */
import { bucketPrefixes, type QueueDecl } from '#contracts/manifest';

/** Consumer: functions/consumers/fanout.ts. */
export const fanoutQueue = {
  visibilityTimeoutSeconds: 120,
  maxReceiveCount: 5,
  batchSize: 10,
  maxConcurrency: 5,
  // Reads META's active integrations, sets their statuses to 1 (deleting the sync markers), enqueues one delivery each;
  // moves a primary's duplicates with its resolution and sends their own `issue.updated` here (issues/follow.ts).
  consumer: { needs: { table: 'readwrite', sendTo: ['delivery', 'fanout'] }, timeoutSeconds: 20 },
} satisfies QueueDecl;

/** Consumer: functions/consumers/delivery.ts; dead-letter consumer: functions/consumers/delivery-dlq.ts. */
export const deliveryQueue = {
  visibilityTimeoutSeconds: 360,
  maxReceiveCount: 5,
  // A vendor that is down or rate-limiting gets time to recover: 1, 5, 20 and 60 minutes between the
  // 5 attempts (about 1 h 26 min in all) before the ticket shows "failed" and waits for Sync.
  retryDelaysSeconds: [60, 300, 1200, 3600],
  // One record per invocation: a slow vendor (15 s per call, several calls) holds up no other
  // customer's delivery in its batch, and each record gets the whole time budget (delivery-budget.ts).
  batchSize: 1,
  // At most 10 deliveries at once: vendors rate-limit per token, and 10 parallel calls of at most 15 s
  // still move ≥ 40 deliveries a minute when every vendor is at its slowest. Messages carry their project
  // as MessageGroupId (SQS fair queues), so one project's backlog cannot hold all 10 (decisions.md).
  maxConcurrency: 10,
  // Reads the issue it sends and writes its status, vendor id and sync marker; email goes through SES;
  // signs the 7-day file links (secrets), reads stored screenshots for vendor uploads, delays its
  // retries, and hands a vendor's success on through its own queue when the status write fails.
  consumer: {
    needs: {
      table: 'readwrite',
      mail: true,
      secrets: true,
      objects: { read: [bucketPrefixes.stored] },
      sendTo: ['delivery'],
      delaysRetriesOf: 'delivery',
    },
    timeoutSeconds: 60,
  },
  // Settles what reached the DLQ: a delivery whose consumer died or timed out on its last receive is
  // marked failed (3) with its sync marker, and a handed-on success is recorded (2).
  deadLetter: {
    visibilityTimeoutSeconds: 60,
    batchSize: 10,
    maxConcurrency: 2,
    consumer: { needs: { table: 'readwrite' }, timeoutSeconds: 10 },
  },
} satisfies QueueDecl;

/**
 * Consumer: functions/consumers/tracker.ts. Verified inbound tracker hook deliveries (issue 24), reduced
 * to `TrackerEvent`s by the hook's handler: the consumer re-reads the tracker issue and changes the Snag
 * issue through the triage core (status, comment), which writes the activity and sends the events.
 */
export const trackerQueue = {
  visibilityTimeoutSeconds: 180,
  maxReceiveCount: 5,
  retryDelaysSeconds: [30, 120, 600, 1800],
  batchSize: 5,
  maxConcurrency: 5,
  // Reads the hook, the integration and the issue, writes the change (its events go to the fan-out);
  // re-reads the tracker issue through the vendor's API (up to 15 s), and delays its retries.
  consumer: {
    needs: { table: 'readwrite', sendTo: ['fanout'], delaysRetriesOf: 'tracker' },
    timeoutSeconds: 30,
  },
} satisfies QueueDecl;
