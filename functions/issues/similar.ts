/**
 * Similar reports, the suggestions (docs/similar.md, docs/data-model.md 4.20, contracts/similar.ts). All
 * items live in the project's partition, so deleting a project deletes them with it:
 *   SIM#<n10>                        the report's signals and `cand`, its candidates (number → score and
 *                                    reasons); its presence means "computed" (`ready`)
 *   SIMX#<kind>#<value hash>#<n10>   an index entry: report n has this signal value or band
 * The consumer (consumers/similar.ts) computes a new report's signals once and writes SIM#<n10> first, then
 * its index entries; it reads the newest INDEX_DEPTH entries of each of its index keys (never a scan of the
 * project: each Query is bounded, however many issues share a key), scores the candidates by their stored
 * signals, keeps the best PAIRS_MAX in its own `cand`, and adds itself to each of theirs (one UpdateItem of one
 * map entry each, so concurrent reports never overwrite each other). Whichever of two reports comes second
 * finds the first, so both list each other. The read (`similarFor`) is the access check with n's header and
 * SIM item in one BatchGetItem, then the best candidates' headers, where closed issues and duplicates are left
 * out: nothing is hidden or merged, a suggestion is only shown while it is still a useful one.
 */
import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ProjectAction } from '#contracts/access';
import type { LogEntry } from '#contracts/intake';
import {
  type SimilarAnswer,
  type SimilarReason,
  type SimilarSuggestion,
  similarLimits,
} from '#contracts/similar';
import type { Actor, IssueStatus } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import {
  failedConditions,
  getItems,
  isConditionFailure,
  type Key,
  type TransactItems,
  tableName,
  transactWrite,
} from '#runtime/db';
import { AppError } from '#runtime/errors';
import type { Logger } from '#runtime/log';
import { readProjectAs } from '../projects/access';
import { projectKey, projectPartition } from '../projects/project';
import { issueDetailKey, issueHeaderKey, n10 } from './issue';
import { storedKey } from './object-keys';
import { pngGray } from './png-gray';
import { exactMatch, type Match, scorePair } from './similar-score';
import { bandKeys, dhashBands, MINHASH_SIZE, type Signals, signalsOf } from './similar-signals';
import { activity, timelinePut } from './timeline';
import { readUpload } from './uploads';

/** Index entries read per key: the newest ones (a page everybody reports on stays one bounded Query). */
export const INDEX_DEPTH = 20;
/** Candidates whose signals are read and scored (one BatchGetItem). */
export const CANDIDATES_MAX = 50;
/** Candidates a new report keeps, and adds itself to (each in both directions). */
export const PAIRS_MAX = 10;
/**
 * Candidates one issue keeps at most: later reports add themselves until then (an issue reported 100 times
 * already shows its five best). Bounds the item (about 60 bytes an entry) and the read.
 */
export const CAND_MAX = 100;
/** Candidates whose headers are read per suggestion list: room for closed ones and duplicates left out. */
export const READ_DEPTH = 25;
/** Screenshots larger than this are not decoded (uploads allow 10 MB). */
const SCREENSHOT_BYTES_MAX = 10 * 1024 * 1024;

const signalsSk = (n: number) => `SIM#${n10(n)}`;
export const signalsKey = (projectId: string, n: number): Key => ({
  pk: projectPartition(projectId),
  sk: signalsSk(n),
});
/** A signal value in a key: hashed (no visitor text in keys, and a fixed length). */
const valueHash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 20);
const indexPrefix = (kind: string, value: string) => `SIMX#${kind}#${valueHash(value)}#`;

/** The index keys of a report's signals: page, error, page+error, request, description bands, screenshot bands. */
export function indexKeysOf(s: Signals): { kind: string; value: string }[] {
  const keys: { kind: string; value: string }[] = [];
  if (s.page) keys.push({ kind: 'p', value: s.page });
  if (s.error) keys.push({ kind: 'e', value: s.error });
  if (s.page && s.error) keys.push({ kind: 'pe', value: `${s.page}\n${s.error}` });
  if (s.request) keys.push({ kind: 'r', value: s.request });
  for (const band of bandKeys(s.minhash)) keys.push({ kind: 'b', value: band });
  for (const band of dhashBands(s.dhash)) keys.push({ kind: 'd', value: band });
  return keys;
}

/**
 * The keys a report's similarity items occupy: its index entries (derived from the signals item, so no
 * Query is needed) and the signals item itself, last, so that a deletion cut short finds the rest again.
 */
export function similarKeysOf(
  projectId: string,
  n: number,
  item: Record<string, unknown> | undefined,
): Key[] {
  if (!item) return [];
  const entries = indexKeysOf(signalsOfItem(item)).map(({ kind, value }) => ({
    pk: projectPartition(projectId),
    sk: `${indexPrefix(kind, value)}${n10(n)}`,
  }));
  return [...entries, signalsKey(projectId, n)];
}

/** A candidate as `cand` keeps it: its score and reasons, keyed by its number. */
type Candidate = { s: number; r: SimilarReason[] };

/** The signals as first stored on SIM#<n10> (the MinHash as 8 hex digits per hash); `at` and `cand` follow. */
function signalsItem(projectId: string, n: number, s: Signals) {
  return {
    ...signalsKey(projectId, n),
    number: n,
    page: s.page,
    error: s.error,
    request: s.request,
    mh: s.minhash.map((h) => h.toString(16).padStart(8, '0')).join(''),
    dh: s.dhash,
    cand: {},
  };
}

function signalsOfItem(item: Record<string, unknown>): Signals {
  const mh = String(item.mh ?? '');
  const minhash =
    mh.length === MINHASH_SIZE * 8
      ? Array.from({ length: MINHASH_SIZE }, (_, i) => Number.parseInt(mh.slice(i * 8, i * 8 + 8), 16))
      : [];
  return {
    page: String(item.page ?? ''),
    error: String(item.error ?? ''),
    request: String(item.request ?? ''),
    minhash,
    dhash: String(item.dh ?? ''),
  };
}

/** The grayscale pixels of the report's first PNG screenshot, or null (none, too large, not a readable PNG). */
async function firstScreenshot(projectId: string, detail: Record<string, unknown>) {
  const shots = (detail.screenshots ?? []) as { name?: string; type?: string; size?: number }[];
  const shot = shots.find((s) => s.type === 'png' && typeof s.name === 'string');
  if (!shot?.name || (shot.size ?? 0) > SCREENSHOT_BYTES_MAX) return null;
  const bytes = await readUpload(storedKey(projectId, 'screenshot', shot.name));
  return bytes ? pngGray(bytes) : null;
}

/**
 * The header attribute a data request's Erase sets (data-requests.ts): the report's similarity items are
 * gone and stay gone, it is suggested nowhere (other reports' `cand` entries naming it are skipped on read)
 * and gets no suggestions.
 */
export const SIM_ERASED = 'erasedAt';

/**
 * The condition every similarity write of report n carries: its header is there (not deleted) and not
 * erased. Deleting and erasing both change the header first and read the signals item after, so a run in
 * flight either wrote before (and its items are found and removed) or is refused (and writes nothing).
 */
function liveHeader(projectId: string, n: number): TransactItems[number] {
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: issueHeaderKey(projectId, n),
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#erased)',
      ExpressionAttributeNames: { '#erased': SIM_ERASED },
    },
  };
}

/** The newest INDEX_DEPTH report numbers under one index key. */
async function indexed(projectId: string, kind: string, value: string): Promise<number[]> {
  const prefix = indexPrefix(kind, value);
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': projectPartition(projectId), ':p': prefix },
      ProjectionExpression: 'sk',
      // Consistent: an entry written just before this read by a concurrent report must be seen.
      ConsistentRead: true,
      ScanIndexForward: false,
      Limit: INDEX_DEPTH,
    }),
  );
  return (out.Items ?? []).map((item) => Number(String(item.sk).slice(prefix.length)));
}

/** What one run of the consumer did, for its log line and the bench. */
export interface SimilarRun {
  /** `again`: a run after one cut short (its signals item without `at`); `already`: one that finished. */
  outcome: 'computed' | 'again' | 'already' | 'gone';
  /** DynamoDB requests made (reads and writes). */
  requests: number;
  candidates: number;
  pairs: number;
  linkedTo?: number;
}

const linkActor: Actor = { kind: 'system', name: 'Snag' };

/**
 * Computes report n's signals and candidates in an order that lets two reports arriving at the same moment
 * find each other: its signals item and index entries are written before it reads anyone's, so of two
 * concurrent reports at least the later reader sees the other (reads are consistent). Then it scores the
 * candidates and, in one transaction, stores its best (`cand`) and marks itself done (`at`: `ready` from
 * then on), adds itself to each candidate's list (below CAND_MAX entries), and with the project's
 * `linkExactMatches` on writes the link to the oldest open issue with exactly the same page and first error
 * (an activity entry on both). The transaction's condition on `at` means a retried message never links
 * twice; a run cut short before it is simply run again.
 */
export async function computeSimilar(projectId: string, n: number, log: Logger): Promise<SimilarRun> {
  const [meta, header, detail, existing] = await getItems([
    projectKey(projectId),
    issueHeaderKey(projectId, n),
    issueDetailKey(projectId, n),
    signalsKey(projectId, n),
  ]);
  let requests = 1;
  const gone = (): SimilarRun => ({ outcome: 'gone', requests, candidates: 0, pairs: 0 });
  if (!meta || !header || !detail || header[SIM_ERASED] !== undefined) return gone();
  if (existing?.at) return { outcome: 'already', requests, candidates: 0, pairs: 0 };

  let signals: Signals;
  if (existing) signals = signalsOfItem(existing);
  else {
    const screenshot = await firstScreenshot(projectId, detail).catch((e) => {
      log.warn('screenshot not read for its similarity hash', { projectId, number: n, e });
      return null;
    });
    const data = (detail.data ?? {}) as { href?: string };
    signals = signalsOf({
      title: String(header.title ?? ''),
      msg: String(detail.msg ?? ''),
      href: String(data.href ?? ''),
      logs: (detail.logs ?? []) as LogEntry[],
      screenshot,
    });
  }

  // Written first (see above): the signals item, without `at` until the end, and the index entries.
  const keys = indexKeysOf(signals);
  const entries = keys.map((k) => ({
    pk: projectPartition(projectId),
    sk: `${indexPrefix(k.kind, k.value)}${n10(n)}`,
  }));
  // One transaction (≤ 26 actions) rather than a BatchWriteItem: conditioned on the header, so a report
  // deleted or erased since the read above gets no items that nothing would ever remove.
  const puts = existing ? entries : [signalsItem(projectId, n, signals), ...entries];
  try {
    await transactWrite(
      [liveHeader(projectId, n), ...puts.map((Item) => ({ Put: { TableName: tableName(), Item } }))],
      () => undefined,
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    requests++;
    return gone();
  }
  requests++;

  // Candidates: every report that shares an index key, the ones sharing most keys first.
  const found = await Promise.all(keys.map((k) => indexed(projectId, k.kind, k.value)));
  requests += keys.length;
  const shared = new Map<number, number>();
  for (const numbers of found) for (const m of numbers) if (m !== n) shared.set(m, (shared.get(m) ?? 0) + 1);
  const candidates = [...shared.entries()]
    .sort((a, b) => b[1] - a[1] || b[0] - a[0])
    .slice(0, CANDIDATES_MAX)
    .map(([m]) => m);

  const scored: (Match & { number: number; exact: boolean; full: boolean })[] = [];
  if (candidates.length > 0) {
    const items = await getItems(candidates.map((m) => signalsKey(projectId, m)));
    requests++;
    items.forEach((item, i) => {
      const number = candidates[i];
      if (!item || number === undefined) return;
      const other = signalsOfItem(item);
      const match = scorePair(signals, other);
      const full = Object.keys((item.cand ?? {}) as object).length >= CAND_MAX;
      if (match) scored.push({ ...match, number, exact: exactMatch(signals, other), full });
    });
  }
  scored.sort((a, b) => b.score - a.score || a.number - b.number);
  const best = scored.slice(0, PAIRS_MAX);

  // The rule (off by default): one read of the exact matches' headers, only when there are any.
  const exact = scored.filter((m) => m.exact).map((m) => m.number);
  const rule = ((meta.data ?? {}) as { linkExactMatches?: boolean }).linkExactMatches === true;
  let linkedTo = rule && exact.length > 0 ? await exactOpenIssue(projectId, exact) : undefined;
  if (rule && exact.length > 0) requests++;

  const own: Record<string, string> = {};
  const values: Record<string, unknown> = { ':at': new Date().toISOString() };
  best.forEach((m, i) => {
    own[`#c${i}`] = String(m.number);
    values[`:c${i}`] = { s: m.score, r: m.reasons } satisfies Candidate;
  });
  const writes: TransactItems = [
    {
      Update: {
        TableName: tableName(),
        Key: signalsKey(projectId, n),
        UpdateExpression: `SET ${[...Object.keys(own).map((k, i) => `cand.${k} = :c${i}`), '#at = :at', ...(linkedTo ? ['linkedTo = :l'] : [])].join(', ')}`,
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#at)',
        ExpressionAttributeNames: { ...own, '#at': 'at' },
        ExpressionAttributeValues: { ...values, ...(linkedTo ? { ':l': linkedTo } : {}) },
      },
    },
    ...best
      .filter((m) => !m.full)
      .map((m) => ({
        Update: {
          TableName: tableName(),
          Key: signalsKey(projectId, m.number),
          UpdateExpression: 'SET cand.#n = :c',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#n': String(n) },
          ExpressionAttributeValues: { ':c': { s: m.score, r: m.reasons } satisfies Candidate },
        },
      })),
  ];
  // Last, so the indexes above stay those of `writes`: no candidate gets a report deleted or erased meanwhile.
  const headerCheck = writes.length;
  writes.push(liveHeader(projectId, n));
  if (linkedTo) {
    const reason = 'same_page_and_error' satisfies SimilarReason;
    writes.push(timelinePut(projectId, activity(n, 'linked', linkActor, { to: linkedTo, reason })));
    writes.push(timelinePut(projectId, activity(linkedTo, 'linked', linkActor, { to: n, reason })));
  }
  let outcome: SimilarRun['outcome'] = existing ? 'again' : 'computed';
  try {
    await transactWrite(writes, () => undefined);
  } catch (err) {
    // The report deleted or erased meanwhile: nothing written (its items go with the deletion or erasure).
    // Our own item refused: a second run of the same message finished first; its list and link stand.
    // A candidate refused (deleted since it was read): the message runs again, without it.
    if (!isConditionFailure(err)) throw err;
    const failed = failedConditions(err);
    if (failed.includes(headerCheck)) return { ...gone(), requests: requests + 1 };
    if (!failed.includes(0)) throw err;
    outcome = 'already';
    linkedTo = undefined;
  }
  requests++;
  return {
    outcome,
    requests,
    candidates: candidates.length,
    pairs: best.length,
    ...(linkedTo ? { linkedTo } : {}),
  };
}

/** The oldest of `numbers` that is open and not a duplicate (one BatchGetItem of their headers), if any. */
async function exactOpenIssue(projectId: string, numbers: number[]): Promise<number | undefined> {
  const first = [...numbers].sort((a, b) => a - b).slice(0, 10);
  if (first.length === 0) return undefined;
  const headers = await getItems(first.map((m) => issueHeaderKey(projectId, m)));
  const i = headers.findIndex((h) => h && isSuggestible(h));
  return i >= 0 ? first[i] : undefined;
}

/**
 * Open (the open list, `deleted` 0), not merged into another issue (MERGE's `duplicateOf` on the header) and
 * not erased by a data request (its `cand` entries in other reports stay; this is where they are skipped).
 */
const isSuggestible = (h: Record<string, unknown>) =>
  Number(h.deleted ?? 0) === 0 &&
  (h.duplicateOf === undefined || h.duplicateOf === null) &&
  h[SIM_ERASED] === undefined;

/** The consumer computes a report within seconds, its retries within minutes; later, it never will. */
const NEVER_COMPUTED_AFTER_MS = 10 * 60_000;

/**
 * GET …/similar: up to five open issues like issue n, best first. Two requests after the session: the
 * access check with n's header and signals item in one BatchGetItem, then the best candidates' headers. A
 * report still being computed answers `ready: false`; one whose signals exist but found nothing, `ready:
 * true` and none.
 */
export async function similarFor(
  userId: string,
  projectId: string,
  n: number,
  action: ProjectAction = 'read',
): Promise<SimilarAnswer> {
  const {
    items: [header, sim],
  } = await readProjectAs(userId, projectId, action, [
    issueHeaderKey(projectId, n),
    signalsKey(projectId, n),
  ]);
  if (!header) throw new AppError('NOT_FOUND');
  // Erased: its signals are gone for good, so there is nothing to wait for and nothing to suggest.
  if (header[SIM_ERASED] !== undefined) return { ready: true, similar: [] };
  if (!sim?.at) {
    // A report the consumer never got to (filed before similar reports existed, or its run failed for good)
    // would keep the issue page asking forever: past a while, it is ready, with nothing to suggest.
    const age = Date.now() - Date.parse(String(header.createdAt ?? ''));
    return { ready: age > NEVER_COMPUTED_AFTER_MS, similar: [] };
  }
  const best = Object.entries((sim.cand ?? {}) as Record<string, Candidate>)
    .map(([m, c]) => ({ number: Number(m), score: Number(c.s), reasons: c.r }))
    .filter((c) => Number.isInteger(c.number) && c.number !== n)
    .sort((a, b) => b.score - a.score || a.number - b.number)
    .slice(0, READ_DEPTH);
  if (best.length === 0) return { ready: true, similar: [] };
  const headers = await getItems(
    best.map((c) => issueHeaderKey(projectId, c.number)),
    { eventual: true },
  );
  const similar: SimilarSuggestion[] = [];
  best.forEach((c, i) => {
    const h = headers[i];
    if (!h || !isSuggestible(h) || similar.length >= similarLimits.suggestions) return;
    similar.push({
      number: c.number,
      title: String(h.title ?? ''),
      status: String(h.status ?? 'new') as IssueStatus,
      score: c.score,
      reasons: c.reasons,
      createdAt: String(h.createdAt ?? ''),
      reports: Math.max(1, Number(h.reports ?? 1) || 1),
    });
  });
  return { ready: true, similar };
}
