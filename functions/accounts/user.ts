/**
 * The user entity (docs/data-model.md "Users"): USER#<id>/USER holds the profile; EMAIL#<email>/EMAIL and
 * GOOGLE#<sub>/GOOGLE are uniqueness items pointing at it, written in the same transaction with
 * attribute_not_exists, so two sign-ups with one address cannot both succeed.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PlanName } from '#contracts/plans';
import type { NotificationSettings } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { setFields, tableName, transactWrite } from '#runtime/db';
import { nowMs } from '#runtime/time';

export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Absent for accounts created by Google sign-in. */
  passwordHash?: string;
  googleSub?: string;
  confirmed: boolean;
  plan: PlanName;
  /** ISO date the paid plan runs until; null on Free. */
  planExpire: string | null;
  country: string;
  company: string;
  vat: string;
  createdAt: number;
  projectCount: number;
  /**
   * The dashboard language of the account's last billing call or notification settings save, for billing and
   * notification mail (issues 12, 23).
   */
  lang?: 'en' | 'de';
  /** Notification settings (issue 23, accounts/notifications.ts); absent until first saved: the defaults. */
  notify?: Partial<NotificationSettings>;
  /** The planExpire the expiry reminder was last sent for (functions/schedules/reminders.ts). */
  remindedFor?: string;
}

export const userKey = (id: string) => ({ pk: `USER#${id}`, sk: 'USER' });
export const emailKey = (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' });
export const googleKey = (sub: string) => ({ pk: `GOOGLE#${sub}`, sk: 'GOOGLE' });

export function toUser(item: Record<string, unknown>): User {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as unknown as User;
}

export function newUser(fields: Pick<User, 'email' | 'firstName' | 'lastName'> & Partial<User>): User {
  return {
    id: randomUUID(),
    confirmed: false,
    plan: 'FREE_PLAN',
    planExpire: null,
    country: '',
    company: '',
    vat: '',
    createdAt: nowMs(),
    projectCount: 0,
    ...fields,
    email: fields.email.toLowerCase(),
  };
}

/**
 * Creates the user with its email (and Google) uniqueness items, and `also` (the first confirmation code)
 * in the same transaction; USER_EXISTS if the address or Google account is taken.
 */
export async function createUser(user: User, also: Record<string, unknown>[] = []): Promise<void> {
  const absent = 'attribute_not_exists(pk)';
  const items = [
    { Put: { TableName: tableName(), Item: { ...userKey(user.id), ...user }, ConditionExpression: absent } },
    {
      Put: {
        TableName: tableName(),
        Item: { ...emailKey(user.email), userId: user.id },
        ConditionExpression: absent,
      },
    },
  ];
  if (user.googleSub) {
    items.push({
      Put: {
        TableName: tableName(),
        Item: { ...googleKey(user.googleSub), userId: user.id },
        ConditionExpression: absent,
      },
    });
  }
  await transactWrite([...items, ...also] as never, 'USER_EXISTS');
}

export async function getUser(id: string): Promise<User | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: userKey(id) }));
  return out.Item ? toUser(out.Item) : null;
}

async function pointer(key: { pk: string; sk: string }): Promise<string | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key }));
  return typeof out.Item?.userId === 'string' ? out.Item.userId : null;
}

export const findUserIdByEmail = (email: string) => pointer(emailKey(email));

/** A user id no account has (ids are UUIDs): what a lookup of an unknown address reads and writes for. */
export const NO_USER_ID = 'none';

/**
 * The account of an address. An unknown address costs the same two reads as a known one (the second for
 * NO_USER_ID), so the time an answer takes does not tell whether the address has an account.
 */
export async function findUserByEmail(email: string): Promise<User | null> {
  return getUser((await pointer(emailKey(email))) ?? NO_USER_ID);
}

export async function findUserByGoogle(sub: string): Promise<User | null> {
  const id = await pointer(googleKey(sub));
  return id ? getUser(id) : null;
}

/** Sets fields of an existing user; refuses to create one that was deleted meanwhile. */
export function updateUser(id: string, fields: Partial<Omit<User, 'id' | 'email'>>): Promise<void> {
  return setFields(userKey(id), fields, { expression: 'attribute_exists(pk)', refusal: 'UNAUTHORIZED' });
}

export const displayName = (u: Pick<User, 'firstName' | 'lastName'>) => `${u.firstName} ${u.lastName}`.trim();
