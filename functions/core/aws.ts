/**
 * AWS clients, one per process, pointed at the local stand-ins when the config names an endpoint.
 * Created on first use so that importing a module never needs configuration.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SESClient } from '@aws-sdk/client-ses';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getConfig } from './config';

function localOptions(endpoint: string | undefined) {
  const { AWS_REGION } = getConfig();
  if (!endpoint) return { region: AWS_REGION };
  // The stand-ins accept any credentials; fixed ones keep the SDK from searching the machine for some.
  return { region: AWS_REGION, endpoint, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } };
}

/** One client per configuration: a local stack restarted on new ports (resetConfig) gets fresh ones. */
function lazy<T>(make: () => T): () => T {
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

export const dynamo = lazy(() => new DynamoDBClient(localOptions(getConfig().DYNAMODB_ENDPOINT)));
export const db = lazy(() =>
  DynamoDBDocumentClient.from(dynamo(), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  }),
);
export const s3 = lazy(
  () => new S3Client({ ...localOptions(getConfig().S3_ENDPOINT), forcePathStyle: !!getConfig().S3_ENDPOINT }),
);
export const sqs = lazy(() => new SQSClient(localOptions(getConfig().SQS_ENDPOINT)));
export const ses = lazy(() => new SESClient(localOptions(getConfig().SES_ENDPOINT)));
