/**
 * The server's own redaction on the local stack (docs/privacy.md): a widget that sends raw secrets, an old
 * or a modified one, still has them masked before anything is stored, by the one filing core both the
 * widget's intake and REST v1 go through; the visitor's own words are kept as written; a recording that
 * carries what someone typed is not stored, while the report is, and its pending object is gone.
 */
import { gzipSync } from 'node:zlib';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { s3 } from '#runtime/aws/s3';
import { bucketName } from '#runtime/config';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const stack = setUpTestStack();

const jwt =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ.' +
  'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const card = '4242 4242 4242 4242';

/** A Business client with one project whose widget records sessions. */
async function business() {
  const { client, email } = await signedIn(stack.url);
  expect(
    (await client.post('/api/dev/plan', { username: email, plan: 'BUSINESS_PLAN', days: 30 })).status,
  ).toBe(200);
  const created = await client.post<{ id: string }>('/api/client/website', {
    name: 'Shop',
    url: 'shop.example',
  });
  const id = (created.body as { msg: { id: string } }).msg.id;
  const issue = async (n: number) =>
    ((await client.get(`/api/client/website/${id}/request/${n}`)).body as { msg: Record<string, unknown> })
      .msg;
  return { id, issue };
}

/** The pending (not yet accepted) objects of a project: what an accepted or refused upload leaves behind. */
async function pending(projectId: string): Promise<string[]> {
  const out = await (await s3()).send(
    new ListObjectsV2Command({ Bucket: bucketName(), Prefix: `pending/${projectId}/` }),
  );
  return (out.Contents ?? []).map((o) => o.Key!);
}

const recording = (events: unknown[]) => ({
  content: new Uint8Array(gzipSync(JSON.stringify(events))),
  start: 1_764_400_000_000,
  end: 1_764_400_060_000,
});
const meta = {
  type: 4,
  timestamp: 1_764_400_000_000,
  data: { href: 'https://shop.example/', width: 1280, height: 800 },
};

describe('a widget that sends raw secrets', () => {
  it('has them masked in the logs, steps, custom fields and page address, and keeps what the visitor wrote', async () => {
    const { id, issue } = await business();
    const n = await fileReport(stack.url, id, 'https://shop.example', {
      fields: {
        msg: `Payment fails for my card ${card}`,
        href: 'https://shop.example/checkout?token=abc123def456&step=2',
        logs: [
          {
            t: 1,
            level: 'error',
            kind: 'network',
            msg: `POST https://api.shop.example/pay 401 Authorization: Bearer ${jwt}`,
          },
          { t: 2, level: 'error', kind: 'console', msg: `charge failed for ${card}` },
        ],
        steps: [{ t: 1, kind: 'click', label: 'link "Mail jane@example.com"' }],
        customFields: [{ name: 'Account', value: `sk_live_${'a1B2c3D4e5F6g7H8i9J0k1L2'}` }],
      },
    });
    const stored = await issue(n);
    const text = JSON.stringify(stored);
    expect(text).not.toContain(jwt);
    expect(text).not.toContain('abc123def456');
    expect(text).not.toContain('jane@example.com');
    expect(text).not.toContain('sk_live_');
    const logs = stored.logs as { msg: string }[];
    expect(logs[1]!.msg).toBe('charge failed for [redacted:card]');
    expect((stored.data as { href: string }).href).toBe(
      'https://shop.example/checkout?token=[redacted:param]&step=2',
    );
    // The description is the visitor's own choice to send: kept as written.
    expect((stored.data as { msg: string }).msg).toBe(`Payment fails for my card ${card}`);
  });
});

describe('a recording that carries what someone typed', () => {
  it('is not stored, the report is, and its pending object is gone; a clean recording is kept', async () => {
    const { id, issue } = await business();
    const typed = recording([
      meta,
      {
        type: 3,
        timestamp: 1_764_400_001_000,
        data: { source: 5, id: 12, text: 'hunter2', isChecked: false },
      },
    ]);
    const n = await fileReport(stack.url, id, 'https://shop.example', {
      fields: { msg: 'Login does nothing' },
      replay: typed,
    });
    const refused = await issue(n);
    expect((refused.data as { msg: string }).msg).toBe('Login does nothing');
    expect(refused.replay).toBeNull();
    expect(await pending(id)).toEqual([]);

    const clean = recording([
      meta,
      {
        type: 3,
        timestamp: 1_764_400_001_000,
        data: { source: 5, id: 12, text: '*******', isChecked: false },
      },
    ]);
    const kept = await issue(
      await fileReport(stack.url, id, 'https://shop.example', { fields: { msg: 'Again' }, replay: clean }),
    );
    expect(kept.replay).toMatchObject({ start: clean.start, end: clean.end });
  });
});
