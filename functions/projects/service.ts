/**
 * Project flows (issue 4): list, create within the plan's allowance, the detail view, save settings,
 * delete with everything the project owns. Access is the policy's (projects/access.ts) on every call;
 * another client's project is NOT_FOUND. What a project answer adds from higher domains (its
 * integrations) the entry point composes (functions/handlers/projects.ts).
 */

import { normaliseHost } from '#contracts/domains';
import type { Lang } from '#contracts/errors';
import { plans } from '#contracts/plans';
import { type WidgetSettings, widgetSettingsSchema } from '#contracts/schemas';
import { batchDelete, getItems, queryKeys } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { deletePrefix } from '#runtime/s3-objects';
import { displayName, getUser, toUser, type User, userKey } from '../accounts/user';
import { teamInUse, teamsKey, toTeamsItem } from '../teams/member';
import { migrateAccount } from '../teams/migrate';
import { teamKey, teamPlan, teamsOf, toTeam } from '../teams/team';
import { accessCondition, authorizeTeam, membershipOf, projectFor, teamGuard } from './access';
import {
  createProject,
  deleteProjectRecord,
  listProjects,
  ownerPlanOf,
  type PlanHolder,
  type Project,
  planOf,
  projectFilesPrefix,
  projectPartition,
  renumberSeats,
  saveProject,
  withinAllowance,
} from './project';

export function projectView(p: Project, owner: Pick<User, 'firstName' | 'lastName'>) {
  return {
    uuid: p.id,
    name: p.name,
    url: p.url,
    domain: p.host,
    active: p.active,
    activeParam: p.activeParam,
    total: p.openCount,
    resolved: p.resolvedCount,
    owner: displayName(owner),
    createdAt: new Date(p.createdAt).toISOString(),
    /** Beyond the owner's effective allowance: it takes no reports until the plan returns (D26). */
    paused: !withinAllowance(p),
  };
}

async function owner(userId: string): Promise<User> {
  const user = await getUser(userId);
  if (!user) throw new AppError('UNAUTHORIZED');
  return user;
}

export async function list(userId: string) {
  const [user, projects] = await Promise.all([owner(userId), listProjects(userId)]);
  projects.sort((a, b) => a.createdAt - b.createdAt);
  return { websites: projects.map((p) => projectView(p, user)) };
}

/** What a new project gets from other domains in its creation transaction (its owner's notification). */
export type CreationExtras = Pick<
  NonNullable<Parameters<typeof createProject>[5]>,
  'activeIntegrations' | 'items'
>;

/**
 * Creates a project with what `extras` adds for its owner (the entry point: the email integration, so the
 * owner hears of new reports from the start), and keeps `lang`, the dashboard's language, for the owner's
 * mails while the account has no language of its own.
 */
export async function create(
  userId: string,
  choice: { requested?: string | undefined; cookie?: string | undefined },
  input: Parameters<typeof createProject>[4],
  lang: Lang | undefined,
  extras: (creator: User) => CreationExtras,
) {
  const { user, team } = await creationFacts(userId, choice);
  const project = await createProject(
    team,
    user.id,
    teamGuard(userId, team.id, 'team.projects'),
    plans[teamPlan(team).plan].projects,
    input,
    { ...extras(user), ...(lang ? { lang } : {}) },
  );
  return { id: project.id };
}

/**
 * POST client/website's reads (issue 22): one consistent BatchGetItem of the creator's USER and TEAMS and
 * the TEAM of the team in use (its role and its plan), guessing the personal team when the call names
 * none and the cookie none; a wrong guess or a pre-team account costs one more round (docs/data-model.md
 * section 6). 404 outside the team, 403 without `team.projects`.
 */
async function creationFacts(
  userId: string,
  choice: { requested?: string | undefined; cookie?: string | undefined },
) {
  let guess = choice.requested ?? choice.cookie ?? userId;
  for (let attempt = 1; attempt <= 4; attempt++) {
    const [userItem, teamsItem, teamItem] = await getItems([
      userKey(userId),
      teamsKey(userId),
      teamKey(guess),
    ]);
    if (!userItem) throw new AppError('UNAUTHORIZED');
    if (!teamsItem) {
      await teamsOf(userId);
      continue;
    }
    const teams = toTeamsItem(teamsItem);
    const teamId = teamInUse(teams, choice);
    if (teamId !== guess) {
      guess = teamId;
      continue;
    }
    authorizeTeam(membershipOf(teams, teamId), 'team.projects');
    if (!teamItem) throw new AppError('NOT_FOUND');
    const team = toTeam(teamItem);
    // A personal team made before the plan moved to TEAM: migration step 1's copy first (any other
    // team has no account of its id: 'gone', read as it is).
    if (team.plan === undefined && (await migrateAccount(team.id)) === 'copied') continue;
    return { user: toUser(userItem), team };
  }
  throw new Error(`the team of ${userId} kept changing while read`);
}

/** The project part of the detail answer (GET and PATCH client/website/{id}); the caller adds `integrations`. */
export function detailView(project: Project, user: User) {
  return {
    website: {
      ...projectView(project, user),
      data: project.data,
      // The team's plan from META's copy (issue 22), not the reading user's.
      effective: effectiveSettings(project.data, ownerPlanOf(project)),
    },
  };
}

/**
 * Saves a partial change to `project`, read (with the access check for `settings`) in the caller's batch,
 * and answers its detail view. `data` is merged into the stored settings and the result validated as a
 * whole by the shared schema, so a rejected PATCH writes nothing.
 */
export async function update(
  userId: string,
  project: Project,
  user: User,
  input: { name?: string; url?: string; active?: 0 | 1; activeParam?: 0 | 1; data?: Record<string, unknown> },
) {
  const id = project.id;
  const fields: Parameters<typeof saveProject>[2] = {};
  if (input.name !== undefined) fields.name = input.name;
  if (input.url !== undefined) {
    const host = normaliseHost(input.url);
    if (!host) throw new AppError('INVALID_DOMAIN', { url: 'INVALID_DOMAIN' });
    fields.url = input.url;
    fields.host = host;
  }
  if (input.active !== undefined) fields.active = input.active;
  if (input.activeParam !== undefined) fields.activeParam = input.activeParam;
  if (input.data !== undefined) fields.data = widgetSettingsSchema.parse({ ...project.data, ...input.data });
  await saveProject(id, accessCondition(userId, 'settings'), fields);
  return detailView({ ...project, ...fields }, user);
}

/** Reads META (consistently) for a deletion by `userId`, and the condition the delete must meet. */
const deletion = (userId: string, id: string) =>
  [() => projectFor(userId, id, 'delete'), accessCondition(userId, 'delete')] as const;

export async function remove(userId: string, id: string): Promise<void> {
  // Someone else's project is NOT_FOUND, untouched: the read and the delete's condition both check.
  const teamId = await deleteProjectRecord(id, ...deletion(userId, id));
  await purgeProjectData(id);
  // The team's projects after it move up a seat, so the oldest ones keep taking reports after a downgrade (D26).
  await renumberSeats(teamId);
}

/**
 * Deletes everything in the project's partition (integrations, issues, counters: whatever later issues
 * add there joins automatically) and its files. Idempotent, so a failed attempt can simply run again.
 */
export async function purgeProjectData(id: string): Promise<void> {
  const keys = await queryKeys({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': projectPartition(id) },
  });
  await batchDelete(keys);
  await deletePrefix(projectFilesPrefix(id));
}

/** Settings as the widget applies them: features the owner's effective plan lacks are off, branding stays on. */
export function effectiveSettings(data: WidgetSettings, owner: PlanHolder): WidgetSettings {
  const plan = plans[planOf(owner)];
  return {
    ...data,
    widgetDisableUpload: plan.attachments ? data.widgetDisableUpload : true,
    widgetDisableVideo: plan.videos ? data.widgetDisableVideo : true,
    widgetDisableBranding: plan.brandingRemoval ? data.widgetDisableBranding : false,
  };
}

/** Part of account deletion (functions/handlers/profile.ts): every project of the user, with its data. */
export async function deleteAllProjectsOf(userId: string): Promise<void> {
  for (const p of await listProjects(userId)) {
    await deleteProjectRecord(p.id, ...deletion(userId, p.id));
    await purgeProjectData(p.id);
  }
}
