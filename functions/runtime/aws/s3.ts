/**
 * The S3 client, loaded on first use: most calls of the functions that can touch S3 (project deletion,
 * downloads) never do, and the S3 SDK alone costs ~60 ms of cold start (`npm run bench`).
 */
import { getConfig } from '../config';
import { clientOptions, hooked, perConfig } from './options';

export const s3Sdk = () => import('@aws-sdk/client-s3');

export const s3 = perConfig(async () => {
  const { S3Client } = await s3Sdk();
  return hooked(
    new S3Client({
      ...clientOptions(getConfig().S3_ENDPOINT),
      forcePathStyle: !!getConfig().S3_ENDPOINT,
    }),
  );
});
