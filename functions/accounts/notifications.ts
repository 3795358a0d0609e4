/**
 * A member's notification settings (issue 23, docs/data-model.md 4.13 "Notifications"): one map `notify`
 * on the USER item, for every team the member works in; absent until they first save, when the defaults
 * of decision Tr-N1 apply. The mails' unsubscribe links are signed statements "user, kind" (decision
 * Tr-N5): HMAC with a key derived from the secrets' ALTCHA_HMAC_KEY under a label of its own, so no new
 * secret is needed and a token made for one purpose is worth nothing for another.
 */
import { createHmac } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Lang } from '#contracts/errors';
import {
  defaultNotificationSettings,
  type NotificationKind,
  type NotificationSettings,
  notificationKinds,
  notificationSettingsSchema,
} from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { safeEqual } from '#runtime/crypto';
import { isConditionFailure, setFields, tableName } from '#runtime/db';
import { getSecrets } from '#runtime/secrets';
import { userKey } from './user';

/**
 * Marks settings saved under the rule that the member's own "New issues" decides every mail about new
 * reports, those of an Email integration that names their address included (decision Tr-N8).
 */
export const NOTIFY_RULE = 2;

/**
 * What a new report of a project sends the member (decision Tr-N8): their "New issues" setting, given
 * whether the project's active Email integration names their address. Settings from before that rule
 * (never saved, or saved before it) keep what they had: a project whose Email integration names them mails
 * them at once, so nobody loses a mail until they choose on Profile → Email notifications.
 */
export function newIssueMailOf(
  user: Record<string, unknown> | undefined,
  named: boolean,
): NotificationSettings['newIssue'] {
  if (named && user?.notifyRule !== NOTIFY_RULE) return 'instant';
  return settingsOf(user).newIssue;
}

/**
 * The settings a stored USER item says, each missing or malformed field at its default (an item written
 * before issue 23 has no `notify`; a later field added to the settings starts at its default too).
 */
export function settingsOf(user: Record<string, unknown> | undefined): NotificationSettings {
  const stored = (user?.notify ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...defaultNotificationSettings };
  for (const key of notificationKinds) {
    const one = notificationSettingsSchema.shape[key].safeParse(stored[key]);
    if (one.success) out[key] = one.data;
  }
  return out as NotificationSettings;
}

/** The caller's settings: one strongly consistent GetItem (a save is read back at once). */
export async function readSettings(userId: string): Promise<NotificationSettings> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: userKey(userId),
      ProjectionExpression: 'notify',
      ConsistentRead: true,
    }),
  );
  return settingsOf(out.Item);
}

/**
 * Saves the whole settings, and the language the dashboard saved them in as the account's (USER `lang`),
 * which the mails are written in (decision Tr-N3). One UpdateItem; an account deleted meanwhile is refused.
 */
export async function saveSettings(
  userId: string,
  settings: NotificationSettings,
  lang: Lang,
): Promise<NotificationSettings> {
  await setFields(
    userKey(userId),
    { notify: settings, lang, notifyRule: NOTIFY_RULE },
    { expression: 'attribute_exists(pk)', refusal: 'UNAUTHORIZED' },
  );
  return settings;
}

/** What an unsubscribe link of `kind` sets the setting to. */
const offValue = (kind: NotificationKind) => (kind === 'newIssue' ? 'off' : false);

/**
 * Turns one kind off (the unsubscribe link). Idempotent. Usually one UpdateItem of the map's field; an
 * account that never saved its settings has no map, so the defaults with that kind off are written whole
 * (the second condition keeps a concurrent first save from being overwritten). An account that is gone
 * has nothing to turn off: answered like success, so the link reveals nothing.
 */
export async function turnOff(userId: string, kind: NotificationKind, again = true): Promise<void> {
  const names = { '#n': 'notify', '#k': kind };
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKey(userId),
        UpdateExpression: 'SET #n.#k = :off, notifyRule = :rule',
        ConditionExpression: 'attribute_exists(#n)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':off': offValue(kind), ':rule': NOTIFY_RULE },
      }),
    );
    return;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKey(userId),
        UpdateExpression: 'SET #n = :all, notifyRule = :rule',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#n)',
        ExpressionAttributeNames: { '#n': 'notify' },
        ExpressionAttributeValues: {
          ':all': { ...defaultNotificationSettings, [kind]: offValue(kind) },
          ':rule': NOTIFY_RULE,
        },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // Gone, or a first save wrote the map meanwhile: once more on the map (nothing for an account that is gone).
    if (again) await turnOff(userId, kind, false);
  }
}

async function unsubscribeKey(): Promise<Buffer> {
  const { ALTCHA_HMAC_KEY } = await getSecrets();
  return createHmac('sha256', ALTCHA_HMAC_KEY).update('snag:unsubscribe:v1').digest();
}

const mac = (key: Buffer, userId: string, kind: string) =>
  createHmac('sha256', key).update(`${userId}\n${kind}`).digest('base64url');

/** `<userId>.<kind>.<mac>`: no expiry, since a mail's link must keep working (rotating the key ends all). */
export async function unsubscribeToken(userId: string, kind: NotificationKind): Promise<string> {
  return `${userId}.${kind}.${mac(await unsubscribeKey(), userId, kind)}`;
}

const userIdShape = /^[A-Za-z0-9-]{1,64}$/;

/** The user and kind of a genuine token, or null (malformed, another kind, or a forged signature). */
export async function verifyUnsubscribeToken(
  token: string,
): Promise<{ userId: string; kind: NotificationKind } | null> {
  const [userId, kind, signature, extra] = token.split('.');
  if (!userId || !kind || !signature || extra !== undefined || !userIdShape.test(userId)) return null;
  if (!(notificationKinds as readonly string[]).includes(kind)) return null;
  if (!safeEqual(signature, mac(await unsubscribeKey(), userId, kind))) return null;
  return { userId, kind: kind as NotificationKind };
}
