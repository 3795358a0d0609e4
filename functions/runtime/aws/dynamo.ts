import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getConfig } from '../config';
import { clientOptions, hooked, perConfig } from './options';

export const dynamo = perConfig(() =>
  hooked(new DynamoDBClient(clientOptions(getConfig().DYNAMODB_ENDPOINT))),
);
export const db = perConfig(() =>
  DynamoDBDocumentClient.from(dynamo(), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  }),
);
