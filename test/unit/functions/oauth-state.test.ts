import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  checkState,
  consumeState,
  issueState,
  STATE_LIFETIME_MS,
  siteIdOfState,
} from '../../../functions/integrations/oauth-state';

const ddb = mockClient(DynamoDBDocumentClient);
const site = '0f8fad5b-d9cb-469f-a165-70867728950e';
const other = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const session = 'a'.repeat(64);
const now = 1_800_000_000_000;

beforeAll(() => {
  process.env.ALTCHA_HMAC_KEY ??= 'unit-test-altcha-key-0123456789';
  process.env.OAUTH_STATE_KEY ??= 'unit-test-oauth-state-key-0123456789';
});
afterEach(() => ddb.reset());

describe('OAuth state', () => {
  it('carries the site id before the first dot and checks out for its session, vendor and site', async () => {
    const state = await issueState('slack', site, session, now);
    expect(siteIdOfState(state)).toBe(site);
    expect(state.split('.')).toHaveLength(4);
    const checked = await checkState('slack', state, site, session, now + 1000);
    expect(checked).toMatchObject({ ok: true });
  });

  it('refuses a forged, altered, other-session, other-vendor, other-site or expired state', async () => {
    const state = await issueState('slack', site, session, now);
    const [s, nonce, exp, sig] = state.split('.') as [string, string, string, string];
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    expect(await checkState('slack', `${s}.${nonce}.${exp}.${flipped}`, site, session, now)).toEqual({
      ok: false,
      why: 'forged',
    });
    // A later expiry or another site id breaks the signature.
    expect(
      (await checkState('slack', `${s}.${nonce}.${Number(exp) + 3600}.${sig}`, site, session, now)).ok,
    ).toBe(false);
    expect(await checkState('slack', `${other}.${nonce}.${exp}.${sig}`, other, session, now)).toMatchObject({
      why: 'forged',
    });
    expect(await checkState('slack', state, site, 'b'.repeat(64), now)).toMatchObject({ why: 'forged' });
    expect(await checkState('asana', state, site, session, now)).toMatchObject({ why: 'forged' });
    expect(await checkState('slack', state, other, session, now)).toMatchObject({ why: 'other-site' });
    expect(await checkState('slack', state, site, session, now + STATE_LIFETIME_MS + 1000)).toMatchObject({
      why: 'expired',
    });
    for (const bad of ['', site, `${site}.x.y.z`, `${state}.extra`]) {
      expect(await checkState('slack', bad, site, session, now)).toMatchObject({ ok: false });
    }
  });

  it('is used once: the nonce is recorded with a conditional put, and a replay is refused', async () => {
    ddb
      .on(PutCommand)
      .resolvesOnce({})
      .rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));
    expect(await consumeState('n'.repeat(22), 1_800_000_600)).toBe(true);
    expect(await consumeState('n'.repeat(22), 1_800_000_600)).toBe(false);
    const put = ddb.commandCalls(PutCommand)[0]?.args[0].input;
    expect(put?.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(put?.Item).toMatchObject({ sk: 'OAUTHSTATE', ttl: 1_800_000_660 });
    expect(String(put?.Item?.pk)).not.toContain('n'.repeat(22));
  });
});
