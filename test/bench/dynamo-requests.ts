/**
 * DynamoDB requests per API call (DESIGN.md section 7: any dashboard call ≤ 3 DynamoDB requests). Starts
 * the local stack in this process, counts every request the handlers' DynamoDB client sends, and calls
 * each dashboard route once as a signed-in client would.
 */
import { pathToFileURL } from 'node:url';
import { solveAltcha } from '../support/altcha';
import { ApiClient, latestMail, linkIn } from '../support/api-client';
import { watchDynamo } from '../support/dynamo-calls';
import { seedIssues } from '../support/issues';
import { startTestStack } from '../support/local-stack';
import { cheapCostsEnv, signedIn, uniqueEmail } from '../support/users';
import { postForm, type UploadForm, widgetCall } from '../support/widget';

export interface RequestCount {
  call: string;
  requests: number;
  budget: number;
  /** Why a call may exceed the budget (docs/data-model.md "Budget exceptions"). */
  exception?: string;
}

/** Calls whose work grows with what the account owns, by design. */
const exceptions: Record<string, string> = {
  'POST website/{id}/request (public)':
    "public widget call: project read (origin check), the project's day (is a proof of work needed? an eventually consistent read), the visitor's and network's flood counts in one transaction, the number, the create transaction (which also counts the day)",
  'PATCH client/password': 'ends the other sessions: a Query, and a BatchWrite per 25 sessions',
  'DELETE client/profile': 'deletes everything the account owns',
  'DELETE client/website/{id}':
    "reads META for the bytes to free, then purges the project's items on the request path (a Query, a BatchWrite per 25) until the cleanup queue of data-model 4.11 exists",
  'GET client/website/{id}/request?page=2':
    'page N > 1: META and STATS, then the BLOCK that STATS points at, then the bounded Query (data-model 4.5)',
  'GET client/website/{id}/request/{ticketId}':
    'the batch of META, header and detail, then prev and next as two parallel Limit-1 queries (data-model 4.7)',
};

export async function dynamoRequestsPerCall(): Promise<RequestCount[]> {
  Object.assign(process.env, cheapCostsEnv);
  const stack = await startTestStack();
  try {
    const { client, email, password } = await signedIn(stack.url);
    const dynamo = watchDynamo();
    const rows: RequestCount[] = [];
    const measure = async (call: string, run: () => Promise<{ status: number }>, budget = 3) => {
      dynamo.calls.length = 0;
      const res = await run();
      if (res.status >= 400) throw new Error(`${call} answered ${res.status}`);
      rows.push({
        call,
        requests: dynamo.calls.length,
        budget,
        ...(exceptions[call] ? { exception: exceptions[call] } : {}),
      });
    };

    await measure('POST client/login', () =>
      client.post('/api/client/login', { _username: email, _password: password }),
    );
    await measure('GET client/profile', () => client.get('/api/client/profile'));
    await measure('PATCH client/profile', () =>
      client.patch('/api/client/profile', { firstName: 'A', lastName: 'B' }),
    );
    let teamId = '';
    await measure('GET client/teams', async () => {
      const res = await client.get<{ teams: { id: string }[] }>('/api/client/teams');
      teamId = (res.body as { msg: { teams: { id: string }[] } }).msg.teams[0]?.id ?? '';
      return res;
    });
    await measure('GET client/team/{teamId}', () => client.get(`/api/client/team/${teamId}`));
    await measure('PATCH client/team/{teamId}', () =>
      client.patch(`/api/client/team/${teamId}`, { name: 'Shop team' }),
    );
    let id = '';
    await measure('POST client/website', async () => {
      const res = await client.post<{ id: string }>('/api/client/website', {
        name: 'Shop',
        url: 'shop.example',
      });
      id = (res.body as { msg: { id: string } }).msg.id;
      return res;
    });
    await measure('GET client/website', () => client.get('/api/client/website'));
    await measure('GET client/website/{id}', () => client.get(`/api/client/website/${id}`));
    await measure('PATCH client/website/{id}', () =>
      client.patch(`/api/client/website/${id}`, { data: { widgetText: 'Bug?' } }),
    );
    await measure('GET website/{id}/code (public)', () => fetch(`${stack.url}/api/website/${id}/code`));
    // The widget's intake, as a page on the project's domain calls it.
    const page = { origin: 'https://shop.example' };
    await measure('OPTIONS website/{id}/request (public)', () =>
      widgetCall(stack.url, id, 'request', undefined, { ...page, method: 'OPTIONS' }),
    );
    let form: UploadForm | undefined;
    await measure('POST website/{id}/upload (public)', async () => {
      const res = await widgetCall(
        stack.url,
        id,
        'upload',
        { kind: 'screenshot', type: 'image/png', size: 1024 },
        page,
      );
      form = res.body.msg as UploadForm;
      return res;
    });
    if (!form || (await postForm(form, new Uint8Array(1024))) >= 300) throw new Error('upload failed');
    const key = form.key;
    await measure('POST website/{id}/request (public)', () =>
      widgetCall(stack.url, id, 'request', { msg: 'Bench', screenshots: [{ key, type: 'png' }] }, page),
    );
    // Issue review (issue 8): 15 more issues through the entity, so that page 2 exists.
    await seedIssues(id, 15);
    const base = `/api/client/website/${id}/request`;
    await measure('GET client/website/{id}/request', () => client.get(base));
    await measure('GET client/website/{id}/request?page=2', () => client.get(`${base}?page=2`));
    await measure('GET client/website/{id}/request?search', () => client.get(`${base}?search=issue`));
    let shot = '';
    await measure('GET client/website/{id}/request/{ticketId}', async () => {
      const res = await client.get<{ screenshots: { name: string }[] }>(`${base}/1`);
      shot = (res.body as { msg: { screenshots: { name: string }[] } }).msg.screenshots[0]?.name ?? '';
      return res;
    });
    await measure('PATCH client/website/{id}/request/{ticketId}', () =>
      client.patch(`${base}/2`, { restore: false }),
    );
    // A teammate (issue 22): the team on Starter, a MEMBER invited and accepted from the mailed link, then
    // the same project-scoped calls with the access check through the team, and the member calls.
    const plan = await client.post('/api/dev/plan', { username: email, plan: 'BASIC_PLAN', days: 30 });
    if (plan.status !== 200) throw new Error(`plan not set: ${JSON.stringify(plan.body)}`);
    const mate = await signedIn(stack.url);
    await measure('POST client/team/{teamId}/invitations', () =>
      client.post(`/api/client/team/${teamId}/invitations`, { email: mate.email, role: 'MEMBER' }),
    );
    const invite = linkIn(await latestMail(stack.url, mate.email.toLowerCase()), '/invitation');
    const token = invite.searchParams.get('token') ?? '';
    await measure('POST invitation/view (public)', () =>
      new ApiClient(stack.url).post('/api/invitation/view', { token }),
    );
    await measure('POST client/invitation/accept', () =>
      mate.client.post('/api/client/invitation/accept', { token }),
    );
    await measure('GET client/website/{id} (MEMBER)', () => mate.client.get(`/api/client/website/${id}`));
    await measure('GET client/website/{id}/request (MEMBER)', () => mate.client.get(base));
    await measure('PATCH client/website/{id}/request/{ticketId} (MEMBER)', () =>
      mate.client.patch(`${base}/3`, { restore: false }),
    );
    const team = await client.get<{ members: { userId: string; username: string }[] }>(
      `/api/client/team/${teamId}`,
    );
    const members = (team.body as { msg: { members: { userId: string; username: string }[] } }).msg.members;
    const mateId = members.find((m) => m.username === mate.email.toLowerCase())?.userId ?? '';
    const member = `/api/client/team/${teamId}/members/${mateId}`;
    await measure('PATCH client/team/{teamId}/members/{userId}', () =>
      client.patch(member, { role: 'ADMIN' }),
    );
    await measure('DELETE client/team/{teamId}/members/{userId}', () => client.delete(member));
    await measure('POST client/teams', () => client.post('/api/client/teams', { name: 'Agency' }));
    await measure('GET client/download/screenshot/{siteId}/{name}', () =>
      fetch(`${stack.url}/api/client/download/screenshot/${id}/${shot}`, {
        redirect: 'manual',
        headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      }),
    );
    await measure('DELETE client/website/{id}', () => client.delete(`/api/client/website/${id}`));
    await measure('GET client/logout', () => client.get('/api/client/logout'));

    // The account flows, as a new client meets them.
    const fresh = new ApiClient(stack.url);
    const newEmail = uniqueEmail();
    const altcha = await solveAltcha(stack.url);
    await measure('GET altcha', () => fetch(`${stack.url}/api/altcha`));
    await measure('POST registration/client', () =>
      fresh.post('/api/registration/client', {
        _username: newEmail,
        _password: 'secret1',
        firstName: 'A',
        lastName: 'B',
        altcha,
      }),
    );
    await measure('POST restore/code', () => fresh.post('/api/restore/code', { _username: newEmail }));
    const link = linkIn(await latestMail(stack.url, newEmail.toLowerCase()), '/confirm_email');
    await measure('POST registration/client/confirm', () =>
      fresh.post('/api/registration/client/confirm', {
        _username: link.searchParams.get('username'),
        confirmationCode: link.searchParams.get('code'),
      }),
    );
    await measure('POST restore/password', () =>
      fresh.post('/api/restore/password', { _username: newEmail }),
    );
    const reset = linkIn(await latestMail(stack.url, newEmail.toLowerCase()), '/reset_verification');
    await measure('POST restore/verification', () =>
      fresh.post('/api/restore/verification', { code: reset.searchParams.get('code'), password: 'secret2' }),
    );
    await fresh.post('/api/client/login', { _username: newEmail, _password: 'secret2' });
    await measure('PATCH client/password', () =>
      fresh.patch('/api/client/password', { oldPassword: 'secret2', newPassword: 'secret3' }),
    );
    await measure('DELETE client/profile', () => fresh.delete('/api/client/profile'));
    return rows;
  } finally {
    await stack.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await dynamoRequestsPerCall());
}
