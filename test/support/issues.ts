/** Issues for tests and the bench, written through the issues entity (the widget's create transaction). */
import { BatchWriteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#runtime/aws/dynamo';
import { queryAll, tableName } from '#runtime/db';
import { createIssue, initialFields } from '../../functions/issues/create';
import {
  allocateNumber,
  blockKey,
  blockOf,
  isIssueHeader,
  type NewIssue,
  newIssueItems,
  statsAttribute,
  statsKey,
} from '../../functions/issues/issue';
import { facetsOf, fblockKey, fstatsKey, ublockKey, ustatsKey } from '../../functions/issues/rank-index';
import { getProject, projectKey } from '../../functions/projects/project';
import { teamOf } from '../../functions/teams/member';

/** A plain report as the widget would file it: issue `n` of the project, with device data and no files. */
export function sampleIssue(
  projectId: string,
  teamId: string,
  n: number,
  createdAt: string,
  title: string,
): NewIssue {
  return {
    projectId,
    teamId,
    number: n,
    createdAt,
    title,
    msg: `Description of issue ${n}`,
    data: {
      username: 'visitor@example.org',
      href: 'https://shop.example/',
      browser: 'Firefox',
      browserVersion: '130',
      os: 'Linux',
      osVersion: '6',
      deviceType: 'Desktop',
      screenResolution: '1920x1080',
      customFields: [],
    },
    files: [],
    screenshots: [],
    logs: [],
    steps: [],
    replay: null,
    st: {
      email: 1,
      gitlab: 0,
      jira: 0,
      slack: 0,
      asana: 0,
      github: 0,
      linear: 0,
      webhooks: 0,
      clickup: 0,
      teams: 0,
      discord: 0,
      azure: 0,
      trello: 0,
    },
    bytes: 0,
    uploadIds: [],
  };
}

/**
 * `count` issues written through the entity module, numbered from the project's next number on; `shape`
 * changes what is stored (hostile content the widget's validation would refuse, custom fields).
 */
export async function seedIssues(
  projectId: string,
  count: number,
  title = (n: number) => `Issue ${n}`,
  shape: (issue: NewIssue) => NewIssue = (issue) => issue,
) {
  const meta = await getProject(projectId);
  if (!meta) throw new Error(`no project ${projectId}`);
  for (let i = 0; i < count; i++) {
    const n = await allocateNumber(projectId);
    await createIssue(
      shape(
        sampleIssue(
          projectId,
          teamOf(meta),
          n,
          new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
          title(n),
        ),
      ),
      null,
    );
  }
}

/**
 * `count` open issues numbered 1..count for volume (the bench): headers, details, STATS, BLOCK and META's
 * counters written as the create transaction leaves them, by BatchWriteItem instead of one transaction each.
 * For an empty project only.
 */
export async function bulkSeedIssues(
  projectId: string,
  count: number,
  opts: { withDetail?: (n: number) => boolean; concurrency?: number } = {},
): Promise<void> {
  const withDetail = opts.withDetail ?? (() => true);
  const T = tableName();
  const createdAt = new Date(Date.UTC(2026, 0, 1)).toISOString();
  const itemsOf = (n: number) => {
    // u = n: the `updated` order of a project nobody has triaged yet is the creation order (4.13).
    const { header, detail } = newIssueItems({
      ...sampleIssue(projectId, '', n, createdAt, `Issue ${n}`),
      u: n,
    });
    return withDetail(n) ? [header, detail] : [header];
  };
  let next = 1;
  const worker = async () => {
    while (next <= count) {
      const from = next;
      next = Math.min(count + 1, next + 12);
      let requests = [];
      for (let n = from; n < next; n++)
        requests.push(...itemsOf(n).map((Item) => ({ PutRequest: { Item } })));
      while (requests.length > 0) {
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [T]: requests } }));
        requests = (out.UnprocessedItems?.[T] ?? []) as typeof requests;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 16 }, worker));
  const blocks = new Map<number, number[]>();
  for (let n = 1; n <= count; n++) {
    const { b, off } = blockOf(n);
    blocks.set(b, [...(blocks.get(b) ?? []), off]);
  }
  const stats: Record<string, number> = {};
  for (const [b, offs] of blocks) {
    stats[statsAttribute('open', b)] = offs.length;
    await db().send(
      new PutCommand({ TableName: T, Item: { ...blockKey(projectId, b), openOffsets: new Set(offs) } }),
    );
  }
  await db().send(new PutCommand({ TableName: T, Item: { ...statsKey(projectId), ...stats } }));
  // The facet rank index as the create transactions leave it (4.13): every issue new, no priority, nobody;
  // with u = n the u-blocks are the number blocks, and UBLOCK holds i<n> = (n-1) mod 1024.
  const counts = Object.fromEntries(
    [...blocks].map(([b, offs]) => [String(b).padStart(6, '0'), offs.length]),
  );
  for (const facet of facetsOf(initialFields)) {
    await db().send(new PutCommand({ TableName: T, Item: { ...fstatsKey(projectId, facet), ...counts } }));
    for (const [b, offs] of blocks)
      await db().send(
        new PutCommand({ TableName: T, Item: { ...fblockKey(projectId, facet, b), o: new Set(offs) } }),
      );
  }
  await db().send(new PutCommand({ TableName: T, Item: { ...ustatsKey(projectId, 'open'), ...counts } }));
  for (const [b, offs] of blocks) {
    const entries = Object.fromEntries(offs.map((off) => [`i${b * 1024 + off + 1}`, off]));
    await db().send(
      new PutCommand({ TableName: T, Item: { ...ublockKey(projectId, 'open', b), ...entries } }),
    );
  }
  await db().send(
    new UpdateCommand({
      TableName: T,
      Key: projectKey(projectId),
      UpdateExpression: 'SET seq = :n, useq = :n, openCount = :n',
      ExpressionAttributeValues: { ':n': count },
    }),
  );
}

/** Every issue header of a project, read consistently: what the lists' answers are checked against. */
export async function issueHeaders(projectId: string) {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :i)',
    ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':i': 'ISSUE#' },
    ConsistentRead: true,
  });
  return items.filter(isIssueHeader);
}
