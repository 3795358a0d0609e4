/**
 * The browser extension's connection through the local stack (contracts/extension.ts,
 * docs/extension-connection.md): a signed-in member approves (a one-time code bound to the PKCE challenge),
 * the extension exchanges code and verifier (no session, no cookie, any origin) for a `snag_ext_` token; the
 * code works once, for 5 minutes, only with its verifier; the token reads as the member (their own roles in
 * every team: a GUEST sees exactly their guest projects, a stranger's project is 404), lacks the write
 * scopes (403), answers 401 invalid_token once revoked or expired or its account deleted, is capped at 10
 * per member, and is listed and revoked by its member only.
 */
import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { EXTENSION_TOKENS_MAX, type ExtensionConnection, extensionTokenPattern } from '#contracts/extension';
import { db } from '#runtime/aws/dynamo';
import { sha256 } from '#runtime/crypto';
import { tableName } from '#runtime/db';
import { rateWindow } from '#runtime/rate-limit';
import { extensionTokenKey } from '../../functions/accounts/extension-tokens';
import { extensionConnectsPerMember, extensionExchangesPerSource } from '../../functions/accounts/throttle';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { ApiClient, newSource } from '../support/api-client';
import { seedIssues } from '../support/issues';
import { newSite } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { signedIn } from '../support/users';

const stack = setUpTestStack();

type Json = Record<string, unknown>;
interface Reply<T = Json> {
  status: number;
  headers: Headers;
  body: { status: 'success'; msg: T } | { status: 'error'; code: string; msg: string };
}

const codeOf = (r: { body: unknown }) => {
  const b = r.body as { status: string; code?: string };
  return b.status === 'error' ? b.code : 'success';
};
function msgOf<T>(r: { status: number; body: unknown }): T {
  const b = r.body as { status: string; msg: T };
  if (b.status !== 'success') throw new Error(`refused: ${r.status} ${JSON.stringify(b)}`);
  return b.msg;
}

/** What the extension makes before opening the connect page: a verifier and its S256 challenge. */
function pkce() {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

/**
 * A call as the extension's background worker makes it: its own origin, no cookie, a source of its own
 * (the per-source exchange limit is tested on its own below).
 */
async function bare<T = Json>(
  method: string,
  path: string,
  init: { body?: unknown; token?: string; source?: string } = {},
): Promise<Reply<T>> {
  const res = await fetch(new URL(path, stack.url), {
    method,
    headers: {
      origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
      'cloudfront-viewer-address': init.source ?? newSource(),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const exchange = (code: string, verifier: string, source?: string) =>
  bare<{ token: string; expiresAt: string; user: { name: string; email: string } }>(
    'POST',
    '/api/extension/token',
    { body: { code, verifier }, ...(source ? { source } : {}) },
  );

async function approve(client: ApiClient, challenge: string, browser = 'Chrome') {
  return client.post<{ code: string }>('/api/client/extension/connect', { challenge, browser });
}

/** The whole connection, as the extension and its member make it: the token. */
async function connect(client: ApiClient, browser = 'Chrome'): Promise<string> {
  const { verifier, challenge } = pkce();
  const { code } = msgOf<{ code: string }>(await approve(client, challenge, browser));
  return msgOf<{ token: string }>(await exchange(code, verifier)).token;
}

async function uidOf(email: string) {
  const uid = await findUserIdByEmail(email.toLowerCase());
  if (!uid) throw new Error('no user id');
  return uid;
}

const projectIds = async (token: string) =>
  msgOf<{ projects: { id: string }[] }>(await bare('GET', '/api/v1/projects', { token }))
    .projects.map((p) => p.id)
    .sort();

const listOf = async (client: ApiClient) =>
  msgOf<ExtensionConnection[]>(await client.get('/api/client/profile/extensions'));

describe('connecting the extension', () => {
  it('exchanges an approved code and its verifier for a token that reads the member’s projects', async () => {
    const site = await newSite(stack.url);
    const { verifier, challenge } = pkce();
    const approved = await approve(site.client, challenge, 'Firefox');
    expect(approved.status).toBe(200);
    const { code } = msgOf<{ code: string }>(approved);
    expect(code).toMatch(/^[A-Za-z0-9_-]{32,64}$/);
    // Only the code's hash is stored.
    const stored = await db().send(
      new GetCommand({ TableName: tableName(), Key: { pk: `EXTCODE#${sha256(code)}`, sk: 'EXTCODE' } }),
    );
    expect(stored.Item).toMatchObject({ challenge, browser: 'Firefox' });
    expect(JSON.stringify(stored.Item)).not.toContain(code);

    const before = Date.now();
    const got = await exchange(code, verifier);
    expect(got.status).toBe(200);
    // The extension's worker reads the answer from its own origin: any origin may, no cookie is set.
    expect(got.headers.get('access-control-allow-origin')).toBe('*');
    expect(got.headers.get('set-cookie')).toBeNull();
    const answer = msgOf<{ token: string; expiresAt: string; user: Json }>(got);
    expect(answer.token).toMatch(extensionTokenPattern);
    expect(answer.user).toEqual({ name: 'Ada Lovelace', email: site.email });
    const days = (Date.parse(answer.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(89.99);
    expect(days).toBeLessThan(90.01);

    expect(await projectIds(answer.token)).toEqual([site.id]);
    const project = await bare('GET', `/api/v1/projects/${site.id}`, { token: answer.token });
    expect(project.status).toBe(200);
    await seedIssues(site.id, 2);
    const issues = await bare<{ total: number }>('GET', `/api/v1/projects/${site.id}/issues`, {
      token: answer.token,
    });
    expect(msgOf<{ total: number }>(issues).total).toBe(2);
    expect((await bare('GET', `/api/v1/projects/${site.id}/issues/1`, { token: answer.token })).status).toBe(
      200,
    );

    // The code worked once.
    const again = await exchange(code, verifier);
    expect([again.status, codeOf(again)]).toEqual([400, 'EXTENSION_CODE_INVALID']);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');

    // Listed under Profile, with its last use (recorded by the calls above), never its secret.
    const [listed, ...more] = await listOf(site.client);
    expect(more).toEqual([]);
    expect(listed).toMatchObject({ browser: 'Firefox', expires: answer.expiresAt });
    expect(listed?.lastUsed).not.toBeNull();
    expect(answer.token.slice(9, 21)).toBe(listed?.id);
    expect(JSON.stringify(listed)).not.toContain(answer.token.slice(21));
  });

  it('answers the CORS preflight of the exchange', async () => {
    const res = await fetch(new URL('/api/extension/token', stack.url), {
      method: 'OPTIONS',
      headers: {
        origin: 'moz-extension://0b4b1c6e-1111-4a4a-9999-123456789abc',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
  });

  it('refuses a wrong verifier, and the code is spent by the attempt', async () => {
    const { client } = await signedIn(stack.url);
    const { verifier, challenge } = pkce();
    const { code } = msgOf<{ code: string }>(await approve(client, challenge));
    const wrong = await exchange(code, pkce().verifier);
    expect([wrong.status, codeOf(wrong)]).toEqual([400, 'EXTENSION_CODE_INVALID']);
    const right = await exchange(code, verifier);
    expect([right.status, codeOf(right)]).toEqual([400, 'EXTENSION_CODE_INVALID']);
    expect(await listOf(client)).toEqual([]);
  });

  it('refuses an expired code', async () => {
    const { client } = await signedIn(stack.url);
    const { verifier, challenge } = pkce();
    const { code } = msgOf<{ code: string }>(await approve(client, challenge));
    // Five minutes later: the item may still be there (TTL deletion lags), the expiry is what counts.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `EXTCODE#${sha256(code)}`, sk: 'EXTCODE' },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1 },
      }),
    );
    const late = await exchange(code, verifier);
    expect([late.status, codeOf(late)]).toEqual([400, 'EXTENSION_CODE_INVALID']);
  });

  it('makes another member’s code worthless without its verifier, and an unknown code the same refusal', async () => {
    const [ada, eve] = await Promise.all([signedIn(stack.url), signedIn(stack.url)]);
    const adas = pkce();
    const { code } = msgOf<{ code: string }>(await approve(ada.client, adas.challenge));
    // Eve has seen the code (a shared screen, a log): with her own verifier it is refused and spent.
    const stolen = await exchange(code, pkce().verifier);
    expect([stolen.status, codeOf(stolen)]).toEqual([400, 'EXTENSION_CODE_INVALID']);
    const unknown = await exchange(randomBytes(32).toString('base64url'), adas.verifier);
    expect([unknown.status, codeOf(unknown)]).toEqual([400, 'EXTENSION_CODE_INVALID']);
    expect(await listOf(ada.client)).toEqual([]);
    // Eve's own approval connects Eve, not Ada.
    const token = await connect(eve.client);
    expect(await projectIds(token)).toEqual([]);
    expect((await listOf(eve.client)).length).toBe(1);
  });

  it('needs a session and the dashboard’s origin to approve, and refuses a malformed challenge', async () => {
    // The extension's own origin cannot approve for the member; the dashboard's origin needs a session.
    const fromExtension = await bare('POST', '/api/client/extension/connect', {
      body: { challenge: pkce().challenge, browser: 'Chrome' },
    });
    expect([fromExtension.status, codeOf(fromExtension)]).toEqual([403, 'FORBIDDEN_ORIGIN']);
    const anonymous = await new ApiClient(stack.url).post('/api/client/extension/connect', {
      challenge: pkce().challenge,
    });
    expect([anonymous.status, codeOf(anonymous)]).toEqual([401, 'UNAUTHORIZED']);
    const { client } = await signedIn(stack.url);
    const foreign = await client.call(
      'POST',
      '/api/client/extension/connect',
      { challenge: pkce().challenge },
      {
        origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
      },
    );
    expect([foreign.status, codeOf(foreign)]).toEqual([403, 'FORBIDDEN_ORIGIN']);
    const short = await approve(client, 'abc');
    expect([short.status, codeOf(short)]).toEqual([400, 'INVALID_PARAMETERS']);
    const html = await approve(client, pkce().challenge, '<img src=x>');
    expect([html.status, codeOf(html)]).toEqual([400, 'INVALID_PARAMETERS']);
    const badBody = await bare('POST', '/api/extension/token', { body: { code: 'x', verifier: 'y' } });
    expect([badBody.status, codeOf(badBody)]).toEqual([400, 'INVALID_PARAMETERS']);
  });

  it('limits the exchanges per source', async () => {
    const source = newSource();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rateWindow({ ...extensionExchangesPerSource, key: source.split(':')[0] ?? '' }).key,
        UpdateExpression: 'SET #c = :n',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':n': extensionExchangesPerSource.max },
      }),
    );
    const { client } = await signedIn(stack.url);
    const { verifier, challenge } = pkce();
    const { code } = msgOf<{ code: string }>(await approve(client, challenge));
    const limited = await exchange(code, verifier, source);
    expect([limited.status, codeOf(limited)]).toEqual([429, 'RATE_LIMITED']);
    // The refusal did not spend the code: from another source it still works.
    expect((await exchange(code, verifier)).status).toBe(200);
  });

  it('limits the approvals per member', async () => {
    const { client, email } = await signedIn(stack.url);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rateWindow({ ...extensionConnectsPerMember, key: await uidOf(email) }).key,
        UpdateExpression: 'SET #c = :n',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':n': extensionConnectsPerMember.max },
      }),
    );
    const refused = await approve(client, pkce().challenge);
    expect([refused.status, codeOf(refused)]).toEqual([429, 'RATE_LIMITED']);
    // Another member is not held back by it.
    const other = await signedIn(stack.url);
    expect((await approve(other.client, pkce().challenge)).status).toBe(200);
  });
});

describe('an extension token', () => {
  it('has no write scopes: triage and comments are 403 INSUFFICIENT_SCOPE', async () => {
    const site = await newSite(stack.url);
    const token = await connect(site.client);
    await seedIssues(site.id, 1);
    const path = `/api/v1/projects/${site.id}/issues/1`;
    const patch = await bare('PATCH', path, { token, body: { status: 'closed' } });
    expect([patch.status, codeOf(patch)]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    const comment = await bare('POST', `${path}/comments`, {
      token,
      body: { body: 'Hi', visibility: 'public' },
    });
    expect([comment.status, codeOf(comment)]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    // Nor is it a session: the dashboard's routes do not know it.
    expect((await bare('GET', '/api/client/profile', { token })).status).toBe(401);
  });

  it('answers 401 invalid_token once revoked, and once expired', async () => {
    const site = await newSite(stack.url);
    const [revoked, expired] = [await connect(site.client, 'Chrome'), await connect(site.client, 'Edge')];
    expect(await projectIds(revoked)).toEqual([site.id]);
    const id = revoked.slice(9, 21);
    expect((await site.client.delete(`/api/client/profile/extensions/${id}`)).status).toBe(200);
    const after = await bare('GET', '/api/v1/projects', { token: revoked });
    expect([after.status, codeOf(after)]).toEqual([401, 'TOKEN_INVALID']);
    expect(after.headers.get('www-authenticate')).toBe('Bearer realm="snag", error="invalid_token"');
    expect((await listOf(site.client)).map((c) => c.browser)).toEqual(['Edge']);

    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: extensionTokenKey(expired.slice(9, 21)),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1 },
      }),
    );
    const late = await bare('GET', `/api/v1/projects/${site.id}`, { token: expired });
    expect([late.status, codeOf(late)]).toEqual([401, 'TOKEN_INVALID']);
    expect(late.headers.get('www-authenticate')).toBe('Bearer realm="snag", error="invalid_token"');
    // A right id with a wrong secret is no better.
    const forged = `${expired.slice(0, 21)}${randomBytes(32).toString('base64url').slice(0, 43)}`;
    expect((await bare('GET', '/api/v1/projects', { token: forged })).status).toBe(401);
  });

  it('is capped at 10 per member: the 11th is refused until one is revoked', async () => {
    const { client } = await signedIn(stack.url);
    const tokens: string[] = [];
    for (let i = 0; i < EXTENSION_TOKENS_MAX; i++) tokens.push(await connect(client, `Browser ${i}`));
    const { verifier, challenge } = pkce();
    const { code } = msgOf<{ code: string }>(await approve(client, challenge, 'Eleventh'));
    const refused = await exchange(code, verifier);
    expect([refused.status, codeOf(refused)]).toEqual([403, 'EXTENSION_LIMIT']);
    expect((refused.body as { msg: string }).msg).toContain('Profile');
    expect((await listOf(client)).length).toBe(EXTENSION_TOKENS_MAX);
    const first = tokens[0]?.slice(9, 21);
    expect((await client.delete(`/api/client/profile/extensions/${first}`)).status).toBe(200);
    expect(await connect(client, 'Eleventh')).toMatch(extensionTokenPattern);
    // An expired connection frees its place too.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${await uidOf((await listMember(client)).email)}`, sk: 'EXTS' },
        UpdateExpression: 'SET ids.#id = :past',
        ExpressionAttributeNames: { '#id': tokens[1]?.slice(9, 21) ?? '' },
        ExpressionAttributeValues: { ':past': Date.now() - 1 },
      }),
    );
    expect(await connect(client, 'Twelfth')).toMatch(extensionTokenPattern);
  });

  it('is listed and revoked by its member only', async () => {
    const [ada, eve] = await Promise.all([newSite(stack.url), signedIn(stack.url)]);
    const token = await connect(ada.client);
    const id = token.slice(9, 21);
    expect(await listOf(eve.client)).toEqual([]);
    const theirs = await eve.client.delete(`/api/client/profile/extensions/${id}`);
    expect([theirs.status, codeOf(theirs)]).toEqual([404, 'NOT_FOUND']);
    expect(await projectIds(token)).toEqual([ada.id]);
    const malformed = await ada.client.delete('/api/client/profile/extensions/not-an-id');
    expect(malformed.status).toBe(404);
    const gone = await ada.client.delete(`/api/client/profile/extensions/${'A'.repeat(12)}`);
    expect(gone.status).toBe(404);
    // Revoking needs the dashboard's origin, like every change.
    const foreign = await ada.client.call('DELETE', `/api/client/profile/extensions/${id}`, undefined, {
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect((await listOf(ada.client)).length).toBe(1);
  });

  it('sees another user’s project as 404', async () => {
    const [ada, other] = await Promise.all([newSite(stack.url), newSite(stack.url)]);
    const token = await connect(ada.client);
    for (const path of [
      `/api/v1/projects/${other.id}`,
      `/api/v1/projects/${other.id}/issues`,
      `/api/v1/projects/${other.id}/issues/1`,
    ]) {
      const res = await bare('GET', path, { token });
      expect([path, res.status, codeOf(res)]).toEqual([path, 404, 'NOT_FOUND']);
    }
    expect(await projectIds(token)).toEqual([ada.id]);
  });

  it('of a GUEST sees exactly their guest projects; of a MEMBER every project of every team of theirs', async () => {
    const agency = await newSite(stack.url, 'BASIC_PLAN');
    const second = msgOf<{ id: string }>(
      await agency.client.post('/api/client/website', { name: 'Blog', url: 'blog.example' }),
    ).id;
    const teamId = await uidOf(agency.email);
    const [guest, member] = await Promise.all([newSite(stack.url), signedIn(stack.url)]);
    await addToTeam(teamId, await uidOf(guest.email), 'GUEST', [agency.id]);
    await addToTeam(teamId, await uidOf(member.email), 'MEMBER');

    const guestToken = await connect(guest.client);
    expect(await projectIds(guestToken)).toEqual([agency.id, guest.id].sort());
    expect((await bare('GET', `/api/v1/projects/${agency.id}`, { token: guestToken })).status).toBe(200);
    const hidden = await bare('GET', `/api/v1/projects/${second}`, { token: guestToken });
    expect([hidden.status, codeOf(hidden)]).toEqual([404, 'NOT_FOUND']);

    const memberToken = await connect(member.client);
    expect(await projectIds(memberToken)).toEqual([agency.id, second].sort());
  });

  it('dies with its account', async () => {
    const { client, email } = await signedIn(stack.url);
    const token = await connect(client);
    const uid = await uidOf(email);
    expect((await bare('GET', '/api/v1/projects', { token })).status).toBe(200);
    expect((await client.delete('/api/client/profile')).status).toBe(200);
    expect((await bare('GET', '/api/v1/projects', { token })).status).toBe(401);
    const item = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: extensionTokenKey(token.slice(9, 21)),
        ConsistentRead: true,
      }),
    );
    expect(item.Item).toBeUndefined();
    const slots = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: { pk: `USER#${uid}`, sk: 'EXTS' },
        ConsistentRead: true,
      }),
    );
    expect(slots.Item).toBeUndefined();
  });
});

/** The signed-in client's own address (the profile's `username`). */
async function listMember(client: ApiClient) {
  return { email: msgOf<{ username: string }>(await client.get('/api/client/profile')).username };
}
