/**
 * Privacy consumer (issue 35, docs/privacy.md "Export"): runs one step of a person's data export
 * (issues/data-requests.ts `exportStep`) per message and hands the next step on through its own queue.
 * A step that fails comes back after the visibility timeout and runs again from the job as stored; after
 * the queue's last receive it waits in the DLQ, and the screen shows the job failed once it is stale.
 */
import { dataExportMessageSchema } from '#contracts/data-requests';
import { batchHandler } from '#runtime/batch';
import { publish } from '#runtime/publish';
import { exportStep } from '../issues/data-requests';

export const handler = batchHandler('privacy', dataExportMessageSchema, async (message, log) => {
  const { teamId, jobId, correlationId } = message;
  const outcome = await exportStep(teamId, jobId);
  log.info('export step', { teamId, jobId, outcome });
  // Sent before this message is settled: a crash between the step and here only repeats the step.
  if (outcome === 'next') await publish('privacy', [{ message: { teamId, jobId, correlationId } }]);
});
