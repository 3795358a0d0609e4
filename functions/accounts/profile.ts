/**
 * The signed-in client's own account (SPEC.md section 7: client/profile, client/password): read,
 * rename, change the password, delete with everything the account owns.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { effectivePlan, type PlanName, plans } from '#contracts/plans';
import { db } from '#runtime/aws/dynamo';
import { hashPassword, verifyPassword } from '#runtime/crypto';
import { batchDelete, queryKeys, tableName } from '#runtime/db';
import { AppError, fail } from '#runtime/errors';
import { deleteUserSessions, type Session } from '#runtime/session';
import { nowMs } from '#runtime/time';
import { emailKey, getUser, googleKey, type User, updateUser, userKey } from './user';

export async function requireUser(session: Session): Promise<User> {
  const user = await getUser(session.userId);
  // The account was deleted while this session lived on.
  if (!user) throw new AppError('UNAUTHORIZED');
  return user;
}

/** What a plan allows, as the profile (and a team's answer) shows it. */
export function planSettings(name: PlanName) {
  const plan = plans[name];
  return {
    integrations: plan.integrations,
    attachments: plan.attachments,
    videos: plan.videos,
    replays: plan.replays,
    brandingRemoval: plan.brandingRemoval,
    projects: plan.projects,
    storageBytes: plan.storageBytes,
  };
}

/**
 * What the profile shows of the team in use (issue 22; the entry point reads it): its plan and
 * allowance count, and its billing details for its OWNER (others get empty ones: billing is the owner's).
 */
export interface ProfileTeam {
  plan: PlanName;
  planExpire: string | null;
  projectCount: number;
  billing: { country: string; company: string; vat: string } | null;
}

export function profileView(user: User, team: ProfileTeam) {
  const name = effectivePlan(team.plan, team.planExpire, nowMs());
  const billing = team.billing ?? { country: '', company: '', vat: '' };
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    username: user.email,
    settings: planSettings(name),
    plan: name,
    plan_expire: { date: team.planExpire },
    country: billing.country,
    company: billing.company,
    vat: billing.vat,
    projectCount: team.projectCount,
    google: !!user.googleSub,
    hasPassword: !!user.passwordHash,
  };
}
export type ProfileView = ReturnType<typeof profileView>;

/** Renames the account; the entry point answers the profile read after it. */
export async function updateProfile(session: Session, input: { firstName: string; lastName: string }) {
  await updateUser(session.userId, { firstName: input.firstName, lastName: input.lastName });
}

export async function changePassword(session: Session, input: { oldPassword: string; newPassword: string }) {
  const user = await requireUser(session);
  if (!user.passwordHash || !(await verifyPassword(input.oldPassword, user.passwordHash)))
    fail('INVALID_PASSWORD');
  await updateUser(user.id, { passwordHash: await hashPassword(input.newPassword) });
  await deleteUserSessions(user.id, session.id);
}

/**
 * Removes the account's own items, last of an account deletion: what the user owns elsewhere (their
 * projects) the entry point removes first (handlers/profile.ts), so a failed deletion can be retried.
 */
export async function deleteAccount(session: Session, user: User): Promise<{ google: boolean }> {
  await deleteUserSessions(user.id);
  const own = await queryKeys({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': userKey(user.id).pk },
  });
  await batchDelete(own.filter((k) => k.sk !== 'USER'));
  // The profile and its pointers go together and last: until then a retry finds everything to clean up.
  const last = [
    userKey(user.id),
    emailKey(user.email),
    ...(user.googleSub ? [googleKey(user.googleSub)] : []),
  ];
  await db().send(
    new TransactWriteCommand({
      TransactItems: last.map((Key) => ({ Delete: { TableName: tableName(), Key } })),
    }),
  );
  return { google: session.via === 'google' || !!user.googleSub };
}
