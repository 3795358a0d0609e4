/**
 * Teams, members increment (issue 22, docs/data-model.md 4.12): the schemas of the new calls, the target
 * rules of team.members, invitation ids, tokens and link states, the invitation mail, seats per plan and
 * the new catalogue codes.
 */
import { describe, expect, it } from 'vitest';
import { errorCatalogue, errorMessage } from '#contracts/errors';
import { planSeats } from '#contracts/plans';
import { registrationSchema } from '#contracts/schemas';
import {
  invitationParams,
  invitationSchema,
  invitationTokenSchema,
  memberUpdateSchema,
  transferSchema,
} from '#contracts/teams';
import { AppError } from '#runtime/errors';
import { authorizeTeamTarget, teamGuard, teamGuardCondition } from '../../../functions/projects/access';
import {
  invitationMail,
  inviteIdOf,
  type Link,
  linkRefusal,
  linkState,
  newToken,
  tokenHashOf,
} from '../../../functions/teams/invitation';
import { seatOf } from '../../../functions/teams/seats';

const pid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const code = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  }
  return 'allowed';
};

describe('invitation and member schemas', () => {
  it('takes an ADMIN, MEMBER or a GUEST with 1–25 distinct projects, the email trimmed and lower-cased', () => {
    expect(invitationSchema.parse({ email: ' Ada@Example.COM ', role: 'MEMBER' })).toEqual({
      email: 'ada@example.com',
      role: 'MEMBER',
    });
    const projects = Array.from({ length: 25 }, (_, i) => pid(i));
    expect(invitationSchema.safeParse({ email: 'a@b.de', role: 'GUEST', projects }).success).toBe(true);
  });

  it.each([
    [{ email: 'a@b.de', role: 'OWNER' }],
    [{ email: 'a@b.de', role: 'GUEST' }],
    [{ email: 'a@b.de', role: 'GUEST', projects: [] }],
    [{ email: 'a@b.de', role: 'GUEST', projects: [pid(1), pid(1)] }],
    [{ email: 'a@b.de', role: 'GUEST', projects: Array.from({ length: 26 }, (_, i) => pid(i)) }],
    [{ email: 'a@b.de', role: 'GUEST', projects: ['not-a-uuid'] }],
    [{ email: 'a@b.de', role: 'ADMIN', projects: [pid(1)] }],
    [{ email: 'nope', role: 'MEMBER' }],
    [{ email: 'a@b.de', role: 'MEMBER', extra: 1 }],
  ])('refuses %j', (body) => {
    expect(invitationSchema.safeParse(body).success).toBe(false);
  });

  it('member updates follow the same rule; transfer takes a user id; ids and tokens have one shape', () => {
    expect(memberUpdateSchema.safeParse({ role: 'GUEST', projects: [pid(2)] }).success).toBe(true);
    expect(memberUpdateSchema.safeParse({ role: 'OWNER' }).success).toBe(false);
    expect(memberUpdateSchema.safeParse({ role: 'MEMBER', projects: [pid(2)] }).success).toBe(false);
    expect(transferSchema.safeParse({ userId: 'x' }).success).toBe(false);
    expect(invitationParams.safeParse({ teamId: pid(1), id: 'a'.repeat(32) }).success).toBe(true);
    expect(invitationParams.safeParse({ teamId: pid(1), id: 'A'.repeat(32) }).success).toBe(false);
    const bad = invitationTokenSchema.safeParse({ token: 'short' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('INVITATION_INVALID');
    expect(invitationTokenSchema.safeParse({ token: newToken() }).success).toBe(true);
    const reg = { _username: 'a@b.de', _password: 'secret1', firstName: 'A', lastName: 'B', altcha: 'x' };
    expect(registrationSchema.safeParse({ ...reg, invitation: newToken() }).success).toBe(true);
    expect(registrationSchema.safeParse({ ...reg, invitation: 'x' }).success).toBe(false);
  });
});

describe('target rules of team.members', () => {
  it('refuses the OWNER, oneself and making an OWNER (FORBIDDEN), a non-member (NOT_FOUND)', () => {
    expect(code(() => authorizeTeamTarget('me', null))).toBe('NOT_FOUND');
    expect(code(() => authorizeTeamTarget('me', { userId: 'o', role: 'OWNER' }))).toBe('FORBIDDEN');
    expect(code(() => authorizeTeamTarget('me', { userId: 'me', role: 'ADMIN' }, 'MEMBER'))).toBe(
      'FORBIDDEN',
    );
    expect(code(() => authorizeTeamTarget('me', { userId: 'x', role: 'MEMBER' }, 'OWNER'))).toBe('FORBIDDEN');
    expect(code(() => authorizeTeamTarget('me', { userId: 'x', role: 'ADMIN' }, 'GUEST'))).toBe('allowed');
  });

  it("teamGuardCondition is teamGuard's condition", () => {
    const check = teamGuard('u', 't', 'team.leave')[0]?.ConditionCheck;
    const cond = teamGuardCondition('t', 'team.leave');
    expect(check?.ConditionExpression).toBe(cond.expression);
    expect(check?.ExpressionAttributeValues).toEqual(cond.values);
    expect(cond.values).toEqual({ ':r0': 'ADMIN', ':r1': 'MEMBER', ':r2': 'GUEST' });
  });
});

describe('invitation ids, tokens and links', () => {
  it('derives one id per team and address (any case), 32 hex; tokens are 128 random bits', () => {
    expect(inviteIdOf('t', 'Ada@Example.com')).toBe(inviteIdOf('t', 'ada@example.com'));
    expect(inviteIdOf('t', 'a@b.de')).not.toBe(inviteIdOf('u', 'a@b.de'));
    expect(inviteIdOf('t', 'a@b.de')).toMatch(/^[0-9a-f]{32}$/);
    const tokens = new Set(Array.from({ length: 100 }, newToken));
    expect(tokens.size).toBe(100);
    for (const t of tokens) expect(Buffer.from(t, 'base64url')).toHaveLength(16);
    expect(tokenHashOf('x')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads a link as pending, used, revoked (also replaced) or expired', () => {
    const link = { state: 'pending', expiresAt: 2000 } as Link;
    expect(linkState(link, 1000)).toBe('pending');
    expect(linkRefusal(link, 1000)).toBeNull();
    expect(linkState(link, 2000)).toBe('expired');
    expect(linkRefusal(link, 2000)).toBe('INVITATION_EXPIRED');
    expect(linkRefusal({ ...link, state: 'used' }, 1000)).toBe('INVITATION_USED');
    expect(linkRefusal({ ...link, state: 'replaced' }, 1000)).toBe('INVITATION_REVOKED');
    expect(linkRefusal({ ...link, state: 'revoked' }, 3000)).toBe('INVITATION_REVOKED');
  });

  it('mails the link in English and German, names escaped in the HTML part', () => {
    const en = invitationMail('en', 'x@y.de', 'Ada <b>L</b>', 'Labs', 'MEMBER', 'T'.repeat(22));
    expect(en.text).toMatch(/\/invitation\?token=T{22}/);
    expect(en.html).not.toContain('<b>L</b>');
    const de = invitationMail('de', 'x@y.de', 'Ada', 'Labs', 'ADMIN', 'T'.repeat(22));
    expect(de.text).toContain('als Admin beizutreten');
  });

  it("keeps the sender's words out of the subject and quotes them in the body as theirs", () => {
    const spam = 'WIN 1000 EUR NOW at scam.example';
    const en = invitationMail('en', 'x@y.de', spam, spam, 'MEMBER', 'T'.repeat(22));
    expect(en.subject).toBe('You are invited to a team on Snag');
    expect(en.text).toContain(
      `As the sender wrote them (not checked by Snag):\nSender: "${spam}"\nTeam: "${spam}"\n`,
    );
    // Nowhere else: Snag's own sentences never carry the sender's words.
    expect(en.text.split(spam)).toHaveLength(3);
    expect(en.html).toContain('<blockquote');
    const de = invitationMail('de', 'x@y.de', spam, spam, 'GUEST', 'T'.repeat(22));
    expect(de.subject).toBe('Einladung zu einem Team bei Snag');
    expect(de.text).toContain(`Absender: „${spam}“\nTeam: „${spam}“`);
    expect(de.text.split(spam)).toHaveLength(3);
  });
});

describe('seats and codes', () => {
  it('Free 1 + 3, Starter 5 + unlimited, Business unlimited; GUEST takes a guest seat, the rest member seats', () => {
    expect(planSeats).toEqual({
      FREE_PLAN: { members: 1, guests: 3 },
      BASIC_PLAN: { members: 5, guests: null },
      BUSINESS_PLAN: { members: null, guests: null },
    });
    expect(['OWNER', 'ADMIN', 'MEMBER', 'GUEST'].map((r) => seatOf(r as 'OWNER'))).toEqual([
      'member',
      'member',
      'member',
      'guest',
    ]);
  });

  it.each([
    ['SEAT_LIMIT', 403],
    ['TEAM_LIMIT', 403],
    ['ALREADY_MEMBER', 409],
    ['OWNER_CANNOT_LEAVE', 409],
    ['OWNS_SHARED_TEAM', 409],
    ['INVITATION_INVALID', 404],
    ['INVITATION_USED', 410],
    ['INVITATION_REVOKED', 410],
    ['INVITATION_EXPIRED', 410],
    ['INVITATION_WRONG_ACCOUNT', 403],
  ] as const)('%s is %i with distinct English and German texts', (c, status) => {
    expect(errorCatalogue[c].status).toBe(status);
    expect(errorMessage(c, 'en')).not.toBe(errorMessage(c, 'de'));
    expect(errorMessage(c, 'de').length).toBeGreaterThan(10);
  });
});
