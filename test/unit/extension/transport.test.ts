/**
 * The extension's transport (extension/lib/transport.ts) under the widget's own sending code: what the
 * widget's app asks (`…/upload`, the presigned form, `…/request`) reaches the background worker as the v1
 * calls, a blob arrives byte for byte across chunks, the page's own logs and steps go with the issue, and a
 * refusal reaches the panel as the widget's error code.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../extension/lib/api';
import { bytesOf, CHUNK_BYTES } from '../../../extension/lib/chunks';
import type { ContentRequest } from '../../../extension/lib/messages';
import { withRetries } from '../../../extension/lib/retry';
import { askBackground, extensionTransport } from '../../../extension/lib/transport';
import type { ReportInput } from '../../../functions/contracts/intake-schemas';
import { SnagError } from '../../../widget/src/app/errors';

function fakeWorker(refuse?: string) {
  const seen: ContentRequest[] = [];
  const chunks = new Map<string, string[]>();
  const stored = new Map<string, Uint8Array>();
  const ask = askBackground(async (m) => {
    seen.push(m);
    if (refuse) return { ok: false, code: refuse };
    switch (m.type) {
      case 'presign':
        return {
          ok: true,
          value: { key: `k${seen.length}`, url: 'https://s3.test/b', fields: { key: 'k' } },
        };
      case 'chunk':
        chunks.set(m.upload, [...(chunks.get(m.upload) ?? []), m.data]);
        return { ok: true, value: null };
      case 'post-form':
        stored.set(m.post.key, bytesOf(chunks.get(m.upload) ?? []));
        return { ok: true, value: null };
      case 'create':
        return { ok: true, value: { number: 7, url: 'http://localhost:3000/x' } };
      default:
        return { ok: true, value: null };
    }
  });
  return { ask, seen, stored };
}

const page = {
  logs: [
    { t: 5, level: 'error' as const, kind: 'console' as const, msg: 'Payment failed for ada@example.com' },
  ],
  steps: [{ t: 6, kind: 'click' as const, label: 'button "Pay"' }],
};

describe('the extension transport', () => {
  it('hands a blob over in chunks and the worker posts exactly its bytes', async () => {
    const worker = fakeWorker();
    const transport = extensionTransport('p1', worker.ask, async () => page);
    const bytes = new Uint8Array(randomBytes(CHUNK_BYTES * 2 + 1234));
    const post = await transport.postJson<{ key: string; url: string; fields: Record<string, string> }>(
      'http://x/api/website/p1/upload',
      { kind: 'screenshot', type: 'image/png', size: bytes.length },
    );
    expect(worker.seen[0]).toEqual({
      type: 'presign',
      projectId: 'p1',
      body: { kind: 'screenshot', type: 'image/png', size: bytes.length },
    });
    const progress: number[] = [];
    await transport.postForm(post, new Blob([bytes], { type: 'image/png' }), (n) => progress.push(n));
    expect(worker.seen.filter((m) => m.type === 'chunk')).toHaveLength(3);
    expect(Buffer.from(worker.stored.get(post.key)!).equals(Buffer.from(bytes))).toBe(true);
    expect(progress.at(-1)).toBe(bytes.length);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('files the report as a v1 issue with the page world’s logs and steps, a new key per attempt', async () => {
    const worker = fakeWorker();
    const transport = extensionTransport('p1', worker.ask, async () => page);
    const report: ReportInput = {
      msg: 'Pay does nothing',
      href: 'https://shop.example.com/',
      logs: [],
      steps: [],
    };
    expect(await transport.postJson('http://x/api/website/p1/request', report)).toEqual({ number: 7 });
    await transport.postJson('http://x/api/website/p1/request', report);
    const creates = worker.seen.filter((m) => m.type === 'create');
    expect(creates).toHaveLength(2);
    const [first, second] = creates as Extract<ContentRequest, { type: 'create' }>[];
    expect(first!.body).toMatchObject({
      description: 'Pay does nothing',
      pageUrl: 'https://shop.example.com/',
    });
    // The widget's redaction applies to the page's logs as to its own.
    expect(first!.body.logs).toHaveLength(1);
    expect(first!.body.logs![0]).toMatchObject({ t: 5, level: 'error', kind: 'console' });
    expect(first!.body.logs![0]!.msg).toMatch(/^Payment failed for \[/);
    expect(first!.body.logs![0]!.msg).not.toContain('ada@example.com');
    expect(first!.body.steps).toEqual(page.steps);
    expect(first!.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(second!.idempotencyKey).not.toBe(first!.idempotencyKey);
  });

  it('turns a refusal into the widget error the panel shows', async () => {
    const transport = extensionTransport('p1', fakeWorker('CONNECTION_ENDED').ask, async () => page);
    const error = await transport.postJson('http://x/api/website/p1/request', { msg: 'x' }).catch((e) => e);
    expect(error).toBeInstanceOf(SnagError);
    expect((error as SnagError).code).toBe('CONNECTION_ENDED');
  });
});

describe('filing after a lost answer', () => {
  it('tries again with the same call while no answer came or the server failed, never after a refusal', async () => {
    const outcomes = [new ApiError('NETWORK'), new ApiError('GENERIC', 503), { number: 4 }];
    let calls = 0;
    const filed = await withRetries(
      async () => {
        const next = outcomes[calls++]!;
        if (next instanceof ApiError) throw next;
        return next;
      },
      { pauseMs: 1 },
    );
    expect(filed).toEqual({ number: 4 });
    expect(calls).toBe(3);

    calls = 0;
    const refused = await withRetries(
      async () => {
        calls++;
        throw new ApiError('PLAN_LIMIT', 403);
      },
      { pauseMs: 1 },
    ).catch((e: ApiError) => e.code);
    expect([refused, calls]).toEqual(['PLAN_LIMIT', 1]);

    calls = 0;
    const gone = await withRetries(
      async () => {
        calls++;
        throw new ApiError('NETWORK');
      },
      { pauseMs: 1 },
    ).catch((e: ApiError) => e.code);
    expect([gone, calls]).toEqual(['NETWORK', 3]);
  });
});
