import { SESClient } from '@aws-sdk/client-ses';
import { getConfig } from '../config';
import { clientOptions, hooked, perConfig } from './options';

export const ses = perConfig(() => hooked(new SESClient(clientOptions(getConfig().SES_ENDPOINT))));
