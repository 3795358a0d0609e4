/**
 * The inbound tracker hooks' items (issue 24, docs/data-model.md 4.14). This module owns:
 *   HOOK#<hookId> / HOOK                          {projectId, vendor, secret, createdAt, registered?}
 *   HOOK#<hookId> / SEEN#<deliveryId>             a delivery already taken (TTL 7 days): the dedupe
 *   PROJECT#<pid> / HOOKOF#<vendor>               {hookId}: the project's hook for that tracker
 *   PROJECT#<pid> / TRACKER#<vendor>#<issue>      {number}: the tracker issue → the Snag issue it came from
 *   PROJECT#<pid> / SYNCED#<vendor>#<kind>#<id>   ids the sync already wrote or took (comments both ways,
 *                                                 the last state Snag wrote), so nothing is taken twice and
 *                                                 our own writes coming back are dropped
 * The hook id is in the URL the tracker calls and says which project and vendor; the secret never leaves
 * the server except in the answers of reveal and regenerate to a member allowed the integrations.
 */
import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type TrackerVendor, trackerIssueId } from '#contracts/sync';
import { db } from '#runtime/aws/dynamo';
import { isConditionFailure, tableName } from '#runtime/db';
import { DAY, epochSeconds, nowMs } from '#runtime/time';
import { projectPartition } from '../../projects/project';

export interface HookRecord {
  hookId: string;
  projectId: string;
  vendor: TrackerVendor;
  secret: string;
  createdAt: string;
  registered?: { id: string; at: string };
}

export const hookKey = (hookId: string) => ({ pk: `HOOK#${hookId}`, sk: 'HOOK' });
export const hookOfKey = (projectId: string, vendor: TrackerVendor) => ({
  pk: projectPartition(projectId),
  sk: `HOOKOF#${vendor}`,
});
export const trackerLinkKey = (projectId: string, vendor: string, issue: string) => ({
  pk: projectPartition(projectId),
  sk: `TRACKER#${vendor}#${trackerIssueId(vendor, issue)}`,
});
// A state is remembered per tracker issue, by the same lasting id as its link (either direction names it).
const syncedKey = (projectId: string, vendor: string, kind: string, id: string) => ({
  pk: projectPartition(projectId),
  sk: `SYNCED#${vendor}#${kind}#${kind === 'state' ? trackerIssueId(vendor, id) : id}`,
});

/** 128 random bits each: the hook id (in the URL) and the secret (the tracker's token or HMAC key). */
const newHookId = () => randomBytes(16).toString('hex');
const newSecret = () => randomBytes(24).toString('base64url');

const toHook = (item: Record<string, unknown>): HookRecord => ({
  hookId: String(item.pk).slice('HOOK#'.length),
  projectId: String(item.projectId),
  vendor: item.vendor as TrackerVendor,
  secret: String(item.secret),
  createdAt: String(item.createdAt),
  ...(item.registered ? { registered: item.registered as HookRecord['registered'] & object } : {}),
});

export async function readHook(hookId: string): Promise<HookRecord | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: hookKey(hookId) }));
  return out.Item ? toHook(out.Item) : null;
}

/** The hook of a project's tracker integration, when one was made (`hookOf` the pointer item as read). */
export async function hookOfPointer(
  pointer: Record<string, unknown> | undefined,
): Promise<HookRecord | null> {
  const id = typeof pointer?.hookId === 'string' ? pointer.hookId : '';
  return id ? readHook(id) : null;
}

/**
 * The project's hook for `vendor`, made on first use: the hook item, then the pointer (conditioned on
 * none existing; a racing call that made one first wins and its hook is answered).
 */
export async function ensureHook(projectId: string, vendor: TrackerVendor): Promise<HookRecord> {
  const existing = await hookOfPointer(
    (
      await db().send(
        new GetCommand({ TableName: tableName(), Key: hookOfKey(projectId, vendor), ConsistentRead: true }),
      )
    ).Item,
  );
  if (existing) return existing;
  const hook: HookRecord = {
    hookId: newHookId(),
    projectId,
    vendor,
    secret: newSecret(),
    createdAt: new Date(nowMs()).toISOString(),
  };
  const { hookId, ...attrs } = hook;
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...hookKey(hookId), ...attrs } }));
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...hookOfKey(projectId, vendor), hookId },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return hook;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // A racing call made the project's hook first: ours was never shown to anyone; remove it.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: hookKey(hookId) }));
    return ensureHook(projectId, vendor);
  }
}

/** A new secret for the hook (the old one stops working at once); the registration is forgotten. */
export async function regenerateSecret(hook: HookRecord): Promise<HookRecord> {
  const secret = newSecret();
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: hookKey(hook.hookId),
      UpdateExpression: 'SET secret = :s REMOVE registered',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':s': secret },
    }),
  );
  const { registered: _gone, ...rest } = hook;
  return { ...rest, secret };
}

/** Records the registration; `vendorSecret` (ClickUp's, which the vendor chose) replaces the hook's secret. */
export async function markRegistered(
  hook: HookRecord,
  vendorHookId: string,
  vendorSecret?: string,
): Promise<HookRecord> {
  const registered = { id: vendorHookId, at: new Date(nowMs()).toISOString() };
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: hookKey(hook.hookId),
      UpdateExpression: vendorSecret ? 'SET registered = :r, secret = :s' : 'SET registered = :r',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':r': registered, ...(vendorSecret ? { ':s': vendorSecret } : {}) },
    }),
  );
  return { ...hook, registered, ...(vendorSecret ? { secret: vendorSecret } : {}) };
}

/**
 * Forgets the registration `registeredId` (deleted at the vendor, or its integration removed); a newer
 * registration made meanwhile stays.
 */
export async function forgetRegistration(hook: HookRecord, registeredId: string): Promise<void> {
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: hookKey(hook.hookId),
        UpdateExpression: 'REMOVE registered',
        ConditionExpression: 'registered.id = :id',
        ExpressionAttributeValues: { ':id': registeredId },
      }),
    )
    .catch((err) => {
      if (!isConditionFailure(err)) throw err;
    });
}

/** How long a taken delivery id is remembered: longer than any tracker retries (GitLab, Linear: hours). */
const SEEN_TTL_MS = 7 * DAY;

/** Records a delivery id; false when it was taken before (a redelivery or a replay). */
export async function firstDelivery(hookId: string, deliveryId: string): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { pk: `HOOK#${hookId}`, sk: `SEEN#${deliveryId}`, ttl: epochSeconds(nowMs() + SEEN_TTL_MS) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Forgets a delivery id whose message could not be queued, so the tracker's retry is taken. */
export async function forgetDelivery(hookId: string, deliveryId: string): Promise<void> {
  await db()
    .send(
      new DeleteCommand({ TableName: tableName(), Key: { pk: `HOOK#${hookId}`, sk: `SEEN#${deliveryId}` } }),
    )
    .catch(() => {});
}

/** The Snag issue a tracker issue was delivered as (the outbound delivery's link item), or null. */
export async function snagIssueOf(projectId: string, vendor: string, issue: string): Promise<number | null> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: trackerLinkKey(projectId, vendor, issue) }),
  );
  const n = Number(out.Item?.number);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** The link item's Put, written with the delivery's success (delivery-state.ts `markDelivered`). */
export const trackerLinkPut = (projectId: string, vendor: string, issue: string, n: number) => ({
  Put: { TableName: tableName(), Item: { ...trackerLinkKey(projectId, vendor, issue), number: n } },
});

/** How long the sync remembers the ids it wrote or took: far beyond any webhook's way back. */
const SYNCED_TTL_MS = 90 * DAY;

/** A transaction action that records a synced id once (fails when it is there: taken before). */
export const syncedOncePut = (projectId: string, vendor: string, kind: string, id: string) => ({
  Put: {
    TableName: tableName(),
    Item: { ...syncedKey(projectId, vendor, kind, id), ttl: epochSeconds(nowMs() + SYNCED_TTL_MS) },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** Records an id the sync wrote (a comment posted on the tracker, the state it set) with what it holds. */
export async function rememberSynced(
  projectId: string,
  vendor: string,
  kind: string,
  id: string,
  value: Record<string, unknown> = {},
): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...syncedKey(projectId, vendor, kind, id),
        ...value,
        ttl: epochSeconds(nowMs() + SYNCED_TTL_MS),
      },
    }),
  );
}

export async function readSynced(
  projectId: string,
  vendor: string,
  kind: string,
  id: string,
): Promise<Record<string, unknown> | null> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: syncedKey(projectId, vendor, kind, id),
      ConsistentRead: true,
    }),
  );
  return out.Item ?? null;
}

export async function forgetSynced(
  projectId: string,
  vendor: string,
  kind: string,
  id: string,
): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: syncedKey(projectId, vendor, kind, id) }));
}
