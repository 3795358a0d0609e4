/**
 * The queue of requests about a person's data (issue 35, docs/privacy.md "Export"): each message is one
 * step of an export job (issues/data-requests.ts `exportStep`), so an export of many issues and files runs
 * in bounded batches outside the request that started it, and a step that dies comes back after the
 * visibility timeout and is done again without a duplicate (its parts are overwritten, its progress is
 * advanced on a condition). Apart from the manifest so the consumer carries none of the API's schemas.
 */
import { bucketPrefixes, type QueueDecl } from '#contracts/manifest';

/** Consumer: functions/consumers/privacy.ts. */
export const privacyQueue = {
  // 6x the consumer's timeout (AWS's advice for SQS event sources): a slow pack is not started twice.
  visibilityTimeoutSeconds: 720,
  maxReceiveCount: 5,
  // One step per invocation: each step is a batch of DATA_EXPORT_BATCH issues or the final pack.
  batchSize: 1,
  // Exports are rare and each pack may hold up to 200 MB: two at once at most.
  maxConcurrency: 2,
  // Reads the job, the issues and their timelines, advances the job; reads the stored files, writes the
  // batch parts and the ZIP under x/ and deletes the parts; hands the next step on through its own queue.
  consumer: {
    needs: {
      table: 'readwrite',
      objects: {
        read: [bucketPrefixes.stored, bucketPrefixes.exports],
        write: [bucketPrefixes.exports],
        delete: [bucketPrefixes.exports],
      },
      sendTo: ['privacy'],
      memoryMb: 1024,
    },
    timeoutSeconds: 120,
  },
} satisfies QueueDecl;
