import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReplayLinkToken, replayLinkToken } from '../../../functions/issues/replay-link';

const projectId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const other = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const name = '3b241101-e2bb-4255-8caf-4136c566a962.gz';
const now = Date.parse('2026-11-29T08:00:00Z');

describe('the replay link token', () => {
  const saved = process.env.ALTCHA_HMAC_KEY;
  beforeAll(() => {
    process.env.ALTCHA_HMAC_KEY = 'a-test-key-of-at-least-sixteen-chars';
  });
  afterAll(() => {
    process.env.ALTCHA_HMAC_KEY = saved;
  });

  it('opens the one recording it names until it expires', async () => {
    const token = await replayLinkToken({ projectId, name }, now + 60_000);
    expect(await readReplayLinkToken(token, now)).toEqual({ projectId, name });
    expect(await readReplayLinkToken(token, now + 60_000)).toBeNull();
  });

  it('refuses a token whose project, recording, expiry or signature was changed', async () => {
    const token = await replayLinkToken({ projectId, name }, now + 60_000);
    const [, id, expires, sig] = token.split('.');
    for (const forged of [
      `${other}.${id}.${expires}.${sig}`,
      `${projectId}.${other}.${expires}.${sig}`,
      `${projectId}.${id}.${Number(expires) + 3600}.${sig}`,
      `${projectId}.${id}.${expires}.${sig?.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      `${projectId}.${id}.${expires}`,
      '../../etc/passwd',
      '',
    ]) {
      expect(await readReplayLinkToken(forged, now)).toBeNull();
    }
  });

  it('signs only a stored replay name', async () => {
    await expect(replayLinkToken({ projectId, name: '../x.gz' }, now)).rejects.toThrow();
  });
});
