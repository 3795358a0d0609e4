/**
 * The project entity (docs/data-model.md "Project"): PROJECT#<id>/META, listed under its owner in gsi1
 * (OWNER#<userId>, PROJECT#<createdAt>#<id>). Everything a project owns lives in its partition
 * PROJECT#<id> (integrations, issues, counters), so deleting the partition deletes the project's data.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { normaliseHost } from '#contracts/domains';
import type { Lang } from '#contracts/errors';
import { bucketPrefixes } from '#contracts/manifest';
import type { IntegrationName } from '#contracts/messages';
import { effectivePlan, type PlanName, plans } from '#contracts/plans';
import { type WidgetSettings, widgetSettingsSchema } from '#contracts/schemas';
import { db } from '#runtime/aws/dynamo';
import {
  isConditionFailure,
  queryAll,
  retryRaces,
  setFields,
  type TransactItems,
  tableName,
  transactWrite,
} from '#runtime/db';
import { AppError } from '#runtime/errors';
import { nowMs } from '#runtime/time';
import { teamOf } from '../teams/member';
import { type Team, teamKey } from '../teams/team';

export interface Project {
  id: string;
  /** Who created it (before teams: its owner, whose personal team it belongs to: `teamOf`). */
  ownerId: string;
  /** Its team (issue 22); absent on projects created before teams, which are team `ownerId`'s. */
  teamId?: string;
  name: string;
  /** As the client typed it (shown in lists). */
  url: string;
  /** Normalised host the widget matches (contracts/domains.ts). */
  host: string;
  active: 0 | 1;
  activeParam: 0 | 1;
  data: WidgetSettings;
  /** The owner's plan and its expiry, kept here so the public calls need one read (billing updates them). */
  ownerPlan: PlanName;
  ownerPlanExpire: string | null;
  openCount: number;
  resolvedCount: number;
  createdAt: number;
  /** Integrations switched on (kept by the integrations' saves, 4.8); absent while there are none. */
  activeIntegrations?: Set<string>;
  /**
   * Its place among the owner's projects, oldest first (1-based; absent on older items, read as 1): a
   * project whose seat is beyond the effective plan's allowance takes no reports (docs/decisions.md D26).
   */
  seat?: number;
  /**
   * The dashboard's language when the project was created: the owner's new-report mails use it while the
   * account has no language of its own (USER `lang`, set by billing). Absent on older items.
   */
  lang?: Lang;
}

/** A project's partition: its META item, its issues (functions/issues/issue.ts) and its integrations. */
export const projectPartition = (id: string) => `PROJECT#${id}`;
export const projectKey = (id: string) => ({ pk: projectPartition(id), sk: 'META' });
/** One integration of the project (functions/integrations/integration.ts; here so the issues' mails may read it). */
export const integrationKey = (projectId: string, name: IntegrationName) => ({
  pk: projectPartition(projectId),
  sk: `INTEGRATION#${name}`,
});
/** The S3 prefix of everything the project's issues store (docs/data-model.md "Files", issues/object-keys.ts). */
export const projectFilesPrefix = (id: string) => `${bucketPrefixes.stored}${id}/`;

export function toProject(item: Record<string, unknown>): Project {
  const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, ...rest } = item;
  const p = rest as unknown as Project;
  // Settings written by older versions gain the defaults of newer fields.
  return { ...p, data: widgetSettingsSchema.parse(p.data ?? {}) };
}

export type PlanHolder = { plan: PlanName; planExpire: string | null | undefined };

/** The owner's plan as it applies now (a lapsed paid plan is Free). */
export const planOf = (owner: PlanHolder): PlanName => effectivePlan(owner.plan, owner.planExpire, nowMs());

/** The owner's plan as the project carries it, for `planOf` (older items have no expiry). */
export const ownerPlanOf = (p: Pick<Project, 'ownerPlan' | 'ownerPlanExpire'>) => ({
  plan: p.ownerPlan,
  planExpire: p.ownerPlanExpire ?? null,
});

/**
 * The plan that applies to the project now: its owner's, as the project carries it, Free once a paid plan
 * lapsed. The one rule every allowance check of a project reads (integrations, webhooks, quotas, seats).
 */
export const planOfProject = (p: Pick<Project, 'ownerPlan' | 'ownerPlanExpire'>): PlanName =>
  planOf(ownerPlanOf(p));

/** Settings as the widget applies them: features the owner's effective plan lacks are off, branding stays on. */
export function effectiveSettings(data: WidgetSettings, owner: PlanHolder): WidgetSettings {
  const plan = plans[planOf(owner)];
  return {
    ...data,
    widgetDisableUpload: plan.attachments ? data.widgetDisableUpload : true,
    widgetDisableVideo: plan.videos ? data.widgetDisableVideo : true,
    widgetReplay: plan.replays ? data.widgetReplay : false,
    widgetDisableBranding: plan.brandingRemoval ? data.widgetDisableBranding : false,
  };
}

/** Whether the project is within its owner's effective allowance (D26); beyond it, it takes no reports. */
export function withinAllowance(p: Pick<Project, 'ownerPlan' | 'ownerPlanExpire' | 'seat'>): boolean {
  const allowed = plans[planOfProject(p)].projects;
  return allowed === null || (p.seat ?? 1) <= allowed;
}

export async function getProject(id: string): Promise<Project | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: projectKey(id) }));
  return out.Item ? toProject(out.Item) : null;
}

export async function listProjects(userId: string): Promise<Project[]> {
  return (await queryAll(ownedProjectsQuery(userId))).map(toProject);
}

/** The owner's projects in gsi1, oldest first (data-model 4.4). */
const ownedProjectsQuery = (ownerId: string) => ({
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = :o AND begins_with(gsi1sk, :p)',
  ExpressionAttributeValues: { ':o': `OWNER#${ownerId}`, ':p': 'PROJECT#' },
});

/**
 * Creates a project in `team` and counts it against the team's allowance in one transaction: the condition
 * on TEAM's projectCount makes the plan limit hold even for parallel requests, and `guard` (the policy's
 * ConditionCheck on the creator's membership) that the creator may still create projects there.
 */
export async function createProject(
  team: Pick<Team, 'id' | 'plan' | 'planExpire' | 'projectCount'>,
  creatorId: string,
  guard: TransactItems,
  allowed: number | null,
  input: { name: string; url: string; active: 0 | 1; activeParam: 0 | 1 },
  /**
   * The dashboard's language at creation (kept as the project's `lang`), and what the caller creates with
   * the project in the same transaction (its default integrations: their items and the names META lists
   * as active).
   */
  extra: { lang?: Lang; activeIntegrations?: string[]; items?: (projectId: string) => TransactItems } = {},
): Promise<Project> {
  const host = normaliseHost(input.url);
  if (!host) throw new AppError('INVALID_DOMAIN', { url: 'INVALID_DOMAIN' });
  const now = nowMs();
  const ownerPlan = team.plan ?? 'FREE_PLAN';
  const ownerPlanExpire = team.planExpire ?? null;
  // A project made on a plan with replay starts with it on; every project stored before replay existed
  // reads the schema's default (off) until its client turns it on (docs/replay.md).
  const replays = plans[planOf({ plan: ownerPlan, planExpire: ownerPlanExpire })].replays;
  const project: Project = {
    id: randomUUID(),
    ownerId: creatorId,
    teamId: team.id,
    name: input.name,
    url: input.url,
    host,
    active: input.active,
    activeParam: input.activeParam,
    data: widgetSettingsSchema.parse({ widgetReplay: replays }),
    ownerPlan,
    ownerPlanExpire,
    seat: (team.projectCount ?? 0) + 1,
    openCount: 0,
    resolvedCount: 0,
    createdAt: now,
    ...(extra.activeIntegrations?.length ? { activeIntegrations: new Set(extra.activeIntegrations) } : {}),
    ...(extra.lang ? { lang: extra.lang } : {}),
  };
  const extraItems = extra.items?.(project.id) ?? [];
  const guardFrom = 2 + extraItems.length;
  // The team's projects are listed under OWNER#<tid> (the shape pre-team projects have, T2).
  const gsi = { gsi1pk: `OWNER#${team.id}`, gsi1sk: `PROJECT#${new Date(now).toISOString()}#${project.id}` };
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: teamKey(team.id),
          UpdateExpression: 'ADD projectCount :one',
          ConditionExpression:
            allowed === null
              ? 'attribute_exists(pk)'
              : 'attribute_exists(pk) AND (attribute_not_exists(projectCount) OR projectCount < :max)',
          ExpressionAttributeValues: { ':one': 1, ...(allowed === null ? {} : { ':max': allowed }) },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: { ...projectKey(project.id), ...gsi, ...project },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...extraItems,
      ...guard,
    ],
    (failed) =>
      failed.includes(0) ? 'PLAN_LIMIT' : failed.some((i) => i >= guardFrom) ? 'FORBIDDEN' : undefined,
  );
  return project;
}

/**
 * What a write to META must meet, from the access policy (projects/access.ts `accessGuard`): a condition on
 * META, and `checks` to run in the same TransactWriteItems (the caller's membership, decision T4).
 */
export interface WriteGuard {
  expression: string;
  values: Record<string, unknown>;
  checks?: TransactItems;
}

/** Writes the changed fields, only while `guard` holds (the caller may still change the settings). */
export async function saveProject(
  id: string,
  guard: WriteGuard,
  fields: Partial<Pick<Project, 'name' | 'url' | 'host' | 'active' | 'activeParam' | 'data'>>,
): Promise<void> {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (!guard.checks?.length) return setFields(projectKey(id), fields, { ...guard, refusal: 'NOT_FOUND' });
  if (entries.length === 0) return;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ...guard.values };
  const sets = entries.map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:v${i}`] = v;
    return `#f${i} = :v${i}`;
  });
  // One TransactWriteItems (1 request, as the UpdateItem was): META's update and the membership check.
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: projectKey(id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: guard.expression,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
      ...guard.checks,
    ],
    'NOT_FOUND',
  );
}

/**
 * Removes the project record, frees its place in its team's allowance and the storage its issues' files
 * used (docs/data-model.md 4.11; on `TEAM#teamOf(META)`); its data goes in `purgeProjectData`. Answers the
 * project's team (for the seats' renumbering). `read` reads META (consistently,
 * with the access check) for its `bytes`, and the delete is conditioned on them and on `guard`, so a
 * report landing in between makes it read again.
 */
export async function deleteProjectRecord(
  id: string,
  read: () => Promise<Record<string, unknown>>,
  guardOf: WriteGuard | (() => WriteGuard),
): Promise<string> {
  // The project changed (or went) since it was read: read it again, 5 times in all.
  return retryRaces(
    isConditionFailure,
    async () => {
      const item = await read();
      // A guard may depend on what `read` found (the project's team, the caller's membership).
      const guard = typeof guardOf === 'function' ? guardOf() : guardOf;
      const bytes = Number(item.bytes ?? 0);
      const teamId = teamOf(item);
      await transactWrite(
        [
          {
            Delete: {
              TableName: tableName(),
              Key: projectKey(id),
              ConditionExpression: `${guard.expression} AND (attribute_not_exists(#b) OR #b = :bytes)`,
              ExpressionAttributeNames: { '#b': 'bytes' },
              ExpressionAttributeValues: { ...guard.values, ':bytes': bytes },
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: teamKey(teamId),
              UpdateExpression:
                bytes > 0 ? 'ADD projectCount :minus, storageBytes :freed' : 'ADD projectCount :minus',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':minus': -1, ...(bytes > 0 ? { ':freed': -bytes } : {}) },
            },
          },
          // The caller's membership, still allowing the deletion (4.12, decision T4).
          ...(guard.checks ?? []),
        ],
        (failed) => (failed.some((i) => i >= 1) ? 'NOT_FOUND' : undefined),
      );
      return teamId;
    },
    5,
  );
}

/**
 * Copies the team's plan onto each of its projects (docs/data-model.md 4.10, 4.12), so the public widget
 * calls see it with their one project read, and numbers their seats oldest first (D26). A project deleted
 * meanwhile is skipped.
 */
export async function setOwnerPlanOnProjects(
  teamId: string,
  plan: PlanName,
  planExpire: string | null,
): Promise<void> {
  await updateOwnedProjects(teamId, (_seat, index) => ({
    ownerPlan: plan,
    ownerPlanExpire: planExpire,
    seat: index + 1,
  }));
}

/** After a deletion: the team's projects get consecutive seats again, oldest first (D26). */
export async function renumberSeats(teamId: string): Promise<void> {
  await updateOwnedProjects(teamId, (seat, index) => (seat === index + 1 ? undefined : { seat: index + 1 }));
}

async function updateOwnedProjects(
  teamId: string,
  fieldsFor: (seat: number | undefined, index: number) => Record<string, unknown> | undefined,
): Promise<void> {
  const rows = (await queryAll({ ...ownedProjectsQuery(teamId), ProjectionExpression: 'pk, sk, seat' })).map(
    (item) => ({ key: { pk: String(item.pk), sk: String(item.sk) }, seat: item.seat as number | undefined }),
  );
  await Promise.all(
    rows.map((row, index) => {
      const fields = fieldsFor(row.seat, index);
      if (!fields) return undefined;
      // Not an access decision: the copy goes only onto rows that are still this team's projects.
      return setFields(row.key, fields, {
        expression: 'teamId = :team OR (attribute_not_exists(teamId) AND ownerId = :team)',
        values: { ':team': teamId },
        refusal: 'NOT_FOUND',
      }).catch((err) => {
        if (!(err instanceof AppError && err.code === 'NOT_FOUND') && !isConditionFailure(err)) throw err;
      });
    }),
  );
}
