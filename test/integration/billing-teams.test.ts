/**
 * Billing belongs to the team (issue 22, docs/data-model.md 4.12 "Plan, payments, allowance, quota move to
 * the team"): only its OWNER may pay, ask for Business or read its history and invoices; the billing calls
 * and `POST client/website` take `teamId`, defaulting to the team in use (the switcher's cookie); each
 * team's plan gates its own projects and counts its own allowance. Members are written directly
 * (test/support/billing-teams.ts), as the members increment's accept writes them.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { writePlan } from '../../functions/billing/store';
import type { ApiClient } from '../support/api-client';
import { watchDynamo } from '../support/dynamo-calls';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam, switchTeam } from '../support/teams';
import { signedIn } from '../support/users';
import { widgetCall } from '../support/widget';

const stack = setUpTestStack();

const SITE = 'https://shop.example';
const cookieOf = (client: ApiClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function person() {
  const s = await signedIn(stack.url);
  return { ...s, id: (await findUserIdByEmail(s.email)) as string };
}

async function item(pk: string, sk: string) {
  const out = await db().send(
    new GetCommand({ TableName: stack.tableName, Key: { pk, sk }, ConsistentRead: true }),
  );
  return out.Item ?? {};
}

/** Starts a Starter checkout and pays it on the stand-in's page; the answer of the checkout call. */
async function payStarter(client: ApiClient, body: Record<string, unknown> = {}) {
  const res = await client.post<{ id: string }>('/api/client/payment', { amount: 1000, ...body });
  if (res.status !== 200) return res;
  const { id } = (res.body as { msg: { id: string } }).msg;
  await fetch(`${stack.stripe!.endpoint}/c/pay/${id}/pay`, { method: 'POST', redirect: 'manual' });
  return res;
}

async function businessRequest(client: ApiClient, fields: Record<string, string> = {}) {
  const form = new FormData();
  const all = { company: 'Muster GmbH', period: '12', payment_method: 'invoice', country: 'Germany' };
  for (const [k, v] of Object.entries({ ...all, country_code: 'DE', vat: 'DE136695976', ...fields }))
    form.append(k, v);
  const res = await fetch(`${stack.url}/api/client/profile/business_plan`, {
    method: 'POST',
    headers: { origin: stack.url, cookie: cookieOf(client) },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { code?: string } };
}

const invoicePage = (client: ApiClient, number: string) =>
  fetch(`${stack.url}/api/client/invoice/${number}`, { headers: { cookie: cookieOf(client) } });

interface History {
  payments: { plan: string; invoice: string | null }[];
  businessRequest: { period: number } | null;
}
const history = async (client: ApiClient, teamId?: string) =>
  client.get<History>(`/api/client/payment${teamId ? `?teamId=${teamId}` : ''}`);

interface Profile {
  plan: string;
  projectCount: number;
  company: string;
  settings: { projects: number | null };
}
const profile = async (client: ApiClient) =>
  ((await client.get<Profile>('/api/client/profile')).body as { msg: Profile }).msg;

const createProject = (client: ApiClient, body: Record<string, unknown> = {}) =>
  client.post<{ id: string }>('/api/client/website', { name: 'Shop', url: 'shop.example', ...body });
const idOf = (res: { body: unknown }) => (res.body as { msg: { id: string } }).msg.id;

describe('payments belong to the team: only its OWNER pays', () => {
  it('refuses an ADMIN and a MEMBER with 403 on every billing call, an outsider with 404, and stores nothing', async () => {
    const owner = await person();
    const team = owner.id;
    await payStarter(owner.client, { company: 'Owner Ltd' });
    const number = ((await history(owner.client)).body as { msg: History }).msg.payments[0]!.invoice!;
    expect(number).toBeTruthy();
    const admin = await person();
    const member = await person();
    const outsider = await person();
    await addToTeam(team, admin.id, 'ADMIN');
    await addToTeam(team, member.id, 'MEMBER');

    for (const [who, status, code] of [
      [admin, 403, 'FORBIDDEN'],
      [member, 403, 'FORBIDDEN'],
      [outsider, 404, 'NOT_FOUND'],
    ] as const) {
      const pay = await who.client.post('/api/client/payment', { amount: 1000, teamId: team });
      expect([pay.status, pay.body], `${code} checkout`).toEqual([status, expect.objectContaining({ code })]);
      const list = await history(who.client, team);
      expect([list.status, list.body], `${code} history`).toEqual([
        status,
        expect.objectContaining({ code }),
      ]);
      const ask = await businessRequest(who.client, { teamId: team });
      expect([ask.status, ask.body.code], `${code} business`).toEqual([status, code]);
      const page = await invoicePage(who.client, number);
      expect(page.status, `${code} invoice`).toBe(status);
      expect(await page.text()).not.toContain('Owner Ltd');
      // The team in use is the owner's (the switcher's cookie): the same refusals without `teamId`.
      if (status === 403) {
        switchTeam(who.client, team);
        expect((await who.client.post('/api/client/payment', { amount: 1000 })).status).toBe(403);
        expect((await history(who.client)).status).toBe(403);
        expect((await businessRequest(who.client)).status).toBe(403);
        switchTeam(who.client);
      }
    }
    // Nothing was stored for the team: one payment, no Business request, the plan as paid.
    const own = (await history(owner.client)).body as { msg: History };
    expect(own.msg.payments).toHaveLength(1);
    expect(own.msg.businessRequest).toBeNull();
    // Their own personal teams they pay for as before.
    expect((await payStarter(admin.client)).status).toBe(200);
    expect((await profile(admin.client)).plan).toBe('BASIC_PLAN');
    expect((await invoicePage(owner.client, number)).status).toBe(200);
  });

  it('keeps the payment, the request and the history in TEAM#tid, and names the team to Stripe', async () => {
    const owner = await person();
    const res = await payStarter(owner.client);
    const csId = (res.body as { msg: { id: string } }).msg.id;
    expect(stack.stripe!.sessions.get(csId)?.client_reference_id).toBe(owner.id);
    expect(await item(`CHECKOUT#${csId}`, 'CHECKOUT')).toMatchObject({ teamId: owner.id, userId: owner.id });
    expect((await businessRequest(owner.client)).status).toBe(200);
    expect(await item(`TEAM#${owner.id}`, 'BIZREQ_PENDING')).toMatchObject({ period: 12 });
    expect(await item(`TEAM#${owner.id}`, 'TEAM')).toMatchObject({
      plan: 'BASIC_PLAN',
      gsi1pk: expect.stringMatching(/^EXPIRE#/),
      gsi1sk: `TEAM#${owner.id}`,
    });
    expect(await item(`USER#${owner.id}`, 'BIZREQ_PENDING')).toEqual({});
  });
});

describe('the expiry reminder', () => {
  it("mails the team's OWNER once, not its other members", async () => {
    const owner = await person();
    const admin = await person();
    await addToTeam(owner.id, admin.id, 'ADMIN');
    await writePlan(owner.id, 'BASIC_PLAN', new Date(Date.now() + 5 * 86_400_000).toISOString());
    const first = (await stack.runSchedule('reminders')) as { sent: string[] };
    expect(first.sent).toContain(owner.email);
    expect(first.sent).not.toContain(admin.email);
    expect(await item(`TEAM#${owner.id}`, 'TEAM')).toMatchObject({ remindedFor: expect.any(String) });
    const second = (await stack.runSchedule('reminders')) as { sent: string[] };
    expect(second.sent).not.toContain(owner.email);
  });
});

describe('the team in use', () => {
  it('is what POST client/website and GET client/profile default to; `teamId` names another', async () => {
    const owner = await person();
    const admin = await person();
    const member = await person();
    const team = owner.id;
    await addToTeam(team, admin.id, 'ADMIN');
    await addToTeam(team, member.id, 'MEMBER');
    expect(
      (await owner.client.post('/api/dev/plan', { username: owner.email, plan: 'BASIC_PLAN' })).status,
    ).toBe(200);

    // Without a switch: the admin's personal team (Free).
    expect(await profile(admin.client)).toMatchObject({ plan: 'FREE_PLAN', projectCount: 0 });
    switchTeam(admin.client, team);
    // Switched: the owner's team's plan and count, without the owner's billing details.
    expect(await profile(admin.client)).toMatchObject({ plan: 'BASIC_PLAN', projectCount: 0, company: '' });
    const dynamo = watchDynamo();
    let made: Awaited<ReturnType<typeof createProject>> | undefined;
    try {
      // Session, one BatchGetItem (USER, TEAMS, TEAM), one transaction: DESIGN.md section 7's 3.
      const calls = await dynamo.during(async () => {
        made = await createProject(admin.client);
      });
      expect(calls.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
      const read = await dynamo.during(() => profile(admin.client));
      expect(read.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand']);
    } finally {
      dynamo.stop();
    }
    expect(made?.status).toBe(201);
    const meta = await item(`PROJECT#${idOf(made!)}`, 'META');
    expect(meta).toMatchObject({
      teamId: team,
      ownerId: admin.id,
      gsi1pk: `OWNER#${team}`,
      ownerPlan: 'BASIC_PLAN',
      seat: 1,
    });
    expect(await item(`TEAM#${team}`, 'TEAM')).toMatchObject({ projectCount: 1 });
    expect(await item(`TEAM#${admin.id}`, 'TEAM')).toMatchObject({ projectCount: 0 });
    // `teamId` wins over the cookie.
    const own = await createProject(admin.client, { teamId: admin.id });
    expect(own.status).toBe(201);
    expect(await item(`PROJECT#${idOf(own)}`, 'META')).toMatchObject({
      teamId: admin.id,
      ownerPlan: 'FREE_PLAN',
    });
    // A cookie of a team the user is not in is ignored (the personal team), a named one is 404.
    switchTeam(member.client, admin.id);
    expect((await profile(member.client)).plan).toBe('FREE_PLAN');
    expect((await createProject(member.client, { teamId: admin.id })).body).toMatchObject({
      code: 'NOT_FOUND',
    });
    // A MEMBER may not create projects in the team.
    const refused = await createProject(member.client, { teamId: team });
    expect([refused.status, refused.body]).toEqual([403, expect.objectContaining({ code: 'FORBIDDEN' })]);
    expect(await item(`TEAM#${team}`, 'TEAM')).toMatchObject({ projectCount: 1 });
  });
});

describe("a team's plan", () => {
  it("gates the team's projects and counts the team's own allowance", async () => {
    const owner = await person();
    const admin = await person();
    const team = owner.id;
    await addToTeam(team, admin.id, 'ADMIN');
    await payStarter(owner.client);
    // The admin's personal team is Free: one project.
    expect((await createProject(admin.client)).status).toBe(201);
    expect((await createProject(admin.client)).body).toMatchObject({ code: 'PLAN_LIMIT' });
    // The owner's team is Starter: three, whoever creates them.
    const ids: string[] = [];
    for (const client of [admin.client, owner.client, admin.client]) {
      const res = await createProject(client, { teamId: team });
      expect(res.status).toBe(201);
      ids.push(idOf(res));
    }
    expect((await createProject(admin.client, { teamId: team })).body).toMatchObject({ code: 'PLAN_LIMIT' });
    expect(await item(`TEAM#${team}`, 'TEAM')).toMatchObject({ projectCount: 3 });
    expect(await item(`TEAM#${admin.id}`, 'TEAM')).toMatchObject({ projectCount: 1 });
    // The widget reads the team's plan from its copy: Starter takes attachments on all three.
    for (const id of ids) {
      const form = await widgetCall(
        stack.url,
        id,
        'upload',
        { kind: 'file', type: 'application/pdf', size: 10 },
        { origin: SITE },
      );
      expect(form.status, id).toBe(200);
    }
    // Deleting one frees the team's place (not the admin's), and the seats close up. (The owner deletes
    // its own: project access through the team is the access increment's.)
    expect((await owner.client.delete(`/api/client/website/${ids[1]}`)).status).toBe(200);
    expect(await item(`TEAM#${team}`, 'TEAM')).toMatchObject({ projectCount: 2 });
    expect(await item(`TEAM#${admin.id}`, 'TEAM')).toMatchObject({ projectCount: 1 });
    expect(await item(`PROJECT#${ids[0]}`, 'META')).toMatchObject({ seat: 1 });
    expect(await item(`PROJECT#${ids[2]}`, 'META')).toMatchObject({ seat: 2 });
    expect((await createProject(admin.client, { teamId: team })).status).toBe(201);
  });
});

describe('a hostile teamId', () => {
  it('is refused with INVALID_PARAMETERS on every call that takes one, and nothing is stored', async () => {
    const a = await person();
    for (const bad of ['nope', "x' OR 1=1", '../TEAM#x', '00000000-0000-0000-0000-00000000000g']) {
      const q = await a.client.get(`/api/client/payment?teamId=${encodeURIComponent(bad)}`);
      expect([q.status, q.body], bad).toEqual([400, expect.objectContaining({ code: 'INVALID_PARAMETERS' })]);
      const pay = await a.client.post('/api/client/payment', { amount: 1000, teamId: bad });
      expect(pay.status, bad).toBe(400);
      expect((await createProject(a.client, { teamId: bad })).status, bad).toBe(400);
      const ask = await businessRequest(a.client, { teamId: bad });
      expect([ask.status, ask.body.code], bad).toEqual([400, 'INVALID_PARAMETERS']);
    }
    // A well-formed id of no team the caller is in: 404, as for another client's team.
    const stranger = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    expect((await a.client.get(`/api/client/payment?teamId=${stranger}`)).status).toBe(404);
    expect((await createProject(a.client, { teamId: stranger })).status).toBe(404);
    expect(await item(`TEAM#${a.id}`, 'TEAM')).toMatchObject({ projectCount: 0 });
  });
});
