/**
 * Indexing the issues filed before triage (issue 23, docs/data-model.md 4.13 "Issues filed before triage").
 * They read as new (or resolved), no priority, nobody, no labels, but are in no facet and have no place in
 * the `updated` order until their first change. An operator runs `npm run ops -- index-issues` once after
 * upgrading, so that every filter and sort finds them from the start. Off the request path: it Queries each
 * list's whole gsi1 partition and Scans for the projects. Idempotent and safe beside live traffic: each issue is
 * one transaction conditioned on the header still lacking `u` and still in its list, so an issue that a
 * member changed meanwhile (which indexes it) is skipped, never indexed twice.
 */
import { ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#runtime/aws/dynamo';
import { isConditionFailure, queryAll, retryConflicts, type TransactItems, tableName } from '#runtime/db';
import { type IssueList, issueHeaderKey, listName, listPartition } from './issue';
import { allocateUpdates, indexActions } from './rank-index';
import { stateOf } from './triage';

type Item = Record<string, unknown>;

/** Issues `indexLegacyIssues` indexed, and those it skipped because they changed meanwhile. */
export interface BackfillResult {
  indexed: number;
  skipped: number;
}

/** The headers of one list that have no place in the `updated` order yet. */
function legacyHeaders(pid: string, list: IssueList): Promise<Item[]> {
  return queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :l',
    FilterExpression: 'attribute_not_exists(u)',
    ExpressionAttributeValues: { ':l': listPartition(pid, listName(list)) },
    ProjectionExpression: 'pk, sk, #n, deleted, createdAt, #s, priority, assignee, labels, dueDate',
    ExpressionAttributeNames: { '#n': 'number', '#s': 'status' },
  });
}

/** The transaction that gives one legacy issue its fields, its facets and its place `u`. */
function indexingActions(pid: string, h: Item, u: number): TransactItems {
  const n = Number(h.number);
  const cur = stateOf(h);
  const state = { ...cur, u };
  return [
    {
      Update: {
        TableName: tableName(),
        Key: issueHeaderKey(pid, n),
        UpdateExpression:
          'SET #s = :s, priority = :p, labels = :l, updatedAt = if_not_exists(updatedAt, :at), u = :u',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(u) AND deleted = :d',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':s': cur.fields.status,
          ':p': cur.fields.priority,
          ':l': cur.fields.labels,
          ':at': String(h.createdAt ?? new Date(0).toISOString()),
          ':u': u,
          ':d': Number(h.deleted ?? 0),
        },
      },
    },
    ...indexActions(pid, n, null, state),
  ];
}

/** Indexes project `pid`'s legacy issues, oldest first (so the `updated` order keeps their age order). */
export async function indexLegacyIssues(pid: string): Promise<BackfillResult> {
  const headers = [...(await legacyHeaders(pid, 'open')), ...(await legacyHeaders(pid, 'resolved'))].sort(
    (a, b) => Number(a.number) - Number(b.number),
  );
  const result: BackfillResult = { indexed: 0, skipped: 0 };
  for (let i = 0; i < headers.length; i += 100) {
    const chunk = headers.slice(i, i + 100);
    const first = await allocateUpdates(pid, chunk.length);
    // Four at a time: every one of them adds to the same few FSTATS items, so more would only conflict.
    let next = 0;
    const worker = async () => {
      for (let j = next++; j < chunk.length; j = next++) {
        const h = chunk[j] as Item;
        try {
          await retryConflicts(() =>
            db().send(new TransactWriteCommand({ TransactItems: indexingActions(pid, h, first + j) })),
          );
          result.indexed++;
        } catch (err) {
          // Changed (and so indexed) or moved by someone meanwhile: its own change did the work.
          if (!isConditionFailure(err)) throw err;
          result.skipped++;
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  }
  return result;
}

/** Every project's id, page by page (a paged Scan for the project META items): for the ops backfills. */
export async function* everyProjectId(): AsyncGenerator<string> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'sk = :meta AND begins_with(pk, :p)',
        ExpressionAttributeValues: { ':meta': 'META', ':p': 'PROJECT#' },
        ProjectionExpression: 'pk',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) yield String(item.pk).slice('PROJECT#'.length);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Every project's legacy issues. */
export async function indexAllLegacyIssues(): Promise<BackfillResult & { projects: number }> {
  const total = { indexed: 0, skipped: 0, projects: 0 };
  for await (const projectId of everyProjectId()) {
    const r = await indexLegacyIssues(projectId);
    total.indexed += r.indexed;
    total.skipped += r.skipped;
    total.projects++;
  }
  return total;
}
