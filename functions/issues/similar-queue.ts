/**
 * The similar-reports queue (docs/similar.md): every filed report's `issue.created`, also sent here by the
 * filing (issues/filing.ts), so the signals are computed after the intake and apart from the integrations'
 * fan-out (a report held from the integrations past a busy day's threshold still gets its suggestions, and a
 * slow vendor never delays them). Apart from the manifest so that the consumer carries none of the domain's
 * API declarations.
 */
import { bucketPrefixes, type QueueDecl } from '#contracts/manifest';

/** Consumer: functions/consumers/similar.ts. */
export const similarQueue = {
  visibilityTimeoutSeconds: 180,
  maxReceiveCount: 5,
  retryDelaysSeconds: [10, 60, 300, 900],
  batchSize: 10,
  maxConcurrency: 5,
  // Reads the report and its screenshot, about 25 bounded index Queries and one BatchGetItem of candidates,
  // writes its index entries, suggestion pairs and signals (with the rule on, two activity entries); decoding
  // a large screenshot wants the memory. Delays its retries.
  consumer: {
    needs: {
      table: 'readwrite',
      objects: { read: [bucketPrefixes.stored] },
      delaysRetriesOf: 'similar',
      memoryMb: 1024,
    },
    timeoutSeconds: 30,
  },
} satisfies QueueDecl;
