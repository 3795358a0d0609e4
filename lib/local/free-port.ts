/** Free TCP ports for the internal stand-ins, so that two local stacks never collide. */
import { createServer } from 'node:net';

/** Asks the OS for a port that is free right now (the caller binds it moments later). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}
