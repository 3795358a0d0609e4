/**
 * A local webhook receiver for tests: records every request (method, path, headers, raw body) and answers
 * with the status its test chose for the path (200 unless told). Listens on 127.0.0.1 only; the local
 * stack's outbound allowance lets deliveries reach it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  /** When it arrived (ms since the epoch). */
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Answer `status` on requests to `path` (a prefix) from now on. */
  answer(path: string, status: number): void;
  to(path: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const statuses = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        at: Date.now(),
        method: req.method ?? '',
        path,
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      });
      const status = [...statuses].find(([p]) => path.startsWith(p))?.[1] ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    answer: (path, status) => void statuses.set(path, status),
    to: (path) => received.filter((r) => r.path.startsWith(path)),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
