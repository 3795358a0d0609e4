/**
 * The local stack on the network: every stand-in and the one URL listen on the loopback address only
 * (the stand-ins take any credentials and hold users, hashes and sessions), and a page opened on another
 * loopback spelling of the one URL is sent to it.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setUpTestStack } from '../support/stack-fixture';

let emptyDist: string;
const stack = setUpTestStack(async () => {
  emptyDist = await mkdtemp(join(tmpdir(), 'snag-dist-'));
  return { cheapCosts: false, distDir: emptyDist };
});

afterAll(async () => {
  await rm(emptyDist, { recursive: true, force: true });
});

/** The local addresses (hex, as /proc shows them) of every listening TCP socket on `port`. */
function listeningOn(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // Columns: sl, local_address (ADDR:PORT), rem_address, st (0A = LISTEN), …
      .filter((cols) => cols[3] === '0A' && cols[1]?.endsWith(`:${hexPort}`))
      .map((cols) => (cols[1] ?? '').split(':')[0] ?? ''),
  );
}

/** 127.0.0.1 as /proc writes it for IPv4 and for an IPv4-mapped IPv6 socket; ::1 for IPv6. */
const loopback = new Set([
  '0100007F',
  '0000000000000000FFFF00000100007F',
  '00000000000000000000000001000000',
]);

describe('listening addresses', () => {
  it.runIf(process.platform === 'linux')(
    'binds the one URL and every stand-in to the loopback address',
    () => {
      const ports = {
        gateway: stack.port,
        dynamodb: Number(new URL(stack.endpoints.dynamodb).port),
        s3: Number(new URL(stack.endpoints.s3).port),
        sqs: Number(new URL(stack.endpoints.sqs).port),
        ses: Number(new URL(stack.endpoints.ses).port),
        sesInbox: Number(new URL(stack.sesInboxUrl).port),
      };
      for (const [name, port] of Object.entries(ports)) {
        const addresses = listeningOn(port);
        expect(addresses.length, `${name} listens on ${port}`).toBeGreaterThan(0);
        expect(
          addresses.filter((a) => !loopback.has(a)),
          `${name} listens beyond loopback`,
        ).toEqual([]);
      }
    },
  );
});

describe('one local origin', () => {
  it('sends pages asked for on 127.0.0.1 to the one URL, path and query kept', async () => {
    const res = await fetch(`http://127.0.0.1:${stack.port}/login?username=a%40b.c`, { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe(`${stack.url}/login?username=a%40b.c`);
    const widget = await fetch(`http://127.0.0.1:${stack.port}/widget/loader.js`, { redirect: 'manual' });
    expect(widget.headers.get('location')).toBe(`${stack.url}/widget/loader.js`);
  });

  it('is no open redirect, and leaves the one URL and the API alone', async () => {
    const res = await fetch(`http://127.0.0.1:${stack.port}//evil.example/x`, { redirect: 'manual' });
    expect(res.headers.get('location')).toBe(`${stack.url}/`);
    expect((await fetch(`${stack.url}/login`, { redirect: 'manual' })).status).not.toBe(308);
    const api = await fetch(`http://127.0.0.1:${stack.port}/api/health`, { redirect: 'manual' });
    expect(api.status).toBe(200);
  });
});
