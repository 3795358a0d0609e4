/**
 * Counting the issues filed before Insights (docs/insights.md "Existing issues"): `npm run ops --
 * insights-backfill [projectId]`, once after upgrading. Off the request path: it Queries each list's gsi1
 * partition for headers not yet counted (no `insC`, or resolved without `insR`), 100 at a time, reads their
 * details in one batch (the browser, system, device and page), and counts each in its own transaction
 * conditioned on the header's marker still being absent, four at a time. Idempotent and safe beside live
 * traffic: a report created meanwhile carries `insC` from its create; a move meanwhile changes the header's
 * `deleted` or `insR`, so the backfill's condition fails and the move's own count stands.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#runtime/aws/dynamo';
import { getItems, isConditionFailure, queryAll, retryConflicts, tableName } from '#runtime/db';
import { everyProjectId } from './backfill';
import { countReportPage, reportCountAction, resolveMark } from './insights';
import { type IssueList, issueDetailKey, issueHeaderKey, listName, listPartition } from './issue';

type Item = Record<string, unknown>;

export interface InsightsBackfillResult {
  reports: number;
  resolutions: number;
  skipped: number;
}

function uncounted(pid: string, list: IssueList): Promise<Item[]> {
  return queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :l',
    FilterExpression:
      list === 'open'
        ? 'attribute_not_exists(insC)'
        : 'attribute_not_exists(insC) OR attribute_not_exists(insR)',
    ExpressionAttributeValues: { ':l': listPartition(pid, listName(list)) },
    ProjectionExpression: '#n, deleted, createdAt, resolvedAt, insC, insR',
    ExpressionAttributeNames: { '#n': 'number' },
  });
}

async function countOne(pid: string, h: Item, detail: Item | undefined, result: InsightsBackfillResult) {
  const n = Number(h.number);
  const createdAt = String(h.createdAt ?? '');
  const data = ((detail?.data ?? {}) as Item) ?? {};
  const facts = {
    createdAt,
    data: {
      browser: String(data.browser ?? ''),
      os: String(data.os ?? ''),
      deviceType: String(data.deviceType ?? 'Desktop'),
      href: String(data.href ?? ''),
    },
  };
  const send = (items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>) =>
    retryConflicts(() => db().send(new TransactWriteCommand({ TransactItems: items })));
  if (h.insC === undefined && Date.parse(createdAt) > 0) {
    try {
      await send([
        {
          Update: {
            TableName: tableName(),
            Key: issueHeaderKey(pid, n),
            UpdateExpression: 'SET insC = :one',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(insC)',
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
        reportCountAction(pid, facts),
      ]);
      result.reports++;
      await countReportPage(pid, createdAt, facts.data.href);
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      result.skipped++;
    }
  }
  const resolvedAt = typeof h.resolvedAt === 'string' ? h.resolvedAt : '';
  if (
    Number(h.deleted) === 1 &&
    h.insR === undefined &&
    Date.parse(resolvedAt) > 0 &&
    Date.parse(createdAt) > 0
  ) {
    const mark = resolveMark(createdAt, resolvedAt);
    const [day, k] = mark.split('#');
    try {
      await send([
        {
          Update: {
            TableName: tableName(),
            Key: issueHeaderKey(pid, n),
            UpdateExpression: 'SET insR = :m',
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(insR) AND deleted = :one AND resolvedAt = :r',
            ExpressionAttributeValues: { ':m': mark, ':one': 1, ':r': resolvedAt },
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: { pk: `PROJECT#${pid}`, sk: `INSIGHTS#${day}` },
            UpdateExpression: 'ADD #t :one',
            ExpressionAttributeNames: { '#t': `t_${k}` },
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
      ]);
      result.resolutions++;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      result.skipped++;
    }
  }
}

/** Counts project `pid`'s issues that Insights has not counted yet. */
export async function backfillInsights(pid: string): Promise<InsightsBackfillResult> {
  const headers = [...(await uncounted(pid, 'open')), ...(await uncounted(pid, 'resolved'))];
  const result: InsightsBackfillResult = { reports: 0, resolutions: 0, skipped: 0 };
  for (let i = 0; i < headers.length; i += 100) {
    const chunk = headers.slice(i, i + 100);
    const details = await getItems(
      chunk.map((h) => issueDetailKey(pid, Number(h.number))),
      { eventual: true, projection: { expression: 'pk, sk, #d', names: { '#d': 'data' } } },
    );
    // Four at a time: they add to the same few day items, so more would only conflict.
    let next = 0;
    const worker = async () => {
      for (let j = next++; j < chunk.length; j = next++) await countOne(pid, chunk[j]!, details[j], result);
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  }
  return result;
}

/** Every project's uncounted issues (the projects as `index-issues` walks them). */
export async function backfillAllInsights(): Promise<InsightsBackfillResult & { projects: number }> {
  const total = { reports: 0, resolutions: 0, skipped: 0, projects: 0 };
  for await (const projectId of everyProjectId()) {
    const r = await backfillInsights(projectId);
    total.reports += r.reports;
    total.resolutions += r.resolutions;
    total.skipped += r.skipped;
    total.projects++;
  }
  return total;
}
