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
 * Export jobs: PRIVACYJOB#<teamId> / <id> (state, the issues to export, progress, the ZIP's key), gone
 * after a day (TTL); their steps run on the privacy queue (consumers/privacy.ts), parts and ZIP under x/.
 */
import { randomBytes } from 'node:crypto';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  DATA_EXPORT_BATCH,
  DATA_EXPORT_LINK_SECONDS,
  DATA_EXPORT_MAX_BYTES,
  DATA_EXPORT_MAX_ISSUES,
  type DataExportStatus,
  type DataRequestIssue,
  ERASED,
} from '#contracts/data-requests';
import { integrationNames } from '#contracts/integration-names';
import { bucketPrefixes } from '#contracts/manifest';
import { type Actor, FORMER_MEMBER } from '#contracts/triage';
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
import { AppError } from '#runtime/errors';
import { publish } from '#runtime/publish';
import { deleteObjects } from '#runtime/s3-objects';
import { DAY, epochSeconds, nowMs } from '#runtime/time';
import { findUserIdByEmail } from '../accounts/user';
import { listProjects, projectKey, projectPartition } from '../projects/project';
import { recordAudit } from '../teams/audit';
import { memberKey } from '../teams/member';
import { teamKey } from '../teams/team';
import { dataIndexPut, emailHash, indexPartition } from './data-index';
import { issueObjectKeys } from './delete-issue';
import { issueDetailKey, issueHeaderKey, n10, syncKey } from './issue';
import { DIGEST, MAIL, OUTBOX_PARTITION } from './notify';
import { outboxKey, reporterKey, tokenKey } from './reporter';
import { SIM_ERASED, signalsKey, similarKeysOf } from './similar';
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
const exportPrefix = (teamId: string, id: string) => `${bucketPrefixes.exports}privacy/${teamId}/${id}`;
/** A batch's part: one issue's JSON and the keys of its files, by its place in the job's list. */
const partKey = (teamId: string, id: string, i: number) =>
  `${exportPrefix(teamId, id)}/part-${String(i).padStart(5, '0')}.json`;

/** A job whose last step is older than this died (its message went to the DLQ): the screen says failed. */
const EXPORT_STALE_MS = 30 * 60 * 1000;

/**
 * Sets `fields` on the job when `condition` holds (the job still running, its progress where this step
 * read it); false when it does not (another delivery of the same step moved it on: this one stops).
 */
async function setJob(
  teamId: string,
  id: string,
  fields: Item,
  condition?: { done: number } | { memberDone: number },
): Promise<boolean> {
  const names: Record<string, string> = { '#state': 'state' };
  const values: Item = { ':running': 'running' };
  const sets = Object.entries({ ...fields, at: nowMs() }).map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:v${i}`] = v;
    return `#f${i} = :v${i}`;
  });
  // The counter this step read: `done` (issues written) or `memberDone` (a member's comment pages).
  const [counter, read] = condition ? Object.entries(condition)[0]! : ['done', 0];
  if (condition) {
    names['#c'] = counter;
    values[':done'] = read;
  }
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: jobKey(teamId, id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: condition ? '#state = :running AND #c = :done' : '#state = :running',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
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

async function putObject(key: string, body: Uint8Array | string, contentType: string) {
  const [{ PutObjectCommand }, client] = await Promise.all([s3Sdk(), s3()]);
  await client.send(
    new PutObjectCommand({ Bucket: bucketName(), Key: key, Body: body, ContentType: contentType }),
  );
}

const publicComment = (c: Item) => ({
  id: c.id,
  author: (c.author as Actor | undefined)?.name ?? '',
  byReporter: isReply(c),
  visibility: c.visibility,
  createdAt: c.createdAt,
  body: c.body,
});

/** One issue of a job's list, as startExport wrote it. */
interface JobIssue {
  projectId: string;
  projectName: string;
  number: number;
}

/** A batch's part: what data.json says of one issue, the files to pack (stored key → ZIP path), its bytes. */
interface Part {
  issue: Item;
  files: { key: string; path: string }[];
  bytes: number;
}

async function partOf(ref: JobIssue): Promise<Part | null> {
  const [header, detail] = await getItems([
    issueHeaderKey(ref.projectId, ref.number),
    issueDetailKey(ref.projectId, ref.number),
  ]);
  // Deleted since the export started (retention, an erasure): nothing of it is left to export.
  if (!header) return null;
  const comments = await timelineOf(ref.projectId, ref.number);
  const files = (detail ? issueObjectKeys(ref.projectId, detail) : []).map((key) => ({
    key,
    path: `files/${ref.projectId}/${ref.number}/${key.split('/').slice(-2).join('-')}`,
  }));
  return {
    issue: {
      project: { id: ref.projectId, name: ref.projectName },
      number: ref.number,
      title: header.title,
      createdAt: header.createdAt,
      status: header.status,
      description: detail?.msg ?? '',
      reporter: detail?.data ?? {},
      comments: comments.filter((c) => !isReply(c)).map(publicComment),
      replies: comments.filter(isReply).map(publicComment),
    },
    files,
    bytes: Number(detail?.bytes ?? 0),
  };
}

/**
 * Starts an export (docs/privacy.md "Export"): refuses more than DATA_EXPORT_MAX_ISSUES issues, writes the
 * job (the issues to export, in order; its progress; the address for data.json, gone with the job after a
 * day) and hands its first step to the privacy queue. Answers the job's id at once; the screen polls.
 */
/**
 * The account id of the team's current member with this address, or null: their own comments in the
 * team's projects are part of a request about them (decision DR-8; a former member's are signed "former
 * member" and no longer theirs to find).
 */
export async function memberIdOf(teamId: string, email: string): Promise<string | null> {
  const userId = await findUserIdByEmail(email.trim().toLowerCase());
  if (!userId) return null;
  const [row] = await getItems([memberKey(teamId, userId)]);
  return row ? userId : null;
}

export async function startExport(teamId: string, email: string, actor: Actor): Promise<string> {
  const id = randomBytes(16).toString('hex');
  const found = await findIssues(teamId, email);
  if (found.length > DATA_EXPORT_MAX_ISSUES) throw new AppError('DATA_EXPORT_TOO_LARGE');
  const memberId = await memberIdOf(teamId, email);
  // A member's comments are found by walking the team's projects, a page a step, after the issues.
  const member = memberId
    ? { memberId, projects: (await listProjects(teamId)).map((p) => p.id), project: 0, memberDone: 0 }
    : {};
  const issues: JobIssue[] = found.map((f) => ({
    projectId: f.projectId,
    projectName: f.projectName,
    number: f.number,
  }));
  const at = nowMs();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...jobKey(teamId, id),
        state: 'running',
        done: 0,
        total: issues.length,
        bytes: 0,
        issues,
        email,
        ...member,
        at,
        ttl: epochSeconds(at + DAY),
      },
    }),
  );
  await publish('privacy', [{ message: { teamId, jobId: id } }]);
  await recordAudit(teamId, {
    kind: 'privacy.export',
    actor,
    detail: { emailHash: emailHash(email), issues: found.length },
  });
  return id;
}

/** Test hooks: a crash between writing a part and advancing the job (integration test). */
export interface StepHooks {
  afterPart?: (index: number) => void;
}

/**
 * One step of export job `id` (the privacy queue's consumer): either the next batch of DATA_EXPORT_BATCH
 * issues, each written as a part under x/, then the progress advanced on the condition that nobody
 * advanced it meanwhile; or, once every issue is written, the pack: data.json and every file in one ZIP,
 * the job done with its key, the parts deleted. A step that dies is run again from the job as stored:
 * its parts are overwritten (no duplicate) and nothing is skipped (no loss). Answers `next` when another
 * step is owed, `stopped` when none is (done, failed, gone, or another delivery is ahead).
 */
export async function exportStep(
  teamId: string,
  id: string,
  hooks: StepHooks = {},
): Promise<'next' | 'stopped'> {
  const [job] = await getItems([jobKey(teamId, id)]);
  if (job?.state !== 'running') return 'stopped';
  if (job.kind === 'member') return formerMemberStep(teamId, id, job);
  const list = (job.issues ?? []) as JobIssue[];
  const done = Number(job.done ?? 0);
  if (done < list.length) {
    const batch = list.slice(done, done + DATA_EXPORT_BATCH);
    let bytes = Number(job.bytes ?? 0);
    for (const [k, ref] of batch.entries()) {
      const part = await partOf(ref);
      bytes += part?.bytes ?? 0;
      await putObject(partKey(teamId, id, done + k), JSON.stringify(part), 'application/json');
      hooks.afterPart?.(done + k);
    }
    if (bytes > DATA_EXPORT_MAX_BYTES) {
      await setJob(teamId, id, { state: 'failed', reason: 'too_large' }, { done });
      await deleteObjects(list.slice(0, done + batch.length).map((_, i) => partKey(teamId, id, i)));
      return 'stopped';
    }
    const advanced = await setJob(teamId, id, { done: done + batch.length, bytes }, { done });
    return advanced ? 'next' : 'stopped';
  }
  const memberProjects = (job.projects ?? []) as string[];
  const memberDone = Number(job.memberDone ?? 0);
  if (typeof job.memberId === 'string' && Number(job.project ?? 0) < memberProjects.length) {
    return memberCommentsStep(teamId, id, job, memberProjects, memberDone);
  }
  const { default: JSZip } = await import('jszip');
  const zip = new JSZip();
  const issues: Item[] = [];
  const parts = list.map((_, i) => partKey(teamId, id, i));
  const memberParts = Array.from({ length: memberDone }, (_, i) => memberPartKey(teamId, id, i));
  const memberComments: Item[] = [];
  for (const key of memberParts) {
    const raw = await readObject(key);
    if (!raw) throw new Error(`export part missing: ${key}`);
    memberComments.push(...(JSON.parse(new TextDecoder().decode(raw)) as Item[]));
  }
  for (const key of parts) {
    const raw = await readObject(key);
    // Every part was written before the progress passed it: one missing is a fault, never a silent gap.
    if (!raw) throw new Error(`export part missing: ${key}`);
    const part = JSON.parse(new TextDecoder().decode(raw)) as Part | null;
    if (!part) continue;
    const packed: string[] = [];
    for (const f of part.files) {
      const bytesOf = await readObject(f.key);
      if (!bytesOf) continue;
      // Screenshots, videos and recordings are compressed already: stored as they are (less CPU, same size).
      zip.file(f.path, bytesOf, { compression: 'STORE' });
      packed.push(f.path);
    }
    // data.json names the files the archive holds (one gone meanwhile is not promised).
    issues.push({ ...part.issue, files: packed });
  }
  zip.file(
    'data.json',
    JSON.stringify(
      {
        email: job.email,
        exportedAt: new Date(nowMs()).toISOString(),
        issues,
        // A member of the team: the comments they wrote on any of its issues.
        ...(typeof job.memberId === 'string' ? { member: { comments: memberComments } } : {}),
      },
      null,
      2,
    ),
    { compression: 'DEFLATE' },
  );
  const body = await zip.generateAsync({ type: 'nodebuffer' });
  const key = `${exportPrefix(teamId, id)}.zip`;
  await putObject(key, body, 'application/zip');
  if (await setJob(teamId, id, { state: 'done', key }, { done }))
    await deleteObjects([...parts, ...memberParts]);
  return 'stopped';
}

const memberPartKey = (teamId: string, id: string, i: number) =>
  `${exportPrefix(teamId, id)}/member-${String(i).padStart(5, '0')}.json`;

/**
 * One page of a member's comments for their export: the current project's timeline (≤ FORMER_PAGE
 * entries read, filtered to comments they wrote) written as a part, then the cursor moved on the
 * condition that nobody moved it meanwhile (as the issues' batches).
 */
async function memberCommentsStep(
  teamId: string,
  id: string,
  job: Item,
  projects: string[],
  memberDone: number,
): Promise<'next' | 'stopped'> {
  const index = Number(job.project ?? 0);
  const pid = projects[index] as string;
  const page = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :i)',
      FilterExpression: '#au.#id = :u AND #k = :c',
      ExpressionAttributeNames: { '#au': 'author', '#id': 'id', '#k': 'kind' },
      ExpressionAttributeValues: {
        ':pk': projectPartition(pid),
        ':i': 'ISSUE#',
        ':u': String(job.memberId),
        ':c': 'comment',
      },
      Limit: FORMER_PAGE,
      ConsistentRead: true,
      ...(job.cursor ? { ExclusiveStartKey: job.cursor as Record<string, unknown> } : {}),
    }),
  );
  const comments = (page.Items ?? []).map((c) => ({
    projectId: pid,
    number: Number(c.number),
    ...publicComment(c),
  }));
  await putObject(memberPartKey(teamId, id, memberDone), JSON.stringify(comments), 'application/json');
  const next = page.LastEvaluatedKey;
  const moved = await setJob(
    teamId,
    id,
    { project: next ? index : index + 1, cursor: next ?? null, memberDone: memberDone + 1 },
    { memberDone },
  );
  return moved ? 'next' : 'stopped';
}

/** Timeline entries one step of a former member's job reads at most (one Query page). */
const FORMER_PAGE = 200;
const formerActor: Actor = { kind: 'member', name: FORMER_MEMBER };

/**
 * Starts the job that signs a member's comments and changes in every project of the team as "former
 * member" (decision DR-8), after they left or were removed: the job item and its first step on the
 * privacy queue. The walk runs in pages of one project's timeline, resumable from the stored cursor.
 */
export async function startFormerMember(teamId: string, userId: string): Promise<string> {
  const id = randomBytes(16).toString('hex');
  const at = nowMs();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...jobKey(teamId, id),
        kind: 'member',
        state: 'running',
        userId,
        // The team's projects are listed by the first step, not by the removal's request (one Put there).
        project: 0,
        done: 0,
        at,
        ttl: epochSeconds(at + DAY),
      },
    }),
  );
  await publish('privacy', [{ message: { teamId, jobId: id } }]);
  return id;
}

/**
 * One page of a former member's job: the timeline entries of the current project (≤ FORMER_PAGE read)
 * that the member wrote (a comment's author) or made (an activity's actor) are signed `formerActor`, each
 * on the condition that it still names them (a rerun rewrites nothing twice); then the cursor moves on,
 * on the condition that nobody moved it meanwhile. Another team member's entries are never touched.
 */
async function formerMemberStep(teamId: string, id: string, job: Item): Promise<'next' | 'stopped'> {
  const done = Number(job.done ?? 0);
  if (!Array.isArray(job.projects)) {
    const projects = (await listProjects(teamId)).map((p) => p.id);
    return (await setJob(teamId, id, { projects, total: projects.length, done: done + 1 }, { done }))
      ? 'next'
      : 'stopped';
  }
  const projects = job.projects as string[];
  const index = Number(job.project ?? 0);
  const userId = String(job.userId);
  const pid = projects[index];
  if (pid === undefined) {
    await setJob(teamId, id, { state: 'done' }, { done });
    return 'stopped';
  }
  const page = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :i)',
      FilterExpression: '#au.#id = :u OR #ac.#id = :u',
      ExpressionAttributeNames: { '#au': 'author', '#ac': 'actor', '#id': 'id' },
      ExpressionAttributeValues: { ':pk': projectPartition(pid), ':i': 'ISSUE#', ':u': userId },
      Limit: FORMER_PAGE,
      ConsistentRead: true,
      ...(job.cursor ? { ExclusiveStartKey: job.cursor as Record<string, unknown> } : {}),
    }),
  );
  for (const item of page.Items ?? []) {
    const field = item.kind === 'comment' ? 'author' : item.kind === 'activity' ? 'actor' : null;
    if (!field) continue;
    await db()
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: String(item.pk), sk: String(item.sk) },
          ConditionExpression: '#f.#id = :u',
          UpdateExpression: 'SET #f = :former',
          ExpressionAttributeNames: { '#f': field, '#id': 'id' },
          ExpressionAttributeValues: { ':u': userId, ':former': formerActor },
        }),
      )
      .catch((err) => {
        if (!isConditionFailure(err)) throw err;
      });
  }
  const next = page.LastEvaluatedKey;
  const moved = await setJob(
    teamId,
    id,
    { project: next ? index : index + 1, cursor: next ?? null, done: done + 1 },
    { done },
  );
  return moved ? 'next' : 'stopped';
}

/** A job's progress, and once done a signed link to its ZIP; null when there is no such job (of this team). */
export async function exportStatus(teamId: string, id: string): Promise<DataExportStatus | null> {
  const [job] = await getItems([jobKey(teamId, id)]);
  if (!job) return null;
  const stale = job.state === 'running' && nowMs() - Number(job.at ?? 0) > EXPORT_STALE_MS;
  const status: DataExportStatus = {
    id,
    state: stale ? 'failed' : (job.state as DataExportStatus['state']),
    done: Number(job.done ?? 0),
    total: Number(job.total ?? 0),
    ...(job.reason === 'too_large' ? { reason: 'too_large' as const } : {}),
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
        // The search text and the preview carry the description and the address too. The similarity mark
        // comes first, before the signals are read and deleted (eraseSimilar): from now on no run in flight
        // writes them again and the read suggests this issue nowhere.
        UpdateExpression:
          'SET title = :e, preview = :e, q = :e, totalFiles = :z, totalScreenshots = :z, #er = if_not_exists(#er, :now)',
        ExpressionAttributeNames: { '#er': SIM_ERASED },
        ExpressionAttributeValues: { ':e': ERASED, ':z': 0, ':now': new Date(nowMs()).toISOString() },
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

/** Shorter texts are not searched for in others' words: "Hi" or "ok" would erase the team's own. */
const QUOTE_MIN = 8;

/**
 * `text` with the person's words taken out (decision DR-9): their address (any case) and each of their
 * texts (description, title, replies; at least QUOTE_MIN characters) where quoted word for word, and each
 * quoted line ("> …") whose words are part of one of their texts, read "erased". Others' words stay.
 */
export function scrubQuotes(text: string, email: string, theirs: readonly string[]): string {
  const long = theirs.map((t) => t.trim()).filter((t) => t.length >= QUOTE_MIN);
  let out = text.replace(new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), ERASED);
  for (const t of [...long].sort((x, y) => y.length - x.length)) out = out.split(t).join(ERASED);
  return out
    .split('\n')
    .map((line) => {
      const quote = /^(\s*(?:>\s?)+)(.*)$/.exec(line);
      const words = quote?.[2]?.trim() ?? '';
      return quote && words.length >= 3 && long.some((t) => t.includes(words))
        ? `${quote[1]}${ERASED}`
        : line;
    })
    .join('\n');
}

/** `value` with scrubQuotes applied to every string inside (an activity's from/to, a reason). */
function scrubDeep(value: unknown, email: string, theirs: readonly string[]): unknown {
  if (typeof value === 'string') return scrubQuotes(value, email, theirs);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, email, theirs));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, email, theirs)]));
  return value;
}

/** What one erased issue's person wrote: the texts to look for in copies, and their replies' ids. */
interface Theirs {
  texts: string[];
  replies: Set<string>;
}

const setItem = (item: Item, fields: Item) =>
  db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: String(item.pk), sk: String(item.sk) },
      UpdateExpression: `SET ${Object.keys(fields)
        .map((_, i) => `#f${i} = :v${i}`)
        .join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(Object.keys(fields).map((k, i) => [`#f${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(Object.values(fields).map((v, i) => [`:v${i}`, v])),
    }),
  );

/**
 * The copies of the person's words on one issue: the team's comments quoting them and the activity
 * entries naming them are scrubbed (scrubQuotes), before the originals are erased, so that a rerun after
 * a crash still knows what to look for. Answers what the person wrote there.
 */
async function eraseCopies(f: Found, detail: Item | undefined, email: string): Promise<Theirs> {
  const entries = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :t)',
    ExpressionAttributeValues: timelineRange(f.projectId, f.number),
    ConsistentRead: true,
  });
  const replies = entries.filter((e) => e.kind === 'comment' && isReply(e));
  const data = (detail?.data ?? {}) as { customFields?: { value?: unknown }[] };
  const texts = [
    String(detail?.msg ?? ''),
    String(f.header.title ?? ''),
    ...replies.map((r) => String(r.body ?? '')),
    ...(data.customFields ?? []).map((c) => String(c.value ?? '')),
  ].filter((t) => t && t !== ERASED);
  for (const e of entries) {
    if (e.kind === 'comment' && !isReply(e)) {
      const body = scrubQuotes(String(e.body ?? ''), email, texts);
      if (body !== e.body) await setItem(e, { body });
    } else if (e.kind === 'activity') {
      const fields: Item = {};
      for (const k of ['from', 'to', 'reason'] as const) {
        if (!(k in e)) continue;
        const v = scrubDeep(e[k], email, texts);
        if (JSON.stringify(v) !== JSON.stringify(e[k])) fields[k] = v;
      }
      if (Object.keys(fields).length) await setItem(e, fields);
    }
  }
  return { texts, replies: new Set(replies.map((r) => String(r.id))) };
}

/**
 * The mails still waiting about the erased issues (the notification outbox's per-person items, M# and
 * D#: a digest waits up to a day) carry the issue's title and a comment's excerpt: the title reads
 * "erased", an excerpt of the person's reply too, another excerpt is scrubbed. One paged Query of the
 * outbox partition, filtered to the team's erased projects (the outbox holds at most a week of mails).
 */
async function erasePendingMails(theirs: Map<string, Theirs>, email: string): Promise<void> {
  const projects = [...new Set([...theirs.keys()].map((k) => k.split('#')[0] as string))];
  if (projects.length === 0) return;
  for (const prefix of [MAIL, DIGEST]) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :m)',
      FilterExpression: `#e.#p IN (${projects.map((_, i) => `:p${i}`).join(', ')})`,
      ExpressionAttributeNames: { '#e': 'event', '#p': 'projectId' },
      ExpressionAttributeValues: {
        ':pk': OUTBOX_PARTITION,
        ':m': prefix,
        ...Object.fromEntries(projects.map((p, i) => [`:p${i}`, p])),
      },
      ConsistentRead: true,
    });
    for (const item of items) {
      const event = item.event as Item;
      const mine = theirs.get(`${String(event.projectId)}#${Number(event.number)}`);
      if (!mine) continue;
      const excerpt =
        typeof event.excerpt !== 'string'
          ? undefined
          : mine.replies.has(String(event.commentId))
            ? ERASED
            : scrubQuotes(
                event.excerpt,
                email,
                mine.texts.map((t) => t.replace(/\s+/g, ' ').trim()),
              );
      await setItem(item, {
        event: { ...event, title: ERASED, ...(excerpt !== undefined ? { excerpt } : {}) },
      });
    }
  }
}

/**
 * The report's similarity items (docs/similar.md): its signals item holds the normalised page, error and
 * request and a MinHash of the description, all derived from what the person sent, and its index entries name
 * those values' hashes. Read after eraseTexts marked the header (a run in flight that wrote before is found
 * here; one after is refused), the entries go first and the signals item last, so a rerun after a crash
 * derives the rest again. Other reports' `cand` entries naming the issue stay: numbers and scores, skipped on
 * read by the header's mark (decision DR-11).
 */
async function eraseSimilar(projectId: string, n: number) {
  const [signals] = await getItems([signalsKey(projectId, n)]);
  const keys = similarKeysOf(projectId, n, signals);
  await batchDelete(keys.slice(0, -1));
  await batchDelete(keys.slice(-1));
}

/**
 * Erases what the reporter sent: their issues' files (screenshots, files, snapshots, recordings) are
 * deleted; the address, their custom fields, the description, the title and their replies read "erased"; the
 * report's similarity signals and index entries are deleted (it is suggested nowhere and gets no suggestions);
 * their reporter item (address, status-page tokens) goes. The issues stay (the team's work on them is the
 * team's). Records `privacy.erase` with the address's hash. Answers how many issues were erased.
 */
export async function erase(teamId: string, email: string, actor: Actor): Promise<number> {
  const found = await findIssues(teamId, email);
  // Copies first (team comments quoting the person, activity, waiting mails), then the originals.
  const theirs = new Map<string, Theirs>();
  for (const f of found) {
    const [detail] = await getItems([issueDetailKey(f.projectId, f.number)]);
    theirs.set(`${f.projectId}#${f.number}`, await eraseCopies(f, detail, email));
  }
  await erasePendingMails(theirs, email);
  for (const f of found) {
    const [detail, reporter] = await getItems([
      issueDetailKey(f.projectId, f.number),
      reporterKey(f.projectId, f.number),
    ]);
    if (detail) await deleteObjects(issueObjectKeys(f.projectId, detail));
    await eraseTexts(teamId, f.projectId, f.number, Number(detail?.bytes ?? 0));
    await eraseSimilar(f.projectId, f.number);
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
    // The reporter's outbox entry (a status mail owed to them) goes with their record.
    await batchDelete([reporterKey(f.projectId, f.number), outboxKey(f.projectId, f.number), ...tokens]);
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
