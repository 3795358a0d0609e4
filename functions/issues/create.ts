/**
 * Creating an issue (4.6, 4.13): one transaction writes it with everything that counts or indexes it. Kept
 * apart from issue.ts (the keys and list arithmetic) because it composes the triage modules that build on
 * those: the facet rank index, the timeline and the notification outbox.
 */
import type { IntegrationName } from '#contracts/messages';
import type { Actor } from '#contracts/triage';
import { tableName, transactWrite } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { DAY, epochSeconds } from '#runtime/time';
import { projectKey } from '../projects/project';
import { teamKey } from '../teams/team';
import { dataIndexPut } from './data-index';
import { countReportPage, reportCountAction } from './insights';
import {
  blockKey,
  blockOf,
  type NewIssue,
  newIssueItems,
  quotaCondition,
  statsAttribute,
  statsKey,
  syncKey,
  uploadGuardKey,
} from './issue';
import { notifyPut } from './notify';
import { allocateUpdates, type FacetFields, indexActions } from './rank-index';
import { activity, timelinePut } from './timeline';

/** A guard outlives the pending object it protects (1 day, bucket lifecycle) with a day to spare. */
const guardLifetimeMs = 2 * DAY;

/** What a new issue's facets are (4.13). */
export const initialFields: FacetFields = { status: 'new', priority: 'none', assignee: null, labels: [] };
const reporterActor: Actor = { kind: 'reporter', name: 'Reporter' };

/**
 * `extra`: writes that must happen with the issue or not at all (the intake's day count). With the largest
 * report (22 upload guards, a session replay's included; 6 sync markers) the transaction has about 46 of
 * DynamoDB's 100 actions (47 with Insights' day count).
 */
export async function createIssue(
  issue: NewIssue,
  quota: number | null,
  extra: Parameters<typeof transactWrite>[0] = [],
): Promise<void> {
  const { projectId: pid, number: n } = issue;
  const { b, off } = blockOf(n);
  const T = tableName();
  const u = issue.u ?? (await allocateUpdates(pid));
  const { header, detail } = newIssueItems({ ...issue, u });
  const absent = 'attribute_not_exists(pk)';
  type Item = Parameters<typeof transactWrite>[0][number];
  const items: Item[] = [
    // `insC`: the report is counted in Insights by this transaction (so the backfill never counts it again).
    { Put: { TableName: T, Item: { ...header, insC: 1 }, ConditionExpression: absent } },
    { Put: { TableName: T, Item: detail, ConditionExpression: absent } },
    {
      Update: {
        TableName: T,
        Key: projectKey(pid),
        UpdateExpression: 'ADD openCount :one, #bytes :bytes',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#bytes': 'bytes' },
        ExpressionAttributeValues: { ':one': 1, ':bytes': issue.bytes },
      },
    },
    {
      Update: {
        TableName: T,
        Key: statsKey(pid),
        UpdateExpression: 'ADD #open :one',
        ExpressionAttributeNames: { '#open': statsAttribute('open', b) },
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
    {
      Update: {
        TableName: T,
        Key: blockKey(pid, b),
        UpdateExpression: 'ADD openOffsets :off',
        ExpressionAttributeValues: { ':off': new Set([off]) },
      },
    },
  ];
  let userIndex = -1;
  if (issue.bytes > 0) {
    const condition = quotaCondition(quota, issue.bytes);
    if (condition === 'exceeded') throw new AppError('QUOTA_EXCEEDED');
    userIndex = items.length;
    items.push({
      Update: {
        TableName: T,
        Key: teamKey(issue.teamId),
        UpdateExpression: 'ADD storageBytes :bytes',
        ConditionExpression: condition.expression,
        ExpressionAttributeValues: { ':bytes': issue.bytes, ...condition.values },
      },
    });
  }
  for (const [name, status] of Object.entries(issue.st) as [IntegrationName, number][]) {
    if (status !== 0) continue;
    // The marker carries what the sync list shows, so the list is one Query (data-model 4.8).
    const marker = {
      ...syncKey(pid, name, n),
      s: 0,
      number: n,
      title: issue.title,
      createdAt: issue.createdAt,
    };
    items.push({ Put: { TableName: T, Item: marker } });
  }
  // The facet index and the `updated` order (4.13), the `created` activity and the outbox's `new` (8 + 2).
  items.push(...indexActions(pid, n, null, { fields: initialFields, u }));
  items.push(timelinePut(pid, activity(n, 'created', issue.actor ?? reporterActor, {}, issue.createdAt)));
  items.push(notifyPut({ kind: 'new', projectId: pid, number: n }));
  // The reporter's address, hashed, in the team's index of data requests (issues/data-requests.ts): with
  // the issue, so a request about a person finds every issue they sent without reading all of them.
  items.push(...dataIndexPut(issue.teamId, pid, n, issue.data.username));
  // Insights (issues/insights.ts): the day's report, browser, system and device, counted with the issue.
  items.push(reportCountAction(pid, issue));
  items.push(...extra);
  const firstGuard = items.length;
  const ttl = epochSeconds(Date.parse(issue.createdAt) + guardLifetimeMs);
  for (const id of issue.uploadIds) {
    items.push({
      Put: {
        TableName: T,
        Item: { ...uploadGuardKey(pid, id), number: n, ttl },
        ConditionExpression: absent,
      },
    });
  }
  await transactWrite(items, (failed) => {
    if (failed.some((i) => i >= firstGuard)) return 'INVALID_UPLOAD';
    if (failed.includes(userIndex)) return 'QUOTA_EXCEEDED';
    if (failed.includes(2)) return 'NOT_FOUND';
    return undefined;
  });
  // The page by name needs a cap a transaction cannot hold softly: its own write, once the issue exists.
  await countReportPage(pid, issue.createdAt, issue.data.href);
}
