/**
 * What a security probe, a fault test and a new user found (issue 31) through the local stack: an API token
 * ends with its creator's right to it (removal, demotion, leaving, the team's deletion) and names its
 * creator; account deletion works for owners of teams made with "Create team" and leaves nothing
 * half-done when it fails; a pending invitation ends with its inviter's right to invite; invitation mail
 * has per-account, per-address and per-team limits and needs a confirmed account; accepting is rate-limited.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  INVITATIONS_PENDING_MAX,
  INVITATIONS_PER_ACCOUNT_PER_DAY,
  INVITATIONS_PER_ADDRESS_PER_DAY,
} from '#contracts/teams';
import { db, dynamo } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { rateWindow } from '#runtime/rate-limit';
import { userKey } from '../../functions/accounts/user';
import { projectKey } from '../../functions/projects/project';
import { invitationAcceptsPerUser, inviteKey, invitesPerAccount } from '../../functions/teams/invitation';
import { teamKey } from '../../functions/teams/team';
import { tokenKey } from '../../functions/teams/token';
import type { ApiClient } from '../support/api-client';
import { faults, injectFault } from '../support/faults';
import { join, mailedToken, type Person, person, projectOf } from '../support/members-teams';
import { setUpTestStack } from '../support/stack-fixture';
import { inDays, removeFromTeam, setTeamPlan, switchTeam } from '../support/teams';
import { uniqueEmail } from '../support/users';

const stack = setUpTestStack();

const msgOf = <T>(res: { body: unknown }) => (res.body as { msg: T }).msg;
const codeOf = (res: { body: unknown }) => (res.body as { code?: string }).code;
const tokensPath = (tid: string) => `/api/client/team/${tid}/tokens`;
const memberPath = (tid: string, uid: string) => `/api/client/team/${tid}/members/${uid}`;
const invitationsPath = (tid: string) => `/api/client/team/${tid}/invitations`;

interface TokenEntry {
  id: string;
  name: string;
  createdBy: string;
  creatorName: string | null;
}

/** A v1 call with `token` as a script makes it: its status. */
async function v1Status(token: string): Promise<number> {
  const res = await fetch(new URL('/api/v1/projects', stack.url), {
    headers: { authorization: `Bearer ${token}` },
  });
  return res.status;
}

async function makeToken(client: ApiClient, tid: string, name: string): Promise<string> {
  const res = await client.post<{ token: string }>(tokensPath(tid), { name, scopes: ['projects:read'] });
  expect(res.status).toBe(201);
  return msgOf<{ token: string }>(res).token;
}

async function teamItem(tid: string) {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: teamKey(tid), ConsistentRead: true }),
  );
  return out.Item;
}

/** Sets the count of a rate window, to reach a limit without the traffic. */
async function fillWindow(limit: { action: string; key: string; windowMs: number }, count: number) {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: rateWindow(limit).key,
      UpdateExpression: 'SET #c = :n',
      ExpressionAttributeNames: { '#c': 'count' },
      ExpressionAttributeValues: { ':n': count },
    }),
  );
}

/** An owner on Starter (seats for members) with a project and an ADMIN, who made a token "CI". */
async function teamWithAdminToken() {
  const owner = await person(stack.url);
  await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
  await projectOf(owner.client);
  const admin = await join(stack.url, owner.client, owner.id, 'ADMIN');
  await admin.client.patch('/api/client/profile', { firstName: 'Grace', lastName: 'Hopper' });
  const token = await makeToken(admin.client, owner.id, 'CI');
  expect(await v1Status(token)).toBe(200);
  return { owner, admin, tid: owner.id, token };
}

describe('an API token', () => {
  it('names its creator in the list', async () => {
    const { owner, admin, tid } = await teamWithAdminToken();
    await makeToken(owner.client, tid, 'Deploy');
    const list = msgOf<{ tokens: TokenEntry[] }>(await owner.client.get(tokensPath(tid))).tokens;
    expect(list.map(({ name, createdBy, creatorName }) => ({ name, createdBy, creatorName }))).toEqual([
      { name: 'CI', createdBy: admin.id, creatorName: 'Grace Hopper' },
      { name: 'Deploy', createdBy: owner.id, creatorName: 'Ada Lovelace' },
    ]);
  });

  it("is revoked with its creator's removal, in the same change; the owner's tokens stay", async () => {
    const { owner, admin, tid, token } = await teamWithAdminToken();
    const ownToken = await makeToken(owner.client, tid, 'Deploy');
    expect(msgOf<{ tokens: TokenEntry[] }>(await owner.client.get(tokensPath(tid))).tokens).toHaveLength(2);
    expect((await owner.client.delete(memberPath(tid, admin.id))).status).toBe(200);
    expect(await v1Status(token)).toBe(401);
    expect(await v1Status(ownToken)).toBe(200);
    const list = msgOf<{ tokens: TokenEntry[] }>(await owner.client.get(tokensPath(tid))).tokens;
    expect(list.map((t) => t.name)).toEqual(['Deploy']);
    // The count follows, so the team's 20 tokens are 20 live ones.
    expect(await teamItem(tid)).toMatchObject({ tokenCount: 1 });
  });

  it('is revoked when its ADMIN creator is demoted to MEMBER, or leaves', async () => {
    const { owner, admin, tid, token } = await teamWithAdminToken();
    const other = await join(stack.url, owner.client, tid, 'ADMIN');
    const otherToken = await makeToken(other.client, tid, 'Other');
    const res = await owner.client.patch(memberPath(tid, admin.id), { role: 'MEMBER' });
    expect(res.status).toBe(200);
    expect(await v1Status(token)).toBe(401);
    expect(await v1Status(otherToken)).toBe(200);
    expect((await other.client.delete(memberPath(tid, other.id))).status).toBe(200);
    expect(await v1Status(otherToken)).toBe(401);
    expect(msgOf<{ tokens: TokenEntry[] }>(await owner.client.get(tokensPath(tid))).tokens).toEqual([]);
    expect(await teamItem(tid)).toMatchObject({ tokenCount: 0 });
  });

  it('is refused at use once its creator may no longer make tokens, even where the revocation missed it', async () => {
    const { tid, admin, token } = await teamWithAdminToken();
    // Removed behind the members call's back (as a token made in the instant before a removal would be).
    await removeFromTeam(tid, admin.id);
    expect(await v1Status(token)).toBe(401);
  });

  it('is revoked when its ADMIN creator deletes their account (leaving the team)', async () => {
    const { owner, admin, tid, token } = await teamWithAdminToken();
    expect((await admin.client.delete('/api/client/profile')).status).toBe(200);
    expect(await v1Status(token)).toBe(401);
    expect(msgOf<{ tokens: TokenEntry[] }>(await owner.client.get(tokensPath(tid))).tokens).toEqual([]);
    expect(await teamItem(tid)).toMatchObject({ tokenCount: 0 });
  });

  it("goes with its team when the owner's account is deleted", async () => {
    const owner = await person(stack.url);
    await projectOf(owner.client);
    const token = await makeToken(owner.client, owner.id, 'CI');
    const id = token.slice('snag_pat_'.length, 'snag_pat_'.length + 12);
    expect((await owner.client.delete('/api/client/profile')).status).toBe(200);
    expect(await v1Status(token)).toBe(401);
    const item = await db().send(new GetCommand({ TableName: tableName(), Key: tokenKey(id) }));
    expect(item.Item).toBeUndefined();
  });
});

describe('deleting an account', () => {
  /** An owner of their personal team and a team made with "Create team", each with a project. */
  async function ownerOfTwoTeams(): Promise<{ owner: Person; created: string; projects: string[] }> {
    const owner = await person(stack.url);
    const first = await projectOf(owner.client, 'Personal');
    const made = await owner.client.post<{ id: string }>('/api/client/teams', { name: 'Agency' });
    const created = msgOf<{ id: string }>(made).id;
    switchTeam(owner.client, created);
    const second = await projectOf(owner.client, 'Client site');
    switchTeam(owner.client);
    return { owner, created, projects: [first, second] };
  }

  it('deletes a team made with "Create team" and its projects', async () => {
    const { owner, created, projects } = await ownerOfTwoTeams();
    const res = await owner.client.delete('/api/client/profile');
    expect(res.status).toBe(200);
    expect(await teamItem(created)).toBeUndefined();
    expect(await teamItem(owner.id)).toBeUndefined();
    for (const id of projects) {
      const meta = await db().send(new GetCommand({ TableName: tableName(), Key: projectKey(id) }));
      expect(meta.Item).toBeUndefined();
    }
  });

  it('that fails part-way leaves no team marked as being deleted, and the next try finishes it', async () => {
    const { owner, created } = await ownerOfTwoTeams();
    await setTeamPlan(created, 'BASIC_PLAN', inDays(30));
    // DynamoDB refuses the first batch delete (a permission, not retried): the deletion stops there.
    const fault = injectFault(dynamo(), {
      command: 'BatchWriteItemCommand',
      times: 1,
      error: faults.accessDenied,
    });
    try {
      expect((await owner.client.delete('/api/client/profile')).status).toBe(500);
    } finally {
      fault.remove();
    }
    expect(fault.fired).toBe(1);
    expect(await teamItem(created)).not.toHaveProperty('deleting');
    // The team still there takes invitations (a left mark refused them as SEAT_LIMIT).
    const invited = await owner.client.post(invitationsPath(created), {
      email: uniqueEmail(),
      role: 'MEMBER',
    });
    expect(invited.status).toBe(200);
    expect((await owner.client.delete('/api/client/profile')).status).toBe(200);
    expect(await teamItem(created)).toBeUndefined();
  });
});

describe('a pending invitation', () => {
  /** An ADMIN's invitation as ADMIN to a second address of theirs; the invitee signed in with that address. */
  async function adminInvitesThemselves() {
    const owner = await person(stack.url);
    await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
    const admin = await join(stack.url, owner.client, owner.id, 'ADMIN');
    const second = await person(stack.url);
    const res = await admin.client.post(invitationsPath(owner.id), { email: second.email, role: 'ADMIN' });
    expect(res.status).toBe(200);
    return { owner, admin, second, token: await mailedToken(stack.url, second.email), tid: owner.id };
  }

  it('is withdrawn when its inviter is demoted, and grants nothing', async () => {
    const { owner, admin, second, token, tid } = await adminInvitesThemselves();
    expect((await owner.client.patch(memberPath(tid, admin.id), { role: 'MEMBER' })).status).toBe(200);
    const detail = msgOf<{ invitations: unknown[] }>(await owner.client.get(`/api/client/team/${tid}`));
    expect(detail.invitations).toEqual([]);
    const accepted = await second.client.post('/api/client/invitation/accept', { token });
    expect(accepted.status).toBe(410);
    expect(codeOf(accepted)).toBe('INVITATION_REVOKED');
    const teams = msgOf<{ teams: { id: string }[] }>(await second.client.get('/api/client/teams')).teams;
    expect(teams.map((t) => t.id)).not.toContain(tid);
  });

  it('is refused on accept once its inviter may no longer invite, even where the withdrawal missed it', async () => {
    const { admin, second, token, tid } = await adminInvitesThemselves();
    await removeFromTeam(tid, admin.id);
    const accepted = await second.client.post('/api/client/invitation/accept', { token });
    expect(codeOf(accepted)).toBe('INVITATION_REVOKED');
    expect(await teamItem(tid)).toMatchObject({ memberCount: 1 });
  });

  it('of an inviter still entitled is accepted as before', async () => {
    const { second, token, tid } = await adminInvitesThemselves();
    const accepted = await second.client.post('/api/client/invitation/accept', { token });
    expect(accepted.body).toEqual({ status: 'success', msg: { teamId: tid } });
  });
});

describe('invitation limits', () => {
  it(`${INVITATIONS_PER_ACCOUNT_PER_DAY} per inviting account and day, all teams together (INVITATION_LIMIT)`, async () => {
    const owner = await person(stack.url);
    await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
    await fillWindow(invitesPerAccount(owner.id), INVITATIONS_PER_ACCOUNT_PER_DAY - 1);
    const ok = await owner.client.post(invitationsPath(owner.id), { email: uniqueEmail(), role: 'MEMBER' });
    expect(ok.status).toBe(200);
    const refused = await owner.client.post(invitationsPath(owner.id), {
      email: uniqueEmail(),
      role: 'MEMBER',
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'INVITATION_LIMIT' });
    expect((refused.body as { msg: string }).msg).toContain('at most 20 invitations per account');
    const de = await owner.client.post(`${invitationsPath(owner.id)}?lng=de`, {
      email: uniqueEmail(),
      role: 'MEMBER',
    });
    expect((de.body as { msg: string }).msg).toContain('höchstens 20 Einladungen pro Konto');
  });

  it(`${INVITATIONS_PER_ADDRESS_PER_DAY} per invited address and day, whoever invites`, async () => {
    const email = uniqueEmail();
    const statuses: (string | undefined)[] = [];
    for (let i = 0; i <= INVITATIONS_PER_ADDRESS_PER_DAY; i++) {
      const inviter = await person(stack.url);
      await setTeamPlan(inviter.id, 'BASIC_PLAN', inDays(30));
      const res = await inviter.client.post(invitationsPath(inviter.id), { email, role: 'MEMBER' });
      statuses.push(res.status === 200 ? 'ok' : codeOf(res));
    }
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'INVITATION_LIMIT']);
  });

  it(`${INVITATIONS_PENDING_MAX} pending invitations per team; a resend of a pending one still works`, async () => {
    const owner = await person(stack.url);
    await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
    const first = uniqueEmail();
    expect(
      (await owner.client.post(invitationsPath(owner.id), { email: first, role: 'MEMBER' })).status,
    ).toBe(200);
    // The other pending ones as the invitation call stores them (only the fields the count reads matter).
    for (let i = 1; i < INVITATIONS_PENDING_MAX; i++) {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...inviteKey(owner.id, `seeded${i}`), expiresAt: Date.now() + 86_400_000 },
        }),
      );
    }
    const refused = await owner.client.post(invitationsPath(owner.id), {
      email: uniqueEmail(),
      role: 'MEMBER',
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'INVITATION_LIMIT' });
    const resent = await owner.client.post(invitationsPath(owner.id), { email: first, role: 'MEMBER' });
    expect(resent.status).toBe(200);
  });

  it('needs a confirmed account (CONFIRMATION_REQUIRED)', async () => {
    const owner = await person(stack.url);
    await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKey(owner.id),
        UpdateExpression: 'SET confirmed = :f',
        ExpressionAttributeValues: { ':f': false },
      }),
    );
    const res = await owner.client.post(invitationsPath(owner.id), { email: uniqueEmail(), role: 'MEMBER' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
  });

  it('accepting: 20 per account and hour, then RATE_LIMITED', async () => {
    const owner = await person(stack.url);
    await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
    const invitee = await person(stack.url);
    await owner.client.post(invitationsPath(owner.id), { email: invitee.email, role: 'MEMBER' });
    const token = await mailedToken(stack.url, invitee.email);
    await fillWindow({ ...invitationAcceptsPerUser, key: invitee.id }, invitationAcceptsPerUser.max);
    const refused = await invitee.client.post('/api/client/invitation/accept', { token });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
