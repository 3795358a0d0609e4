/**
 * Project flows (issue 4): list, create within the plan's allowance, read, save settings, delete with
 * everything the project owns. Ownership is checked on every call; another client's project is NOT_FOUND.
 */

import { normaliseHost } from '#contracts/domains';
import type { Lang } from '#contracts/errors';
import { plans } from '#contracts/plans';
import { type WidgetSettings, widgetSettingsSchema } from '#contracts/schemas';
import { batchDelete, queryKeys } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { deletePrefix } from '#runtime/s3-objects';
import { displayName, getUser, toUser, type User } from '../accounts/user';
import { integrationsAnswer, ownerNotification, readOwnedIntegrations } from '../integrations/integrations';
import {
  createProject,
  deleteProjectRecord,
  listProjects,
  type PlanHolder,
  type Project,
  planOf,
  projectPartition,
  renumberSeats,
  saveProject,
  withinAllowance,
} from './project';

/** S3 prefix of a project's files (docs/data-model.md "Files"). */
export const projectFilesPrefix = (id: string) => `p/${id}/`;

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

/**
 * Creates a project with its owner notified of new reports by email from the start (an opt-out), and
 * keeps `lang`, the dashboard's language, for those mails while the account has no language of its own.
 */
export async function create(userId: string, input: Parameters<typeof createProject>[2], lang?: Lang) {
  const user = await owner(userId);
  const project = await createProject(user, plans[planOf(user)].projects, input, {
    ...ownerNotification(user.email),
    ...(lang ? { lang } : {}),
  });
  return { id: project.id };
}

function detailView(project: Project, user: User) {
  return {
    website: {
      ...projectView(project, user),
      data: project.data,
      effective: effectiveSettings(project.data, user),
    },
    // Integrations join with their issue; the list is part of the response shape already.
    integrations: [],
  };
}

/** The project with its six integrations (masked), in the one BatchGetItem of A30. */
export async function get(userId: string, id: string) {
  const { project, owner, integrations } = await readOwnedIntegrations(id, userId);
  if (!owner) throw new AppError('UNAUTHORIZED');
  const user = toUser(owner);
  return { ...detailView(project, user), integrations: integrationsAnswer(integrations, planOf(user)) };
}

/**
 * Saves a partial change. `data` is merged into the stored settings and the result validated as a whole
 * by the shared schema, so a rejected PATCH writes nothing.
 */
export async function update(
  userId: string,
  id: string,
  input: { name?: string; url?: string; active?: 0 | 1; activeParam?: 0 | 1; data?: Record<string, unknown> },
) {
  // META, the owner and the integrations in one BatchGetItem: the answer is GET's, integrations included.
  const { project, owner, integrations } = await readOwnedIntegrations(id, userId);
  if (!owner) throw new AppError('UNAUTHORIZED');
  const user = toUser(owner);
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
  await saveProject(id, userId, fields);
  return {
    ...detailView({ ...project, ...fields }, user),
    integrations: integrationsAnswer(integrations, planOf(user)),
  };
}

export async function remove(userId: string, id: string): Promise<void> {
  // The delete's condition is the ownership check: someone else's project is NOT_FOUND, untouched.
  await deleteProjectRecord(id, userId);
  await purgeProjectData(id);
  // The projects after it move up a seat, so the oldest ones keep taking reports after a downgrade (D26).
  await renumberSeats(userId);
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

/** Part of account deletion (accounts/cascade.ts): every project of the user, with its data. */
export async function deleteAllProjectsOf(userId: string): Promise<void> {
  for (const p of await listProjects(userId)) {
    await deleteProjectRecord(p.id, userId);
    await purgeProjectData(p.id);
  }
}
