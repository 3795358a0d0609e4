/**
 * Project access through the team (issue 22, docs/data-model.md 4.12) through the local stack: a MEMBER
 * reviews and closes issues but may not change settings, integrations or delete; a GUEST sees only its
 * projects; a removed member's next call is refused on the session it still has; a write racing a removal
 * fails its guard; `GET client/website` per team (teamId, all, the switcher's cookie); an account made
 * before teams gets its personal team on its first project call.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { TEAM_COOKIE } from '#contracts/cookies';
import { integrationNames } from '#contracts/integration-names';
import { db } from '#runtime/aws/dynamo';
import { hashPassword } from '#runtime/crypto';
import { tableName } from '#runtime/db';
import { createUser, findUserIdByEmail, newUser } from '../../functions/accounts/user';
import { accessGuard, readProjectAs } from '../../functions/projects/access';
import { saveProject } from '../../functions/projects/project';
import { memberKey, teamsKey } from '../../functions/teams/member';
import { ApiClient } from '../support/api-client';
import { countFunctionRequests } from '../support/dynamo-calls';
import { seedIssues } from '../support/issues';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam, removeFromTeam } from '../support/teams';
import { signedIn, uniqueEmail } from '../support/users';

const stack = setUpTestStack();

/** DynamoDB requests the projects function sends (DESIGN.md section 7: at most 3 for a dashboard call). */
const dynamoRequestsOf = countFunctionRequests('api:projects');

interface Person {
  client: ApiClient;
  uid: string;
  email: string;
}
interface Listed {
  uuid: string;
  teamId: string;
  role: string;
  owner: string;
}

async function person(): Promise<Person> {
  const { client, email } = await signedIn(stack.url);
  const uid = await findUserIdByEmail(email.toLowerCase());
  if (!uid) throw new Error('no user id');
  return { client, uid, email };
}

async function project(owner: Person, name = 'Shop'): Promise<string> {
  const res = await owner.client.post<{ id: string }>('/api/client/website', { name, url: 'shop.example' });
  expect(res.status).toBe(201);
  return (res.body as { msg: { id: string } }).msg.id;
}

const websites = async (p: Person, query = '') => {
  const res = await p.client.get<{ websites: Listed[] }>(`/api/client/website${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { msg: { websites: Listed[] } }).msg.websites;
};

/** An agency's team: its owner, two projects with issues, a MEMBER and a GUEST of the first project. */
async function agency() {
  const owner = await person();
  // Two projects need a paid plan (the local-only route).
  const plan = await owner.client.post('/api/dev/plan', {
    username: owner.email,
    plan: 'BASIC_PLAN',
    days: 30,
  });
  expect(plan.status).toBe(200);
  const [p1, p2] = [await project(owner, 'One'), await project(owner, 'Two')];
  await seedIssues(p1, 3);
  const member = await person();
  const guest = await person();
  await addToTeam(owner.uid, member.uid, 'MEMBER');
  await addToTeam(owner.uid, guest.uid, 'GUEST', [p1]);
  return { team: owner.uid, owner, member, guest, p1, p2 };
}

describe('a MEMBER', () => {
  it('reviews and closes an issue, but is FORBIDDEN on settings, integrations and delete', async () => {
    const { team, member, p1 } = await agency();
    const c = member.client;
    const detail = await c.get<{ website: Listed }>(`/api/client/website/${p1}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ msg: { integrations: expect.any(Array) } });
    expect((detail.body as unknown as { msg: { integrations: unknown[] } }).msg.integrations).toHaveLength(
      integrationNames.length,
    );
    expect((detail.body as { msg: { website: Listed } }).msg.website).toMatchObject({
      uuid: p1,
      teamId: team,
      role: 'MEMBER',
      owner: 'Ada Lovelace',
    });
    expect((await c.get(`/api/client/website/${p1}/request`)).status).toBe(200);
    expect((await c.get(`/api/client/website/${p1}/request/2`)).status).toBe(200);
    const closed = await c.patch(`/api/client/website/${p1}/request/2`, { restore: false });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ msg: { number: 2, deleted: 1 } });
    for (const [method, path, body] of [
      ['PATCH', `/api/client/website/${p1}`, { name: 'Mine now' }],
      ['PATCH', `/api/client/integration/${p1}`, [{ name: 'email', active: 0, data: {} }]],
      ['DELETE', `/api/client/website/${p1}`, undefined],
    ] as const) {
      const res = await c.call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toMatchObject({ status: 'error', code: 'FORBIDDEN' });
    }
    // Nothing of it was written.
    const meta = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: { pk: `PROJECT#${p1}`, sk: 'META' },
        ConsistentRead: true,
      }),
    );
    expect(meta.Item?.name).toBe('One');
  });
});

describe('a GUEST', () => {
  it('sees only its project: the team’s others are NOT_FOUND, and it may read but not triage', async () => {
    const { team, guest, p1, p2 } = await agency();
    const c = guest.client;
    expect((await websites(guest, `?teamId=${team}`)).map((w) => [w.uuid, w.role])).toEqual([[p1, 'GUEST']]);
    const detail = await c.get(`/api/client/website/${p1}`);
    expect(detail.status).toBe(200);
    // Its role, and none of the agency's integration set-up (not part of `read`).
    expect(detail.body).toMatchObject({
      msg: { website: { role: 'GUEST', teamId: team }, integrations: [] },
    });
    expect((await c.get(`/api/client/website/${p1}/request/1`)).status).toBe(200);
    for (const path of [`/api/client/website/${p2}`, `/api/client/website/${p2}/request`]) {
      const res = await c.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await c.patch(`/api/client/website/${p1}/request/1`, { restore: false })).status).toBe(403);
  });
});

describe('a removed member', () => {
  it('is refused (404) on the next call of the session it still has', async () => {
    const { team, member, p1 } = await agency();
    expect((await member.client.get(`/api/client/website/${p1}/request`)).status).toBe(200);
    await removeFromTeam(team, member.uid);
    expect((await member.client.get(`/api/client/website/${p1}/request`)).status).toBe(404);
    expect((await member.client.get(`/api/client/website/${p1}`)).status).toBe(404);
    expect((await member.client.get(`/api/client/website?teamId=${team}`)).status).toBe(404);
    // The session itself lives on: the member's own team still answers.
    expect((await member.client.get('/api/client/website')).status).toBe(200);
  });

  it('loses a write that races the removal: the guard’s ConditionCheck on TEAMS fails (T4)', async () => {
    const { team, owner, p1 } = await agency();
    const admin = await person();
    await addToTeam(team, admin.uid, 'ADMIN');
    // The read and check of PATCH client/website/{id}, then the removal, then the write with its guard.
    const { project, caller } = await readProjectAs(admin.uid, p1, 'settings');
    expect(project.role).toBe('ADMIN');
    await removeFromTeam(team, admin.uid);
    await expect(
      saveProject(p1, accessGuard(caller, team, 'settings', p1), { name: 'Raced' }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // The owner's guard still holds, and the admin's name never landed.
    const { caller: ownerCaller } = await readProjectAs(owner.uid, p1, 'settings');
    await saveProject(p1, accessGuard(ownerCaller, team, 'settings', p1), { name: 'Renamed' });
    const detail = await owner.client.get(`/api/client/website/${p1}`);
    expect((detail.body as { msg: { website: { name: string } } }).msg.website.name).toBe('Renamed');
  });
});

describe('GET client/website per team', () => {
  it('lists the team in use (the switcher’s cookie, else the personal team), a named team, or all', async () => {
    const { team, member, p1, p2 } = await agency();
    const own = await project(member, 'Own');
    // Default: the personal team.
    expect((await websites(member)).map((w) => [w.uuid, w.teamId, w.role])).toEqual([
      [own, member.uid, 'OWNER'],
    ]);
    expect((await websites(member, `?teamId=${team}`)).map((w) => w.uuid)).toEqual([p1, p2]);
    const all = await websites(member, '?teamId=all');
    expect(all.map((w) => [w.uuid, w.role]).sort()).toEqual(
      [
        [p1, 'MEMBER'],
        [p2, 'MEMBER'],
        [own, 'OWNER'],
      ].sort(),
    );
    member.client.cookies.set(TEAM_COOKIE, team);
    expect((await websites(member)).map((w) => [w.uuid, w.owner])).toEqual([
      [p1, 'Ada Lovelace'],
      [p2, 'Ada Lovelace'],
    ]);
    // Within the budget: the session, the batch of TEAMS and the owner's name, the team's Query.
    const calls = await dynamoRequestsOf(() => member.client.get('/api/client/website'));
    expect(calls.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'QueryCommand']);
    // Another team's project detail: the session, META + TEAMS + integrations, the owner's name.
    const detail = await dynamoRequestsOf(() => member.client.get(`/api/client/website/${p1}`));
    expect(detail.sort()).toEqual(['BatchGetItemCommand', 'BatchGetItemCommand', 'GetItemCommand']);
    // A cookie naming a team the caller is not in is ignored (a stale switcher must not break the list).
    member.client.cookies.set(TEAM_COOKIE, crypto.randomUUID());
    expect((await websites(member)).map((w) => w.uuid)).toEqual([own]);
  });

  it('refuses a team the caller is not in (404) and a malformed teamId (400)', async () => {
    const { team } = await agency();
    const stranger = await person();
    expect((await stranger.client.get(`/api/client/website?teamId=${team}`)).status).toBe(404);
    expect((await stranger.client.get('/api/client/website?teamId=nope')).status).toBe(400);
  });
});

describe('an account made before teams', () => {
  it('gets its personal team on its first project call, and keeps its projects', async () => {
    const email = uniqueEmail().toLowerCase();
    const user = newUser({
      email,
      firstName: 'Grace',
      lastName: 'Hopper',
      passwordHash: await hashPassword('secret1'),
      confirmed: true,
    });
    await createUser(user);
    const client = new ApiClient(stack.url);
    expect((await client.post('/api/client/login', { _username: email, _password: 'secret1' })).status).toBe(
      200,
    );
    const created = await client.post<{ id: string }>('/api/client/website', {
      name: 'Old',
      url: 'old.example',
    });
    const id = (created.body as { msg: { id: string } }).msg.id;
    // Creating the project made the team (the lazy migration): put the account back as the old code left
    // it, a project without teamId and no team items.
    const remove = (Key: Record<string, string>, what: string) =>
      db().send(new UpdateCommand({ TableName: tableName(), Key, UpdateExpression: `REMOVE ${what}` }));
    await remove({ pk: `PROJECT#${id}`, sk: 'META' }, 'teamId');
    await remove({ pk: `USER#${user.id}`, sk: 'USER' }, 'teamId');
    for (const Key of [teamsKey(user.id), { pk: `TEAM#${user.id}`, sk: 'TEAM' }, memberKey(user.id, user.id)])
      await db().send(new DeleteCommand({ TableName: tableName(), Key }));
    const before = await db().send(new GetCommand({ TableName: tableName(), Key: teamsKey(user.id) }));
    expect(before.Item).toBeUndefined();
    const res = await client.get(`/api/client/website/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      msg: { website: { teamId: user.id, role: 'OWNER', owner: 'Grace Hopper' } },
    });
    const after = await db().send(new GetCommand({ TableName: tableName(), Key: teamsKey(user.id) }));
    expect(after.Item?.teams).toEqual({ [user.id]: { r: 'OWNER' } });
  });
});
