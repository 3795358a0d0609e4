/**
 * Teams, first increment (issue 22, docs/data-model.md 4.12) through the local stack: registration writes
 * the personal team in the account's transaction; GET client/teams and client/team/{teamId}; PATCH the
 * name with the names rule; another client is refused with 404; an account made before teams gets its
 * team on first use and from the migration, once, however often and however concurrently they run.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { hashPassword } from '#runtime/crypto';
import { tableName } from '#runtime/db';
import { createUser, findUserIdByEmail, newUser } from '../../functions/accounts/user';
import { teamGuard } from '../../functions/projects/access';
import { migrateTeams } from '../../functions/teams/migrate';
import { renameTeam } from '../../functions/teams/team';
import { solveAltcha } from '../support/altcha';
import { ApiClient } from '../support/api-client';
import { countFunctionRequests } from '../support/dynamo-calls';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { confirmFromMail, signedIn, uniqueEmail } from '../support/users';

const stack = setUpTestStack();

/** DynamoDB requests the teams function sends (DESIGN.md section 7 budget). */
const dynamoRequestsOf = countFunctionRequests('api:teams');

interface TeamsList {
  teams: { id: string; name: string; role: string; plan: string }[];
}
interface TeamDetail {
  team: { id: string; name: string; plan: string; plan_expire: { date: string | null }; settings: object };
  members: { userId: string; username: string; firstName: string; lastName: string; role: string }[];
  invitations: unknown[];
}

/** Everything stored in a team's partition, and the user's TEAMS item. */
async function stored(uid: string) {
  const partition = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `TEAM#${uid}` },
      ConsistentRead: true,
    }),
  );
  const teams = await db().send(
    new GetCommand({ TableName: tableName(), Key: { pk: `USER#${uid}`, sk: 'TEAMS' }, ConsistentRead: true }),
  );
  return { sks: (partition.Items ?? []).map((i) => i.sk).sort(), teams: teams.Item };
}

/** An account as the code before teams wrote it (USER, EMAIL; no TEAMS), confirmed and signed in. */
async function preTeamAccount() {
  const email = uniqueEmail().toLowerCase();
  const user = newUser({
    email,
    firstName: 'Grace',
    lastName: 'Hopper',
    passwordHash: await hashPassword('secret1'),
    confirmed: true,
    lang: 'de',
  });
  await createUser(user);
  const client = new ApiClient(stack.url);
  const login = await client.post('/api/client/login', { _username: email, _password: 'secret1' });
  expect(login.status).toBe(200);
  return { client, uid: user.id };
}

describe('the personal team', () => {
  it('is written with the account at registration and listed, with the owner as its one member', async () => {
    const { client, email } = await signedIn(stack.url);
    const uid = (await findUserIdByEmail(email)) as string;
    expect(await stored(uid)).toMatchObject({
      sks: [`MEMBER#${uid}`, 'TEAM'],
      teams: { teams: { [uid]: { r: 'OWNER' } }, personal: uid },
    });
    const list = await client.get<TeamsList>('/api/client/teams');
    expect(list.body).toEqual({
      status: 'success',
      msg: { teams: [{ id: uid, name: "Ada's team", role: 'OWNER', plan: 'FREE_PLAN', personal: true }] },
    });
    const detail = await client.get<TeamDetail>(`/api/client/team/${uid}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      msg: {
        team: { id: uid, name: "Ada's team", plan: 'FREE_PLAN', plan_expire: { date: null } },
        members: [
          {
            userId: uid,
            username: email,
            firstName: 'Ada',
            lastName: 'Lovelace',
            role: 'OWNER',
            projects: [],
          },
        ],
        invitations: [],
      },
    });
    expect((detail.body as { msg: TeamDetail }).msg.team.settings).toMatchObject({
      projects: expect.any(Number),
    });
  });

  it('is named in German for a German registration', async () => {
    const client = new ApiClient(stack.url);
    const email = uniqueEmail().toLowerCase();
    const res = await client.post('/api/registration/client?lng=de', {
      _username: email,
      _password: 'secret1',
      firstName: 'Ada',
      lastName: 'L',
      altcha: await solveAltcha(stack.url),
    });
    expect(res.status).toBe(200);
    await confirmFromMail(stack.url, client, email);
    await client.post('/api/client/login', { _username: email, _password: 'secret1' });
    const list = await client.get<TeamsList>('/api/client/teams');
    expect((list.body as { msg: TeamsList }).msg.teams[0]?.name).toBe('Team von Ada');
  });
});

describe('renaming a team', () => {
  it('renames it for the owner (the names rule: trimmed)', async () => {
    const { client, email } = await signedIn(stack.url);
    const uid = (await findUserIdByEmail(email)) as string;
    const res = await client.patch(`/api/client/team/${uid}`, { name: '  Lovelace Labs ' });
    expect(res.body).toEqual({ status: 'success', msg: { id: uid, name: 'Lovelace Labs' } });
    const list = await client.get<TeamsList>('/api/client/teams');
    expect((list.body as { msg: TeamsList }).msg.teams[0]?.name).toBe('Lovelace Labs');
  });

  it.each([[''], ['   '], ['x'.repeat(61)], ['a\u202Eb']])(
    'refuses the name %j with INVALID_PARAMETERS',
    async (name) => {
      const { client, email } = await signedIn(stack.url);
      const uid = (await findUserIdByEmail(email)) as string;
      const res = await client.patch(`/api/client/team/${uid}`, { name });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_PARAMETERS' });
      expect((res.body as { fields?: Record<string, string> }).fields).toHaveProperty('name');
      const list = await client.get<TeamsList>('/api/client/teams');
      expect((list.body as { msg: TeamsList }).msg.teams[0]?.name).toBe("Ada's team");
    },
  );

  it('accepts 60 characters', async () => {
    const { client, email } = await signedIn(stack.url);
    const uid = (await findUserIdByEmail(email)) as string;
    expect((await client.patch(`/api/client/team/${uid}`, { name: 'y'.repeat(60) })).status).toBe(200);
  });
});

describe('another client', () => {
  it('gets 404 NOT_FOUND for a team it is not in, and changes nothing', async () => {
    const owner = await signedIn(stack.url);
    const other = await signedIn(stack.url);
    const uid = (await findUserIdByEmail(owner.email)) as string;
    const read = await other.client.get(`/api/client/team/${uid}`);
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    const rename = await other.client.patch(`/api/client/team/${uid}`, { name: 'Taken over' });
    expect(rename.status).toBe(404);
    expect(rename.body).toMatchObject({ code: 'NOT_FOUND' });
    const list = await owner.client.get<TeamsList>('/api/client/teams');
    expect((list.body as { msg: TeamsList }).msg.teams[0]?.name).toBe("Ada's team");
  });

  it('gets 404 for an unknown team id and an anonymous caller 401', async () => {
    const { client } = await signedIn(stack.url);
    expect((await client.get('/api/client/team/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const anonymous = new ApiClient(stack.url);
    expect((await anonymous.get('/api/client/teams')).status).toBe(401);
  });
});

describe('a member of the team', () => {
  it('reads the team; a MEMBER may not rename it (403 FORBIDDEN), an ADMIN may', async () => {
    const owner = await signedIn(stack.url);
    const member = await signedIn(stack.url);
    const admin = await signedIn(stack.url);
    const tid = (await findUserIdByEmail(owner.email)) as string;
    const memberId = (await findUserIdByEmail(member.email)) as string;
    const adminId = (await findUserIdByEmail(admin.email)) as string;
    await addToTeam(tid, memberId, 'MEMBER');
    await addToTeam(tid, adminId, 'ADMIN');

    const list = await member.client.get<TeamsList>('/api/client/teams');
    expect((list.body as { msg: TeamsList }).msg.teams).toEqual(
      expect.arrayContaining([
        { id: memberId, name: "Ada's team", role: 'OWNER', plan: 'FREE_PLAN', personal: true },
        { id: tid, name: "Ada's team", role: 'MEMBER', plan: 'FREE_PLAN', personal: false },
      ]),
    );
    const detail = await member.client.get<TeamDetail>(`/api/client/team/${tid}`);
    expect(detail.status).toBe(200);
    const roleOf = Object.fromEntries(
      (detail.body as { msg: TeamDetail }).msg.members.map((m) => [m.userId, m.role]),
    );
    expect(roleOf).toEqual({ [tid]: 'OWNER', [memberId]: 'MEMBER', [adminId]: 'ADMIN' });

    const refused = await member.client.patch(`/api/client/team/${tid}?lng=de`, { name: 'Mine now' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      status: 'error',
      code: 'FORBIDDEN',
      msg: 'Ihre Rolle in diesem Team erlaubt das nicht',
    });
    // The write-time guard alone (a role lost between the read and the write): DynamoDB refuses it.
    await expect(renameTeam(tid, 'Raced', teamGuard(memberId, tid, 'team.rename'))).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(
      renameTeam(tid, 'Raced', teamGuard(memberId, memberId, 'team.rename')),
    ).resolves.toBeUndefined();
    const renamed = await admin.client.patch(`/api/client/team/${tid}`, { name: 'Shared' });
    expect(renamed.status).toBe(200);
    const owners = await owner.client.get<TeamsList>('/api/client/teams');
    expect((owners.body as { msg: TeamsList }).msg.teams).toEqual([
      { id: tid, name: 'Shared', role: 'OWNER', plan: 'FREE_PLAN', personal: true },
    ]);
  });
});

describe('an account made before teams', () => {
  it('gets its team (named in its language) on the first GET client/teams, once', async () => {
    const { client, uid } = await preTeamAccount();
    expect((await stored(uid)).teams).toBeUndefined();
    const [a, b] = await Promise.all([
      client.get<TeamsList>('/api/client/teams'),
      client.get<TeamsList>('/api/client/teams'),
    ]);
    for (const res of [a, b]) {
      expect(res.body).toEqual({
        status: 'success',
        msg: {
          teams: [{ id: uid, name: 'Team von Grace', role: 'OWNER', plan: 'FREE_PLAN', personal: true }],
        },
      });
    }
    expect(await stored(uid)).toMatchObject({
      sks: [`MEMBER#${uid}`, 'TEAM'],
      teams: { teams: { [uid]: { r: 'OWNER' } } },
    });
  });

  it('gets its team on the first GET client/team/{own id}', async () => {
    const { client, uid } = await preTeamAccount();
    const res = await client.get<TeamDetail>(`/api/client/team/${uid}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      msg: { team: { id: uid, name: 'Team von Grace' }, members: [{ userId: uid, role: 'OWNER' }] },
    });
  });

  it('gets its team from the migration, run twice in a row and in parallel with a request, without duplicates', async () => {
    const first = await preTeamAccount();
    const second = await preTeamAccount();
    const dry = await migrateTeams({ dryRun: true });
    expect(dry.created).toBeGreaterThanOrEqual(2);
    expect((await stored(first.uid)).teams).toBeUndefined();

    const once = await migrateTeams();
    expect(once.created).toBeGreaterThanOrEqual(2);
    const again = await migrateTeams({ segments: 2 });
    expect(again.created).toBe(0);
    expect(again.existing).toBe(again.accounts);
    for (const { uid } of [first, second]) {
      expect(await stored(uid)).toMatchObject({ sks: [`MEMBER#${uid}`, 'TEAM'], teams: { personal: uid } });
    }

    const third = await preTeamAccount();
    const [r1, r2, list] = await Promise.all([
      migrateTeams(),
      migrateTeams({ segments: 3 }),
      third.client.get<TeamsList>('/api/client/teams'),
    ]);
    expect(r1.created + r2.created).toBeLessThanOrEqual(1);
    expect((list.body as { msg: TeamsList }).msg.teams).toEqual([
      { id: third.uid, name: 'Team von Grace', role: 'OWNER', plan: 'FREE_PLAN', personal: true },
    ]);
    expect(await stored(third.uid)).toMatchObject({
      sks: [`MEMBER#${third.uid}`, 'TEAM'],
      teams: { personal: third.uid },
    });
    // A completed run leaves no cursor behind, so the next one starts from the beginning.
    const cursors = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'MIGRATION#teams' },
        ConsistentRead: true,
      }),
    );
    expect(cursors.Items).toEqual([]);
  });
});

describe('deleting the account', () => {
  it('deletes its personal team with it (the team name holds the first name)', async () => {
    const { client, email } = await signedIn(stack.url);
    const uid = (await findUserIdByEmail(email)) as string;
    expect((await stored(uid)).sks).toEqual([`MEMBER#${uid}`, 'TEAM']);
    expect((await client.delete('/api/client/profile')).status).toBe(200);
    expect(await stored(uid)).toEqual({ sks: [], teams: undefined });
  });
});

describe('request counts (DESIGN.md section 7: at most 3)', () => {
  it('GET client/teams, GET client/team/{teamId} and PATCH client/team/{teamId} take 3 each', async () => {
    const { client, email } = await signedIn(stack.url);
    const uid = (await findUserIdByEmail(email)) as string;
    expect(await dynamoRequestsOf(() => client.get('/api/client/teams'))).toEqual([
      'GetItemCommand',
      'GetItemCommand',
      'BatchGetItemCommand',
    ]);
    expect(await dynamoRequestsOf(() => client.get(`/api/client/team/${uid}`))).toEqual([
      'GetItemCommand',
      'QueryCommand',
      'BatchGetItemCommand',
    ]);
    expect(
      await dynamoRequestsOf(() => client.patch(`/api/client/team/${uid}`, { name: 'Renamed' })),
    ).toEqual(['GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
  });
});
