import { S3Client } from '@aws-sdk/client-s3';
import { getConfig } from '../config';
import { clientOptions, perConfig } from './options';

export const s3 = perConfig(
  () =>
    new S3Client({ ...clientOptions(getConfig().S3_ENDPOINT), forcePathStyle: !!getConfig().S3_ENDPOINT }),
);
