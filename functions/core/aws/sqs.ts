import { SQSClient } from '@aws-sdk/client-sqs';
import { getConfig } from '../config';
import { clientOptions, perConfig } from './options';

export const sqs = perConfig(() => new SQSClient(clientOptions(getConfig().SQS_ENDPOINT)));
