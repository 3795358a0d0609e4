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

/** What a client hook may touch: the client's middleware stack (the SDK's, typed loosely on purpose). */
export interface HookableClient {
  middlewareStack: { add: (...args: never[]) => unknown };
}

const clientHooks: ((client: HookableClient) => void)[] = [];

/**
 * Registers `hook` for every AWS client made from now on. Nothing registers one in AWS; the test suites
 * record each command a handler sends (test/support/aws-commands.ts) and inject faults.
 */
export function onNewClient(hook: (client: HookableClient) => void): void {
  clientHooks.push(hook);
}

/** A new client, after the registered hooks have seen it. */
export function hooked<C extends HookableClient>(client: C): C {
  for (const hook of clientHooks) hook(client);
  return client;
}
