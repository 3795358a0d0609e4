/**
 * Writes one S3 object piece by piece without holding it whole: text goes into a buffer that is sent as a
 * multipart upload's part once it reaches `partBytes` (S3's minimum part is 5 MiB, except the last), with at
 * most one part in flight while the caller produces the next, so memory stays near two parts whatever the
 * object's size. An object that never fills a part is one PutObject. A failed or abandoned multipart upload
 * is removed by the bucket's lifecycle rule (lib/resources.ts `abortIncompleteMultipartDays`), so the writer
 * needs no AbortMultipartUpload permission.
 */
import { s3, s3Sdk } from './aws/s3';
import { bucketName } from './config';

export const MIN_PART_BYTES = 5 * 1024 * 1024;

export interface ObjectWriter {
  /** Adds text (UTF-8); resolves once the writer can take more (a full part has started uploading). */
  write(text: string): Promise<void>;
  /** Sends what is left and completes the object. */
  close(): Promise<void>;
  /** Bytes written so far. */
  readonly bytes: number;
}

export function s3ObjectWriter(key: string, opts: { contentType: string; partBytes?: number }): ObjectWriter {
  const partBytes = Math.max(opts.partBytes ?? MIN_PART_BYTES, MIN_PART_BYTES);
  const Bucket = bucketName();
  let chunks: Buffer[] = [];
  let buffered = 0;
  let total = 0;
  let uploadId: string | undefined;
  const parts: { PartNumber: number; ETag: string }[] = [];
  let inFlight: Promise<void> = Promise.resolve();

  async function sendPart(body: Buffer) {
    const [sdk, client] = await Promise.all([s3Sdk(), s3()]);
    if (uploadId === undefined) {
      const created = await client.send(
        new sdk.CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: opts.contentType }),
      );
      uploadId = created.UploadId;
    }
    const PartNumber = parts.length + 1;
    // The part's slot is taken before the upload, so parts stay numbered in the order they were written.
    const slot = { PartNumber, ETag: '' };
    parts.push(slot);
    const out = await client.send(
      new sdk.UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber, Body: body }),
    );
    slot.ETag = out.ETag ?? '';
  }

  const take = () => {
    const body = Buffer.concat(chunks, buffered);
    chunks = [];
    buffered = 0;
    return body;
  };

  return {
    get bytes() {
      return total;
    },
    async write(text: string) {
      const b = Buffer.from(text, 'utf8');
      chunks.push(b);
      buffered += b.length;
      total += b.length;
      if (buffered < partBytes) return;
      // One part in flight at most: wait for the previous one, then start this one and return.
      await inFlight;
      const body = take();
      inFlight = sendPart(body);
      // An early failure surfaces on the next write or on close; keep it from being unhandled meanwhile.
      inFlight.catch(() => undefined);
    },
    async close() {
      await inFlight;
      const [sdk, client] = await Promise.all([s3Sdk(), s3()]);
      if (uploadId === undefined) {
        await client.send(
          new sdk.PutObjectCommand({ Bucket, Key: key, Body: take(), ContentType: opts.contentType }),
        );
        return;
      }
      if (buffered > 0) await sendPart(take());
      await client.send(
        new sdk.CompleteMultipartUploadCommand({
          Bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    },
  };
}
