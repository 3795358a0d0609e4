/**
 * Requests about a person's data (docs/privacy.md "Requests about a person's data"): find, export and erase
 * what a reporter sent to a team, known by the address they left (an issue's `data.username`).
 *
 * Found through an index, never a scan of the issues:
 *   PRIVACY#<teamId>#<sha256 of the lower-cased address> / <projectId>#<n10>
 * written with the issue in the filing transaction (issues/create.ts), so no issue filed with an address
 * is missing from it. Issues filed before the index existed are added the first time a request reaches
 * their project (`backfillProject`, one Query of the project's issue details, then a marker
 * PROJECT#<pid> / PRIVACYINDEX so it never runs twice). The index names the address only by its hash.
 *
 * Export jobs: PRIVACYJOB#<teamId> / <id> (state, progress, the ZIP's key), gone after a day (TTL).
 */
import { randomBytes } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  DATA_EXPORT_LINK_SECONDS,
  type DataExportStatus,
  type DataRequestIssue,
  ERASED,
} from '#contracts/data-requests';
import { integrationNames } from '#contracts/integration-names';
import { bucketPrefixes } from '#contracts/manifest';
import type { Actor } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { s3, s3Sdk } from '#runtime/aws/s3';
import { bucketName } from '#runtime/config';
import {
  batchDelete,
  failedConditions,
  getItems,
  isConditionFailure,
  queryAll,
  type TransactItems,
  tableName,
  transactWrite,
} from '#runtime/db';
import { deleteObjects } from '#runtime/s3-objects';
import { DAY, epochSeconds, nowMs } from '#runtime/time';
import { listProjects, projectKey, projectPartition } from '../projects/project';
import { recordAudit } from '../teams/audit';
import { teamKey } from '../teams/team';
import { dataIndexPut, emailHash, indexPartition } from './data-index';
import { issueObjectKeys } from './delete-issue';
import { issueDetailKey, issueHeaderKey, n10, syncKey } from './issue';
import { reporterKey, tokenKey } from './reporter';
import { timelineRange } from './timeline';

type Item = Record<string, unknown>;

const markerKey = (projectId: string) => ({ pk: projectPartition(projectId), sk: 'PRIVACYINDEX' });

/**
 * Adds the project's issues filed before the index to it, once: one Query of the partition's issue items,
 * filtered to details that carry an address (bounded by the project's size, run once per project).
 */
async function backfillProject(teamId: string, projectId: string): Promise<void> {
  const details = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    FilterExpression: 'attribute_exists(#d.#u)',
    ExpressionAttributeNames: { '#d': 'data', '#u': 'username', '#n': 'number' },
    ExpressionAttributeValues: { ':pk': projectPartition(projectId), ':p': 'ISSUE#' },
    ProjectionExpression: 'sk, #n, #d.#u',
    ConsistentRead: true,
  });
  for (const d of details) {
    if (!String(d.sk).endsWith('#DETAIL')) continue;
    const [put] = dataIndexPut(teamId, projectId, Number(d.number), (d.data as Item | undefined)?.username);
    if (put) await db().send(new PutCommand(put.Put));
  }
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...markerKey(projectId), at: nowMs() } }));
}

interface Found {
  projectId: string;
  projectName: string;
  number: number;
  header: Item;
}

/** Every issue of the team's projects filed with `email` (the index; each project backfilled once). */
async function findIssues(teamId: string, email: string): Promise<Found[]> {
  const projects = await listProjects(teamId);
  const markers = await getItems(projects.map((p) => markerKey(p.id)));
  for (const [i, p] of projects.entries()) if (!markers[i]) await backfillProject(teamId, p.id);
  const names = new Map(projects.map((p) => [p.id, p.name]));
  const entries = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': indexPartition(teamId, emailHash(email)) },
    ConsistentRead: true,
  });
  // A project moved to another team, or deleted, is no longer this team's to answer for.
  const mine = entries.filter((e) => names.has(String(e.projectId)));
  const headers = await getItems(mine.map((e) => issueHeaderKey(String(e.projectId), Number(e.number))));
  return mine.flatMap((e, i) => {
    const header = headers[i];
    // An issue deleted since (retention, its project's deletion) leaves a stale entry: nothing to answer.
    if (!header) return [];
    const projectId = String(e.projectId);
    return [{ projectId, projectName: String(names.get(projectId) ?? ''), number: Number(e.number), header }];
  });
}

async function timelineOf(projectId: string, n: number): Promise<Item[]> {
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :t)',
    FilterExpression: '#k = :c',
    ExpressionAttributeNames: { '#k': 'kind' },
    ExpressionAttributeValues: { ...timelineRange(projectId, n), ':c': 'comment' },
    // A reply sent a moment ago must be in the export and be erased: read what is written.
    ConsistentRead: true,
  });
}
const isReply = (c: Item) => (c.author as Actor | undefined)?.kind === 'reporter';

/** The list the screen shows: each issue with its counts of comments and of the reporter's replies. */
export async function lookup(teamId: string, email: string): Promise<DataRequestIssue[]> {
  const found = await findIssues(teamId, email);
  return Promise.all(
    found.map(async (f) => {
      const comments = await timelineOf(f.projectId, f.number);
      const replies = comments.filter(isReply).length;
      return {
        projectId: f.projectId,
        projectName: f.projectName,
        number: f.number,
        title: String(f.header.title ?? ''),
        createdAt: String(f.header.createdAt ?? ''),
        comments: comments.length - replies,
        replies,
      };
    }),
  );
}

const jobKey = (teamId: string, id: string) => ({ pk: `PRIVACYJOB#${teamId}`, sk: id });

async function setJob(teamId: string, id: string, fields: Item) {
  const names: Record<string, string> = {};
  const values: Item = {};
  const sets = Object.entries(fields).map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:v${i}`] = v;
    return `#f${i} = :v${i}`;
  });
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: jobKey(teamId, id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

async function readObject(key: string): Promise<Uint8Array | null> {
  const [{ GetObjectCommand }, client] = await Promise.all([s3Sdk(), s3()]);
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
    return out.Body ? await out.Body.transformToByteArray() : null;
  } catch {
    // A file already gone (a retention run meanwhile): the export says what it holds, in its JSON.
    return null;
  }
}

const publicComment = (c: Item) => ({
  id: c.id,
  author: (c.author as Actor | undefined)?.name ?? '',
  byReporter: isReply(c),
  visibility: c.visibility,
  createdAt: c.createdAt,
  body: c.body,
});

/**
 * Starts an export: the job item, then the ZIP (data.json: the issues, their comments and the reporter's
 * replies; files/<project>/<n>/…: every screenshot, file, snapshot and recording), its progress written
 * after each issue so the screen's poll shows it. Answers the job's id.
 */
export async function startExport(teamId: string, email: string, actor: Actor): Promise<string> {
  const id = randomBytes(16).toString('hex');
  const found = await findIssues(teamId, email);
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...jobKey(teamId, id),
        state: 'running',
        done: 0,
        total: found.length,
        ttl: epochSeconds(nowMs() + DAY),
      },
    }),
  );
  try {
    const { default: JSZip } = await import('jszip');
    const zip = new JSZip();
    const issues: Item[] = [];
    for (const [i, f] of found.entries()) {
      const [detail] = await getItems([issueDetailKey(f.projectId, f.number)]);
      const comments = await timelineOf(f.projectId, f.number);
      const objects = detail ? issueObjectKeys(f.projectId, detail) : [];
      const files: string[] = [];
      for (const key of objects) {
        const bytes = await readObject(key);
        if (!bytes) continue;
        const path = `files/${f.projectId}/${f.number}/${key.split('/').slice(-2).join('-')}`;
        zip.file(path, bytes);
        files.push(path);
      }
      issues.push({
        project: { id: f.projectId, name: f.projectName },
        number: f.number,
        title: f.header.title,
        createdAt: f.header.createdAt,
        status: f.header.status,
        description: detail?.msg ?? '',
        reporter: detail?.data ?? {},
        comments: comments.filter((c) => !isReply(c)).map(publicComment),
        replies: comments.filter(isReply).map(publicComment),
        files,
      });
      await setJob(teamId, id, { done: i + 1 });
    }
    zip.file(
      'data.json',
      JSON.stringify({ email, exportedAt: new Date(nowMs()).toISOString(), issues }, null, 2),
    );
    const body = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const key = `${bucketPrefixes.exports}privacy/${teamId}/${id}.zip`;
    const [{ PutObjectCommand }, client] = await Promise.all([s3Sdk(), s3()]);
    await client.send(
      new PutObjectCommand({ Bucket: bucketName(), Key: key, Body: body, ContentType: 'application/zip' }),
    );
    await setJob(teamId, id, { state: 'done', key });
  } catch (err) {
    await setJob(teamId, id, { state: 'failed' });
    throw err;
  }
  await recordAudit(teamId, {
    kind: 'privacy.export',
    actor,
    detail: { emailHash: emailHash(email), issues: found.length },
  });
  return id;
}

/** A job's progress, and once done a signed link to its ZIP; null when there is no such job (of this team). */
export async function exportStatus(teamId: string, id: string): Promise<DataExportStatus | null> {
  const [job] = await getItems([jobKey(teamId, id)]);
  if (!job) return null;
  const status: DataExportStatus = {
    id,
    state: job.state as DataExportStatus['state'],
    done: Number(job.done ?? 0),
    total: Number(job.total ?? 0),
  };
  if (job.state === 'done' && typeof job.key === 'string') {
    const [{ GetObjectCommand }, client] = await Promise.all([s3Sdk(), s3()]);
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    status.url = await getSignedUrl(
      client,
      new GetObjectCommand({
        Bucket: bucketName(),
        Key: job.key,
        ResponseContentType: 'application/zip',
        ResponseContentDisposition: `attachment; filename="snag-data-request-${id.slice(0, 8)}.zip"`,
        ResponseCacheControl: 'private, no-store',
      }),
      { expiresIn: DATA_EXPORT_LINK_SECONDS },
    );
  }
  return status;
}

/**
 * The texts of one issue read "erased", and the bytes its deleted files used are the project's and the
 * team's again (as the issue's deletion gives them back), in one transaction: the detail's condition on
 * its bytes makes a rerun (after a crash) give nothing back twice.
 */
async function eraseTexts(teamId: string, projectId: string, n: number, bytes: number) {
  const T = tableName();
  const actions: TransactItems = [
    {
      Update: {
        TableName: T,
        Key: issueDetailKey(projectId, n),
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#b) OR #b = :b)',
        UpdateExpression:
          'SET msg = :e, #d.username = :e, #d.customFields = :none, files = :none, screenshots = :none, #b = :z REMOVE replay',
        ExpressionAttributeNames: { '#d': 'data', '#b': 'bytes' },
        ExpressionAttributeValues: { ':e': ERASED, ':none': [], ':b': bytes, ':z': 0 },
      },
    },
    {
      Update: {
        TableName: T,
        Key: issueHeaderKey(projectId, n),
        ConditionExpression: 'attribute_exists(pk)',
        // The search text and the preview carry the description and the address too.
        UpdateExpression: 'SET title = :e, preview = :e, q = :e, totalFiles = :z, totalScreenshots = :z',
        ExpressionAttributeValues: { ':e': ERASED, ':z': 0 },
      },
    },
  ];
  if (bytes > 0) {
    actions.push(
      {
        Update: {
          TableName: T,
          Key: projectKey(projectId),
          UpdateExpression: 'ADD #bytes :minus',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#bytes': 'bytes' },
          ExpressionAttributeValues: { ':minus': -bytes },
        },
      },
      {
        Update: {
          TableName: T,
          Key: teamKey(teamId),
          UpdateExpression: 'ADD storageBytes :minus',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':minus': -bytes },
        },
      },
    );
  }
  try {
    await transactWrite(actions, () => undefined);
  } catch (err) {
    // A team item that is not there (an account from before teams): its storage is counted nowhere.
    if (!(isConditionFailure(err) && failedConditions(err).includes(3))) throw err;
    await transactWrite(actions.slice(0, 3), () => undefined);
  }
  // The sync lists show each issue's title (their markers carry it): those that exist read "erased" too.
  for (const name of integrationNames) {
    await db()
      .send(
        new UpdateCommand({
          TableName: T,
          Key: syncKey(projectId, name, n),
          ConditionExpression: 'attribute_exists(pk)',
          UpdateExpression: 'SET title = :e',
          ExpressionAttributeValues: { ':e': ERASED },
        }),
      )
      .catch((err) => {
        if (!isConditionFailure(err)) throw err;
      });
  }
}

/**
 * Erases what the reporter sent: their issues' files (screenshots, files, snapshots, recordings) are
 * deleted; the address, their custom fields, the description, the title and their replies read "erased";
 * their reporter item (address, status-page tokens) goes. The issues stay (the team's work on them is the
 * team's). Records `privacy.erase` with the address's hash. Answers how many issues were erased.
 */
export async function erase(teamId: string, email: string, actor: Actor): Promise<number> {
  const found = await findIssues(teamId, email);
  for (const f of found) {
    const [detail, reporter] = await getItems([
      issueDetailKey(f.projectId, f.number),
      reporterKey(f.projectId, f.number),
    ]);
    if (detail) await deleteObjects(issueObjectKeys(f.projectId, detail));
    await eraseTexts(teamId, f.projectId, f.number, Number(detail?.bytes ?? 0));
    for (const c of (await timelineOf(f.projectId, f.number)).filter(isReply)) {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: String(c.pk), sk: String(c.sk) },
          UpdateExpression: 'SET body = :e',
          ExpressionAttributeValues: { ':e': ERASED },
        }),
      );
    }
    const tokens = [...((reporter?.tokens as Set<string> | undefined) ?? [])].map((h) => tokenKey(String(h)));
    await batchDelete([reporterKey(f.projectId, f.number), ...tokens]);
  }
  // The index entries go last: a crash before this point leaves them, and a rerun erases the rest.
  await batchDelete(
    found.map((f) => ({
      pk: indexPartition(teamId, emailHash(email)),
      sk: `${f.projectId}#${n10(f.number)}`,
    })),
  );
  await recordAudit(teamId, {
    kind: 'privacy.erase',
    actor,
    detail: { emailHash: emailHash(email), issues: found.length },
  });
  return found.length;
}
