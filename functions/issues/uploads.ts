/**
 * The widget's uploads in S3 (docs/data-model.md 4.9). A visitor uploads straight to S3 with a presigned
 * POST to `pending/<projectId>/<kind>/<uuid>.<ext>`; the report copies each object to its final key
 * (`p/<projectId>/s/…` for screenshots, videos and snapshots, `p/<projectId>/f/…` for files) under a fresh
 * name, and the pending objects expire after a day (bucket lifecycle). No key ever holds a visitor's file
 * name: the extension comes from the validated MIME type, the original name is S3 metadata.
 */
import { randomUUID } from 'node:crypto';
import { extensionOf, type UploadKind, uploadFormSeconds } from '#contracts/intake';
import { s3, s3Sdk } from '#runtime/aws/s3';
import { bucketName } from '#runtime/config';
import { AppError } from '#runtime/errors';
import { pendingKey, pendingKeyPattern, storedKey } from './object-keys';

export interface UploadKey {
  key: string;
  projectId: string;
  kind: UploadKind;
  /** The upload's own id: the single-use guard's key (issue.ts `uploadGuardKey`). */
  id: string;
  ext: string;
}

/** A key as the upload call issues it, or null for anything else. */
export function parseUploadKey(key: string): UploadKey | null {
  const m = pendingKeyPattern.exec(key);
  if (!m) return null;
  const [, projectId = '', kind, id = '', ext = ''] = m;
  return { key, projectId, kind: kind as UploadKind, id, ext };
}

/** Where an accepted upload is kept, under a name of its own (never the pending one). */
export function finalKey(projectId: string, kind: UploadKind, ext: string): { key: string; name: string } {
  const name = `${randomUUID()}.${ext}`;
  return { key: storedKey(projectId, kind, name), name };
}

/**
 * A file name as an RFC 8187 `ext-value` (`UTF-8''…`): S3 metadata is ASCII, and the download handler can
 * put it straight into `Content-Disposition: attachment; filename*=…`.
 */
export function encodeOriginalName(name: string): string {
  const encoded = encodeURIComponent(name).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `UTF-8''${encoded}`;
}

export interface PresignedUpload {
  key: string;
  url: string;
  fields: Record<string, string>;
}

/**
 * A presigned POST for exactly one object: the policy binds the key, the Content-Type and a
 * `content-length-range` of exactly `size`, and expires after `uploadFormSeconds`.
 */
export async function presignUpload(
  projectId: string,
  kind: UploadKind,
  type: string,
  size: number,
): Promise<PresignedUpload> {
  const ext = extensionOf[type];
  if (!ext) throw new Error(`no extension for ${type}`);
  const key = pendingKey(projectId, kind, randomUUID(), ext);
  const [{ createPresignedPost }, client] = await Promise.all([import('@aws-sdk/s3-presigned-post'), s3()]);
  const { url, fields } = await createPresignedPost(client, {
    Bucket: bucketName(),
    Key: key,
    Conditions: [
      ['eq', '$Content-Type', type],
      ['content-length-range', size, size],
    ],
    Fields: { 'Content-Type': type },
    Expires: uploadFormSeconds,
  });
  return { key, url, fields };
}

export interface StoredObject {
  size: number;
  type: string;
}

/**
 * Size and type of an uploaded object, or null when there is none. Without s3:ListBucket (the intake's
 * role has none) S3 answers a missing key with 403 rather than 404: both mean "not uploaded".
 */
export async function headUpload(key: string): Promise<StoredObject | null> {
  const [{ HeadObjectCommand }, client] = await Promise.all([s3Sdk(), s3()]);
  try {
    const out = await client.send(new HeadObjectCommand({ Bucket: bucketName(), Key: key }));
    return {
      size: out.ContentLength ?? 0,
      type: (out.ContentType ?? '').split(';')[0]!.trim().toLowerCase(),
    };
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

/** The bytes of an accepted upload (the intake reads a recording before storing it); null when gone. */
export async function readUpload(key: string): Promise<Uint8Array | null> {
  const [{ GetObjectCommand }, client] = await Promise.all([s3Sdk(), s3()]);
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
    return out.Body ? await out.Body.transformToByteArray() : null;
  } catch (err) {
    if (isMissing(err) || (err as { name?: string }).name === 'NoSuchKey') return null;
    throw err;
  }
}

function isMissing(err: unknown): boolean {
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404 || status === 403;
}

/**
 * Copies an accepted upload to its final key, with its type and (for files) the original name. A source gone
 * since its HeadObject (a racing report with the same key won and deleted it, or it expired) is INVALID_UPLOAD,
 * as the guard would have answered; 403 counts as missing, as in headUpload.
 */
export async function copyUpload(
  from: string,
  to: string,
  type: string,
  originalName?: string,
): Promise<void> {
  const [{ CopyObjectCommand }, client] = await Promise.all([s3Sdk(), s3()]);
  const Bucket = bucketName();
  const copy = client.send(
    new CopyObjectCommand({
      Bucket,
      CopySource: `${Bucket}/${from}`,
      Key: to,
      MetadataDirective: 'REPLACE',
      ContentType: type,
      ...(originalName === undefined
        ? {}
        : { Metadata: { 'original-name': encodeOriginalName(originalName) } }),
    }),
  );
  await copy.catch((err) => {
    if (isMissing(err)) throw new AppError('INVALID_UPLOAD');
    throw err;
  });
}

/** Deletes objects (at most 1,000, one request); the caller decides whether a failure matters. */
export async function deleteObjects(keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const [{ DeleteObjectsCommand }, client] = await Promise.all([s3Sdk(), s3()]);
  const out = await client.send(
    new DeleteObjectsCommand({
      Bucket: bucketName(),
      Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
    }),
  );
  if (out.Errors?.length) throw new Error(`could not delete ${out.Errors.length} object(s)`);
}
