/**
 * The team entity (docs/data-model.md 4.12): `TEAM#<tid>/TEAM`, with its members and (later) invitations in
 * the same partition. A personal team's id is its user's id (decision T2), so creating it is idempotent:
 * every write is conditional on the item being absent, and two parallel first uses make one team.
 *
 * TEAM carries the plan, the billing details and the allowance/quota counters (moved from USER by 4.12
 * "Migration" step 1: `createPersonalTeam` copies them, `teams/migrate.ts` completes older teams).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Lang } from '#contracts/errors';
import { effectivePlan, type PlanName } from '#contracts/plans';
import { TEAM_NAME_MAX } from '#contracts/teams';
import { db } from '#runtime/aws/dynamo';
import {
  batchDelete,
  busy,
  getItems,
  isConditionFailure,
  type Key,
  queryAll,
  retryConflicts,
  type TransactItems,
  tableName,
  transactWrite,
} from '#runtime/db';
import { AppError } from '#runtime/errors';
import { nowMs } from '#runtime/time';
import { userKey } from '../accounts/user';
import { deleteAuditOf } from './audit';
import { memberKey, readAccessFacts, readTeams, type TeamsItem, teamsKey, toMember } from './member';

export const teamKey = (teamId: string) => ({ pk: `TEAM#${teamId}`, sk: 'TEAM' });

export interface Team {
  id: string;
  name: string;
  /** The one OWNER. */
  ownerId: string;
  /** OWNER + ADMINs + MEMBERs. */
  memberCount: number;
  guestCount: number;
  createdAt: number;
  /** The plan and billing details (4.12; absent only on teams made before billing moved here). */
  plan?: PlanName;
  planExpire?: string | null;
  remindedFor?: string;
  lang?: Lang;
  country?: string;
  company?: string;
  vat?: string;
  /** The allowance and quota counters. */
  projectCount?: number;
  storageBytes?: number;
  /** When the pre-team billing items were moved into the team partition (step 3); set at creation since. */
  billingMovedAt?: number;
}

/** The team's plan as it applies now (a lapsed paid plan is Free), with its stored expiry. */
export function teamPlan(team: Pick<Team, 'plan' | 'planExpire'>): {
  plan: PlanName;
  planExpire: string | null;
} {
  const planExpire = typeof team.planExpire === 'string' ? team.planExpire : null;
  return { plan: effectivePlan(team.plan ?? 'FREE_PLAN', planExpire, nowMs()), planExpire };
}

/**
 * What every new team starts with besides its name and members: Free, counters 0, no billing items to
 * move (registration's personal team; a team created from the switcher should write the same).
 */
export const teamBillingDefaults = (now: number) => ({
  plan: 'FREE_PLAN' as PlanName,
  planExpire: null,
  projectCount: 0,
  storageBytes: 0,
  billingMovedAt: now,
});

/** The USER fields a personal team takes over (migration step 1's copy). */
export const copiedUserFields = [
  'plan',
  'planExpire',
  'remindedFor',
  'lang',
  'country',
  'company',
  'vat',
  'projectCount',
  'storageBytes',
] as const;

export function toTeam(item: Record<string, unknown>): Team {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as unknown as Team;
}

/** The personal team's default name, in the account's language (decision row "Personal team name"). */
export function personalTeamName(firstName: string, lang: Lang): string {
  const name = lang === 'de' ? `Team von ${firstName}` : `${firstName}'s team`;
  // A first name is at most 50 characters, so this never cuts today; it keeps the names rule if that grows.
  return Array.from(name).slice(0, TEAM_NAME_MAX).join('').trim();
}

/**
 * The writes that create a user's personal team (tid = uid): TEAM, the owner's MEMBER row and the user
 * side TEAMS, each only while absent. Registration adds them to its own transaction (one request, A85).
 */
export function personalTeamWrites(user: { id: string; firstName: string }, lang: Lang): TransactItems {
  const now = nowMs();
  const absent = 'attribute_not_exists(pk)';
  const team: Team = {
    id: user.id,
    name: personalTeamName(user.firstName, lang),
    ownerId: user.id,
    memberCount: 1,
    guestCount: 0,
    createdAt: now,
    ...teamBillingDefaults(now),
  };
  const teams: TeamsItem = { teams: { [user.id]: { r: 'OWNER' } }, personal: user.id };
  return [
    { Put: { TableName: tableName(), Item: { ...teamKey(user.id), ...team }, ConditionExpression: absent } },
    {
      Put: {
        TableName: tableName(),
        Item: { ...memberKey(user.id, user.id), userId: user.id, role: 'OWNER', joinedAt: now },
        ConditionExpression: absent,
      },
    },
    {
      Put: { TableName: tableName(), Item: { ...teamsKey(user.id), ...teams }, ConditionExpression: absent },
    },
  ];
}

/**
 * Creates the personal team of a pre-team account from its stored USER item, read consistently (4.12
 * "Migration" step 1): TEAM with the plan, billing details, counters and expiry index copied, the owner's
 * MEMBER row and TEAMS, each only while absent, and the USER update `SET teamId REMOVE gsi1pk, gsi1sk`
 * (the expiry index moves, or the reminder would mail twice) only while every copied field is still what
 * was read. True when this call created it; false when it existed already (a parallel first use or
 * migration run won) or the USER item changed meanwhile (the caller reads again).
 */
export async function createPersonalTeam(user: Record<string, unknown>): Promise<boolean> {
  const id = String(user.id);
  const lang: Lang = user.lang === 'de' ? 'de' : 'en';
  const writes = personalTeamWrites({ id, firstName: String(user.firstName ?? '') }, lang);
  // An account migrated before (USER has `teamId`) whose TEAMS is gone gets a fresh Free team: its USER
  // fields are no longer read, so there is nothing to copy.
  if (user.teamId === undefined) {
    const put = writes[0]?.Put;
    if (put) {
      const { billingMovedAt: _pending, ...item } = put.Item as Record<string, unknown>;
      put.Item = { ...item, ...teamCopyOf(user) };
    }
    writes.push({ Update: userMovedUpdate(user) });
  }
  try {
    await retryConflicts(() => db().send(new TransactWriteCommand({ TransactItems: writes })));
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** The copied fields of a pre-team USER item as TEAM stores them, with the expiry index (gsi1). */
export function teamCopyOf(user: Record<string, unknown>): Record<string, unknown> {
  const id = String(user.id);
  const copy: Record<string, unknown> = {
    plan: 'FREE_PLAN',
    planExpire: null,
    projectCount: 0,
    storageBytes: 0,
  };
  for (const f of copiedUserFields) if (user[f] !== undefined) copy[f] = user[f];
  const expire = copy.planExpire;
  if (typeof expire === 'string' && copy.plan !== 'FREE_PLAN')
    Object.assign(copy, { gsi1pk: `EXPIRE#${expire.slice(0, 10)}`, gsi1sk: teamKey(id).pk });
  return copy;
}

/** Step 1's USER update: conditioned on the account being unmigrated and each copied field as read. */
export function userMovedUpdate(user: Record<string, unknown>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':tid': String(user.id) };
  const conditions = ['attribute_exists(pk)', 'attribute_not_exists(teamId)'];
  copiedUserFields.forEach((f, i) => {
    names[`#f${i}`] = f;
    if (user[f] === undefined) conditions.push(`attribute_not_exists(#f${i})`);
    else {
      values[`:f${i}`] = user[f];
      conditions.push(`#f${i} = :f${i}`);
    }
  });
  return {
    TableName: tableName(),
    Key: userKey(String(user.id)),
    UpdateExpression: 'SET teamId = :tid REMOVE gsi1pk, gsi1sk',
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * A new personal team (random id) for an account whose TEAMS is empty: TEAM, MEMBER and the TEAMS entry
 * with `personal`, conditional on TEAMS still being empty (two parallel calls make one team).
 */
async function createReplacementTeam(user: Record<string, unknown>): Promise<void> {
  const userId = String(user.id);
  const lang: Lang = user.lang === 'de' ? 'de' : 'en';
  const [team, member] = personalTeamWrites({ id: userId, firstName: String(user.firstName ?? '') }, lang);
  const id = randomUUID();
  const retarget = (write: typeof team | undefined) => {
    const put = write?.Put;
    if (!put?.Item) throw new Error('personal team writes changed shape');
    return {
      Put: { ...put, Item: { ...put.Item, pk: `TEAM#${id}`, ...(put.Item.sk === 'TEAM' ? { id } : {}) } },
    };
  };
  try {
    await transactWrite(
      [
        retarget(team),
        retarget(member),
        {
          Update: {
            TableName: tableName(),
            Key: teamsKey(userId),
            UpdateExpression: 'SET teams.#tid = :m, personal = :tid',
            ConditionExpression: 'size(teams) = :zero',
            ExpressionAttributeNames: { '#tid': id },
            ExpressionAttributeValues: { ':m': { r: 'OWNER' }, ':tid': id, ':zero': 0 },
          },
        },
      ],
      () => undefined,
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/**
 * The user side of the caller's memberships, creating the personal team first when the account predates
 * teams (a lazy migration: one consistent USER read and one transaction, once per account).
 */
export async function teamsOf(userId: string): Promise<TeamsItem> {
  for (let attempt = 1; ; attempt++) {
    const found = await readTeams(userId);
    if (found && Object.keys(found.teams).length > 0) return found;
    const user = await db().send(
      new GetCommand({ TableName: tableName(), Key: userKey(userId), ConsistentRead: true }),
    );
    // The account was deleted while this session lived on.
    if (!user.Item) throw new AppError('UNAUTHORIZED');
    if (found) {
      // In no team any more (removed from a personal team they had transferred): a new personal team, so
      // every account keeps at least one (4.12, kept lazily like the migration).
      await createReplacementTeam(user.Item);
      return (await readTeams(userId)) ?? found;
    }
    // Refused while the USER item changed since it was read (a payment of the old code): read it again.
    if (!(await createPersonalTeam(user.Item)) && attempt >= 5)
      throw busy(new Error(`personal team of ${userId} not created`));
  }
}

/**
 * The access facts of a team-scoped call with `keys`, in one BatchGetItem (`readAccessFacts`); a pre-team
 * caller (no TEAMS yet) gets its personal team first.
 */
export async function factsOf(userId: string, keys: Key[]) {
  const facts = await readAccessFacts(userId, keys);
  if (facts.teams) return facts;
  await teamsOf(userId);
  return readAccessFacts(userId, keys);
}

/**
 * The caller's teams with what the list shows: one consistent BatchGetItem of each TEAM and its owner's
 * USER (the plan's holder in this increment; a personal team's owner is `tid`).
 */
export async function readTeamsWithOwners(teamIds: string[]) {
  const keys = teamIds.flatMap((id) => [teamKey(id), userKey(id)]);
  const items = await getItems(keys);
  return teamIds.flatMap((_id, i) => {
    const team = items[2 * i];
    return team ? [{ team: toTeam(team), owner: items[2 * i + 1] }] : [];
  });
}

/**
 * The team partition's members (and, once built, invitations) in one consistent Query: `INVITE#…` to
 * `MEMBER#…` (`$` sorts right after `#`, so TEAM and the billing items fall outside the range).
 */
export async function readMembers(teamId: string) {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': `TEAM#${teamId}`, ':from': 'INVITE#', ':to': 'MEMBER$' },
      ConsistentRead: true,
    }),
  );
  const items = out.Items ?? [];
  return {
    members: items.filter((i) => String(i.sk).startsWith('MEMBER#')).map(toMember),
    invites: items.filter((i) => String(i.sk).startsWith('INVITE#')),
  };
}

/** The TEAM item and the USER items of `userIds`, in one consistent BatchGetItem (per 100 keys). */
export async function readTeamAndUsers(teamId: string, userIds: string[]) {
  const keys = [teamKey(teamId), ...userIds.map(userKey)];
  const [team, ...users] = await getItems(keys);
  return { team: team ? toTeam(team) : null, users: new Map(userIds.map((id, i) => [id, users[i]])) };
}

/**
 * Renames the team, guarded by `guard` (the policy's ConditionCheck on the caller's membership): one
 * transaction. A team that is gone is NOT_FOUND; a guard that no longer holds is FORBIDDEN.
 */
export async function renameTeam(teamId: string, name: string, guard: TransactItems): Promise<void> {
  const items: TransactItems = [
    {
      Update: {
        TableName: tableName(),
        Key: teamKey(teamId),
        UpdateExpression: 'SET #name = :name',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': name },
      },
    },
    ...guard,
  ];
  await transactWrite(items, (failed) => (failed.includes(0) ? 'NOT_FOUND' : 'FORBIDDEN'));
}

/**
 * The first step of deleting a solo team with its owner's account (4.12 "Profile deletion"): marks TEAM
 * `deleting` (invites and accepts then fail their seat condition) while `ownerId` still owns it alone; a
 * join in between refuses with OWNS_SHARED_TEAM. A TEAM already gone is fine (a repeated deletion).
 */
export async function markTeamDeleting(teamId: string, ownerId: string): Promise<void> {
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: teamKey(teamId),
          UpdateExpression: 'SET deleting = :one',
          ConditionExpression:
            'attribute_not_exists(pk) OR (ownerId = :owner AND memberCount = :one AND guestCount = :zero)',
          ExpressionAttributeValues: { ':owner': ownerId, ':one': 1, ':zero': 0 },
        },
      },
    ],
    'OWNS_SHARED_TEAM',
  );
}

/**
 * Undoes `markTeamDeleting` after a deletion failed part-way, so the team takes invitations again until the
 * owner repeats the deletion (which marks it anew). A TEAM already gone is fine.
 */
export async function unmarkTeamDeleting(teamId: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: teamKey(teamId),
        UpdateExpression: 'REMOVE deleting',
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/**
 * Deletes a team's partition (TEAM, MEMBER rows, invitations and, after billing's move, its billing
 * items), TEAM last so a failed deletion is found again by a retry. Pending invitation links are marked
 * revoked first, so a mailed link says so rather than naming a team that is gone; its audit log goes with
 * it (teams/audit.ts `deleteAuditOf`). Its API tokens are items
 * of their own: the caller deletes them first (`deleteTeamTokens`).
 */
export async function deleteTeam(teamId: string): Promise<void> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': teamKey(teamId).pk },
  });
  for (const invite of items.filter((i) => String(i.sk).startsWith('INVITE#'))) {
    await db()
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: `INVITATION#${String(invite.tokenHash)}`, sk: 'INVITATION' },
          UpdateExpression: 'SET #state = :revoked',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':revoked': 'revoked' },
        }),
      )
      .catch((err) => {
        if (!isConditionFailure(err)) throw err;
      });
  }
  const keys = items.map((i) => ({ pk: String(i.pk), sk: String(i.sk) }));
  // Before TEAM, so a failed deletion is found again by a retry with its log still there to delete.
  await deleteAuditOf(teamId);
  await batchDelete(keys.filter((k) => k.sk !== 'TEAM'));
  await batchDelete(keys.filter((k) => k.sk === 'TEAM'));
}
