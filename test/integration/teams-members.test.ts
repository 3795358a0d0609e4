/**
 * Members (issue 22, docs/data-model.md 4.12) through the local stack: create a team, change a role or a
 * guest's projects (the target rules, seats), removal and leaving (access ends at once), ownership
 * transfer, the replacement personal team, profile deletion while owning a shared team, and the request
 * counts of section 6.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { ApiClient } from '../support/api-client';
import { countFunctionRequests } from '../support/dynamo-calls';
import { join, mailedToken, person, projectOf } from '../support/members-teams';
import { setUpTestStack } from '../support/stack-fixture';
import { setTeamPlan } from '../support/teams';
import { uniqueEmail } from '../support/users';

const stack = setUpTestStack();
const dynamoRequestsOf = countFunctionRequests('api:teams');

interface Detail {
  team: { seats: { members: { used: number }; guests: { used: number } } };
  members: { userId: string; role?: string; projects?: string[] }[];
}
interface TeamsList {
  teams: { id: string; name: string; role: string }[];
}
const msgOf = <T>(res: { body: unknown }) => (res.body as { msg: T }).msg;
const memberPath = (tid: string, uid: string) => `/api/client/team/${tid}/members/${uid}`;

async function teamItem(tid: string) {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `TEAM#${tid}`, sk: 'TEAM' } })))
    .Item;
}

/** A Business team (all seats free) with its owner, an admin, a member and a guest of its one project. */
async function fullTeam() {
  const owner = await person(stack.url);
  await setTeamPlan(owner.id, 'BUSINESS_PLAN', null);
  const projectId = await projectOf(owner.client);
  const admin = await join(stack.url, owner.client, owner.id, 'ADMIN');
  const member = await join(stack.url, owner.client, owner.id, 'MEMBER');
  const guest = await join(stack.url, owner.client, owner.id, 'GUEST', [projectId]);
  return { owner, admin, member, guest, projectId, tid: owner.id };
}

describe('creating a team', () => {
  it('makes the caller its OWNER, listed beside the personal team; 50 teams at most', async () => {
    const p = await person(stack.url);
    const res = await p.client.post<{ id: string }>('/api/client/teams', { name: '  Agency ' });
    expect(res.status).toBe(200);
    const { id } = msgOf<{ id: string }>(res);
    expect(id).not.toBe(p.id);
    const list = msgOf<TeamsList>(await p.client.get('/api/client/teams'));
    expect(list.teams).toContainEqual(expect.objectContaining({ id, name: 'Agency', role: 'OWNER' }));
    expect(await teamItem(id)).toMatchObject({
      ownerId: p.id,
      memberCount: 1,
      guestCount: 0,
      plan: 'FREE_PLAN',
    });
    expect((await p.client.post('/api/client/teams', { name: '' })).status).toBe(400);

    const many = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [
        `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        { r: 'GUEST' },
      ]),
    );
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${p.id}`, sk: 'TEAMS' },
        UpdateExpression: 'SET teams = :t',
        ExpressionAttributeValues: { ':t': many },
      }),
    );
    const refused = await p.client.post('/api/client/teams', { name: 'One too many' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'TEAM_LIMIT' });
  });
});

describe('changing a role', () => {
  it('an ADMIN changes a MEMBER to GUEST of a project and back; the counters follow', async () => {
    const { admin, member, tid, projectId } = await fullTeam();
    const toGuest = await admin.client.patch(memberPath(tid, member.id), {
      role: 'GUEST',
      projects: [projectId],
    });
    expect(toGuest.body).toEqual({
      status: 'success',
      msg: { userId: member.id, role: 'GUEST', projects: [projectId] },
    });
    let detail = msgOf<Detail>(await admin.client.get(`/api/client/team/${tid}`));
    expect(detail.members.find((m) => m.userId === member.id)).toMatchObject({
      role: 'GUEST',
      projects: [projectId],
    });
    expect(detail.team.seats).toMatchObject({ members: { used: 2 }, guests: { used: 2 } });
    const teams = msgOf<TeamsList>(await member.client.get('/api/client/teams'));
    expect(teams.teams).toContainEqual(expect.objectContaining({ id: tid, role: 'GUEST' }));

    expect((await admin.client.patch(memberPath(tid, member.id), { role: 'MEMBER' })).status).toBe(200);
    detail = msgOf<Detail>(await admin.client.get(`/api/client/team/${tid}`));
    expect(detail.members.find((m) => m.userId === member.id)).toMatchObject({
      role: 'MEMBER',
      projects: [],
    });
    expect(detail.team.seats).toMatchObject({ members: { used: 3 }, guests: { used: 1 } });
  });

  it('target rules: nobody changes the OWNER or their own role, no role change makes an OWNER, a MEMBER changes nobody', async () => {
    const { owner, admin, member, guest, tid } = await fullTeam();
    const cases: [typeof owner, string, object, number, string][] = [
      [admin, owner.id, { role: 'MEMBER' }, 403, 'FORBIDDEN'],
      [admin, admin.id, { role: 'MEMBER' }, 403, 'FORBIDDEN'],
      [owner, owner.id, { role: 'ADMIN' }, 403, 'FORBIDDEN'],
      [admin, member.id, { role: 'OWNER' }, 400, 'INVALID_PARAMETERS'],
      [member, guest.id, { role: 'MEMBER' }, 403, 'FORBIDDEN'],
      [guest, member.id, { role: 'ADMIN' }, 403, 'FORBIDDEN'],
      [owner, '00000000-0000-4000-8000-000000000000', { role: 'MEMBER' }, 404, 'NOT_FOUND'],
    ];
    for (const [who, target, body, status, code] of cases) {
      const res = await who.client.patch(memberPath(tid, target), body);
      expect([target, res.status, (res.body as { code?: string }).code]).toEqual([target, status, code]);
    }
    const outsider = await person(stack.url);
    expect((await outsider.client.patch(memberPath(tid, member.id), { role: 'ADMIN' })).status).toBe(404);
    expect((await outsider.client.delete(memberPath(tid, member.id))).status).toBe(404);
    expect(
      (await outsider.client.post(`/api/client/team/${tid}/transfer`, { userId: member.id })).status,
    ).toBe(404);
    expect(msgOf<Detail>(await owner.client.get(`/api/client/team/${tid}`)).members).toHaveLength(4);
    // An ADMIN may change another ADMIN.
    const second = await join(stack.url, owner.client, tid, 'ADMIN');
    expect((await admin.client.patch(memberPath(tid, second.id), { role: 'MEMBER' })).status).toBe(200);
  });

  it('a promotion from guest needs a member seat (SEAT_LIMIT on Free)', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const guest = await join(stack.url, owner.client, owner.id, 'GUEST', [projectId]);
    const res = await owner.client.patch(memberPath(owner.id, guest.id), { role: 'MEMBER' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'SEAT_LIMIT' });
    expect(await teamItem(owner.id)).toMatchObject({ memberCount: 1, guestCount: 1 });
  });
});

describe('removal and leaving', () => {
  it('an ADMIN removes a MEMBER, whose next call is refused at once; the OWNER cannot be removed', async () => {
    const { owner, admin, member, tid } = await fullTeam();
    // A second open session of the member (another browser).
    const other = new ApiClient(stack.url);
    const login = await other.post('/api/client/login', {
      _username: member.email,
      _password: member.password,
    });
    expect(login.status).toBe(200);
    expect((await member.client.get(`/api/client/team/${tid}`)).status).toBe(200);
    expect((await other.get(`/api/client/team/${tid}`)).status).toBe(200);
    expect((await admin.client.delete(memberPath(tid, member.id))).body).toEqual({
      status: 'success',
      msg: null,
    });
    expect((await member.client.get(`/api/client/team/${tid}`)).status).toBe(404);
    expect((await other.patch(`/api/client/team/${tid}`, { name: 'Still here?' })).status).toBe(404);
    expect(msgOf<TeamsList>(await member.client.get('/api/client/teams')).teams.map((t) => t.id)).toEqual([
      member.id,
    ]);
    expect(await teamItem(tid)).toMatchObject({ memberCount: 2, guestCount: 1 });
    const refused = await admin.client.delete(memberPath(tid, owner.id));
    expect(refused.status).toBe(403);
    expect((await member.client.delete(memberPath(tid, admin.id))).status).toBe(404);
  });

  it('members and guests leave; the owner cannot (OWNER_CANNOT_LEAVE, en + de)', async () => {
    const { owner, guest, member, tid } = await fullTeam();
    expect((await guest.client.delete(memberPath(tid, guest.id))).status).toBe(200);
    expect((await member.client.delete(memberPath(tid, member.id))).status).toBe(200);
    expect(await teamItem(tid)).toMatchObject({ memberCount: 2, guestCount: 0 });
    const refused = await owner.client.delete(`${memberPath(tid, owner.id)}?lng=de`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'OWNER_CANNOT_LEAVE',
      msg: 'Der Inhaber kann das Team nicht verlassen. Übertragen Sie zuerst die Inhaberschaft',
    });
  });
});

describe('transferring ownership', () => {
  it('makes a MEMBER the OWNER and the old owner an ADMIN; only the owner may, and only to an ADMIN or MEMBER', async () => {
    const { owner, admin, member, guest, tid } = await fullTeam();
    expect((await admin.client.post(`/api/client/team/${tid}/transfer`, { userId: member.id })).status).toBe(
      403,
    );
    const toGuest = await owner.client.post(`/api/client/team/${tid}/transfer`, { userId: guest.id });
    expect(toGuest.status).toBe(400);
    expect((await owner.client.post(`/api/client/team/${tid}/transfer`, { userId: owner.id })).status).toBe(
      400,
    );

    const res = await owner.client.post(`/api/client/team/${tid}/transfer`, { userId: member.id });
    expect(res.body).toEqual({ status: 'success', msg: null });
    const detail = msgOf<Detail>(await owner.client.get(`/api/client/team/${tid}`));
    const roleOf = Object.fromEntries(detail.members.map((m) => [m.userId, m.role]));
    expect(roleOf).toMatchObject({ [owner.id]: 'ADMIN', [member.id]: 'OWNER' });
    expect(await teamItem(tid)).toMatchObject({ ownerId: member.id, memberCount: 3, guestCount: 1 });
    // The old owner may leave now; the new one may not.
    expect((await member.client.delete(memberPath(tid, member.id))).body).toMatchObject({
      code: 'OWNER_CANNOT_LEAVE',
    });
    expect((await owner.client.post(`/api/client/team/${tid}/transfer`, { userId: admin.id })).status).toBe(
      403,
    );
  });

  it('an account left in no team gets a new personal team on its next call', async () => {
    const { owner, member, tid } = await fullTeam();
    await owner.client.post(`/api/client/team/${tid}/transfer`, { userId: member.id });
    expect((await member.client.delete(memberPath(tid, owner.id))).status).toBe(200);
    const teams = msgOf<TeamsList>(await owner.client.get('/api/client/teams')).teams;
    expect(teams).toHaveLength(1);
    expect(teams[0]).toMatchObject({ name: "Ada's team", role: 'OWNER' });
    expect(teams[0]?.id).not.toBe(tid);
    const stored = await db().send(
      new GetCommand({ TableName: tableName(), Key: { pk: `USER#${owner.id}`, sk: 'TEAMS' } }),
    );
    expect(stored.Item?.personal).toBe(teams[0]?.id);
  });
});

describe('deleting a profile', () => {
  it('is refused (OWNS_SHARED_TEAM) while the user owns a team with others, and deletes nothing', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const guest = await join(stack.url, owner.client, owner.id, 'GUEST', [projectId]);
    const refused = await owner.client.delete('/api/client/profile?lng=de');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'OWNS_SHARED_TEAM',
      msg: expect.stringContaining('Übertragen Sie das Team'),
    });
    const en = await owner.client.delete('/api/client/profile');
    expect((en.body as { msg: string }).msg).toBe(
      'You own a team with other members. Transfer the team to another member or remove its members first',
    );
    expect((await owner.client.get(`/api/client/website/${projectId}`)).status).toBe(200);
    expect(await teamItem(owner.id)).toMatchObject({ memberCount: 1, guestCount: 1 });

    // Once the guest has left, the solo team goes with the account; a pending invitation holds no seat,
    // and its link then says revoked.
    expect((await guest.client.delete(memberPath(owner.id, guest.id))).status).toBe(200);
    const invitee = uniqueEmail().toLowerCase();
    await owner.client.post(`/api/client/team/${owner.id}/invitations`, {
      email: invitee,
      role: 'GUEST',
      projects: [projectId],
    });
    const token = await mailedToken(stack.url, invitee);
    expect((await owner.client.delete('/api/client/profile')).status).toBe(200);
    expect(await teamItem(owner.id)).toBeUndefined();
    const view = await new ApiClient(stack.url).post('/api/invitation/view', { token });
    expect(view.body).toMatchObject({ status: 'success', msg: { state: 'revoked' } });
  });

  it('of an old owner who transferred their personal team leaves that team its projects', async () => {
    const { owner, member, tid, projectId } = await fullTeam();
    await owner.client.post(`/api/client/team/${tid}/transfer`, { userId: member.id });
    expect((await owner.client.delete('/api/client/profile')).status).toBe(200);
    // The old owner (an ADMIN since the transfer) has left: the new owner and the admin remain, and the guest.
    expect(await teamItem(tid)).toMatchObject({ ownerId: member.id, memberCount: 2, guestCount: 1 });
    const detail = msgOf<Detail>(await member.client.get(`/api/client/team/${tid}`));
    expect(detail.members.map((m) => m.userId)).not.toContain(owner.id);
    const meta = await db().send(
      new GetCommand({ TableName: tableName(), Key: { pk: `PROJECT#${projectId}`, sk: 'META' } }),
    );
    expect(meta.Item).toBeDefined();
  });

  it("leaves the user's other teams, which keep their projects", async () => {
    const { owner, member, tid, projectId } = await fullTeam();
    expect((await member.client.delete('/api/client/profile')).status).toBe(200);
    const detail = msgOf<Detail>(await owner.client.get(`/api/client/team/${tid}`));
    expect(detail.members.map((m) => m.userId)).not.toContain(member.id);
    expect(await teamItem(tid)).toMatchObject({ memberCount: 2, guestCount: 1 });
    expect((await owner.client.get(`/api/client/website/${projectId}`)).status).toBe(200);
    expect(await teamItem(member.id)).toBeUndefined();
  });
});

describe('request counts (docs/data-model.md section 6)', () => {
  it('create team 2; PATCH and DELETE a member, leave and transfer 3 each (an ADMIN losing rights +2)', async () => {
    const { owner, admin, member, guest, tid } = await fullTeam();
    expect(await dynamoRequestsOf(() => owner.client.post('/api/client/teams', { name: 'Second' }))).toEqual([
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
    const three = ['GetItemCommand', 'BatchGetItemCommand', 'TransactWriteItemsCommand'];
    // Demoting an ADMIN (who may have made tokens and sent invitations) reads their tokens (gsi1) before the
    // transaction that revokes them, and the team's invitations after it (decision T14).
    expect(
      await dynamoRequestsOf(() => owner.client.patch(memberPath(tid, admin.id), { role: 'MEMBER' })),
    ).toEqual([
      'GetItemCommand',
      'BatchGetItemCommand',
      'QueryCommand',
      'TransactWriteItemsCommand',
      'QueryCommand',
    ]);
    // Issue 23 (data-model 4.13, decision Tr-C5): removing someone who may be an assignee reads the team's
    // projects and, per project, their assignee facets; each issue still assigned adds its unassign.
    // Issue 35 (decision DR-8): then one Put of the job that signs their entries "former member".
    expect(await dynamoRequestsOf(() => owner.client.delete(memberPath(tid, admin.id)))).toEqual([
      ...three,
      'QueryCommand',
      'BatchGetItemCommand',
      'PutItemCommand',
    ]);
    expect(await dynamoRequestsOf(() => guest.client.delete(memberPath(tid, guest.id)))).toEqual([
      ...three,
      'PutItemCommand',
    ]);
    expect(
      await dynamoRequestsOf(() =>
        owner.client.post(`/api/client/team/${tid}/transfer`, { userId: member.id }),
      ),
    ).toEqual(three);
  });
});
