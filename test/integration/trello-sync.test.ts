/**
 * Trello end to end (issue 36) on the local stack with the vendor fakes and the real queues: the boards
 * call (a refused token, bad input, another client, the plan gate), a report delivered as a card in the
 * chosen list with its screenshot attached and the visitor's hostile text inert, an outage retried, a
 * redelivery and an attempt of unknown outcome making no second card, a refused token failing at once;
 * then both ways: the webhook registered through the API after Trello's HEAD check, deliveries valid,
 * forged, stale, replayed and malformed; the card moved to the done list or archived → the Snag issue
 * resolved and the reporter mailed; resolved and reopened in Snag → the card moved to the done list and
 * back; comments both ways, quoted; our own writes coming back and dropped (no echo).
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SyncListAnswer } from '#contracts/integrations';
import type { HookAnswer } from '#contracts/sync';
import { db } from '#runtime/aws/dynamo';
import { sqs } from '#runtime/aws/sqs';
import { trelloSignature } from '../../functions/integrations/sync/verify';
import { type TrelloFake, trelloBoards, trelloFakeApp } from '../../lib/local/vendors/trello';
import type { SentMail } from '../support/api-client';
import { eventually } from '../support/local-stack';
import { newSite, type Site } from '../support/sites';
import {
  comments,
  msgOf,
  ORIGIN,
  quiet,
  setUpTrackerSync,
  statusBecomes,
  statuses,
  switchOn,
} from '../support/tracker-sync-fixture';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const sync = setUpTrackerSync();
const KEY = trelloFakeApp.key;
const SECRET = trelloFakeApp.secret;
const TOKEN = 'fake-trello-token-0123456789abcdef';
const [website, shop] = trelloBoards;
const todo = website?.lists[0]?.id ?? '';
const doing = website?.lists[1]?.id ?? '';
const done = website?.lists[2]?.id ?? '';
let fake: TrelloFake;

const codeOf = (r: { body: unknown }) => (r.body as { code?: string }).code;
const boards = (site: Site, body: Record<string, unknown>) =>
  site.client.post('/api/client/integration/trello/boards', { siteId: site.id, ...body });
async function trelloView(site: Site) {
  const project = msgOf(await site.client.get(`/api/client/website/${site.id}`));
  return project.integrations.find((i: { name: string }) => i.name === 'trello');
}
const detailKey = (site: Site, n: number) => ({
  pk: `PROJECT#${site.id}`,
  sk: `ISSUE#${String(n).padStart(10, '0')}#DETAIL`,
});
async function detail(site: Site, n: number) {
  const out = await db().send(
    new GetCommand({ TableName: sync.stack.tableName, Key: detailKey(site, n), ConsistentRead: true }),
  );
  return out.Item ?? {};
}
const trelloStatus = (site: Site, n: number, want: number) =>
  eventually(
    async () => {
      const d = await detail(site, n);
      return Number((d.st as Record<string, number>)?.trello) === want ? d : undefined;
    },
    45_000,
    `trello status ${want}`,
  );
const redeliver = (site: Site, n: number) =>
  sqs().send(
    new SendMessageCommand({
      QueueUrl: sync.stack.queues.delivery.url,
      MessageBody: JSON.stringify({
        projectId: site.id,
        issueNumber: n,
        integration: 'trello',
        correlationId: 'x',
      }),
    }),
  );
/** The card of Snag issue `n` of `site` (its description links the issue in the project). */
const cardOf = (site: Site, n: number) =>
  fake.cards.find((c) => c.name.startsWith(`#${n} `) && c.desc.includes(site.id));

async function mailsTo(email: string): Promise<SentMail[]> {
  const res = await fetch(new URL(`/api/dev/emails?to=${encodeURIComponent(email)}`, sync.stack.url));
  return ((await res.json()) as { msg: SentMail[] }).msg;
}

beforeAll(() => {
  fake = sync.fakes.trello;
});

describe('Trello: authorise, save and deliver', () => {
  let site: Site;

  beforeAll(async () => {
    site = await newSite(sync.stack.url, 'BASIC_PLAN');
  });

  it('a refused token is TOKEN_REFUSED and authorises nothing; good credentials list boards and lists and authorise', async () => {
    const refused = await boards(site, { key: KEY, token: 'invalid-token', secret: SECRET });
    expect([refused.status, codeOf(refused)]).toEqual([400, 'TOKEN_REFUSED']);
    expect(await trelloView(site)).toMatchObject({ authorized: 0, data: { token: '', board: '' } });

    const res = await boards(site, { key: KEY, token: TOKEN, secret: SECRET });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(msgOf(res)).toEqual({
      boards: trelloBoards.map((b) => ({ id: b.id, name: b.name })),
      lists: website?.lists.map((l) => ({ id: l.id, name: l.name })),
    });
    // The spec's security: key and token as query parameters on every call.
    for (const r of fake.calls(/^\/1\//))
      expect(r.query).toMatchObject({ key: KEY, token: expect.any(String) });
    expect(await trelloView(site)).toMatchObject({
      active: 0,
      authorized: 1,
      data: {
        key: KEY,
        token: `••••${TOKEN.slice(-4)}`,
        secret: `••••${SECRET.slice(-4)}`,
        board: website?.id,
        list: todo,
        doneList: '',
      },
    });
    // Another board's lists, with the masked token and secret sent back, as the screen asks for them.
    const other = await boards(site, {
      key: KEY,
      token: `••••${TOKEN.slice(-4)}`,
      secret: `••••${SECRET.slice(-4)}`,
      boardId: shop?.id,
    });
    expect(msgOf(other).lists.map((l: { name: string }) => l.name)).toEqual(['Inbox', 'Fixing', 'Shipped']);
    expect((await trelloView(site)).data).toMatchObject({ board: shop?.id, list: shop?.lists[0]?.id });
    await boards(site, { key: KEY, token: TOKEN, secret: SECRET, boardId: website?.id });
  });

  it('refuses bad input with the catalogue code; a masked token with another key must be typed again', async () => {
    const before = await trelloView(site);
    for (const body of [
      { key: KEY, token: TOKEN },
      { key: 'not a key!', token: TOKEN, secret: SECRET },
      { key: KEY, token: '', secret: SECRET },
      { key: KEY, token: 'x'.repeat(1001), secret: SECRET },
    ]) {
      const res = await boards(site, body);
      expect({ body, status: res.status, code: codeOf(res) }).toMatchObject({
        status: 400,
        code: 'INVALID_PARAMETERS',
      });
    }
    const moved = await boards(site, {
      key: 'ffff0000',
      token: before.data.token,
      secret: before.data.secret,
    });
    expect([moved.status, codeOf(moved)]).toEqual([400, 'INVALID_PARAMETERS']);
    const save = await site.client.patch(`/api/client/integration/${site.id}`, [
      { name: 'trello', active: 1, data: { ...before.data, list: 'not-an-id' } },
    ]);
    expect([save.status, codeOf(save)]).toEqual([400, 'INVALID_PARAMETERS']);
    expect(await trelloView(site)).toEqual(before);
  });

  it('another signed-in client is refused on every Trello call, and nothing reaches Trello; a plan without integrations is refused', async () => {
    const { client } = await signedIn(sync.stack.url);
    const calls = fake.requests.length;
    const answers = [
      await client.post('/api/client/integration/trello/boards', {
        siteId: site.id,
        key: KEY,
        token: TOKEN,
        secret: SECRET,
      }),
      await client.delete(`/api/client/integration/trello/authentication/${site.id}`),
      await client.post(`/api/client/integration/trello/hook/${site.id}/register`),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404]);
    expect(fake.requests.length).toBe(calls);
    const free = await newSite(sync.stack.url, 'FREE_PLAN');
    const res = await boards(free, { key: KEY, token: TOKEN, secret: SECRET });
    expect([res.status, codeOf(res)]).toEqual([403, 'INTEGRATION_NOT_AVAILABLE']);
  });

  it('a report becomes one card in the chosen list, status 2, the screenshot attached, hostile text inert', async () => {
    await switchOn(site, 'trello', {});
    fake.reset();
    const hostile =
      'Broken @board @everyone <@123> [x](javascript:alert(1)) <img src=x onerror=alert(1)> https://evil.example ```\n@card ~~~';
    const n = await fileReport(sync.stack.url, site.id, ORIGIN, {
      fields: {
        msg: hostile,
        title: '@board https://evil.example [x](javascript:alert(1))',
        username: 'visitor@example.org',
        href: 'https://shop.example/cart?@board',
      },
      screenshots: [{ type: 'image/png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) }],
    });
    const d = await trelloStatus(site, n, 2);
    expect(fake.cards).toHaveLength(1);
    const card = fake.cards[0];
    expect(card?.idList).toBe(todo);
    // Nothing the visitor wrote mentions anyone or links anywhere on Trello.
    expect(card?.mentions).toEqual([]);
    expect(
      card?.links.filter((l) => !l.includes('/ticket/')),
      card?.desc,
    ).toEqual([]);
    expect(card?.desc).toContain('Broken @board');
    expect(card?.desc).toMatch(/\[Open in Snag\]\(http:\/\/[^)]+\/ticket\/\d+\)/);
    expect(card?.attachments.map((a) => [a.name, a.mimeType, a.size])).toEqual([
      ['screenshot-1.png', 'image/png', 7],
    ]);
    expect(d.vendor_trello).toBe(card?.id);
    expect(d.url_trello).toBe(`${fake.url}/c/${card?.shortLink}`);
    // What the fake received, on its page, without the token the query string carried.
    const page = await (await fetch(`${fake.url}/_fake`)).text();
    expect(page).toContain('/1/cards');
    expect(page).toContain('token=••••');
    expect(page).not.toContain(TOKEN);
  });

  it('a redelivery after the id was recorded makes no second card and no second attachment', async () => {
    const card = fake.cards[0];
    const n = Number(card?.name.match(/^#(\d+)/)?.[1]);
    await db().send(
      new UpdateCommand({
        TableName: sync.stack.tableName,
        Key: detailKey(site, n),
        UpdateExpression: 'SET st.trello = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await redeliver(site, n);
    await trelloStatus(site, n, 2);
    expect(fake.cards).toHaveLength(1);
    expect(fake.cards[0]?.attachments).toHaveLength(1);
  });

  it('an outage is retried until Trello answers, still one card', async () => {
    fake.fail({ match: '/1/cards', times: 2, reply: { status: 503, text: 'down' } });
    const m = await fileReport(sync.stack.url, site.id, ORIGIN, { fields: { msg: 'Second report' } });
    await trelloStatus(site, m, 2);
    expect(fake.cards.filter((c) => c.name.startsWith(`#${m} `))).toHaveLength(1);
  });

  it('after an attempt of unknown outcome nothing is sent again: failed, asking the client to check Trello', async () => {
    const m = await fileReport(sync.stack.url, site.id, ORIGIN, { fields: { msg: 'Lost in flight' } });
    await trelloStatus(site, m, 2);
    fake.cards.splice(
      fake.cards.findIndex((c) => c.name.startsWith(`#${m} `)),
      1,
    );
    await db().send(
      new UpdateCommand({
        TableName: sync.stack.tableName,
        Key: detailKey(site, m),
        UpdateExpression: 'SET st.trello = :one, attempt_trello = :mark REMOVE vendor_trello',
        ExpressionAttributeValues: {
          ':one': 1,
          ':mark': { at: Date.now() - 3_600_000, message: 'a-consumer-that-died', receive: 1 },
        },
      }),
    );
    await redeliver(site, m);
    const d = await trelloStatus(site, m, 3);
    expect(String(d.reason_trello)).toContain('Check Trello, and Sync only if it is missing');
    expect(cardOf(site, m)).toBeUndefined();
  });

  it('a refused token fails at once with the reason and lists the issue as failed', async () => {
    fake.revoke(TOKEN);
    const before = fake.calls('/1/cards').length;
    const m = await fileReport(sync.stack.url, site.id, ORIGIN, { fields: { msg: 'Third report' } });
    const d = await trelloStatus(site, m, 3);
    expect(String(d.reason_trello)).toMatch(/Trello refused the token \(401\)/);
    expect(fake.calls('/1/cards').length).toBe(before + 1);
    const list = msgOf(await site.client.get(`/api/client/website/${site.id}/request?integration=trello`))
      .requests as SyncListAnswer['requests'];
    expect(list.failed.map((t) => t.number)).toContain(m);
  });
});

describe('Trello both ways', () => {
  let site: Site;
  let hook: HookAnswer;
  let n: number;
  let cardId: string;
  const EMAIL = `reporter-${Date.now()}@mail.example`;
  const card = () => fake.cards.find((c) => c.id === cardId);
  const url = () => String(hook.url);
  const post = async (raw: string, signature: string) => {
    const res = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-trello-webhook': signature },
      body: raw,
    });
    return { status: res.status, body: (await res.json()) as { code?: string; msg?: { outcome?: string } } };
  };
  const action = (over: Record<string, unknown> = {}) =>
    JSON.stringify({
      action: {
        id: `${Date.now().toString(16).padStart(24, '0')}`.slice(-24),
        type: 'commentCard',
        date: new Date().toISOString(),
        idMemberCreator: 'm1',
        memberCreator: { id: 'm1', fullName: 'Jane Doe' },
        data: { card: { id: cardId, shortLink: 'abc' }, board: { id: website?.id }, text: 'Hand-made' },
        ...over,
      },
      model: { id: website?.id },
    });

  beforeAll(async () => {
    site = await newSite(sync.stack.url, 'BASIC_PLAN');
    const listed = await boards(site, {
      key: KEY,
      token: 'fake-trello-token-sync0123456789',
      secret: SECRET,
    });
    expect(listed.status).toBe(200);
    await switchOn(site, 'trello', { doneList: done });
    const n0 = await fileReport(sync.stack.url, site.id, ORIGIN, {
      fields: { msg: 'Login loops', title: 'Login', username: EMAIL },
    });
    const created = await eventually(async () => cardOf(site, n0), 30_000, 'the card');
    await trelloStatus(site, n0, 2);
    n = n0;
    cardId = created.id;
  });

  it('answers Trello’s HEAD check of the inbound URL, then registers the webhook on the board', async () => {
    const before = await site.client.post(`/api/client/integration/trello/hook/${site.id}/secret`);
    hook = msgOf(before);
    const head = await fetch(url(), { method: 'HEAD' });
    expect(head.status).toBe(200);
    const unknown = await fetch(url().replace(/[0-9a-f]{32}$/, 'f'.repeat(32)), { method: 'HEAD' });
    expect(unknown.status).toBe(404);
    const registered = await site.client.post(`/api/client/integration/trello/hook/${site.id}/register`);
    expect(registered.status, JSON.stringify([registered.body, fake.headChecks])).toBe(200);
    expect(fake.webhooks).toEqual([
      { id: msgOf(registered).registered.id, callbackURL: url(), idModel: website?.id },
    ]);
    expect(fake.requests.some((r) => r.path === '/1/webhooks/' && r.query.idModel === website?.id)).toBe(
      true,
    );
  });

  it('refuses forged, stale and malformed deliveries, takes a replay once, ignores other boards', async () => {
    const raw = action();
    const forged = await post(raw, trelloSignature('not the secret', raw, url()));
    expect([forged.status, forged.body.code]).toEqual([401, 'HOOK_SIGNATURE_INVALID']);
    // Signed for another callback URL: not this hook's.
    const elsewhere = await post(raw, trelloSignature(SECRET, raw, `${url()}x`));
    expect(elsewhere.status).toBe(401);
    const old = action({ date: new Date(Date.now() - 2 * 3_600_000).toISOString() });
    const stale = await post(old, trelloSignature(SECRET, old, url()));
    expect([stale.status, stale.body.code]).toEqual([401, 'HOOK_STALE']);
    const malformed = JSON.stringify({ action: { id: 1, type: 'commentCard' } });
    const bad = await post(malformed, trelloSignature(SECRET, malformed, url()));
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_PARAMETERS']);
    const other = action({ data: { card: { id: cardId }, board: { id: shop?.id }, text: 'x' } });
    const ignored = await post(other, trelloSignature(SECRET, other, url()));
    expect([ignored.status, ignored.body.msg?.outcome]).toEqual([202, 'ignored']);

    const first = await post(raw, trelloSignature(SECRET, raw, url()));
    expect([first.status, first.body.msg?.outcome]).toEqual([202, 'queued']);
    const again = await post(raw, trelloSignature(SECRET, raw, url()));
    expect([again.status, again.body.msg?.outcome]).toEqual([202, 'duplicate']);
    await eventually(
      async () => (await comments(site, n)).find((c) => c.body === 'Hand-made'),
      30_000,
      'the hand-made comment',
    );
    expect((await comments(site, n)).filter((c) => c.body === 'Hand-made')).toHaveLength(1);
  });

  it('moved to the done list on Trello → resolved in Snag by "Jane Doe on Trello", the reporter mailed; nothing sent back', async () => {
    const puts = () => fake.requests.filter((r) => r.method === 'PUT').length;
    const before = puts();
    const [delivery] = await fake.actAsHuman(cardId, { kind: 'move', list: done });
    expect(delivery?.status).toBe(202);
    await statusBecomes(site, n, 'resolved');
    expect((await statuses(site, n)).at(-1)).toMatchObject({
      actor: { kind: 'tracker', vendor: 'trello', name: 'Jane Doe on Trello' },
      to: 'resolved',
    });
    const replay = await fake.resend(delivery as NonNullable<typeof delivery>);
    expect(replay).toBe(202);
    await quiet(() => fake.settled());
    expect(await statuses(site, n)).toHaveLength(1);
    expect(puts()).toBe(before);
    const mail = await eventually(
      async () => {
        await sync.stack.runSchedule('notifications');
        return (await mailsTo(EMAIL)).find((m) => /resolved|fixed/i.test(`${m.subject} ${m.text}`));
      },
      30_000,
      'the reporter’s mail',
    );
    expect(mail.text).toContain(`#${n} as resolved`);
  });

  it('reopened in Snag → the card back in the first list; resolved in Snag → moved to done once, its echo dropped', async () => {
    const reopen = await site.client.patch(`/api/client/website/${site.id}/request/${n}`, { status: 'new' });
    expect(reopen.status, JSON.stringify(reopen.body)).toBe(200);
    await eventually(async () => (card()?.idList === todo ? true : undefined), 30_000, 'back in To do');
    const resolve = await site.client.patch(`/api/client/website/${site.id}/request/${n}`, {
      status: 'resolved',
    });
    expect(resolve.status).toBe(200);
    await eventually(async () => (card()?.idList === done ? true : undefined), 30_000, 'moved to Done');
    await quiet(() => fake.settled());
    // The fake's updateCard hooks for our own moves came back and were dropped.
    expect(fake.deliveries.at(-1)?.status).toBe(202);
    const all = await statuses(site, n);
    expect(all).toMatchObject([
      { actor: { kind: 'tracker' }, to: 'resolved' },
      { actor: { kind: 'member' }, to: 'new' },
      { actor: { kind: 'member' }, to: 'resolved' },
    ]);
  });

  it('archived on Trello after a move elsewhere → resolved again', async () => {
    await fake.actAsHuman(cardId, { kind: 'move', list: doing });
    await statusBecomes(site, n, 'new');
    await fake.actAsHuman(cardId, { kind: 'archive' });
    await statusBecomes(site, n, 'resolved');
  });

  it('comments both ways: Trello → internal Snag comment; public Snag comment → Trello comment, quoted, no echo', async () => {
    const [delivery] = await fake.actAsHuman(cardId, { kind: 'comment', text: 'Fixed in 2.3.1' });
    expect(delivery?.status).toBe(202);
    const synced = await eventually(
      async () => (await comments(site, n)).find((c) => c.body === 'Fixed in 2.3.1'),
      30_000,
      'the synced comment',
    );
    expect(synced).toMatchObject({ visibility: 'internal', author: { kind: 'tracker', vendor: 'trello' } });
    const body = 'Thanks @board, see [here](javascript:alert(1))';
    const posted = await site.client.post(`/api/client/website/${site.id}/request/${n}/comments`, {
      body,
      visibility: 'public',
    });
    expect(posted.status).toBe(201);
    const onTrello = await eventually(
      async () => card()?.comments.find((c) => c.text.includes('Thanks')),
      30_000,
      'the Trello comment',
    );
    expect(onTrello.text).toMatch(/wrote in Snag:/);
    expect(onTrello.text).toContain(`\`\`\`\n${body}\n\`\`\``);
    await quiet(() => fake.settled());
    expect((await comments(site, n)).map((c) => c.body).sort()).toEqual(
      ['Fixed in 2.3.1', 'Hand-made', body].sort(),
    );
    expect(card()?.comments).toHaveLength(2);
  });

  it('Trello signs with the app’s secret: regenerate is refused; removing the integration deletes the webhook at Trello', async () => {
    const refused = await site.client.post(`/api/client/integration/trello/hook/${site.id}/regenerate`);
    expect([refused.status, (refused.body as { code?: string }).code]).toEqual([
      400,
      'HOOK_SECRET_NOT_SNAGS',
    ]);
    expect(fake.webhooks).toHaveLength(1);
    const id = fake.webhooks[0]?.id;
    const removed = await site.client.delete(`/api/client/integration/trello/authentication/${site.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(fake.webhooks).toEqual([]);
    expect(fake.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      `/1/webhooks/${id}`,
    ]);
    const shown: HookAnswer = msgOf(await site.client.get(`/api/client/integration/trello/hook/${site.id}`));
    expect(shown.registered).toBeNull();
  });
});
