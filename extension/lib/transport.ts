/**
 * The extension's `Transport` (widget/src/app/report.ts) for the widget's own app: the app asks for the
 * widget's intake calls (`…/upload`, `…/request`), and this sends the v1 calls of the same meaning through
 * the background worker instead, which holds the token. Blobs cross as base64 chunks (runtime messages are
 * JSON in Chromium).
 */

import type { ReportInput } from '#contracts/intake-schemas';
import { SnagError } from '../../widget/src/app/errors';
import { type PresignedPost, reportLogs, reportSteps, type Transport } from '../../widget/src/app/report';
import { base64Of, CHUNK_BYTES } from './chunks';
import type { Answer, ContentRequest } from './messages';
import type { PageActivity } from './page-bridge';
import { randomBase64url } from './pkce';
import { toV1Issue } from './to-v1';

export type Ask = <T>(m: ContentRequest) => Promise<T>;

/** Sends `m` to the background worker; a refusal throws the widget's SnagError with its code. */
export const askBackground =
  (send: (m: ContentRequest) => Promise<unknown>): Ask =>
  async <T>(m: ContentRequest) => {
    let answer: Answer<T> | undefined;
    try {
      answer = (await send(m)) as Answer<T> | undefined;
    } catch {
      throw new SnagError('NETWORK');
    }
    if (!answer) throw new SnagError('GENERIC');
    if (!answer.ok) throw new SnagError(answer.code);
    return answer.value;
  };

/**
 * The bytes of `buffer` in an array of the reporter's own. In Firefox the screenshot's blob comes from a
 * canvas of the page (the content script draws on `document`'s canvases), so its buffer is the page's:
 * a view of it reads element by element, but `subarray` (which `base64Of` uses) asks for its
 * `constructor` and is refused ("Permission denied to access property \"constructor\""), which failed
 * every report with a screenshot in Firefox. Copied one by one, the bytes are ours; in Chromium the copy
 * costs a few milliseconds per screenshot.
 */
export function ownBytes(buffer: ArrayBuffer): Uint8Array {
  const view = new Uint8Array(buffer);
  const own = new Uint8Array(view.length);
  for (let i = 0; i < view.length; i++) own[i] = view[i]!;
  return own;
}

export function extensionTransport(
  projectId: string,
  ask: Ask,
  /** The page script's logs and steps at the moment of sending (lib/page-bridge.ts). */
  pageActivity: () => Promise<PageActivity>,
): Transport {
  return {
    async postJson<T>(url: string, body: unknown): Promise<T> {
      if (url.endsWith('/upload')) {
        return ask<T>({
          type: 'presign',
          projectId,
          body: body as { kind: string; type: string; size: number },
        });
      }
      if (url.endsWith('/request')) {
        const report = body as ReportInput;
        // The logs and steps live in the page's world: the freshest of them go, under the widget's limits.
        const page = await pageActivity();
        const v1 = toV1Issue({ ...report, logs: reportLogs(page.logs), steps: reportSteps(page.steps) });
        // One key per attempt (random: `crypto.randomUUID` needs a secure page): the background worker retries a lost answer with it, filing nothing twice.
        const created = await ask<{ number: number }>({
          type: 'create',
          projectId,
          body: v1,
          idempotencyKey: randomBase64url(18),
        });
        return { number: created.number } as T;
      }
      throw new SnagError('GENERIC');
    },

    async postForm(post: PresignedPost, blob: Blob, onProgress: (sent: number) => void): Promise<void> {
      const upload = randomBase64url(18);
      for (let at = 0; at < blob.size; at += CHUNK_BYTES) {
        const data = base64Of(ownBytes(await blob.slice(at, at + CHUNK_BYTES).arrayBuffer()));
        await ask({ type: 'chunk', upload, data });
        // Handing the bytes over is half the way; the worker's POST to storage is the other half.
        onProgress(Math.min(blob.size, at + CHUNK_BYTES) * 0.5);
      }
      await ask({ type: 'post-form', upload, post, contentType: blob.type || 'application/octet-stream' });
      onProgress(blob.size);
    },
  };
}
