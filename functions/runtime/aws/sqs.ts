import { SQSClient } from '@aws-sdk/client-sqs';
import { getConfig } from '../config';
import { clientOptions, hooked, perConfig } from './options';

export const sqs = perConfig(() => hooked(new SQSClient(clientOptions(getConfig().SQS_ENDPOINT))));
