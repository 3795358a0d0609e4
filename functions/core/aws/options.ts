/**
 * Shared options of the AWS clients: region, and the local stand-in's endpoint when the config names one.
 * Each client lives in its own module (dynamo, s3, sqs, ses) so a function bundles and initialises only
 * the SDKs it uses: loading all four costs ~150 ms of cold start (`npm run bench`).
 */
import { getConfig } from '../config';

export function clientOptions(endpoint: string | undefined) {
  const { AWS_REGION } = getConfig();
  if (!endpoint) return { region: AWS_REGION };
  // The stand-ins accept any credentials; fixed ones keep the SDK from searching the machine for some.
  return { region: AWS_REGION, endpoint, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } };
}

/** One client per configuration: a local stack restarted on new ports (resetConfig) gets fresh ones. */
export function perConfig<T>(make: () => T): () => T {
  let value: T | undefined;
  let madeFor: ReturnType<typeof getConfig> | undefined;
  return () => {
    const config = getConfig();
    if (value === undefined || madeFor !== config) {
      value = make();
      madeFor = config;
    }
    return value;
  };
}
