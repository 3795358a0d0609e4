/**
 * The integration entity (docs/data-model.md 4.8): one item per integration of a project, and META's list
 * of the active ones. This module owns:
 *   PROJECT#<pid> / INTEGRATION#<name>   one integration: active, authorized, data (secrets), oauth tokens
 *   PROJECT#<pid> / META                 `activeIntegrations` (SS), kept by every save
 * The per-issue delivery state is delivery-state.ts's.
 */

import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { integrationCatalogue } from '#contracts/integration-catalogue';
import {
  emailDataSchema,
  type IntegrationData,
  type IntegrationInput,
  type IntegrationName,
  type IntegrationsAnswer,
  type IntegrationView,
  integrationDataSchemas,
  integrationNames,
  isMasked,
  maskSecret,
  resolveFlag,
  sameSecretBinding,
  secretFields,
} from '#contracts/integrations';
import { type PlanName, plans } from '#contracts/plans';
import type { Role } from '#contracts/teams';
import { db } from '#runtime/aws/dynamo';
import { vendorFakeUrl } from '#runtime/config';
import { isConditionFailure, type TransactItems, tableName, transactWrite } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { nowMs } from '#runtime/time';
import { accessGuard, type Caller, type ProjectAction, readProjectAs } from '../projects/access';
import {
  integrationKey,
  type Project,
  planOfProject,
  projectKey,
  toProject,
  type WriteGuard,
} from '../projects/project';
import { ownerKeys, ownerName } from '../projects/service';
import { auditPut, memberActor } from '../teams/audit';
import { teamOf } from '../teams/member';

/** OAuth tokens of Slack and Asana (server-side only; never in any answer). */
export interface OAuthTokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms when the access token expires (Asana: 1 hour). */
  expiresAt?: number;
  /** Vendor extras (Slack team id, bot user id, Asana workspace). */
  extra?: Record<string, string>;
}

/** One integration as stored, UNMASKED: only delivery and the vendor calls see it. */
export interface IntegrationRecord<N extends IntegrationName = IntegrationName> {
  name: N;
  active: 0 | 1;
  authorized: 0 | 1;
  data: IntegrationData[N];
  oauth?: OAuthTokens;
  updatedAt?: number;
}

export { integrationKey };

/**
 * A new project's email integration: on, to the owner's address, so that the owner hears of new reports
 * from the first one (an opt-out: the email tab switches it off or points it elsewhere). The item and
 * META's `activeIntegrations` are written in the project's creation transaction (docs/decisions.md
 * "The owner hears of new reports").
 */
export function ownerNotification(ownerEmail: string) {
  const rec: IntegrationRecord<'email'> = {
    name: 'email',
    active: 1,
    authorized: 0,
    data: emailDataSchema.parse({ email: ownerEmail }),
  };
  return {
    activeIntegrations: [rec.name],
    items: (projectId: string) => [
      {
        Put: {
          TableName: tableName(),
          Item: { ...integrationKey(projectId, rec.name), ...rec, updatedAt: nowMs() },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
  };
}

/** The plan allows this integration now (email always; the others need the plan's `integrations` flag). */
export const allowedByPlan = (name: IntegrationName, plan: PlanName): boolean =>
  name === 'email' || plans[plan].integrations;

export function defaultIntegration<N extends IntegrationName>(name: N): IntegrationRecord<N> {
  return {
    name,
    active: 0,
    authorized: 0,
    data: integrationDataSchemas[name].parse({}) as IntegrationData[N],
  };
}

/** A stored item as a record; data written by older versions gains the defaults of newer fields. */
export function toIntegration(item: Record<string, unknown>): IntegrationRecord {
  const name = item.name as IntegrationName;
  const parsed = integrationDataSchemas[name].safeParse(item.data ?? {});
  return {
    name,
    active: Number(item.active) === 1 ? 1 : 0,
    authorized: Number(item.authorized) === 1 ? 1 : 0,
    // Data the schema refuses (written by a tool or an older rule, e.g. a local http receiver) is kept as
    // stored, over the defaults: a read never loses what was saved.
    data: (parsed.success
      ? parsed.data
      : {
          ...integrationDataSchemas[name].parse({}),
          ...(item.data as object),
        }) as IntegrationData[typeof name],
    ...(item.oauth ? { oauth: item.oauth as OAuthTokens } : {}),
    ...(item.updatedAt ? { updatedAt: Number(item.updatedAt) } : {}),
  };
}

/** What the dashboard may see of a record: secrets masked, OAuth tokens dropped. */
export function maskIntegration(rec: IntegrationRecord, available: boolean): IntegrationView {
  const fake = vendorFakeUrl(rec.name);
  const data: Record<string, unknown> = { ...rec.data };
  for (const f of secretFields[rec.name] as readonly string[]) data[f] = maskSecret(String(data[f] ?? ''));
  return {
    name: rec.name,
    active: rec.active,
    authorized: rec.authorized,
    available,
    data: { ...data, active: rec.active, authorized: rec.authorized },
    ...(fake ? { fake } : {}),
  } as IntegrationView;
}

/** `msg.integrations`: all six in order, masked, defaults for the ones never saved. */
export function integrationsAnswer(
  records: Partial<Record<IntegrationName, IntegrationRecord>>,
  plan: PlanName,
): IntegrationsAnswer {
  return integrationNames.map((name) =>
    maskIntegration(records[name] ?? defaultIntegration(name), allowedByPlan(name, plan)),
  );
}

/**
 * The project (if `userId` may do `action` on it, projects/access.ts, with their role), the caller, and its
 * six integrations in ONE consistent BatchGetItem with META and the caller's TEAMS (A30). Outside the
 * project's team, or none, is NOT_FOUND; a role without the right FORBIDDEN. The batch also reads the
 * caller's own TEAM and USER, so `owner` (who the project shows as its owner, `ownerName`) is known without
 * another read when the project is in the caller's personal team; otherwise it is null.
 */
export async function readOwnedIntegrations(
  projectId: string,
  userId: string,
  action: ProjectAction,
): Promise<{
  project: Project & { role: Role };
  caller: Caller;
  owner: string | null;
  /** The caller's USER item, read in the same batch (who the audit log names, teams/audit.ts). */
  user: Record<string, unknown> | undefined;
  integrations: Partial<Record<IntegrationName, IntegrationRecord>>;
}> {
  const keys = [...ownerKeys(userId), ...integrationNames.map((n) => integrationKey(projectId, n))];
  const { project, caller, items } = await readProjectAs(userId, projectId, action, keys);
  const [team, user, ...records] = items;
  const integrations: Partial<Record<IntegrationName, IntegrationRecord>> = {};
  for (const item of records) if (item) integrations[item.name as IntegrationName] = toIntegration(item);
  const found = { ...toProject(project), role: project.role };
  return {
    project: found,
    caller,
    owner: teamOf(found) === userId ? ownerName(team, user) : null,
    user,
    integrations,
  };
}

/** The guard of an integration write by `caller` on `project` (its team, the caller's role): `accessGuard`. */
export const integrationsGuard = (caller: Caller, project: Project) =>
  accessGuard(caller, teamOf(project), 'integrations', project.id);

/**
 * The audit entry of an integration write by `userId` (teams/audit.ts): `integration.removed` when it ends
 * with no authorisation and inactive (a reset), else `integration.changed` with `change` (saved, authorised).
 * Names and switches only: never a key, a token, a target address or any other field of its data.
 */
export function integrationAudit(
  project: Project,
  userId: string,
  user: Record<string, unknown> | undefined,
  rec: IntegrationRecord,
  change: 'saved' | 'authorised' | null,
) {
  const removed = change === null;
  return auditPut(teamOf(project), {
    kind: removed ? 'integration.removed' : 'integration.changed',
    actor: memberActor(userId, user),
    projectId: project.id,
    target: rec.name,
    detail: {
      ...(removed ? {} : { change }),
      active: rec.active === 1,
      authorized: rec.authorized === 1,
    },
  });
}

/** One integration, unmasked (delivery, vendor calls); the default record when never saved. */
export async function getIntegration<N extends IntegrationName>(
  projectId: string,
  name: N,
): Promise<IntegrationRecord<N>> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: integrationKey(projectId, name), ConsistentRead: true }),
  );
  return out.Item ? (toIntegration(out.Item) as IntegrationRecord<N>) : defaultIntegration(name);
}

/**
 * A secret as sent: a masked value means the stored one, but only toward the receiver it was saved for.
 * With a changed host, URL or username the stored secret would go somewhere new, so it is refused
 * (`INVALID_PARAMETERS`, the field `errorPath` marked `SECRET_REQUIRED`) and must be typed again.
 */
export function sentSecret(
  name: IntegrationName,
  stored: Record<string, unknown>,
  sent: Record<string, unknown>,
  field: string,
  errorPath: string,
): string {
  const value = sent[field];
  if (!isMasked(value)) return String(value ?? '');
  if (!sameSecretBinding(name, stored, sent))
    throw new AppError('INVALID_PARAMETERS', { [errorPath]: 'SECRET_REQUIRED' });
  return String(stored[field] ?? '');
}

/**
 * The record a save produces from the stored one and the dashboard's input: a masked secret sent back
 * keeps the stored value (for the same receiver only, `sentSecret`); `authorized` is taken from the input for the token vendors only (the OAuth vendors are authorised
 * by their exchange, `authorizeIntegration`). Validation of the merged data is the
 * caller's (`activeRequirement`).
 */
export function mergeInput(current: IntegrationRecord, input: IntegrationInput): IntegrationRecord {
  const data: Record<string, unknown> = { ...(input.data as Record<string, unknown>) };
  const stored = current.data as Record<string, unknown>;
  for (const f of secretFields[input.name] as readonly string[]) {
    data[f] = sentSecret(input.name, stored, data, f, `data.${f}`);
  }
  // A token vendor's `authorized` is the dashboard's (set after its list call); OAuth's is the exchange's.
  const selfAuthorized = integrationCatalogue[input.name].auth === 'token';
  const authorized = resolveFlag(input.authorized, current.authorized);
  return {
    ...current,
    name: input.name,
    // The schema makes sure one of the two copies of `active` is there.
    active: resolveFlag(input.active, current.active) ?? current.active,
    authorized: selfAuthorized && authorized !== undefined ? authorized : current.authorized,
    data: data as IntegrationData[typeof input.name],
  };
}

/**
 * Writes an integration and keeps META's `activeIntegrations` in one transaction (A32): ADD the name when
 * active, DELETE it otherwise; refused (NOT_FOUND) unless `userId` may still set up the project's
 * integrations (projects/access.ts). With
 * `readAt` (the `updatedAt` the record was read with, null for none) the write happens only if nobody
 * wrote in between; otherwise it throws the condition failure for the caller to read again. `audit`: the
 * team log's entry of the change (`integrationAudit`), in the same transaction.
 */
export async function saveIntegration(
  projectId: string,
  access: WriteGuard,
  rec: IntegrationRecord,
  readAt?: number | null,
  audit: TransactItems = [],
): Promise<void> {
  const T = tableName();
  const { oauth, ...rest } = rec;
  const unchanged =
    readAt === undefined
      ? {}
      : readAt === null
        ? { ConditionExpression: 'attribute_not_exists(updatedAt)' }
        : { ConditionExpression: 'updatedAt = :read', ExpressionAttributeValues: { ':read': readAt } };
  await transactWrite(
    [
      {
        Put: {
          TableName: T,
          Item: {
            ...integrationKey(projectId, rec.name),
            ...rest,
            ...(oauth ? { oauth } : {}),
            updatedAt: nowMs(),
          },
          ...unchanged,
        },
      },
      {
        Update: {
          TableName: T,
          Key: projectKey(projectId),
          UpdateExpression: `${rec.active === 1 ? 'ADD' : 'DELETE'} activeIntegrations :name`,
          ConditionExpression: access.expression,
          ExpressionAttributeValues: { ':name': new Set([rec.name]), ...access.values },
        },
      },
      // The caller's membership still allowing integrations (4.12, decision T4).
      ...(access.checks ?? []),
      // The audit entry of the change (teams/audit.ts): written with it or not at all.
      ...audit,
    ],
    // Only the record's own condition is the caller's to handle; the project's is NOT_FOUND.
    (failed) => (failed.includes(0) && !failed.some((i) => i >= 1) ? undefined : 'NOT_FOUND'),
  );
}

/**
 * For the vendor flows (GitLab/Jira projects call, Slack/Asana OAuth exchange, reset): sets `authorized`,
 * the OAuth tokens (null removes them) and any data fields, server-side, then saves like the dashboard
 * does. Reset is `{ authorized: 0, active: 0, oauth: null, data: { key: '', id: '' } }`. Answers the
 * masked list of all six, as the save call does.
 */
export async function authorizeIntegration(
  projectId: string,
  userId: string,
  name: IntegrationName,
  change: { authorized: 0 | 1; active?: 0 | 1; oauth?: OAuthTokens | null; data?: Record<string, unknown> },
  attempt = 1,
): Promise<IntegrationsAnswer> {
  const { project, caller, user, integrations } = await readOwnedIntegrations(
    projectId,
    userId,
    'integrations',
  );
  const current = integrations[name] ?? defaultIntegration(name);
  const data = integrationDataSchemas[name].parse({ ...current.data, ...change.data });
  const next: IntegrationRecord = {
    ...current,
    authorized: change.authorized,
    active: change.active ?? current.active,
    data: data as IntegrationData[typeof name],
  };
  if (change.oauth === null) delete next.oauth;
  else if (change.oauth) next.oauth = change.oauth;
  try {
    // A reset (authorised 0) removes the integration's access; anything else authorises it.
    const entry = integrationAudit(
      project,
      userId,
      user,
      next,
      change.authorized === 1 ? 'authorised' : null,
    );
    await saveIntegration(projectId, integrationsGuard(caller, project), next, current.updatedAt ?? null, [
      entry,
    ]);
  } catch (err) {
    // The record read above is written back whole: a dashboard save that landed since (Active switched
    // on while a project list ran) is read again and kept, not overwritten with what came before it.
    if (attempt < 5 && isConditionFailure(err))
      return authorizeIntegration(projectId, userId, name, change, attempt + 1);
    throw err;
  }
  const plan = planOfProject(project);
  return integrationsAnswer({ ...integrations, [name]: next }, plan);
}

/** A refreshed OAuth access token (Asana), stored without a user: delivery refreshes on its own. */
export async function storeOAuthTokens(
  projectId: string,
  name: IntegrationName,
  oauth: OAuthTokens,
): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: integrationKey(projectId, name),
      UpdateExpression: 'SET oauth = :o',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':o': oauth },
    }),
  );
}
