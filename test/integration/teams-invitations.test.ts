/**
 * Invitations (issue 22, docs/data-model.md 4.12) through the local stack: the mailed link (en/de), the
 * public view, accept with the invited account only, single use, expiry, revoke, resend, seats on invite
 * and on accept, a lapsed plan, the guest's projects, the caps, registration with an invitation, and the
 * request counts of section 6.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { rateWindow } from '#runtime/rate-limit';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { tokenHashOf } from '../../functions/teams/invitation';
import { solveAltcha } from '../support/altcha';
import { ApiClient, latestMail, linkIn } from '../support/api-client';
import { countFunctionRequests } from '../support/dynamo-calls';
import { join, mailedToken, person, projectOf } from '../support/members-teams';
import { setUpTestStack } from '../support/stack-fixture';
import { inDays, setTeamPlan } from '../support/teams';
import { uniqueEmail } from '../support/users';

const stack = setUpTestStack();
const dynamoRequestsOf = countFunctionRequests('api:teams');

interface Detail {
  team: { seats: { members: { used: number; limit: number | null }; guests: { used: number } } };
  role: string;
  members: { userId: string; firstName: string; username?: string; role?: string; projects?: string[] }[];
  invitations: { id: string; email: string; role: string; projects: string[]; expires: string }[];
}
const msgOf = <T>(res: { body: unknown }) => (res.body as { msg: T }).msg;
const invitationsPath = (tid: string) => `/api/client/team/${tid}/invitations`;

async function link(token: string) {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: { pk: `INVITATION#${tokenHashOf(token)}`, sk: 'INVITATION' },
    }),
  );
  return out.Item;
}

describe('an invitation', () => {
  it('is mailed with a link the public view reads, accepted once by the invited account, and listed until then', async () => {
    const owner = await person(stack.url);
    await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
    const invitee = await person(stack.url);
    const res = await owner.client.post<{ id: string }>(invitationsPath(owner.id), {
      email: invitee.email.toUpperCase(),
      role: 'MEMBER',
    });
    expect(res.status).toBe(200);
    const { id } = msgOf<{ id: string }>(res);
    expect(id).toMatch(/^[0-9a-f]{32}$/);

    const mail = await latestMail(stack.url, invitee.email);
    expect(mail?.subject).toBe('You are invited to a team on Snag');
    const url = linkIn(mail, '/invitation');
    expect(url.origin + url.pathname).toBe(new URL('/invitation', stack.url).toString());
    const token = url.searchParams.get('token') as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Stored only as its hash.
    expect(JSON.stringify(await link(token))).not.toContain(token);

    const listed = msgOf<Detail>(await owner.client.get(`/api/client/team/${owner.id}`));
    expect(listed.invitations).toEqual([
      { id, email: invitee.email, role: 'MEMBER', projects: [], expires: expect.any(String) },
    ]);
    const expires = Date.parse(listed.invitations[0]?.expires ?? '');
    expect(expires - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);

    const anonymous = new ApiClient(stack.url);
    const view = await anonymous.post('/api/invitation/view', { token });
    expect(view.body).toEqual({
      status: 'success',
      msg: {
        team: { name: "Ada's team" },
        inviter: { firstName: 'Ada', lastName: 'Lovelace' },
        role: 'MEMBER',
        email: invitee.email,
        state: 'pending',
      },
    });

    const accepted = await invitee.client.post('/api/client/invitation/accept', { token });
    expect(accepted.body).toEqual({ status: 'success', msg: { teamId: owner.id } });
    const after = msgOf<Detail>(await owner.client.get(`/api/client/team/${owner.id}`));
    expect(after.invitations).toEqual([]);
    expect(after.members.find((m) => m.userId === invitee.id)).toMatchObject({ role: 'MEMBER' });
    expect(after.team.seats.members).toEqual({ used: 2, limit: 5 });
    const teams = msgOf<{ teams: { id: string; role: string }[] }>(
      await invitee.client.get('/api/client/teams'),
    );
    expect(teams.teams).toContainEqual(expect.objectContaining({ id: owner.id, role: 'MEMBER' }));

    // Single use.
    expect(msgOf<{ state: string }>(await anonymous.post('/api/invitation/view', { token })).state).toBe(
      'used',
    );
    const again = await invitee.client.post('/api/client/invitation/accept', { token });
    expect(again.status).toBe(410);
    expect(again.body).toMatchObject({ code: 'INVITATION_USED' });
  });

  it("is mailed in the inviter's language (German)", async () => {
    const owner = await person(stack.url);
    const email = uniqueEmail().toLowerCase();
    const projectId = await projectOf(owner.client);
    const res = await owner.client.post(`${invitationsPath(owner.id)}?lng=de`, {
      email,
      role: 'GUEST',
      projects: [projectId],
    });
    expect(res.status).toBe(200);
    const mail = await latestMail(stack.url, email);
    expect(mail?.subject).toBe('Einladung zu einem Team bei Snag');
    expect(mail?.text).toContain('als Gast beizutreten');
  });

  it('is refused to another signed-in account (INVITATION_WRONG_ACCOUNT) and stays pending', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const email = uniqueEmail().toLowerCase();
    await owner.client.post(invitationsPath(owner.id), { email, role: 'GUEST', projects: [projectId] });
    const token = await mailedToken(stack.url, email);
    const other = await person(stack.url);
    const res = await other.client.post('/api/client/invitation/accept?lng=de', { token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'INVITATION_WRONG_ACCOUNT',
      msg: 'Diese Einladung gilt für eine andere E-Mail-Adresse. Melden Sie sich mit der eingeladenen Adresse an',
    });
    expect((await link(token))?.state).toBe('pending');
  });

  it('expires after 7 days: the view says so and accepting is INVITATION_EXPIRED', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const invitee = await person(stack.url);
    await owner.client.post(invitationsPath(owner.id), {
      email: invitee.email,
      role: 'GUEST',
      projects: [projectId],
    });
    const token = await mailedToken(stack.url, invitee.email);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `INVITATION#${tokenHashOf(token)}`, sk: 'INVITATION' },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1000 },
      }),
    );
    const view = await new ApiClient(stack.url).post('/api/invitation/view', { token });
    expect(msgOf<{ state: string }>(view).state).toBe('expired');
    const res = await invitee.client.post('/api/client/invitation/accept', { token });
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ code: 'INVITATION_EXPIRED' });
    const teams = msgOf<{ teams: { id: string }[] }>(await invitee.client.get('/api/client/teams'));
    expect(teams.teams.map((t) => t.id)).toEqual([invitee.id]);
  });

  it('is revoked (idempotently): listed no more, the link says revoked', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const invitee = await person(stack.url);
    const { id } = msgOf<{ id: string }>(
      await owner.client.post(invitationsPath(owner.id), {
        email: invitee.email,
        role: 'GUEST',
        projects: [projectId],
      }),
    );
    const token = await mailedToken(stack.url, invitee.email);
    expect((await owner.client.delete(`${invitationsPath(owner.id)}/${id}`)).body).toEqual({
      status: 'success',
      msg: null,
    });
    expect((await owner.client.delete(`${invitationsPath(owner.id)}/${id}`)).status).toBe(200);
    expect(msgOf<Detail>(await owner.client.get(`/api/client/team/${owner.id}`)).invitations).toEqual([]);
    const view = await new ApiClient(stack.url).post('/api/invitation/view', { token });
    expect(msgOf<{ state: string }>(view).state).toBe('revoked');
    const res = await invitee.client.post('/api/client/invitation/accept', { token });
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ code: 'INVITATION_REVOKED' });
  });

  it('is resent by inviting the address again: same id, the old link is revoked, the new one works', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const invitee = await person(stack.url);
    const body = { email: invitee.email, role: 'GUEST', projects: [projectId] };
    const first = msgOf<{ id: string }>(await owner.client.post(invitationsPath(owner.id), body));
    const oldToken = await mailedToken(stack.url, invitee.email);
    const second = msgOf<{ id: string }>(await owner.client.post(invitationsPath(owner.id), body));
    expect(second.id).toBe(first.id);
    const newToken = await mailedToken(stack.url, invitee.email);
    expect(newToken).not.toBe(oldToken);
    expect(msgOf<Detail>(await owner.client.get(`/api/client/team/${owner.id}`)).invitations).toHaveLength(1);
    const old = await invitee.client.post('/api/client/invitation/accept', { token: oldToken });
    expect(old.body).toMatchObject({ code: 'INVITATION_REVOKED' });
    const accepted = await invitee.client.post('/api/client/invitation/accept', { token: newToken });
    expect(accepted.status).toBe(200);
    // The guest sees the members' names only, and no invitations.
    const seen = msgOf<Detail>(await invitee.client.get(`/api/client/team/${owner.id}`));
    expect(seen.role).toBe('GUEST');
    expect(seen.invitations).toEqual([]);
    for (const m of seen.members) {
      expect(Object.keys(m).sort()).toEqual(['firstName', 'lastName', 'userId']);
    }
  });

  it('answers INVITATION_INVALID (404) for an unknown or malformed token', async () => {
    const anonymous = new ApiClient(stack.url);
    for (const token of ['A'.repeat(22), 'short', `${'a'.repeat(21)}!`]) {
      const res = await anonymous.post('/api/invitation/view', { token });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'INVITATION_INVALID' });
    }
    const { client } = await person(stack.url);
    const res = await client.post('/api/client/invitation/accept', { token: 'B'.repeat(22) });
    expect(res.body).toMatchObject({ code: 'INVITATION_INVALID' });
  });

  it('refuses accepting into a team one is in already (ALREADY_MEMBER)', async () => {
    const owner = await person(stack.url);
    await setTeamPlan(owner.id, 'BUSINESS_PLAN', null);
    const member = await join(stack.url, owner.client, owner.id, 'MEMBER');
    await owner.client.post(invitationsPath(owner.id), { email: member.email, role: 'ADMIN' });
    const res = await member.client.post('/api/client/invitation/accept', {
      token: await mailedToken(stack.url, member.email),
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'ALREADY_MEMBER' });
  });
});

describe('hostile input', () => {
  it('a malformed invitation id, team id or member id names nothing (404); a bad body is INVALID_PARAMETERS', async () => {
    const owner = await person(stack.url);
    for (const path of [
      `${invitationsPath(owner.id)}/not-hex`,
      `${invitationsPath(owner.id)}/${'g'.repeat(32)}`,
      `/api/client/team/${owner.id}/members/nope`,
      '/api/client/team/nope/invitations/0',
    ]) {
      const res = await owner.client.delete(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
    for (const body of [
      '{',
      { email: 'a@b.de', role: 'MEMBER', teamId: owner.id },
      { email: ['a@b.de'], role: 'MEMBER' },
    ]) {
      const res = await owner.client.post(invitationsPath(owner.id), body);
      expect(res.status).toBe(400);
    }
    expect((await new ApiClient(stack.url).post('/api/invitation/view', { token: 7 })).status).toBe(400);
  });

  it('two parallel invitations of one address make one pending invitation, whose newest link works', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const invitee = await person(stack.url);
    const body = { email: invitee.email, role: 'GUEST', projects: [projectId] };
    const answers = await Promise.all(
      [1, 2, 3].map(() => owner.client.post(invitationsPath(owner.id), body)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(msgOf<Detail>(await owner.client.get(`/api/client/team/${owner.id}`)).invitations).toHaveLength(1);
    const res = await invitee.client.post('/api/client/invitation/accept', {
      token: await mailedToken(stack.url, invitee.email),
    });
    // The newest mail's link is the stored one unless a slower mail overtook it; either way nothing is left pending.
    expect([200, 410]).toContain(res.status);
  });
});

describe('who may invite, and whom', () => {
  it('MEMBERs may not (403), outsiders get 404; ADMINs may', async () => {
    const owner = await person(stack.url);
    await setTeamPlan(owner.id, 'BUSINESS_PLAN', null);
    const member = await join(stack.url, owner.client, owner.id, 'MEMBER');
    const admin = await join(stack.url, owner.client, owner.id, 'ADMIN');
    const outsider = await person(stack.url);
    const body = { email: uniqueEmail(), role: 'MEMBER' };
    expect((await member.client.post(invitationsPath(owner.id), body)).body).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await outsider.client.post(invitationsPath(owner.id), body)).status).toBe(404);
    expect((await admin.client.post(invitationsPath(owner.id), body)).status).toBe(200);
    const { id } = msgOf<Detail>(await owner.client.get(`/api/client/team/${owner.id}`)).invitations[0] ?? {};
    expect((await member.client.delete(`${invitationsPath(owner.id)}/${id}`)).status).toBe(403);
    expect((await outsider.client.delete(`${invitationsPath(owner.id)}/${id}`)).status).toBe(404);
  });

  it.each([
    ['OWNER', undefined],
    ['GUEST', undefined],
    ['GUEST', []],
    ['MEMBER', ['00000000-0000-4000-8000-000000000000']],
  ])('refuses role %s with projects %j (INVALID_PARAMETERS)', async (role, projects) => {
    const owner = await person(stack.url);
    const res = await owner.client.post(invitationsPath(owner.id), { email: uniqueEmail(), role, projects });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_PARAMETERS' });
  });

  it("refuses a guest's project of another team, or one that does not exist", async () => {
    const owner = await person(stack.url);
    const other = await person(stack.url);
    const foreign = await projectOf(other.client);
    for (const projects of [[foreign], ['00000000-0000-4000-8000-000000000000']]) {
      const res = await owner.client.post(invitationsPath(owner.id), {
        email: uniqueEmail(),
        role: 'GUEST',
        projects,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'INVALID_PARAMETERS',
        fields: { projects: 'INVALID_PARAMETERS' },
      });
    }
  });
});

describe('seats', () => {
  it('Free: no member seat beyond the owner (SEAT_LIMIT on invite); three guest seats, the fourth refused on accept', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const refused = await owner.client.post(`${invitationsPath(owner.id)}?lng=de`, {
      email: uniqueEmail(),
      role: 'MEMBER',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'SEAT_LIMIT', msg: expect.stringContaining('Tarif') });

    // Pending invitations hold no seat: four guests are invited, three may accept.
    const guests = await Promise.all([1, 2, 3, 4].map(() => person(stack.url)));
    for (const g of guests) {
      const res = await owner.client.post(invitationsPath(owner.id), {
        email: g.email,
        role: 'GUEST',
        projects: [projectId],
      });
      expect(res.status).toBe(200);
    }
    const answers = await Promise.all(
      guests.map(
        async (g) =>
          (
            await g.client.post('/api/client/invitation/accept', {
              token: await mailedToken(stack.url, g.email),
            })
          ).body,
      ),
    );
    expect(answers.filter((a) => (a as { status: string }).status === 'success')).toHaveLength(3);
    expect(answers.filter((a) => (a as { code?: string }).code === 'SEAT_LIMIT')).toHaveLength(1);
    const detail = msgOf<Detail>(await owner.client.get(`/api/client/team/${owner.id}`));
    expect(detail.team.seats.guests.used).toBe(3);
    // A full team cannot invite another guest.
    const full = await owner.client.post(invitationsPath(owner.id), {
      email: uniqueEmail(),
      role: 'GUEST',
      projects: [projectId],
    });
    expect(full.body).toMatchObject({ code: 'SEAT_LIMIT' });
  });

  it('a lapsed plan keeps its members but refuses new member seats, on invite and on accept', async () => {
    const owner = await person(stack.url);
    await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(10));
    const member = await join(stack.url, owner.client, owner.id, 'MEMBER');
    const pending = await person(stack.url);
    await owner.client.post(invitationsPath(owner.id), { email: pending.email, role: 'MEMBER' });
    await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(-1));

    const detail = msgOf<Detail>(await owner.client.get(`/api/client/team/${owner.id}`));
    expect(detail.members.map((m) => m.userId).sort()).toEqual([owner.id, member.id].sort());
    expect((await member.client.get(`/api/client/team/${owner.id}`)).status).toBe(200);
    const invite = await owner.client.post(invitationsPath(owner.id), {
      email: uniqueEmail(),
      role: 'ADMIN',
    });
    expect(invite.body).toMatchObject({ code: 'SEAT_LIMIT' });
    const accept = await pending.client.post('/api/client/invitation/accept', {
      token: await mailedToken(stack.url, pending.email),
    });
    expect(accept.status).toBe(403);
    expect(accept.body).toMatchObject({ code: 'SEAT_LIMIT' });

    // Paid again: the same link works.
    await setTeamPlan(owner.id, 'BASIC_PLAN', inDays(30));
    const again = await pending.client.post('/api/client/invitation/accept', {
      token: await mailedToken(stack.url, pending.email),
    });
    expect(again.status).toBe(200);
  });
});

describe('limits', () => {
  it('50 invitations per team and day (RATE_LIMITED), and 30 views per source and hour', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const { key } = rateWindow({ action: 'invite', key: owner.id, windowMs: 86_400_000 });
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET #c = :n',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':n': 50 },
      }),
    );
    const res = await owner.client.post(invitationsPath(owner.id), {
      email: uniqueEmail(),
      role: 'GUEST',
      projects: [projectId],
    });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'RATE_LIMITED' });

    const viewer = new ApiClient(stack.url);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await viewer.post('/api/invitation/view', { token: 'C'.repeat(22) })).status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('TEAM_LIMIT: a user in 50 teams cannot accept another', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const invitee = await person(stack.url);
    const many = Object.fromEntries(
      Array.from({ length: 49 }, (_, i) => [
        `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        { r: 'GUEST', p: [] },
      ]),
    );
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${invitee.id}`, sk: 'TEAMS' },
        UpdateExpression: 'SET teams = :t',
        ExpressionAttributeValues: { ':t': { ...many, [invitee.id]: { r: 'OWNER' } } },
      }),
    );
    await owner.client.post(invitationsPath(owner.id), {
      email: invitee.email,
      role: 'GUEST',
      projects: [projectId],
    });
    const res = await invitee.client.post('/api/client/invitation/accept', {
      token: await mailedToken(stack.url, invitee.email),
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'TEAM_LIMIT' });
  });
});

describe('registration with an invitation', () => {
  it('creates the invited address confirmed, without a code mail; another address confirms as usual', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const email = uniqueEmail().toLowerCase();
    await owner.client.post(invitationsPath(owner.id), { email, role: 'GUEST', projects: [projectId] });
    const token = await mailedToken(stack.url, email);

    const client = new ApiClient(stack.url);
    const reg = await client.post('/api/registration/client', {
      _username: email,
      _password: 'secret1',
      firstName: 'Grace',
      lastName: 'Hopper',
      altcha: await solveAltcha(stack.url),
      invitation: token,
    });
    expect(reg.status).toBe(200);
    // The newest mail is still the invitation: no confirmation code was mailed.
    expect((await latestMail(stack.url, email))?.subject).toContain('invited');
    expect((await client.post('/api/client/login', { _username: email, _password: 'secret1' })).status).toBe(
      200,
    );
    expect((await client.post('/api/client/invitation/accept', { token })).body).toEqual({
      status: 'success',
      msg: { teamId: owner.id },
    });

    // The same token for another address proves nothing: that account needs its code.
    const otherEmail = uniqueEmail().toLowerCase();
    const other = new ApiClient(stack.url);
    const otherReg = await other.post('/api/registration/client', {
      _username: otherEmail,
      _password: 'secret1',
      firstName: 'Alan',
      lastName: 'Turing',
      altcha: await solveAltcha(stack.url),
      invitation: token,
    });
    expect(otherReg.status).toBe(200);
    const login = await other.post('/api/client/login', { _username: otherEmail, _password: 'secret1' });
    expect(login.body).toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    expect(await findUserIdByEmail(otherEmail)).toBeTruthy();
  });
});

describe('request counts (docs/data-model.md section 6)', () => {
  it('invite 4 (a resend 3), revoke and view 3, accept 4', async () => {
    const owner = await person(stack.url);
    const projectId = await projectOf(owner.client);
    const invitee = await person(stack.url);
    const body = { email: invitee.email, role: 'GUEST', projects: [projectId] };
    expect(await dynamoRequestsOf(() => owner.client.post(invitationsPath(owner.id), body))).toEqual([
      'GetItemCommand',
      'BatchGetItemCommand',
      'QueryCommand',
      'TransactWriteItemsCommand',
    ]);
    expect(await dynamoRequestsOf(() => owner.client.post(invitationsPath(owner.id), body))).toEqual([
      'GetItemCommand',
      'BatchGetItemCommand',
      'TransactWriteItemsCommand',
    ]);
    const token = await mailedToken(stack.url, invitee.email);
    expect(
      await dynamoRequestsOf(() => new ApiClient(stack.url).post('/api/invitation/view', { token })),
    ).toEqual(['UpdateItemCommand', 'BatchGetItemCommand', 'BatchGetItemCommand']);
    expect(
      await dynamoRequestsOf(() => invitee.client.post('/api/client/invitation/accept', { token })),
    ).toEqual(['GetItemCommand', 'UpdateItemCommand', 'BatchGetItemCommand', 'TransactWriteItemsCommand']);
    const again = msgOf<{ id: string }>(
      await owner.client.post(invitationsPath(owner.id), { ...body, email: uniqueEmail() }),
    );
    expect(
      await dynamoRequestsOf(() => owner.client.delete(`${invitationsPath(owner.id)}/${again.id}`)),
    ).toEqual(['GetItemCommand', 'BatchGetItemCommand', 'TransactWriteItemsCommand']);
  });
});
