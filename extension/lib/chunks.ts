/**
 * Blobs between the page and the background worker: runtime messages are JSON in Chromium, so bytes
 * travel as base64 text in chunks (extension/lib/transport.ts sends, the worker joins them).
 */

/** 512 KiB of bytes per message: well under every browser's message limit, and progress to show. */
export const CHUNK_BYTES = 512 * 1024;

export function base64Of(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** The bytes of the chunks, in order (each chunk is whole base64: CHUNK_BYTES is a multiple of 3 × 4). */
export function bytesOf(chunks: readonly string[]): Uint8Array<ArrayBuffer> {
  const parts = chunks.map((c) => atob(c));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) for (let i = 0; i < part.length; i++) bytes[at++] = part.charCodeAt(i);
  return bytes;
}
