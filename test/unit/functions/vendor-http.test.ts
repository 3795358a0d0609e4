/** The vendor clients' shared rules (functions/integrations/vendors/http.ts), with no network. */
import { describe, expect, it } from 'vitest';
import { authorisationErrorCode } from '../../../functions/integrations/vendor-auth';
import {
  baseUrlOf,
  guardedHttp,
  isVendorOutage,
  readCapped,
  retryAfterSeconds,
  send,
  statusError,
  VendorError,
} from '../../../functions/integrations/vendors/http';
import { extraFields } from '../../../functions/integrations/vendors/jira';
import { slackError } from '../../../functions/integrations/vendors/slack';

const res = (status: number, headers: Record<string, string> = {}, body = '') =>
  new Response(body || null, { status, headers });

describe('vendor error mapping', () => {
  it('treats refused tokens, missing objects and other 4xx as permanent, 408/429/5xx as retryable', () => {
    for (const status of [400, 401, 403, 404, 410, 422])
      expect(statusError('gitlab', res(status), 'x').permanent).toBe(true);
    for (const status of [408, 429, 500, 502, 503])
      expect(statusError('jira', res(status), 'x').permanent).toBe(false);
    expect(statusError('asana', res(401), 'x').reason).toMatch(/refused the token/);
    expect(statusError('asana', res(404), 'project').reason).toMatch(/could not find the project/);
    expect(statusError('slack', res(429, { 'retry-after': '30' }), 'x').details.retryAfterSeconds).toBe(30);
  });

  it('answers the client’s mistakes as 4xx codes and only a vendor outage as VENDOR_UNAVAILABLE', () => {
    const code = (err: VendorError) => authorisationErrorCode(err);
    expect(code(statusError('gitlab', res(401), 'projects'))).toBe('TOKEN_REFUSED');
    expect(code(statusError('jira', res(403), 'projects'))).toBe('TOKEN_REFUSED');
    expect(code(statusError('gitlab', res(404), 'projects'))).toBe('AUTHORIZATION_FAILED');
    expect(code(slackError('invalid_code'))).toBe('AUTHORIZATION_FAILED');
    expect(code(new VendorError('gitlab', true, 'host', { code: 'host_refused' }))).toBe(
      'AUTHORIZATION_FAILED',
    );
    // A host that does not resolve is a typo, an HTML page where the API should be the wrong host.
    expect(code(new VendorError('jira', false, 'dns', { code: 'host_refused' }))).toBe(
      'AUTHORIZATION_FAILED',
    );
    expect(code(new VendorError('jira', false, 'Jira answered an unexpected project list'))).toBe(
      'AUTHORIZATION_FAILED',
    );
    for (const outage of [
      statusError('gitlab', res(503), 'projects'),
      statusError('jira', res(429), 'projects'),
      statusError('jira', res(408), 'projects'),
      slackError('internal_error'),
      new VendorError('gitlab', false, 'timed out', { code: 'timeout' }),
      new VendorError('gitlab', false, 'could not be reached', { code: 'unreachable' }),
    ]) {
      expect(isVendorOutage(outage)).toBe(true);
      expect(code(outage)).toBe('VENDOR_UNAVAILABLE');
    }
  });

  it('reads Retry-After as seconds or a date, bounded', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds('999999')).toBe(900);
    expect(retryAfterSeconds(null)).toBeUndefined();
    expect(retryAfterSeconds('soon')).toBeUndefined();
    expect(retryAfterSeconds(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThanOrEqual(9);
  });

  it('maps Slack codes: not_in_channel tells how to invite the app; rate limits and internal errors retry', () => {
    expect(slackError('not_in_channel')).toMatchObject({ permanent: true });
    expect(slackError('not_in_channel').reason).toContain('/invite @Snag');
    for (const code of [
      'invalid_auth',
      'channel_not_found',
      'token_revoked',
      'is_archived',
      'something_new',
    ]) {
      expect(slackError(code).permanent).toBe(true);
    }
    for (const code of ['ratelimited', 'internal_error', 'fatal_error'])
      expect(slackError(code).permanent).toBe(false);
  });

  it('retries a short 429 once in place, and turns network failures and guard refusals into vendor errors', async () => {
    let calls = 0;
    const flaky = async () => (++calls === 1 ? res(429, { 'retry-after': '0' }) : res(200, {}, '{}'));
    expect((await send('asana', flaky, 'https://x/', {})).status).toBe(200);
    expect(calls).toBe(2);
    const down = async () => {
      throw new TypeError('fetch failed');
    };
    expect(await send('gitlab', down, 'https://x/', {}).catch((e) => e)).toMatchObject({ permanent: false });
    const refused = async () => {
      throw Object.assign(new Error('refused'), {
        name: 'OutboundRefused',
        reason: '10.0.0.1: private',
        permanent: true,
      });
    };
    const err = await send('jira', refused, 'https://x/', {}).catch((e) => e);
    expect(err).toBeInstanceOf(VendorError);
    expect(err).toMatchObject({ permanent: true });
  });

  it('caps answers', async () => {
    const big = res(200, {}, 'x'.repeat(2000));
    await expect(readCapped('slack', big, 1000)).rejects.toBeInstanceOf(VendorError);
    await expect(
      readCapped('slack', res(200, { 'content-length': '5000' }, 'x'), 1000),
    ).rejects.toBeInstanceOf(VendorError);
  });
});

describe('hosts and fields', () => {
  it('reads a host as a base URL, https implied, and refuses other schemes and credentials', () => {
    expect(baseUrlOf('jira', 'acme.atlassian.net')).toBe('https://acme.atlassian.net');
    expect(baseUrlOf('gitlab', 'https://git.example.com/gitlab/')).toBe('https://git.example.com/gitlab');
    for (const bad of ['ftp://x.example', 'https://u:p@x.example', 'javascript:alert(1)', '']) {
      expect(() => baseUrlOf('gitlab', bad)).toThrow(VendorError);
    }
  });

  it('sends Jira extra fields as JSON when they read as JSON, never overriding the issue’s own', () => {
    expect(
      extraFields([
        { name: 'labels', value: '["a"]' },
        { name: 'priority', value: '{"name":"High"}' },
        { name: 'customfield_1', value: '12' },
        { name: 'customfield_2', value: 'text' },
        { name: 'customfield_3', value: '[not json' },
        { name: 'project', value: '{"id":"1"}' },
      ]),
    ).toEqual({
      labels: ['a'],
      priority: { name: 'High' },
      customfield_1: 12,
      customfield_2: 'text',
      customfield_3: '[not json',
    });
  });

  it('serialises multipart and form bodies for the guarded client, with their content type', async () => {
    const seen: { headers?: Record<string, string>; body?: string | Uint8Array }[] = [];
    const http = guardedHttp(async (_url, init) => {
      seen.push(init ?? {});
      return res(200);
    });
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'a.png');
    await http('https://x/', { method: 'POST', headers: { 'PRIVATE-TOKEN': 't' }, body: form });
    expect(seen[0]?.headers?.['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]?.headers?.['private-token']).toBe('t');
    expect(Buffer.from(seen[0]?.body as Uint8Array).toString('latin1')).toContain('filename="a.png"');
    await http('https://x/', { method: 'POST', body: new URLSearchParams({ a: '1' }) });
    expect(seen[1]?.headers?.['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Buffer.from(seen[1]?.body as Uint8Array).toString()).toBe('a=1');
  });
});
