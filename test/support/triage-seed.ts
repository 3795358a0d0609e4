/**
 * A triaged project for volume (the triage bench, issue 23): `count` issues numbered 1..count with statuses,
 * priorities, a few assignees and labels spread as a busy team's are, written by BatchWriteItem with every
 * item the create and triage transactions leave: headers and details (newIssueItems), the lists' STATS and
 * BLOCK, and the facet rank index and `updated` order under the rank index's own keys and facet names
 * (rank-index.ts facetsOf, fstatsKey, fblockKey, ustatsKey, ublockKey), so the lists read what the real
 * writes would have written. `checkRankIndex` (rank-check.ts) proves it for a given seed. For an empty project.
 */
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IssueStatus, Priority } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import {
  blockKey,
  blockOf,
  type IssueList,
  listName,
  listPartition,
  newIssueItems,
  offsetsAttribute,
  statsAttribute,
  statsKey,
} from '../../functions/issues/issue';
import { labelsKey } from '../../functions/issues/labels';
import {
  facetsOf,
  fblockKey,
  fstatsKey,
  listOfStatus,
  ublockKey,
  ustatsKey,
} from '../../functions/issues/rank-index';
import { projectKey } from '../../functions/projects/project';
import { sampleIssue } from './issues';

type Item = Record<string, unknown>;
const b6 = (b: number) => String(b).padStart(6, '0');

/** A 32-bit mix (murmur3's finalizer): independent-looking values per (n, salt), no randomness. */
function mix(v: number): number {
  let h = v >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A deterministic spread: issue n's value from cumulative weights out of 1,000. */
function pick<T>(n: number, salt: number, weighted: [T, number][]): T {
  const x = mix(n * 977 + salt * 1_000_003) % 1000;
  let acc = 0;
  for (const [v, w] of weighted) {
    acc += w;
    if (x < acc) return v;
  }
  return weighted[weighted.length - 1]?.[0] as T;
}

export interface TriagedSeed {
  assignees: string[];
  labels: string[];
  /** Each issue's fields, by number - 1 (the truth the bench's answers can be compared with). */
  fieldsOf: (n: number) => {
    status: IssueStatus;
    priority: Priority;
    assignee: string | null;
    labels: string[];
  };
}

export async function bulkSeedTriaged(
  projectId: string,
  count: number,
  opts: { assignees: string[]; withDetail?: (n: number) => boolean; concurrency?: number },
): Promise<TriagedSeed> {
  const T = tableName();
  const labels = ['lbbug0001', 'lbui00002', 'lbpay0003', 'lbmob0004', 'lbsec0005', 'lbperf006'];
  const who = opts.assignees;
  const fieldsOf = (n: number) => ({
    // Half resolved or closed, as a team that keeps up leaves it; most issues without a priority.
    status: pick<IssueStatus>(n, 1, [
      ['new', 300],
      ['in_progress', 120],
      ['in_review', 80],
      ['resolved', 380],
      ['closed', 120],
    ]),
    priority: pick<Priority>(n, 2, [
      ['none', 450],
      ['low', 200],
      ['medium', 180],
      ['high', 120],
      ['urgent', 50],
    ]),
    assignee: pick<string | null>(n, 3, [
      [null, 400],
      ...who.map((u): [string, number] => [u, 600 / who.length]),
    ]),
    labels: labels.filter((_, i) =>
      pick(n, 10 + i, [
        [true, i === 0 ? 300 : 120],
        [false, 1000],
      ]),
    ),
  });
  const createdAt = new Date(Date.UTC(2026, 0, 1)).toISOString();
  const withDetail = opts.withDetail ?? (() => false);
  const listOf = (n: number): IssueList => listOfStatus(fieldsOf(n).status);
  const itemsOf = (n: number): Item[] => {
    const f = fieldsOf(n);
    const list = listOf(n);
    // `u` = n: the updated order starts as the creation order (every create takes the next useq).
    const { header, detail } = newIssueItems({
      ...sampleIssue(projectId, '', n, createdAt, `Issue ${n}`),
      u: n,
    });
    const triaged: Item = {
      ...header,
      status: f.status,
      priority: f.priority,
      labels: f.labels,
      ...(f.assignee ? { assignee: f.assignee } : {}),
      deleted: list === 'resolved' ? 1 : 0,
      gsi1pk: listPartition(projectId, listName(list)),
    };
    return withDetail(n) ? [triaged, detail] : [triaged];
  };

  let next = 1;
  const worker = async () => {
    while (next <= count) {
      const from = next;
      next = Math.min(count + 1, next + 25);
      let requests: { PutRequest: { Item: Item } }[] = [];
      for (let n = from; n < next; n++)
        requests.push(...itemsOf(n).map((Item) => ({ PutRequest: { Item } })));
      while (requests.length > 0) {
        const batch = requests.slice(0, 25);
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [T]: batch } }));
        requests = [...requests.slice(25), ...((out.UnprocessedItems?.[T] ?? []) as typeof requests)];
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 16 }, worker));

  // The index items, aggregated: what indexActions' ADDs and SETs sum to for these issues.
  const index = new Map<string, Item>();
  const item = (key: { pk: string; sk: string }) => {
    const k = key.sk;
    if (!index.has(k)) index.set(k, { ...key });
    return index.get(k) as Item;
  };
  /** The number set `attr` of an index item, made on first use. */
  const numberSet = (it: Item, attr: string) => {
    if (!(it[attr] instanceof Set)) it[attr] = new Set<number>();
    return it[attr] as Set<number>;
  };
  const stats = item(statsKey(projectId));
  const counts = { open: 0, resolved: 0 };
  for (let n = 1; n <= count; n++) {
    const list = listOf(n);
    counts[list]++;
    const { b, off } = blockOf(n);
    const sa = statsAttribute(list, b);
    stats[sa] = Number(stats[sa] ?? 0) + 1;
    const block = item(blockKey(projectId, b));
    numberSet(block, offsetsAttribute(list)).add(off);
    for (const facet of facetsOf(fieldsOf(n))) {
      const fs = item(fstatsKey(projectId, facet));
      fs[b6(b)] = Number(fs[b6(b)] ?? 0) + 1;
      numberSet(item(fblockKey(projectId, facet, b)), 'o').add(off);
    }
    const us = item(ustatsKey(projectId, list));
    us[b6(b)] = Number(us[b6(b)] ?? 0) + 1;
    item(ublockKey(projectId, list, b))[`i${n}`] = off;
  }
  item(labelsKey(projectId)).labels = Object.fromEntries(
    labels.map((id, i) => [
      id,
      { name: ['Bug', 'UI', 'Payment', 'Mobile', 'Security', 'Performance'][i], color: '#aa3300' },
    ]),
  );
  const all = [...index.values()].map((Item) => ({ PutRequest: { Item } }));
  for (let i = 0; i < all.length; i += 25) {
    let requests = all.slice(i, i + 25);
    while (requests.length > 0) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [T]: requests } }));
      requests = (out.UnprocessedItems?.[T] ?? []) as typeof requests;
    }
  }
  await db().send(
    new UpdateCommand({
      TableName: T,
      Key: projectKey(projectId),
      UpdateExpression: 'SET seq = :n, useq = :n, openCount = :o, resolvedCount = :r',
      ExpressionAttributeValues: { ':n': count, ':o': counts.open, ':r': counts.resolved },
    }),
  );
  return { assignees: who, labels, fieldsOf };
}
