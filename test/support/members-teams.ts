/**
 * Teams with members for the members increment's tests (issue 22): people join the way they do in the
 * product (invited by mail, accepted with the mailed link); a team's plan is set on its TEAM item directly
 * (the billing increment moves the plan there; docs/data-model.md 4.12 "Seats").
 */
import { findUserIdByEmail } from '../../functions/accounts/user';
import { type ApiClient, latestMail, linkIn } from './api-client';
import { signedIn } from './users';

export type Person = Awaited<ReturnType<typeof signedIn>> & { id: string };

/** A confirmed, signed-in person with their user id (their personal team's id too). */
export async function person(baseUrl: string): Promise<Person> {
  const p = await signedIn(baseUrl);
  return { ...p, id: (await findUserIdByEmail(p.email)) as string };
}

/** The token of the newest invitation mail to `email`. */
export async function mailedToken(baseUrl: string, email: string): Promise<string> {
  const token = linkIn(await latestMail(baseUrl, email), '/invitation').searchParams.get('token');
  if (!token) throw new Error(`no token in the invitation mail to ${email}`);
  return token;
}

/** A new person invited by `inviter` into `teamId` with `role`, who accepts from the mail. */
export async function join(
  baseUrl: string,
  inviter: ApiClient,
  teamId: string,
  role: 'ADMIN' | 'MEMBER' | 'GUEST',
  projects?: string[],
): Promise<Person> {
  const p = await person(baseUrl);
  const invited = await inviter.post(`/api/client/team/${teamId}/invitations`, {
    email: p.email,
    role,
    ...(projects ? { projects } : {}),
  });
  if (invited.status !== 200) throw new Error(`invite failed: ${JSON.stringify(invited.body)}`);
  const accepted = await p.client.post('/api/client/invitation/accept', {
    token: await mailedToken(baseUrl, p.email),
  });
  if (accepted.status !== 200) throw new Error(`accept failed: ${JSON.stringify(accepted.body)}`);
  return p;
}

/** A project of `client`'s personal team (today's POST client/website). */
export async function projectOf(client: ApiClient, name = 'Shop'): Promise<string> {
  const res = await client.post<{ id: string }>('/api/client/website', {
    name,
    url: 'https://www.shop.example/',
  });
  if (res.body.status !== 'success') {
    throw new Error(`project not created: ${JSON.stringify(res.body)}`);
  }
  return res.body.msg.id;
}
