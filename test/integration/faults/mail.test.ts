/**
 * SES failing under the account mails, the only mail sent today (issue mails arrive with the email
 * integration): the confirmation at registration and its resend, and the password reset. The account
 * is never half-made: a registration whose mail fails still creates a whole account, whose resend sends
 * it; a reset whose mail fails answers an error, and asking again sends a working link.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ses } from '#runtime/aws/ses';
import { ApiClient, latestMail, linkIn, mailCount } from '../../support/api-client';
import { faults, type Injected, injectFault } from '../../support/faults';
import { setUpTestStack } from '../../support/stack-fixture';
import { confirmFromMail, register } from '../../support/users';

const stack = setUpTestStack();
const injected: Injected[] = [];

afterEach(() => {
  for (const fault of injected.splice(0)) fault.remove();
});

/** SES refuses the next `times` mails with an error it does not retry. */
function rejectMails(times: number) {
  const fault = injectFault(ses(), { command: 'SendEmailCommand', times, error: faults.messageRejected });
  injected.push(fault);
  return fault;
}

const login = (client: ApiClient, email: string, password: string) =>
  client.post('/api/client/login', { _username: email, _password: password });

describe('SES failing', () => {
  it('at registration: the account exists unconfirmed, and the resend sends the confirmation', async () => {
    const client = new ApiClient(stack.url);
    const fault = rejectMails(1);
    const { res, email, password } = await register(stack.url, client);
    expect(fault.fired).toBe(1);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await mailCount(stack.url, email)).toBe(0);
    expect((await login(client, email, password)).body).toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    // The confirmation screen's resend: the retry that picks this up.
    const resend = await client.post('/api/restore/code', { _username: email });
    expect(resend.status).toBe(200);
    expect((await confirmFromMail(stack.url, client, email)).status).toBe(200);
    expect((await login(client, email, password)).status).toBe(200);
  });

  it('transiently (a 500) is retried by the SDK: the confirmation arrives at once', async () => {
    const client = new ApiClient(stack.url);
    const fault = injectFault(ses(), { command: 'SendEmailCommand', times: 1, error: faults.internal });
    injected.push(fault);
    const { res, email } = await register(stack.url, client);
    expect(res.status).toBe(200);
    expect(fault.calls).toBe(2);
    expect(await mailCount(stack.url, email)).toBe(1);
  });

  it('on a reset: the visitor gets an error, and asking again sends a link that works', async () => {
    const client = new ApiClient(stack.url);
    const { email, password } = await register(stack.url, client);
    await confirmFromMail(stack.url, client, email);
    const mailsBefore = await mailCount(stack.url, email);
    rejectMails(1);
    const failed = await client.post('/api/restore/password', { _username: email });
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ status: 'error', code: 'SYSTEM_ERROR' });
    expect(await mailCount(stack.url, email)).toBe(mailsBefore);
    // Nothing changed for the account: the old password still signs in.
    expect((await login(new ApiClient(stack.url), email, password)).status).toBe(200);

    const again = await client.post('/api/restore/password', { _username: email });
    expect(again.status).toBe(200);
    const link = linkIn(await latestMail(stack.url, email), '/reset_verification');
    const reset = await client.post('/api/restore/verification', {
      code: link.searchParams.get('code'),
      password: 'secret9',
    });
    expect(reset.status).toBe(200);
    expect((await login(new ApiClient(stack.url), email, 'secret9')).status).toBe(200);
  });
});
