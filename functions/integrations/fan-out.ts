/**
 * The fan-out (docs/data-model.md 4.8): one delivery message per target of a fan-out message
 * (delivery-targets.ts).
 *   - A new (or re-synced) issue: before sending, one transaction sets the targets' `st.<name>` to 1 and
 *     deletes their sync markers; integrations left out keep status 0 and their "new" marker, so a later
 *     Sync can send them.
 *   - An event (issue 23): first the reporter's mails where it concerns them (issues/reporter-events.ts),
 *     the duplicates that follow a primary's resolution (issues/follow.ts),
 *     then one message per target carrying the event, which the delivery sends and retries without
 *     touching the issue's statuses (webhook-events.ts, sync/writeback.ts).
 * The correlation id travels on, and the project id is each delivery's message group: the project is the
 * tenant of SQS fair queues, so when one project's deliveries pile up (a flood of reports to a slow
 * webhook), SQS serves the other projects' messages first (docs/decisions.md).
 */
import type { FanoutMessage, IntegrationName, IssueEventMessage } from '#contracts/messages';
import type { Logger } from '#runtime/log';
import { publish } from '#runtime/publish';
import { followEvent } from '../issues/follow';
import { noteForReporter } from '../issues/reporter-events';
import { startDeliveries } from './delivery-state';
import { eventTargets, issueTargets } from './delivery-targets';

type Fanned = FanoutMessage & { correlationId: string };

/** Publishes one delivery message per integration; a failed entry fails the message, which runs again. */
function publishDeliveries(msg: Fanned, integrations: IntegrationName[], event?: IssueEventMessage) {
  // SendMessageBatch takes at most 10 entries; there are eight integration kinds.
  return publish(
    'delivery',
    integrations.map((integration) => ({
      id: integration,
      groupId: msg.projectId,
      message: {
        projectId: msg.projectId,
        issueNumber: msg.issueNumber,
        integration,
        correlationId: msg.correlationId,
        ...(event ? { event: eventOf(event) } : {}),
      },
    })),
  );
}

/** What a delivery message carries of an event. */
const eventOf = ({ type, actor, at, changes, commentId, primary }: IssueEventMessage) => ({
  type,
  actor,
  at,
  ...(changes ? { changes } : {}),
  ...(commentId ? { commentId } : {}),
  ...(primary ? { primary } : {}),
});

export async function fanOut(msg: Fanned, log: Logger): Promise<void> {
  const where = { projectId: msg.projectId, issueNumber: msg.issueNumber };
  if (msg.type !== 'issue.created') {
    // The reporter's mails first (issue 24): a failure retries the message before any webhook went out.
    await noteForReporter(msg);
    // A duplicate follows its primary's resolution (issues/follow.ts): before the webhooks, so a failed move
    // runs the message again (each step is idempotent) and the duplicates' own events follow theirs.
    await followEvent(msg);
    const targets = await eventTargets(msg);
    if (targets.length === 0) return;
    await publishDeliveries(msg, targets, msg);
    log.info('event fanned out', { ...where, event: msg.type, integrations: targets });
    return;
  }
  const wanted = (await issueTargets(msg.projectId)).filter((n) => !msg.only || msg.only.includes(n));
  if (wanted.length === 0) return;
  const names = await startDeliveries(msg.projectId, msg.issueNumber, wanted);
  if (names.length === 0) return;
  await publishDeliveries(msg, names);
  log.info('fanned out', { ...where, integrations: names });
}
