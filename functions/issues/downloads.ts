/**
 * The issues' stored objects for the dashboard and the deliveries (docs/data-model.md 4.9): downloads as
 * short-lived presigned S3 redirects under a safe name, and the page snapshot's viewable copy. Access is
 * the policy's (projects/access.ts); a signed delivery link (integrations/links.ts) is the other proof.
 */
import type { SnapshotView, SnapshotViewAnswer } from '#contracts/review';
import { cleanText } from '#contracts/text';
import { s3, s3Sdk } from '#runtime/aws/s3';
import { bucketName } from '#runtime/config';
import { AppError } from '#runtime/errors';
import { type ProjectAction, projectFor } from '../projects/access';
import { snapshotViewKey, storedKey } from './object-keys';
import { scrollAnchorId, snapshotMeta, snapshotViewDocument } from './snapshot-view';
import { encodeOriginalName } from './uploads';

/** Download names: an object name the intake made (uuid.ext); anything else names nothing (4.9). */
export const downloadNamePattern = /^[0-9a-f-]{36}\.[a-z0-9]{2,5}$/;
export const DOWNLOAD_EXPIRY_SECONDS = 300;

/** Types a browser may show inline from the bucket's origin; everything else is a download. */
const inlineTypes: Record<string, string> = { png: 'image/png', webm: 'video/webm', mp4: 'video/mp4' };

/** `Content-Disposition` per RFC 6266: an ASCII fallback and `filename*` for the exact name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\;]/g, '_') || 'download';
  return `${kind}; filename="${ascii}"; filename*=${encodeOriginalName(name)}`;
}

/** Extensions a stored type's own may also be written as. */
const sameExtension: Record<string, string[]> = { jpg: ['jpeg'], mp3: ['mpeg'] };

/**
 * The name a download is offered under (issue 19): the visitor's original name cleaned of control, format and
 * bidi characters (contracts/text.ts; names stored before the rule covered visitors may hold them) and of path
 * separators, ending in the extension of the stored, validated type: `evil.html` stored as text/plain
 * downloads as `evil.html.txt`, `x.svg` stored as a PNG as `x.svg.png`.
 */
export function downloadName(original: string | undefined, storedName: string): string {
  const ext = storedName.slice(storedName.lastIndexOf('.') + 1);
  const base = cleanText(original ?? '', { max: 200 })
    .replace(/[/\\]/g, '_')
    .replace(/^\.+/, '');
  if (!base) return storedName;
  const own = base.includes('.') ? base.slice(base.lastIndexOf('.') + 1).toLowerCase() : '';
  return own === ext || sameExtension[ext]?.includes(own) ? base : `${base}.${ext}`;
}

function decodeExtValue(value: string | undefined): string | undefined {
  if (!value?.startsWith("UTF-8''")) return undefined;
  try {
    return decodeURIComponent(value.slice(7));
  } catch {
    return undefined;
  }
}

/**
 * A presigned GET for a project's stored file or screenshot, after the ownership check: `attachment` under
 * the original name for files and snapshots, `inline` only for png/webm/mp4 screenshots without `download`.
 * The answer's type is the object's only where it is one of those; otherwise `application/octet-stream`.
 */
export async function downloadUrl(
  userId: string,
  projectId: string,
  kind: 'file' | 'screenshot',
  name: string,
  download: boolean,
  action: ProjectAction = 'read',
): Promise<string> {
  if (!downloadNamePattern.test(name)) throw new AppError('NOT_FOUND');
  await projectFor(userId, projectId, action);
  return presignStored(projectId, kind, name, download);
}

/**
 * The bytes of a stored screenshot, file or replay, read from S3 directly (a delivery uploading it to a
 * vendor, the replay routes): one GetObject, stopped by `signal`. The caller has proved the right to it.
 */
export async function readStored(
  projectId: string,
  kind: 'file' | 'screenshot' | 'replay',
  name: string,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  if (!downloadNamePattern.test(name)) throw new AppError('NOT_FOUND');
  const [{ GetObjectCommand }, client] = await Promise.all([s3Sdk(), s3()]);
  const out = await client.send(
    new GetObjectCommand({ Bucket: bucketName(), Key: storedKey(projectId, kind, name) }),
    { abortSignal: signal },
  );
  if (!out.Body) throw new Error(`could not read ${name}: no body`);
  return out.Body.transformToByteArray();
}

/**
 * A short-lived presigned GET of a stored object, with its original name. The caller has proved the right
 * to it: ownership (the dashboard's downloads) or a signed delivery link (functions/integrations/links.ts).
 */
export async function presignStored(
  projectId: string,
  kind: 'file' | 'screenshot',
  name: string,
  download: boolean,
): Promise<string> {
  if (!downloadNamePattern.test(name)) throw new AppError('NOT_FOUND');
  const Key = storedKey(projectId, kind, name);
  const Bucket = bucketName();
  const [{ GetObjectCommand, HeadObjectCommand }, client] = await Promise.all([s3Sdk(), s3()]);
  let original: string | undefined;
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
    original = decodeExtValue(head.Metadata?.['original-name']);
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || status === 403) throw new AppError('NOT_FOUND');
    throw err;
  }
  const ext = name.slice(name.lastIndexOf('.') + 1);
  const inline = kind === 'screenshot' && !download && ext in inlineTypes;
  const disposition = contentDisposition(inline ? 'inline' : 'attachment', downloadName(original, name));
  const type =
    kind === 'screenshot' ? (inlineTypes[ext] ?? 'application/octet-stream') : 'application/octet-stream';
  const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
  return getSignedUrl(
    client,
    new GetObjectCommand({
      Bucket,
      Key,
      ResponseContentDisposition: disposition,
      ResponseContentType: type,
    }),
    { expiresIn: DOWNLOAD_EXPIRY_SECONDS },
  );
}

const viewMetaHeader = 'snapshot-view';

/**
 * The page snapshot `name` of the caller's project as a document to show in a sandboxed frame: a short-lived
 * presigned GET, served inline as HTML from the bucket's origin (never the dashboard's), of a copy that
 * carries a script-free policy and a scroll anchor. The copy is made on the first view (one GetObject and
 * one PutObject of at most 5 MB) and found by a HeadObject afterwards. Anything but a stored snapshot of
 * this project is NOT_FOUND.
 */
export async function snapshotView(
  userId: string,
  projectId: string,
  name: string,
  action: ProjectAction = 'read',
): Promise<SnapshotViewAnswer> {
  if (!downloadNamePattern.test(name) || !name.endsWith('.html')) throw new AppError('NOT_FOUND');
  await projectFor(userId, projectId, action);
  const Bucket = bucketName();
  const Key = snapshotViewKey(projectId, name);
  const [{ GetObjectCommand, HeadObjectCommand, PutObjectCommand }, client] = await Promise.all([
    s3Sdk(),
    s3(),
  ]);
  const status = (err: unknown) =>
    (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  let view: SnapshotView | null;
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
    view = parseViewHeader(head.Metadata?.[viewMetaHeader]);
  } catch (err) {
    if (status(err) !== 404 && status(err) !== 403) throw err;
    let html: string;
    try {
      const original = await client.send(
        new GetObjectCommand({ Bucket, Key: storedKey(projectId, 'snapshot', name) }),
      );
      html = (await original.Body?.transformToString('utf-8')) ?? '';
    } catch (e) {
      if (status(e) === 404 || status(e) === 403 || (e as { name?: string }).name === 'NoSuchKey')
        throw new AppError('NOT_FOUND');
      throw e;
    }
    view = snapshotMeta(html);
    await client.send(
      new PutObjectCommand({
        Bucket,
        Key,
        Body: snapshotViewDocument(html, view),
        ContentType: 'text/html; charset=utf-8',
        Metadata: { [viewMetaHeader]: view ? JSON.stringify(view) : 'none' },
      }),
    );
  }
  const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
  const url = await getSignedUrl(
    client,
    new GetObjectCommand({
      Bucket,
      Key,
      ResponseContentType: 'text/html; charset=utf-8',
      ResponseContentDisposition: 'inline',
      ResponseCacheControl: 'private, no-store',
    }),
    { expiresIn: DOWNLOAD_EXPIRY_SECONDS },
  );
  return { url, anchor: scrollAnchorId, view };
}

function parseViewHeader(value: string | undefined): SnapshotView | null {
  if (!value || value === 'none') return null;
  try {
    const v = JSON.parse(value) as SnapshotView;
    return typeof v.width === 'number' && typeof v.scrollY === 'number' ? v : null;
  } catch {
    return null;
  }
}
