/**
 * Accounts through the local stack: the real handlers behind the gateway, DynamoDB Local, the SES
 * stand-in. Every rule of issue 3 and every catalogue code it names.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { clock, HOUR, MINUTE } from '#runtime/time';
import { solveAltcha } from '../support/altcha';
import { ApiClient, latestMail, linkIn, mailCount, newSource } from '../support/api-client';
import { watchDynamo } from '../support/dynamo-calls';
import { GOOGLE_TEST_CLIENT_ID, startGoogleKeys } from '../support/google';
import { setUpTestStack } from '../support/stack-fixture';
import {
  confirmFromMail as confirmUser,
  register as registerUser,
  signedIn as signedInUser,
  uniqueEmail,
} from '../support/users';

let google: Awaited<ReturnType<typeof startGoogleKeys>>;
const realNow = clock.now;

const stack = setUpTestStack(async () => {
  google = await startGoogleKeys();
  return { env: { GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT_ID, GOOGLE_JWKS_URL: google.url } };
});

afterAll(async () => {
  await google?.stop();
});

afterEach(() => {
  clock.now = realNow;
});

const register = (client: ApiClient, email?: string, password?: string) =>
  registerUser(stack.url, client, email, password);
const confirmFromMail = (client: ApiClient, email: string) => confirmUser(stack.url, client, email);
const signedIn = () => signedInUser(stack.url);

describe('registration', () => {
  it('creates an unconfirmed account and mails an 8-character code link valid for the address', async () => {
    const client = new ApiClient(stack.url);
    const { res, email } = await register(client);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', msg: { username: email } });
    const mail = await latestMail(stack.url, email);
    expect(mail?.subject).toBe('Confirm your Snag account');
    const link = linkIn(mail, '/confirm_email');
    expect(link.origin).toBe(stack.url);
    expect(link.searchParams.get('code')).toMatch(/^[A-Z2-9]{8}$/);
    expect(link.searchParams.get('username')).toBe(email);
    expect(mail?.html).toContain('/confirm_email?code=');
  });

  it('sends the German mail when lng=de', async () => {
    const client = new ApiClient(stack.url);
    const email = uniqueEmail().toLowerCase();
    const altcha = await solveAltcha(stack.url);
    await client.post('/api/registration/client?lng=de', {
      _username: email,
      _password: 'secret1',
      firstName: 'Ada',
      lastName: 'L',
      altcha,
    });
    expect((await latestMail(stack.url, email))?.subject).toBe('Bestätigen Sie Ihr Snag-Konto');
  });

  it('refuses a second account for the same address, whatever its case (USER_EXISTS)', async () => {
    const client = new ApiClient(stack.url);
    const { email } = await register(client);
    const again = await register(client, email.toUpperCase());
    expect(again.res.status).toBe(409);
    expect(again.res.body).toMatchObject({ code: 'USER_EXISTS', msg: 'User with this email already exists' });
  });

  it('accepts a solved proof of work once only', async () => {
    const client = new ApiClient(stack.url);
    const { altcha } = await register(client);
    const replay = await client.post('/api/registration/client', {
      _username: uniqueEmail(),
      _password: 'secret1',
      firstName: 'A',
      lastName: 'B',
      altcha,
    });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ code: 'INVALID_PARAMETERS', msg: 'Registration failed' });
  });

  it.each([
    [{ _password: '12345' }, 'USER_PASSWORD_LENGTH', 'Password must be at least 6 characters'],
    [{ _username: 'not-an-email' }, 'INVALID_EMAIL', 'Please check your email address'],
    [{ firstName: 'x'.repeat(51) }, 'INVALID_PARAMETERS', 'Registration failed'],
    [{ altcha: 'bm90IGEgcGF5bG9hZA==' }, 'INVALID_PARAMETERS', 'Registration failed'],
  ])('refuses %o with %s', async (patch, code, msg) => {
    const client = new ApiClient(stack.url);
    const altcha = await solveAltcha(stack.url);
    const res = await client.post('/api/registration/client', {
      _username: uniqueEmail(),
      _password: 'secret1',
      firstName: 'A',
      lastName: 'B',
      altcha,
      ...patch,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code, msg });
  });
});

describe('confirmation', () => {
  it('cannot sign in before confirming (CONFIRMATION_REQUIRED), can after', async () => {
    const client = new ApiClient(stack.url);
    const { email, password } = await register(client);
    const early = await client.post('/api/client/login', { _username: email, _password: password });
    expect(early.body).toMatchObject({ code: 'CONFIRMATION_REQUIRED', msg: 'Email has not been confirmed' });
    expect((await confirmFromMail(client, email)).status).toBe(200);
    const login = await client.post('/api/client/login', { _username: email, _password: password });
    expect(login.status).toBe(200);
  });

  it('uses a code once', async () => {
    const client = new ApiClient(stack.url);
    const { email } = await register(client);
    const link = linkIn(await latestMail(stack.url, email), '/confirm_email');
    const body = { _username: email, confirmationCode: link.searchParams.get('code') };
    expect((await client.post('/api/registration/client/confirm', body)).status).toBe(200);
    const again = await client.post('/api/registration/client/confirm', body);
    expect(again.body).toMatchObject({ code: 'INVALID_CODE', msg: 'Invalid confirmation link' });
  });

  it('refuses an expired code (48 hours)', async () => {
    const client = new ApiClient(stack.url);
    const { email } = await register(client);
    clock.now = () => realNow() + 48 * HOUR + MINUTE;
    const res = await confirmFromMail(client, email);
    expect(res.body).toMatchObject({ code: 'INVALID_CODE' });
  });

  it('resend issues a new code and invalidates the old one', async () => {
    const client = new ApiClient(stack.url);
    const { email } = await register(client);
    const old = linkIn(await latestMail(stack.url, email), '/confirm_email');
    const resend = await client.post('/api/restore/code', { _username: email });
    expect(resend.status).toBe(200);
    expect(await mailCount(stack.url, email)).toBe(2);
    const stale = await client.post('/api/registration/client/confirm', {
      _username: email,
      confirmationCode: old.searchParams.get('code'),
    });
    expect(stale.body).toMatchObject({ code: 'INVALID_CODE' });
    expect((await confirmFromMail(client, email)).status).toBe(200);
  });

  it('resend fails for confirmed or unknown addresses, and is rate-limited per address', async () => {
    const { client, email } = await signedIn();
    const confirmed = await client.post('/api/restore/code', { _username: email });
    expect(confirmed.body).toMatchObject({
      code: 'RESTORE_NOT_POSSIBLE',
      msg: 'It is not possible to resend confirmation email',
    });
    const fresh = new ApiClient(stack.url);
    const { email: pending } = await register(fresh);
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push((await fresh.post('/api/restore/code', { _username: pending })).status);
    expect(answers).toEqual([200, 200, 200, 429]);
  });

  it('rejects malformed confirmation input with INVALID_CODE', async () => {
    const client = new ApiClient(stack.url);
    const res = await client.post('/api/registration/client/confirm', {
      _username: 'ab',
      confirmationCode: '123',
    });
    expect(res.body).toMatchObject({ code: 'INVALID_CODE' });
  });
});

describe('login and sessions', () => {
  it('signs in with an HttpOnly, SameSite=Lax session cookie, and the profile works with it', async () => {
    const { client, email } = await signedIn();
    const profile = await client.get<{ username: string; plan: string }>('/api/client/profile');
    expect(profile.body).toMatchObject({ status: 'success', msg: { username: email, plan: 'FREE_PLAN' } });
    const fresh = new ApiClient(stack.url);
    const { email: e2, password } = await register(fresh);
    await confirmFromMail(fresh, e2);
    const login = await fresh.post('/api/client/login', { _username: e2.toUpperCase(), _password: password });
    const cookie = login.setCookies.find((c) => c.startsWith('snag_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=2592000/);
  });

  it('answers unknown users and wrong passwords alike (ACCESS_DENIED)', async () => {
    const { client, email } = await signedIn();
    const wrong = await client.post('/api/client/login', { _username: email, _password: 'wrong-pass' });
    const unknown = await client.post('/api/client/login', {
      _username: uniqueEmail(),
      _password: 'wrong-pass',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toMatchObject({ code: 'ACCESS_DENIED', msg: 'Incorrect username or password' });
  });

  it('after 5 wrong passwords refuses that source for 15 minutes, even with the right password; others sign in', async () => {
    const { email, password } = await signedIn();
    const attacker = new ApiClient(stack.url);
    for (let i = 0; i < 5; i++)
      await attacker.post('/api/client/login', { _username: email, _password: 'nope-nope' });
    const blocked = await attacker.post('/api/client/login', { _username: email, _password: password });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({
      code: 'ACCESS_DISABLED',
      msg: expect.stringMatching(
        /^Username blocked after too many failed login attempts\. Try again after \d\d:\d\d UTC\.$/,
      ),
    });
    // The owner, on a network that has not been failing, is not locked out by the stranger.
    const owner = new ApiClient(stack.url);
    expect((await owner.post('/api/client/login', { _username: email, _password: password })).status).toBe(
      200,
    );
    clock.now = () => realNow() + 15 * MINUTE + 1000;
    expect((await attacker.post('/api/client/login', { _username: email, _password: password })).status).toBe(
      200,
    );
  });

  it('blocks a fresh browser on the failing network until a stated time, never the owner’s recognised one', async () => {
    const { email, password } = await signedIn();
    const network = newSource();
    const right = { _username: email, _password: password };
    // The owner signed in from this browser before: it carries a device cookie only the login route sees.
    const known = new ApiClient(stack.url, stack.url, network);
    const first = await known.post('/api/client/login', right);
    const device = first.setCookies.find((c) => c.startsWith('snag_device='));
    expect(device).toMatch(/HttpOnly/);
    expect(device).toMatch(/SameSite=Strict/);
    expect(device).toMatch(/Path=\/api\/client\/login/);
    await known.get('/api/client/logout');

    // A stranger on the same network (a shared NAT) fails five times with the owner's address.
    const stranger = new ApiClient(stack.url, stack.url, network);
    for (let i = 0; i < 5; i++)
      await stranger.post('/api/client/login', { _username: email, _password: 'nope-nope' });
    const fresh = new ApiClient(stack.url, stack.url, network);
    const blocked = await fresh.post<never>('/api/client/login', right);
    const body = blocked.body as { code: string; msg: string; retryAt?: string };
    expect([blocked.status, body.code]).toEqual([403, 'ACCESS_DISABLED']);
    const until = Date.parse(body.retryAt ?? '');
    expect(until).toBeGreaterThan(Date.now());
    expect(until).toBeLessThanOrEqual(Date.now() + 15 * MINUTE);
    expect(body.msg).toContain(`Try again after ${new Date(until).toISOString().slice(11, 16)} UTC.`);
    const german = await fresh.post('/api/client/login?lng=de', right);
    expect(german.body).toMatchObject({
      msg: expect.stringMatching(/Versuchen Sie es nach \d\d:\d\d UTC erneut\.$/),
    });
    // A made-up device cookie is no recognised browser.
    const forger = new ApiClient(stack.url, stack.url, network);
    forger.cookies.set('snag_device', 'A'.repeat(43));
    expect((await forger.post('/api/client/login', right)).status).toBe(403);

    // The owner's browser signs in all the same, and is recognised again afterwards (a new device each time).
    const again = await known.post('/api/client/login', right);
    expect(again.status).toBe(200);
    // Its success ends no count of the stranger's: the fresh browser is still blocked.
    expect((await fresh.post('/api/client/login', right)).status).toBe(403);
    expect(again.setCookies.find((c) => c.startsWith('snag_device='))).not.toBe(device);
    expect((await known.get('/api/client/profile')).status).toBe(200);
    await known.get('/api/client/logout');
    expect((await known.post('/api/client/login', right)).status).toBe(200);
  });

  it('counts a recognised browser’s own wrong passwords against it, and only for its account', async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const network = newSource();
    const known = new ApiClient(stack.url, stack.url, network);
    expect(
      (await known.post('/api/client/login', { _username: owner.email, _password: owner.password })).status,
    ).toBe(200);
    // Its device is no pass for another account: failures there block it like any browser.
    for (let i = 0; i < 5; i++)
      await known.post('/api/client/login', { _username: other.email, _password: 'nope-nope' });
    const otherBlocked = await known.post('/api/client/login', {
      _username: other.email,
      _password: other.password,
    });
    expect(otherBlocked.status).toBe(403);
    // Its own five wrong passwords for the owner's address block it, until its window ends.
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await known.post('/api/client/login', { _username: owner.email, _password: 'nope-nope' })).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 403]);
    expect(
      (await known.post('/api/client/login', { _username: owner.email, _password: owner.password })).status,
    ).toBe(403);
    clock.now = () => realNow() + 15 * MINUTE + 1000;
    expect(
      (await known.post('/api/client/login', { _username: owner.email, _password: owner.password })).status,
    ).toBe(200);
  });

  it('throttles an address without an account exactly like one with an account', async () => {
    const { email } = await signedIn();
    const answers = async (address: string) => {
      const client = new ApiClient(stack.url);
      const out = [];
      for (let i = 0; i < 7; i++)
        out.push(await client.post('/api/client/login', { _username: address, _password: 'nope-nope' }));
      return out.map((r) => [r.status, r.body]);
    };
    const real = await answers(email);
    expect(real.at(-1)).toEqual([403, expect.objectContaining({ code: 'ACCESS_DISABLED' })]);
    expect(await answers(uniqueEmail())).toEqual(real);
  });

  it('does the same DynamoDB work for a wrong password whether or not the address has an account', async () => {
    const { email } = await signedIn();
    const dynamo = watchDynamo();
    try {
      const client = new ApiClient(stack.url);
      const wrong = await dynamo.during(() =>
        client.post('/api/client/login', { _username: email, _password: 'nope-nope' }),
      );
      const unknown = await dynamo.during(() =>
        client.post('/api/client/login', { _username: uniqueEmail(), _password: 'nope-nope' }),
      );
      expect(wrong).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
      expect(unknown).toEqual(wrong);
    } finally {
      dynamo.stop();
    }
  });

  it('answers RATE_LIMITED once one source has failed 20 times, whatever the addresses', async () => {
    const { email, password } = await signedIn();
    const source = new ApiClient(stack.url);
    const statuses = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (await source.post('/api/client/login', { _username: uniqueEmail(), _password: 'nope-nope' })).status,
      );
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    const limited = await source.post('/api/client/login', { _username: email, _password: password });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      code: 'RATE_LIMITED',
      msg: 'Too many requests, please try again later',
    });
    expect(statuses[20]).toBe(429);
    // Other sources are not affected.
    const other = new ApiClient(stack.url);
    expect((await other.post('/api/client/login', { _username: email, _password: password })).status).toBe(
      200,
    );
  });

  it('a success resets the failure count', async () => {
    const { email, password } = await signedIn();
    const client = new ApiClient(stack.url);
    for (let i = 0; i < 4; i++)
      await client.post('/api/client/login', { _username: email, _password: 'nope-nope' });
    expect((await client.post('/api/client/login', { _username: email, _password: password })).status).toBe(
      200,
    );
    for (let i = 0; i < 4; i++)
      await client.post('/api/client/login', { _username: email, _password: 'nope-nope' });
    expect((await client.post('/api/client/login', { _username: email, _password: password })).status).toBe(
      200,
    );
  });

  it('refuses forged and expired session cookies with 401', async () => {
    const { client } = await signedIn();
    const forged = new ApiClient(stack.url);
    forged.cookies.set('snag_session', 'A'.repeat(43));
    expect((await forged.get('/api/client/profile')).body).toMatchObject({ code: 'UNAUTHORIZED' });
    clock.now = () => realNow() + 31 * 24 * HOUR;
    expect((await client.get('/api/client/profile')).status).toBe(401);
  });

  it('logout ends the session server-side and clears the cookie', async () => {
    const { client } = await signedIn();
    const token = client.cookies.get('snag_session');
    const out = await client.get('/api/client/logout');
    expect(out.body).toEqual({ status: 'success', msg: { google: false } });
    expect(client.cookies.has('snag_session')).toBe(false);
    const replay = new ApiClient(stack.url);
    replay.cookies.set('snag_session', token ?? '');
    expect((await replay.get('/api/client/profile')).status).toBe(401);
  });

  it('refuses sign-in posted from another origin', async () => {
    const { email, password } = await signedIn();
    const evil = new ApiClient(stack.url, 'https://evil.example');
    const res = await evil.post('/api/client/login', { _username: email, _password: password });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN_ORIGIN' });
  });
});

describe('password reset', () => {
  it('mails a one-hour, single-use link; the new password works and every session ends', async () => {
    const { client, email } = await signedIn();
    const other = new ApiClient(stack.url);
    const req = await other.post('/api/restore/password', { _username: email });
    expect(req.status).toBe(200);
    const link = linkIn(await latestMail(stack.url, email), '/reset_verification');
    const code = link.searchParams.get('code');
    const set = await other.post('/api/restore/verification', { code, password: 'brand-new' });
    expect(set.status).toBe(200);
    expect((await client.get('/api/client/profile')).status).toBe(401);
    const again = await other.post('/api/restore/verification', { code, password: 'another1' });
    expect(again.body).toMatchObject({ code: 'RESTORE_NOT_POSSIBLE', msg: 'Link is invalid or expired' });
    expect((await other.post('/api/client/login', { _username: email, _password: 'brand-new' })).status).toBe(
      200,
    );
  });

  it('answers the same for unknown addresses, and refuses unconfirmed accounts', async () => {
    const client = new ApiClient(stack.url);
    const unknown = await client.post('/api/restore/password', { _username: uniqueEmail() });
    expect(unknown.body).toEqual({ status: 'success', msg: null });
    const { email } = await register(client);
    const unconfirmed = await client.post('/api/restore/password', { _username: email });
    expect(unconfirmed.body).toMatchObject({
      code: 'RESET_NOT_POSSIBLE',
      msg: 'Password reset is not possible for the current user',
    });
  });

  it('refuses expired links, superseded links and short passwords', async () => {
    const { email } = await signedIn();
    const client = new ApiClient(stack.url);
    await client.post('/api/restore/password', { _username: email });
    const first = linkIn(await latestMail(stack.url, email), '/reset_verification').searchParams.get('code');
    await client.post('/api/restore/password', { _username: email });
    const second = linkIn(await latestMail(stack.url, email), '/reset_verification').searchParams.get('code');
    const short = await client.post('/api/restore/verification', { code: second, password: '123' });
    expect(short.body).toMatchObject({ code: 'USER_PASSWORD_LENGTH' });
    const superseded = await client.post('/api/restore/verification', { code: first, password: 'another1' });
    expect(superseded.body).toMatchObject({ code: 'RESTORE_NOT_POSSIBLE' });
    clock.now = () => realNow() + HOUR + MINUTE;
    const expired = await client.post('/api/restore/verification', { code: second, password: 'another1' });
    expect(expired.body).toMatchObject({ code: 'RESTORE_NOT_POSSIBLE' });
  });
});

describe('per-source limits', () => {
  const eleven = async (call: (i: number) => Promise<{ status: number; body: unknown }>) => {
    const out = [];
    for (let i = 0; i < 11; i++) out.push(await call(i));
    return out;
  };

  it('registration: 10 tries per source and hour, then RATE_LIMITED', async () => {
    const client = new ApiClient(stack.url);
    const out = await eleven(() =>
      client.post('/api/registration/client', {
        _username: uniqueEmail(),
        _password: 'secret1',
        firstName: 'Ada',
        lastName: 'Lovelace',
        altcha: 'not-a-solution',
      }),
    );
    expect(out.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(400));
    expect(out[10]?.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await register(new ApiClient(stack.url))).res.status).toBe(200);
  });

  it('reset requests: 10 per source and hour, then RATE_LIMITED', async () => {
    const client = new ApiClient(stack.url);
    const out = await eleven(() => client.post('/api/restore/password', { _username: uniqueEmail() }));
    expect(out.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(out[10]?.status).toBe(429);
    expect(out[10]?.body).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('confirmation resends: 10 per source and hour, refusals included, then RATE_LIMITED', async () => {
    const client = new ApiClient(stack.url);
    const out = await eleven(() => client.post('/api/restore/code', { _username: uniqueEmail() }));
    expect(out.slice(0, 10).map((r) => r.body)).toEqual(
      Array(10).fill(expect.objectContaining({ code: 'RESTORE_NOT_POSSIBLE' })),
    );
    expect(out[10]?.body).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('reset: an address without an account gets the same answers as a real one, 429 included, and a mail', async () => {
    const { email } = await signedIn();
    const unknown = uniqueEmail().toLowerCase();
    const answers = async (address: string) => {
      const client = new ApiClient(stack.url);
      const out = [];
      for (let i = 0; i < 4; i++)
        out.push(await client.post('/api/restore/password', { _username: address }));
      return out.map((r) => [r.status, r.body]);
    };
    const real = await answers(email);
    expect(real.map(([status]) => status)).toEqual([200, 200, 200, 429]);
    expect(await answers(unknown)).toEqual(real);
    const mail = await latestMail(stack.url, unknown);
    expect(mail?.text).toContain('there is no Snag account for it');
    expect(mail?.text).not.toContain('/reset_verification');
    expect(await mailCount(stack.url, unknown)).toBe(3);
  });

  it('reset: the same DynamoDB work for an address with and without an account', async () => {
    const { email } = await signedIn();
    const dynamo = watchDynamo();
    try {
      const client = new ApiClient(stack.url);
      const real = await dynamo.during(() => client.post('/api/restore/password', { _username: email }));
      const unknown = await dynamo.during(() =>
        client.post('/api/restore/password', { _username: uniqueEmail() }),
      );
      expect(real).toEqual(['GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
      expect(unknown).toEqual(real);
    } finally {
      dynamo.stop();
    }
  });
});

describe('Google sign-in', () => {
  it('creates a confirmed account from a verified token, then signs the same account in', async () => {
    const client = new ApiClient(stack.url);
    const email = uniqueEmail().toLowerCase();
    const token = await google.token({
      sub: `sub-${email}`,
      email,
      given_name: 'Grace',
      family_name: 'Hopper',
    });
    const first = await client.post('/api/registration/client/google', { token });
    expect(first.status).toBe(200);
    const profile = await client.get('/api/client/profile');
    expect(profile.body).toMatchObject({ msg: { username: email, firstName: 'Grace', lastName: 'Hopper' } });
    const again = new ApiClient(stack.url);
    expect((await again.post('/api/registration/client/google', { token })).status).toBe(200);
    expect((await again.get('/api/client/logout')).body).toEqual({
      status: 'success',
      msg: { google: true },
    });
  });

  it('refuses forged, wrong-audience, wrong-issuer, expired and unverified tokens', async () => {
    const client = new ApiClient(stack.url);
    const claims = { sub: 'sub-x', email: uniqueEmail() };
    const bad = [
      await google.token(claims, { forged: true }),
      await google.token(claims, { aud: 'someone-else' }),
      await google.token(claims, { iss: 'https://evil.example' }),
      await google.token(claims, { expiresIn: '-1h' }),
      await google.token({ ...claims, email_verified: false }),
      'not-a-jwt',
    ];
    for (const token of bad) {
      const res = await client.post('/api/registration/client/google', { token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'ACCESS_DENIED' });
    }
  });

  it('does not take over a password account with the same address (USER_EXISTS)', async () => {
    const { email } = await signedIn();
    const client = new ApiClient(stack.url);
    const token = await google.token({ sub: `sub-other-${email}`, email });
    const res = await client.post('/api/registration/client/google', { token });
    expect(res.body).toMatchObject({ code: 'USER_EXISTS' });
  });
});

describe('profile', () => {
  it('returns the profile with plan settings and never a password hash', async () => {
    const { client, email } = await signedIn();
    const res = await client.get('/api/client/profile');
    expect(res.body).toMatchObject({
      status: 'success',
      msg: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        username: email,
        settings: {
          integrations: false,
          attachments: false,
          videos: false,
          brandingRemoval: false,
          projects: 1,
        },
        plan: 'FREE_PLAN',
        plan_expire: { date: null },
      },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|passwordHash/);
  });

  it('updates names with validation', async () => {
    const { client } = await signedIn();
    const ok = await client.patch('/api/client/profile', { firstName: 'Augusta', lastName: 'King' });
    expect(ok.body).toMatchObject({ msg: { firstName: 'Augusta', lastName: 'King' } });
    const bad = await client.patch('/api/client/profile', { firstName: '', lastName: 'x'.repeat(51) });
    expect(bad.status).toBe(400);
    // Control, bidi and invisible characters are refused as input, never stored (and never a 500).
    for (const firstName of ['Ann\u0000', 'Ann\u0007', '\u202Eevil', '\u200B\u200B', 'Ann\uD800']) {
      const refused = await client.patch('/api/client/profile', { firstName, lastName: 'King' });
      expect(refused.status, JSON.stringify(firstName)).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'INVALID_PARAMETERS',
        fields: { firstName: 'INVALID_PARAMETERS' },
      });
    }
    const nfc = await client.patch('/api/client/profile', { firstName: 'Zoe\u0308', lastName: 'King' });
    expect(nfc.body).toMatchObject({ msg: { firstName: 'Zoë' } });
    expect((await client.get('/api/client/profile')).body).toMatchObject({ msg: { firstName: 'Zoë' } });
  });

  it('changes the password: old must match, new ≥ 6, other sessions end, this one stays', async () => {
    const { client, email, password } = await signedIn();
    const other = new ApiClient(stack.url);
    await other.post('/api/client/login', { _username: email, _password: password });
    const wrongOld = await client.patch('/api/client/password', {
      oldPassword: 'nope-nope',
      newPassword: 'newpass1',
    });
    expect(wrongOld.body).toMatchObject({ code: 'INVALID_PASSWORD', msg: 'Invalid password' });
    const short = await client.patch('/api/client/password', { oldPassword: password, newPassword: '123' });
    expect(short.body).toMatchObject({ code: 'USER_PASSWORD_LENGTH' });
    const ok = await client.patch('/api/client/password', { oldPassword: password, newPassword: 'newpass1' });
    expect(ok.status).toBe(200);
    expect((await client.get('/api/client/profile')).status).toBe(200);
    expect((await other.get('/api/client/profile')).status).toBe(401);
  });

  it('each client sees only their own profile, and session calls need a session', async () => {
    const a = await signedIn();
    const b = await signedIn();
    expect((await a.client.get('/api/client/profile')).body).toMatchObject({ msg: { username: a.email } });
    expect((await b.client.get('/api/client/profile')).body).toMatchObject({ msg: { username: b.email } });
    const anonymous = new ApiClient(stack.url);
    for (const [method, path] of [
      ['GET', '/api/client/profile'],
      ['PATCH', '/api/client/profile'],
      ['DELETE', '/api/client/profile'],
      ['PATCH', '/api/client/password'],
    ] as const) {
      const res = await anonymous.call(
        method,
        path,
        method === 'GET' || method === 'DELETE' ? undefined : {},
      );
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('deletes the account and everything it owns: sessions, login, the address is free again', async () => {
    const { client, email, password } = await signedIn();
    const del = await client.delete('/api/client/profile');
    expect(del.body).toEqual({ status: 'success', msg: { google: false } });
    expect((await client.get('/api/client/profile')).status).toBe(401);
    const login = await new ApiClient(stack.url).post('/api/client/login', {
      _username: email,
      _password: password,
    });
    expect(login.body).toMatchObject({ code: 'ACCESS_DENIED' });
    const again = await register(new ApiClient(stack.url), email);
    expect(again.res.status).toBe(200);
  });
});

describe('hardening', () => {
  it('limits confirmation attempts per address', async () => {
    const client = new ApiClient(stack.url);
    const { email } = await register(client);
    const statuses = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (
          await client.post('/api/registration/client/confirm', {
            _username: email,
            confirmationCode: 'AAAAAAAA',
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('counts concurrent wrong passwords, so parallel guessing still hits the lockout', async () => {
    const { email, password } = await signedIn();
    const client = new ApiClient(stack.url);
    await Promise.all(
      Array.from({ length: 5 }, () =>
        client.post('/api/client/login', { _username: email, _password: 'guess-1' }),
      ),
    );
    const res = await client.post('/api/client/login', { _username: email, _password: password });
    expect(res.body).toMatchObject({ code: 'ACCESS_DISABLED' });
  });

  it('ends the previous session when the same browser signs in again', async () => {
    const { client, email, password } = await signedIn();
    const first = client.cookies.get('snag_session');
    await client.post('/api/client/login', { _username: email, _password: password });
    expect(client.cookies.get('snag_session')).not.toBe(first);
    const old = new ApiClient(stack.url);
    old.cookies.set('snag_session', first ?? '');
    expect((await old.get('/api/client/profile')).status).toBe(401);
  });
});
