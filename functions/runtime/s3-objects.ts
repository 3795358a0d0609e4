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
