/**
 * Invitations (docs/data-model.md 4.12, decision T9): `TEAM#<tid>/INVITE#<iid>`, the pending invitation
 * (its id derived from the team and the address, so one pending invitation per address per team is the
 * key itself), and `INVITATION#<sha256(token)>/INVITATION`, the link, whose `state` says what became of it
 * and which outlives its expiry by 30 days so an old link can still say so. The token (128 random bits) is
 * mailed and never stored; a resend replaces it.
 *
 * Writes take the policy's guard (the caller's right, checked in the same transaction); this module never
 * decides who may.
 */
import { randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Lang } from '#contracts/errors';
import {
  type AssignableRole,
  INVITATION_VALID_DAYS,
  INVITATIONS_PER_ACCOUNT_PER_DAY,
  INVITATIONS_PER_ADDRESS_PER_DAY,
  INVITATIONS_PER_DAY,
  type InvitationState,
  TEAMS_MAX,
} from '#contracts/teams';
import { db } from '#runtime/aws/dynamo';
import { getConfig } from '#runtime/config';
import { sha256 } from '#runtime/crypto';
import {
  getItems,
  isConditionFailure,
  type Key,
  queryAll,
  type TransactItems,
  tableName,
  transactWrite,
} from '#runtime/db';
import { escapeHtml, type Mail, mailButton, mailMuted, mailPage } from '#runtime/mail';
import { type RateLimit, rateLimitWrite } from '#runtime/rate-limit';
import { DAY, epochSeconds, HOUR, nowMs } from '#runtime/time';
import { memberKey, type TeamsEntry, teamsKey } from './member';
import { type SeatKind, seatCondition, seatOf } from './seats';
import { teamKey } from './team';

export const inviteKey = (teamId: string, inviteId: string) => ({
  pk: `TEAM#${teamId}`,
  sk: `INVITE#${inviteId}`,
});
export const linkKey = (hash: string): Key => ({ pk: `INVITATION#${hash}`, sk: 'INVITATION' });

/** The invitation's id: the first 32 hex of sha256("<tid>\n<email>"). */
export const inviteIdOf = (teamId: string, email: string) =>
  sha256(`${teamId}\n${email.toLowerCase()}`).slice(0, 32);
/** A new link token: 128 random bits, base64url (22 characters). */
export const newToken = () => randomBytes(16).toString('base64url');
export const tokenHashOf = (token: string) => sha256(token);

/** What the stored states of a link are: `replaced` by a resend, the others as named. */
export type LinkState = 'pending' | 'used' | 'revoked' | 'replaced';

/** A pending invitation as the team partition stores it. */
export interface Invite {
  id: string;
  email: string;
  role: AssignableRole;
  projects?: string[];
  tokenHash: string;
  invitedBy: string;
  createdAt: number;
  expiresAt: number;
}

/** An invitation link as stored. */
export interface Link {
  teamId: string;
  inviteId: string;
  email: string;
  role: AssignableRole;
  projects?: string[];
  invitedBy: string;
  expiresAt: number;
  state: LinkState;
}

export function toInvite(item: Record<string, unknown>): Invite {
  const { pk: _pk, sk: _sk, ttl: _ttl, ...rest } = item;
  return rest as unknown as Invite;
}
export function toLink(item: Record<string, unknown>): Link {
  const { pk: _pk, sk: _sk, ttl: _ttl, ...rest } = item;
  return rest as unknown as Link;
}

/** What a link says now: a pending link past its expiry is expired, a replaced one reads as revoked. */
export function linkState(link: Link, now = nowMs()): InvitationState {
  if (link.state === 'replaced') return 'revoked';
  if (link.state === 'pending' && link.expiresAt <= now) return 'expired';
  return link.state;
}

/** The refusal of a link that is not pending: INVITATION_USED, _REVOKED or _EXPIRED; null when pending. */
export function linkRefusal(link: Link, now = nowMs()) {
  const state = linkState(link, now);
  if (state === 'used') return 'INVITATION_USED' as const;
  if (state === 'revoked') return 'INVITATION_REVOKED' as const;
  if (state === 'expired') return 'INVITATION_EXPIRED' as const;
  return null;
}

/** Whether `token` is a pending link to `email` (registration with an invitation: the address is proven). */
export async function invitationProves(token: string, email: string): Promise<boolean> {
  const [found] = await getItems([linkKey(tokenHashOf(token))]);
  if (!found) return false;
  const link = toLink(found);
  return linkState(link) === 'pending' && link.email === email.toLowerCase();
}

/** Invitations per team and day (decision T10): counted in the invitation's own transaction. */
export const invitesPerTeam = (teamId: string): RateLimit => ({
  action: 'invite',
  key: teamId,
  max: INVITATIONS_PER_DAY,
  windowMs: DAY,
});

/** Invitations per inviting account and day, all their teams together (decision T15), in the same transaction. */
export const invitesPerAccount = (userId: string): RateLimit => ({
  action: 'invite-user',
  key: userId,
  max: INVITATIONS_PER_ACCOUNT_PER_DAY,
  windowMs: DAY,
});

/** Invitations per invited address and day, whoever sends them (keyed by the address's hash, not the address). */
export const invitesPerAddress = (email: string): RateLimit => ({
  action: 'invite-to',
  key: sha256(email.toLowerCase()),
  max: INVITATIONS_PER_ADDRESS_PER_DAY,
  windowMs: DAY,
});

/**
 * How many of the team's invitations are pending (one consistent Query counting `INVITE#` items not yet
 * expired; those wait for their TTL). Read before the write, so parallel invitations may pass the cap by
 * the few in flight: it bounds a team's mail, not an exact quota.
 */
export async function pendingInvitationCount(teamId: string): Promise<number> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :invite)',
      FilterExpression: 'expiresAt > :now',
      ExpressionAttributeValues: { ':pk': inviteKey(teamId, '').pk, ':invite': 'INVITE#', ':now': nowMs() },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return out.Count ?? 0;
}

/** Accepts per account and hour (each is a transaction over five items; a person accepts a few at most). */
export const invitationAcceptsPerUser = { action: 'invite-accept', max: 20, windowMs: HOUR } as const;

/** The public view's allowance per source (it answers who invites whom, so it must not be enumerable). */
export const invitationViewsPerSource = { action: 'invite-view-src', max: 30, windowMs: HOUR } as const;

/**
 * The invitation changed between the read and the write (a parallel invite, resend or accept): the caller
 * reads again and retries once.
 */
export class InvitationRaced extends Error {}

/** `transactWrite`, with the unmapped (raced) conditions as InvitationRaced. */
async function writeOrRace(
  items: TransactItems,
  refusal: (
    failed: number[],
  ) =>
    | ReturnType<typeof linkRefusal>
    | 'SEAT_LIMIT'
    | 'RATE_LIMITED'
    | 'INVITATION_LIMIT'
    | 'FORBIDDEN'
    | undefined,
) {
  try {
    await transactWrite(items, (failed) => refusal(failed) ?? undefined);
  } catch (err) {
    if (isConditionFailure(err)) throw new InvitationRaced('invitation changed meanwhile', { cause: err });
    throw err;
  }
}

export interface InviteInput {
  teamId: string;
  email: string;
  role: AssignableRole;
  projects?: string[] | undefined;
  invitedBy: string;
}

/**
 * Creates the invitation, or resends it (a new token replaces the old link) when `existing` is the
 * pending one read before: one transaction with the seat check (a full team cannot invite; a pending
 * invitation holds no seat), the guard and the team's daily count. Answers the new token, to be mailed.
 */
export async function writeInvitation(
  input: InviteInput,
  existing: Invite | null,
  guard: TransactItems,
): Promise<{ id: string; token: string; expiresAt: number }> {
  const now = nowMs();
  const id = inviteIdOf(input.teamId, input.email);
  const token = newToken();
  const tokenHash = tokenHashOf(token);
  const expiresAt = now + INVITATION_VALID_DAYS * DAY;
  const invite: Invite = {
    id,
    email: input.email,
    role: input.role,
    ...(input.role === 'GUEST' ? { projects: input.projects ?? [] } : {}),
    tokenHash,
    invitedBy: input.invitedBy,
    createdAt: now,
    expiresAt,
  };
  const link: Link = {
    teamId: input.teamId,
    inviteId: id,
    email: input.email,
    role: input.role,
    ...(invite.projects ? { projects: invite.projects } : {}),
    invitedBy: input.invitedBy,
    expiresAt,
    state: 'pending',
  };
  const seat = seatCondition(seatOf(input.role), now);
  const items: TransactItems = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...inviteKey(input.teamId, id), ...invite, ttl: epochSeconds(expiresAt) + DAY / 1000 },
        // Exactly the state read: absent, or the same pending link (a parallel resend makes this one re-read).
        ConditionExpression: existing ? 'tokenHash = :old' : 'attribute_not_exists(pk)',
        ...(existing ? { ExpressionAttributeValues: { ':old': existing.tokenHash } } : {}),
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...linkKey(tokenHash), ...link, ttl: epochSeconds(expiresAt) + 30 * (DAY / 1000) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: teamKey(input.teamId),
        ConditionExpression: seat.expression,
        ExpressionAttributeNames: seat.names,
        ExpressionAttributeValues: seat.values,
      },
    },
    rateLimitWrite(invitesPerTeam(input.teamId)),
    rateLimitWrite(invitesPerAccount(input.invitedBy)),
    rateLimitWrite(invitesPerAddress(input.email)),
    ...guard,
  ];
  const replaced = items.length;
  if (existing) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: linkKey(existing.tokenHash),
        UpdateExpression: 'SET #state = :replaced',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':replaced': 'replaced' },
      },
    });
  }
  await writeOrRace(items, (failed) => {
    if (failed.includes(0) || (existing && failed.includes(replaced))) return undefined;
    if (failed.includes(2)) return 'SEAT_LIMIT';
    if (failed.includes(3)) return 'RATE_LIMITED';
    if (failed.includes(4) || failed.includes(5)) return 'INVITATION_LIMIT';
    return 'FORBIDDEN';
  });
  return { id, token, expiresAt };
}

/** Withdraws the pending invitation `invite` (its link says revoked): idempotent when it is gone. */
export async function revokeInvitation(teamId: string, invite: Invite, guard: TransactItems): Promise<void> {
  await writeOrRace(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: inviteKey(teamId, invite.id),
          ConditionExpression: 'tokenHash = :h',
          ExpressionAttributeValues: { ':h': invite.tokenHash },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: linkKey(invite.tokenHash),
          UpdateExpression: 'SET #state = :revoked',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':revoked': 'revoked' },
        },
      },
      ...guard,
    ],
    // A resend in between replaced the link: the caller reads again and revokes the new one.
    (failed) => (failed.includes(0) || failed.includes(1) ? undefined : 'FORBIDDEN'),
  );
}

/**
 * Withdraws every pending invitation `inviterId` sent for `teamId` (they lost the right to invite): one
 * consistent Query of the team's invitations, then each revoked as `revokeInvitation` does. One that a
 * resend, revoke or accept changed meanwhile is left to the accept's own check of the inviter's rights.
 */
export async function revokeInvitationsBy(teamId: string, inviterId: string): Promise<void> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :invite)',
    ExpressionAttributeValues: { ':pk': inviteKey(teamId, '').pk, ':invite': 'INVITE#' },
    ConsistentRead: true,
  });
  for (const invite of items.map(toInvite).filter((i) => i.invitedBy === inviterId)) {
    try {
      await revokeInvitation(teamId, invite, []);
    } catch (err) {
      if (!(err instanceof InvitationRaced)) throw err;
    }
  }
}

/**
 * Makes `userId` a member by the pending link `hash` (read before: `link`): the link is used, the
 * invitation gone, the team's seat taken (the exact gate, decision T3) and both membership sides written,
 * in one transaction, with `inviterGuard`: the policy's check that the inviter may still invite (a
 * demoted or removed ADMIN's invitation grants nothing: INVITATION_REVOKED).
 */
export async function acceptInvitation(
  hash: string,
  link: Link,
  userId: string,
  inviterGuard: TransactItems,
): Promise<void> {
  const now = nowMs();
  const kind: SeatKind = seatOf(link.role);
  const seat = seatCondition(kind, now);
  const entry: TeamsEntry =
    link.role === 'GUEST' ? { r: link.role, p: link.projects ?? [] } : { r: link.role };
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: linkKey(hash),
          UpdateExpression: 'SET #state = :used, usedBy = :uid, usedAt = :now',
          ConditionExpression: '#state = :pending AND expiresAt > :now',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':used': 'used', ':pending': 'pending', ':now': now, ':uid': userId },
        },
      },
      {
        Delete: {
          TableName: tableName(),
          Key: inviteKey(link.teamId, link.inviteId),
          ConditionExpression: 'tokenHash = :h',
          ExpressionAttributeValues: { ':h': hash },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: teamKey(link.teamId),
          UpdateExpression: 'ADD #seatCount :one',
          ConditionExpression: seat.expression,
          ExpressionAttributeNames: seat.names,
          ExpressionAttributeValues: { ...seat.values, ':one': 1 },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...memberKey(link.teamId, userId),
            userId,
            role: link.role,
            ...(link.role === 'GUEST' ? { projects: link.projects ?? [] } : {}),
            joinedAt: now,
            invitedBy: link.invitedBy,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: teamsKey(userId),
          UpdateExpression: 'SET teams.#tid = :m',
          ConditionExpression:
            'attribute_exists(pk) AND attribute_not_exists(teams.#tid) AND size(teams) < :max',
          ExpressionAttributeNames: { '#tid': link.teamId },
          ExpressionAttributeValues: { ':m': entry, ':max': TEAMS_MAX },
        },
      },
      ...inviterGuard,
    ],
    (failed) => {
      // The link was used (or expired) in between, or its invitation revoked or resent.
      if (failed.includes(0)) return linkRefusal(link, now) ?? 'INVITATION_USED';
      if (failed.includes(1) || failed.some((i) => i >= 5)) return 'INVITATION_REVOKED';
      if (failed.includes(3)) return 'ALREADY_MEMBER';
      if (failed.includes(2)) return 'SEAT_LIMIT';
      return 'TEAM_LIMIT';
    },
  );
}

/**
 * The invitation mail's texts (decision T15): Snag's own words only in the subject and the body; what the
 * inviter chose (their name, the team's name) appears once, quoted and labelled as the sender's words, so
 * the mail cannot be made to read as Snag saying something else.
 */
const texts: Record<
  Lang,
  {
    subject: string;
    body: (role: string) => string;
    quoted: string;
    inviter: (name: string) => string;
    team: (name: string) => string;
    roles: Record<AssignableRole, string>;
    action: string;
    footer: string;
  }
> = {
  en: {
    subject: 'You are invited to a team on Snag',
    body: (role) =>
      `Someone who uses Snag invites you to join their team as ${role}. The link is valid for ${INVITATION_VALID_DAYS} days and works once. Sign in or create an account with this email address to accept.`,
    quoted: 'As the sender wrote them (not checked by Snag):',
    inviter: (name) => `Sender: "${name}"`,
    team: (name) => `Team: "${name}"`,
    roles: { ADMIN: 'an admin', MEMBER: 'a member', GUEST: 'a guest' },
    action: 'View the invitation',
    footer: 'If you did not expect this invitation, you can ignore this email.',
  },
  de: {
    subject: 'Einladung zu einem Team bei Snag',
    body: (role) =>
      `Eine Person, die Snag nutzt, lädt Sie ein, ihrem Team als ${role} beizutreten. Der Link ist ${INVITATION_VALID_DAYS} Tage gültig und funktioniert einmal. Melden Sie sich mit dieser E-Mail-Adresse an oder legen Sie ein Konto an, um die Einladung anzunehmen.`,
    quoted: 'Angaben der einladenden Person (von Snag nicht geprüft):',
    inviter: (name) => `Absender: „${name}“`,
    team: (name) => `Team: „${name}“`,
    roles: { ADMIN: 'Admin', MEMBER: 'Mitglied', GUEST: 'Gast' },
    action: 'Einladung ansehen',
    footer: 'Wenn Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
  },
};

/** The invitation mail, in the inviter's language: a link to `<app>/invitation?token=…`. */
export function invitationMail(
  lang: Lang,
  to: string,
  inviter: string,
  team: string,
  role: AssignableRole,
  token: string,
): Mail {
  const t = texts[lang];
  const link = new URL('/invitation', getConfig().APP_ORIGIN);
  link.searchParams.set('token', token);
  const body = t.body(t.roles[role]);
  const quoted = [t.inviter(inviter), t.team(team)];
  const href = link.toString();
  return {
    to,
    subject: t.subject,
    text: `${body}\n\n${t.quoted}\n${quoted.join('\n')}\n\n${t.action}: ${href}\n\n${t.footer}\n`,
    html: mailPage(
      `<p>${escapeHtml(body)}</p>\n<p>${escapeHtml(t.quoted)}</p>\n<blockquote style="margin:0 0 16px;padding-left:12px;border-left:3px solid #d1d5db">${quoted.map(escapeHtml).join('<br>')}</blockquote>\n${mailButton(href, t.action)}\n${mailMuted(escapeHtml(href))}${mailMuted(escapeHtml(t.footer))}`,
    ),
  };
}
