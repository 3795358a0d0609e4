/**
 * Issues filed before triage (issue 23, docs/data-model.md 4.13): stripped back to what such an issue was
 * (no triage fields, in no facet, no place in the `updated` order), they read with defaults but no filter
 * finds them; `npm run ops -- index-issues`'s function indexes them, leaves the index consistent, skips an
 * issue changed meanwhile, and is idempotent.
 */
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { queryAll, tableName } from '#runtime/db';
import { indexLegacyIssues } from '../../functions/issues/backfill';
import { checkRankIndex as rankCheck } from '../../functions/issues/rank-check';
import type { ApiClient } from '../support/api-client';
import { seedIssues } from '../support/issues';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';

const stack = setUpTestStack();
let owner: ApiClient;
let pid = '';
const COUNT = 12;

/** The project as a deployment from before triage left it: headers without fields, no triage index items. */
async function makeLegacy() {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': `PROJECT#${pid}` },
    ConsistentRead: true,
  });
  const index = items.filter((i) => /^(FSTATS|FBLOCK|USTATS|UBLOCK)#/.test(String(i.sk)));
  for (let i = 0; i < index.length; i += 25)
    await db().send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName()]: index
            .slice(i, i + 25)
            .map((x) => ({ DeleteRequest: { Key: { pk: x.pk, sk: x.sk } } })),
        },
      }),
    );
  for (const h of items.filter((i) => /^ISSUE#\d{10}$/.test(String(i.sk))))
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: h.pk, sk: h.sk },
        UpdateExpression: 'REMOVE #s, priority, labels, updatedAt, u',
        ExpressionAttributeNames: { '#s': 'status' },
      }),
    );
}

interface Page {
  requests: { number: number; status: string }[];
  total_requests: number;
}
const list = async (query: string) =>
  ((await owner.get(`/api/client/website/${pid}/request?${query}`)).body as { msg: Page }).msg;

beforeAll(async () => {
  owner = (await signedIn(stack.url)).client;
  const created = await owner.post('/api/client/website', { name: 'Old shop', url: 'old.example' });
  pid = (created.body as { msg: { id: string } }).msg.id;
  await seedIssues(pid, COUNT);
  await owner.patch(`/api/client/website/${pid}/request/3`, { restore: false });
  await makeLegacy();
}, 120_000);

it('reads legacy issues with defaults; after indexing, every filter and sort finds them and the index is consistent', async () => {
  // Before: the plain list shows them (as new), a filter does not.
  const plain = await list('');
  expect(plain.total_requests).toBe(COUNT - 1);
  expect(plain.requests.every((r) => r.status === 'new')).toBe(true);
  expect((await list('status=new')).requests).toHaveLength(0);

  // Issue 5 changed by a member first: that change indexes it, and the backfill skips it.
  expect((await owner.patch(`/api/client/website/${pid}/request/5`, { priority: 'high' })).status).toBe(200);

  const r = await indexLegacyIssues(pid);
  expect(r).toEqual({ indexed: COUNT - 1, skipped: 0 });
  expect(await rankCheck(pid)).toEqual([]);

  const news = await list('status=new');
  expect(news.total_requests).toBe(COUNT - 1);
  expect(news.requests.map((x) => x.number)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 2]);
  expect((await list('priority=high')).requests.map((x) => x.number)).toEqual([5]);
  expect((await list('resolved=1&status=resolved')).requests.map((x) => x.number)).toEqual([3]);
  // The updated order: backfilled issues count as updated at the backfill, in their age order, so the one
  // changed before it comes after them (decision Tr-C12).
  expect((await list('sort=updated')).requests.map((x) => x.number).slice(0, 3)).toEqual([12, 11, 10]);
  expect((await list('sort=updated&page=2')).requests.map((x) => x.number)).toEqual([5]);

  // Idempotent: a second run finds nothing to do.
  expect(await indexLegacyIssues(pid)).toEqual({ indexed: 0, skipped: 0 });
  expect(await rankCheck(pid)).toEqual([]);
});
