/** S3 helpers shared by the entities that keep files. */
import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { s3 } from './aws/s3';
import { getConfig } from './config';

/** Deletes every object under `prefix` in the uploads bucket, 1,000 per request. */
export async function deletePrefix(prefix: string): Promise<void> {
  const Bucket = getConfig().UPLOADS_BUCKET;
  let token: string | undefined;
  do {
    const page = await s3().send(
      new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
    );
    const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
    if (keys.length > 0)
      await s3().send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}
