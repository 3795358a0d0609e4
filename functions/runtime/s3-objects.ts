/** S3 helpers shared by the entities that keep files. */
import { s3, s3Sdk } from './aws/s3';
import { bucketName } from './config';

/** Deletes every object under `prefix` in the uploads bucket, 1,000 per request. */
export async function deletePrefix(prefix: string): Promise<void> {
  const Bucket = bucketName();
  const [{ DeleteObjectsCommand, ListObjectsV2Command }, client] = await Promise.all([s3Sdk(), s3()]);
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
    );
    const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
    if (keys.length > 0)
      await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

/** Deletes the objects `keys` of the uploads bucket, 1,000 per request; a missing key is no error. */
export async function deleteObjects(keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const Bucket = bucketName();
  const [{ DeleteObjectsCommand }, client] = await Promise.all([s3Sdk(), s3()]);
  for (let i = 0; i < keys.length; i += 1000) {
    const Objects = keys.slice(i, i + 1000).map((Key) => ({ Key }));
    const out = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
    // Quiet mode answers only the failures: one left behind would be a file the issue no longer names.
    if (out.Errors?.length) throw new Error(`could not delete ${out.Errors.length} object(s)`);
  }
}

/**
 * Deletes the objects under `prefix` last modified before `before` (ms): the bucket lifecycle's expiry,
 * played where there is no lifecycle (the local S3 stand-in). Answers how many it deleted.
 */
export async function deleteOlderThan(prefix: string, before: number): Promise<number> {
  const Bucket = bucketName();
  const [{ ListObjectsV2Command }, client] = await Promise.all([s3Sdk(), s3()]);
  let token: string | undefined;
  let deleted = 0;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
    );
    const old = (page.Contents ?? []).flatMap((o) =>
      o.Key && o.LastModified && o.LastModified.getTime() < before ? [o.Key] : [],
    );
    await deleteObjects(old);
    deleted += old.length;
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return deleted;
}
