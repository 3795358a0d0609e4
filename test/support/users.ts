/** Accounts for tests, made the way a person makes them: register with proof of work, confirm by mail. */
import { solveAltcha } from './altcha';
import { ApiClient, latestMail, linkIn } from './api-client';

let seq = 0;
export const uniqueEmail = () => `User${Date.now()}x${++seq}@Example.com`;

/** The env that makes proof of work and hashing cheap: tests check rules, not costs. */
export const cheapCostsEnv = {
  ALTCHA_COST: '10',
  ALTCHA_COUNTER_MIN: '10',
  ALTCHA_COUNTER_MAX: '50',
  SCRYPT_LOG_N: '10',
  ALTCHA_HMAC_KEY: 'test-altcha-key-0123456789abcdef',
  LOG_LEVEL: process.env.DEBUG_LOG_LEVEL ?? 'silent',
} as const;

export async function register(
  baseUrl: string,
  client: ApiClient,
  email = uniqueEmail(),
  password = 'secret1',
) {
  const altcha = await solveAltcha(baseUrl);
  const res = await client.post('/api/registration/client', {
    _username: email,
    _password: password,
    firstName: 'Ada',
    lastName: 'Lovelace',
    altcha,
  });
  return { res, email: email.toLowerCase(), password, altcha };
}

export async function confirmFromMail(baseUrl: string, client: ApiClient, email: string) {
  const link = linkIn(await latestMail(baseUrl, email), '/confirm_email');
  return client.post('/api/registration/client/confirm', {
    _username: link.searchParams.get('username'),
    confirmationCode: link.searchParams.get('code'),
  });
}

/** A confirmed, signed-in client. */
export async function signedIn(baseUrl: string) {
  const client = new ApiClient(baseUrl);
  const { email, password } = await register(baseUrl, client);
  await confirmFromMail(baseUrl, client, email);
  const login = await client.post('/api/client/login', { _username: email, _password: password });
  if (login.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(login.body)}`);
  return { client, email, password };
}
