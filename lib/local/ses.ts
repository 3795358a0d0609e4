/**
 * SES stand-in: aws-ses-v2-local. Its mail store is a module-level singleton, so one process holds one
 * mailbox; separate `npm start` processes each have their own.
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type sesServerType from 'aws-ses-v2-local';

// CommonJS with an `exports.default`: Node's ESM import would hand back the exports object, not the function.
const sesServer = (createRequire(import.meta.url)('aws-ses-v2-local') as { default: typeof sesServerType })
  .default;

export interface LocalSes {
  endpoint: string;
  /** Its inbox page, for a human to read the mail. */
  inboxUrl: string;
  stop(): Promise<void>;
}

export async function startSes(): Promise<LocalSes> {
  const server = await sesServer({ host: '127.0.0.1', port: 0 });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    inboxUrl: `${endpoint}/`,
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
