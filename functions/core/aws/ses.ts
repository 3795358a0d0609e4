import { SESClient } from '@aws-sdk/client-ses';
import { getConfig } from '../config';
import { clientOptions, perConfig } from './options';

export const ses = perConfig(() => new SESClient(clientOptions(getConfig().SES_ENDPOINT)));
