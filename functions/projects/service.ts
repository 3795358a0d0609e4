/**
 * Project flows (issue 4): list, create within the plan's allowance, the detail view, save settings,
 * delete with everything the project owns. Access is the policy's (projects/access.ts) on every call;
 * another client's project is NOT_FOUND. What a project answer adds from higher domains (its
 * integrations) the entry point composes (functions/handlers/projects.ts).
 */

import type { ProjectAction } from '#contracts/access';
import { normaliseHost } from '#contracts/domains';
import type { Lang } from '#contracts/errors';
import { plans } from '#contracts/plans';
import { widgetSettingsSchema } from '#contracts/schemas';
import type { Role } from '#contracts/teams';
import type { Actor } from '#contracts/triage';
import { batchDelete, busy, getItems, queryKeys } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { deletePrefix } from '#runtime/s3-objects';
import { displayName, getUser, toUser, type User, userKey } from '../accounts/user';
import { recordAudit } from '../teams/audit';
import { teamInUse, teamOf, teamsKey, toTeamsItem } from '../teams/member';
import { migrateAccount } from '../teams/migrate';
import { teamKey, teamPlan, teamsOf, toTeam } from '../teams/team';
import {
  type AccessFacts,
  accessGuard,
  authorizeTeam,
  type Caller,
  callerOf,
  membershipOf,
  readProjectAs,
  teamGuard,
} from './access';
import {
  createProject,
  deleteProjectRecord,
  effectiveSettings,
  listProjects,
  ownerPlanOf,
  type Project,
  projectFilesPrefix,
  projectPartition,
  renumberSeats,
  saveProject,
  type WriteGuard,
  withinAllowance,
} from './project';
import { setRetentionEntry } from './retention';

/**
 * A project as the dashboard lists it: with its team and the caller's role there (issue 22), so the
 * dashboard can offer what the role may do. `owner` names who owns it: the team's owner for a personal
 * team, the team otherwise (`teamOwnerName`).
 */
export function projectView(p: Project, owner: string, role: Role) {
  return {
    uuid: p.id,
    teamId: teamOf(p),
    role,
    name: p.name,
    url: p.url,
    domain: p.host,
    active: p.active,
    activeParam: p.activeParam,
    total: p.openCount,
    resolved: p.resolvedCount,
    owner,
    createdAt: new Date(p.createdAt).toISOString(),
    /** Beyond the owner's effective allowance: it takes no reports until the plan returns (D26). */
    paused: !withinAllowance(p),
  };
}

/**
 * Who a team's projects show as their owner: the user for a personal team (its id is the user's, T2), the
 * team's name otherwise. From the team's TEAM and `USER#<tid>` items, read with whatever else the call reads.
 */
export const ownerKeys = (teamId: string) => [teamKey(teamId), userKey(teamId)];
export function ownerName(
  team: Record<string, unknown> | undefined,
  user: Record<string, unknown> | undefined,
) {
  if (user) return displayName(user as unknown as User);
  return typeof team?.name === 'string' ? team.name : '';
}

/** The name of a project's owner (`ownerName`) in one consistent BatchGetItem. */
export async function teamOwnerName(teamId: string): Promise<string> {
  const [team, user] = await getItems(ownerKeys(teamId));
  return ownerName(team, user);
}

/** One team's projects as the caller may see them: a GUEST only its own (decision T5). */
function visible(projects: Project[], caller: Caller, teamId: string, owner: string) {
  const member = membershipOf(caller.teams, teamId);
  if (!member) return [];
  const mine = member.role === 'GUEST' ? projects.filter((p) => member.projects?.includes(p.id)) : projects;
  return mine.map((p) => projectView(p, owner, member.role));
}

/**
 * `GET client/website`: the projects of one team (`teamId`, else the team in use: the `snag_team` cookie, the
 * personal team, the first), or of every team of the caller with `teamId=all` (4.12, decision T8). The
 * team's Query runs beside the batch that reads the caller's TEAMS (and the owner's name), and is answered
 * only once the membership allows `team.read` (3 requests; a stale cookie's guess is read again).
 */
export async function list(
  userId: string,
  choice: { requested?: string | undefined; cookie?: string | undefined },
) {
  if (choice.requested === 'all') return listAll(userId);
  const guess = choice.requested ?? choice.cookie ?? userId;
  const [[teamsItem, team, user], projects] = await Promise.all([
    getItems([teamsKey(userId), ...ownerKeys(guess)]),
    listProjects(guess),
  ]);
  const caller = await callerOf(userId, teamsItem);
  const teamId = teamInUse(caller.teams ?? { teams: {} }, choice);
  authorizeTeam(membershipOf(caller.teams, teamId), 'team.read');
  let owner = ownerName(team, user);
  let found = projects;
  if (teamId !== guess) {
    // The cookie named a team the caller has left, or there is no personal team: read the one in use.
    [owner, found] = await Promise.all([teamOwnerName(teamId), listProjects(teamId)]);
  }
  found.sort((a, b) => a.createdAt - b.createdAt);
  return { websites: visible(found, caller, teamId, owner) };
}

/** Every team's projects (`teamId=all`): TEAMS, then each team's Query and one batch of their owners' names. */
async function listAll(userId: string) {
  const caller: Caller = { userId, teams: await teamsOf(userId) };
  const teamIds = Object.keys(caller.teams?.teams ?? {});
  const [names, lists] = await Promise.all([
    getItems(teamIds.flatMap(ownerKeys)),
    Promise.all(teamIds.map((tid) => listProjects(tid))),
  ]);
  const websites = teamIds.flatMap((tid, i) =>
    visible(lists[i] ?? [], caller, tid, ownerName(names[2 * i], names[2 * i + 1])),
  );
  websites.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return { websites };
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
  throw busy(new Error(`the team of ${userId} kept changing while read`));
}

/**
 * The project part of the detail answer (GET and PATCH client/website/{id}); the caller adds `integrations`.
 * The effective settings follow the team's plan as META keeps it (`ownerPlan`, updated by every grant).
 */
export function detailView(project: Project, owner: string, role: Role) {
  return {
    website: {
      ...projectView(project, owner, role),
      data: project.data,
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
  caller: Caller,
  project: Project & { role: Role },
  owner: Promise<string>,
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
  const before = widgetSettingsSchema.parse(project.data ?? {});
  const from = before.retentionDays;
  const to = fields.data ? fields.data.retentionDays : from;
  const teamId = teamOf(project);
  // A period is listed before the settings say it, and forever unlisted after: the job reads META before
  // it deletes, so a save that fails in between never makes it delete what the project did not ask for.
  if (to !== from && to !== null) await setRetentionEntry(id, teamId, to);
  const [, name] = await Promise.all([
    saveProject(id, accessGuard(caller, teamId, 'settings', id), fields),
    owner,
  ]);
  if (to !== from && to === null) await setRetentionEntry(id, teamId, null);
  // Each privacy setting that changed is one entry in the team's audit log (docs/audit-log.md): who made the
  // project keep data longer, or turned strict mode off, is what a data-protection officer asks.
  const changed: {
    setting: 'retentionDays' | 'strictPrivacy';
    from: number | boolean | null;
    to: number | boolean | null;
  }[] = [];
  if (to !== from) changed.push({ setting: 'retentionDays', from, to });
  const strictTo = fields.data ? fields.data.strictPrivacy : before.strictPrivacy;
  if (strictTo !== before.strictPrivacy)
    changed.push({ setting: 'strictPrivacy', from: before.strictPrivacy, to: strictTo });
  if (changed.length) {
    const actor = await memberActor(caller);
    for (const detail of changed)
      await recordAudit(teamId, { kind: 'privacy.settings', actor, projectId: id, detail });
  }
  return detailView({ ...project, ...fields }, name, project.role);
}

/** Who changed a setting, as the audit log names them (their name as it is now). */
async function memberActor(caller: Caller): Promise<Actor> {
  if (caller.token)
    return {
      kind: 'token',
      id: caller.token.id,
      name: caller.token.creatorName ?? caller.token.name,
      token: caller.token.name,
    };
  const user = await getUser(caller.userId);
  return { kind: 'member', id: caller.userId, name: (user && displayName(user)) || 'Member' };
}

/**
 * Reads META and the caller's TEAMS (consistently) for a deletion, and the guard the delete must meet: the
 * project still in the team the check was made for, and the caller's role there still allowing `action`.
 */
function deletion(userId: string, id: string, action: ProjectAction) {
  let guard: WriteGuard | undefined;
  const read = async () => {
    const { project, caller } = await readProjectAs(userId, id, action);
    guard = accessGuard(caller, teamOf(project as AccessFacts), action, id);
    return project;
  };
  return [read, () => guard as WriteGuard] as const;
}

export async function remove(userId: string, id: string, action: ProjectAction): Promise<void> {
  // Outside the team the project is NOT_FOUND, untouched: the read and the delete's guard both check.
  const [read, guard] = deletion(userId, id, action);
  const teamId = await deleteProjectRecord(id, read, guard);
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

/**
 * Part of account deletion (functions/handlers/profile.ts): every project of the team `teamId`, with its
 * data, deleted as its owner `ownerId` (the policy's check and guard are the owner's: a team made with
 * "Create team" has a random id that is nobody's user id).
 */
export async function deleteAllProjectsOf(teamId: string, ownerId: string): Promise<void> {
  for (const p of await listProjects(teamId)) {
    await deleteProjectRecord(p.id, ...deletion(ownerId, p.id, 'delete'));
    await purgeProjectData(p.id);
  }
}
