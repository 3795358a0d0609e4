/** The one URL as a user meets it: API envelopes, the gateway's refusals, dev mail, static files. */

import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { localCredentials } from '../../lib/local/credentials';
import { eventually, isAlive } from '../support/local-stack';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';

let dist: string;
/** The built loader the loader route wraps: with the project's configuration, over 1,000 bytes. */
const loaderJs = `window.snag = 1;${' '.repeat(600)}`;
/** A widget bundle big enough for CloudFront to compress (1,000 bytes and more). */
const bundle = Buffer.from('export function snag(a, b) { return a + b; }\n'.repeat(400));

// Its own JVM: afterAll checks that stopping the stack leaves none of it running.
const stack = setUpTestStack(async () => {
  dist = await mkdtemp(join(tmpdir(), 'snag-dist-'));
  await mkdir(join(dist, 'web', 'assets'), { recursive: true });
  await mkdir(join(dist, 'widget'), { recursive: true });
  await writeFile(join(dist, 'web', 'index.html'), '<!doctype html><title>Snag dashboard</title>');
  await writeFile(join(dist, 'web', 'assets', 'index-BxY12abc.js'), 'console.log("dashboard");');
  await writeFile(join(dist, 'web', 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(dist, 'widget', 'loader.js'), loaderJs);
  await writeFile(join(dist, 'widget', 'app-Cd34Ef56.js'), bundle);
  await writeFile(join(dist, 'web', 'assets', 'logo-Ab12Cd34.png'), Buffer.alloc(5000, 7));
  await writeFile(join(dist, 'secret.txt'), 'outside the web root');
  return { distDir: dist, ownDynamo: true };
});

afterAll(async () => {
  const pid = stack.dynamodbPid;
  await stack.stop();
  await rm(dist, { recursive: true, force: true });
  // stop() waits for the JVM: nothing of the stack is left once it resolves.
  if (pid) expect(isAlive(pid)).toBe(false);
});

const api = (path: string, init?: RequestInit) => fetch(`${stack.url}${path}`, init);

/** A raw request, for paths fetch() would normalise (`..`, encoded slashes). */
async function rawGet(path: string): Promise<{ status: number; body: string }> {
  const res = await raw(path);
  return { status: res.status, body: res.bytes.toString('utf8') };
}

/** A request whose answer is read as the bytes on the wire: fetch() would decompress them. */
function raw(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: 'localhost', port: stack.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('API', () => {
  it('answers /api/health with the success envelope once every part is up', async () => {
    const res = await api('/api/health');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      status: 'success',
      msg: { dynamodb: 'ok', s3: 'ok', fanoutQueue: 'ok', deliveryQueue: 'ok', ses: 'ok' },
    });
  });

  it('answers an unknown /api path with the NOT_FOUND envelope', async () => {
    const res = await api('/api/no/such/thing');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
  });

  it('answers a known path with the wrong method with METHOD_NOT_ALLOWED', async () => {
    const res = await api('/api/health', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(await res.json()).toMatchObject({ status: 'error', code: 'METHOD_NOT_ALLOWED' });
  });

  it('refuses a body over 10 MB with PAYLOAD_TOO_LARGE, without reading it all', async () => {
    // Streamed without a content-length, so the gateway must count as it reads.
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 12) controller.close();
        else {
          sent++;
          controller.enqueue(chunk);
        }
      },
    });
    const res = await api('/api/client/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.url },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ status: 'error', code: 'PAYLOAD_TOO_LARGE' });

    const declared = await api('/api/client/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.url },
      body: new Uint8Array(10 * 1024 * 1024 + 1),
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ status: 'error', code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('dev emails', () => {
  const ses = () =>
    new SESClient({ region: stack.region, endpoint: stack.endpoints.ses, credentials: localCredentials });

  it('lists sent mail newest first, with to, subject, text, html and date, filtered by ?to=', async () => {
    const client = ses();
    const send = (to: string, subject: string) =>
      client.send(
        new SendEmailCommand({
          Source: 'Snag <no-reply@snag.localhost>',
          Destination: { ToAddresses: [to] },
          Message: {
            Subject: { Data: subject },
            Body: { Text: { Data: `${subject} text` }, Html: { Data: `<p>${subject}</p>` } },
          },
        }),
      );
    await send('first@example.com', 'First');
    await send('Second@Example.com', 'Second');
    client.destroy();

    const all = await (await api('/api/dev/emails')).json();
    expect(all.status).toBe('success');
    expect(all.msg.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    const [newest] = all.msg;
    expect(newest).toMatchObject({
      to: ['Second@Example.com'],
      subject: 'Second',
      text: 'Second text',
      html: '<p>Second</p>',
    });
    expect(Number.isNaN(Date.parse(newest.date))).toBe(false);

    const filtered = await (await api('/api/dev/emails?to=SECOND%40example.com')).json();
    expect(filtered.msg.map((m: { subject: string }) => m.subject)).toEqual(['Second']);
  });
});

describe('dev plan, as README and docs/widget-api.md tell a developer to call it', () => {
  const root = join(import.meta.dirname, '../..');
  /** The `curl …/api/dev/plan` command of a markdown file, continuation lines joined. */
  const documented = async (file: string) => {
    const text = await readFile(join(root, file), 'utf8');
    const m = /^curl http:\/\/localhost:3000\/api\/dev\/plan(?:.*\\\n)*.*$/m.exec(text);
    if (!m) throw new Error(`${file} has no curl command for /api/dev/plan`);
    return m[0];
  };

  it('is the same command in both, and it sets the plan when pasted into a shell', async () => {
    const readme = await documented('README.md');
    expect(await documented('docs/widget-api.md')).toBe(readme);
    const { email } = await signedIn(stack.url);
    // The reader's port and address are this stack's and this client's; nothing else changes.
    const command = readme.replaceAll('http://localhost:3000', stack.url).replace('you@example.com', email);
    const out = await new Promise<string>((resolve, reject) =>
      execFile('sh', ['-c', command], (err, stdout) => (err ? reject(err) : resolve(stdout))),
    );
    expect(JSON.parse(out)).toMatchObject({
      status: 'success',
      msg: { username: email.toLowerCase(), plan: 'BASIC_PLAN' },
    });
  });

  it('without the Origin header is refused as cross-site, as the docs say', async () => {
    const res = await api('/api/dev/plan', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'you@example.com', plan: 'BASIC_PLAN', days: 30 }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'FORBIDDEN_ORIGIN' });
  });
});

describe('static files', () => {
  it('serves the dashboard at / without caching index.html', async () => {
    const res = await fetch(`${stack.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('Snag dashboard');
  });

  it('falls back to index.html for client routes, not for missing assets', async () => {
    const route = await fetch(`${stack.url}/projects/42/issues`);
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('Snag dashboard');
    const asset = await fetch(`${stack.url}/assets/missing-Ab12Cd34.js`);
    expect(asset.status).toBe(404);
    // A replay link's page: its token holds dots, yet it is the dashboard's page, not an asset.
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const replay = await fetch(`${stack.url}/replay/${id}.${id}.1767225600.${'A'.repeat(43)}`);
    expect(replay.status).toBe(200);
    expect(await replay.text()).toContain('Snag dashboard');
  });

  it('caches hashed assets for a year, with the right content types', async () => {
    const js = await fetch(`${stack.url}/assets/index-BxY12abc.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const svg = await fetch(`${stack.url}/favicon.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves /widget/* from the widget bundle and 404s a missing file', async () => {
    const loader = await fetch(`${stack.url}/widget/loader.js`);
    expect(loader.status).toBe(200);
    expect(await loader.text()).toBe(loaderJs);
    const missing = await fetch(`${stack.url}/widget/nope.js`);
    expect(missing.status).toBe(404);
    const client = await fetch(`${stack.url}/widget/some/route`);
    expect(client.status).toBe(404);
  });

  it('never serves a file outside the bundles', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/widget/../secret.txt',
      '/widget/%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
    ]) {
      const res = await rawGet(path);
      expect(res.body, path).not.toContain('outside the web root');
    }
  });
});

describe('DynamoDB Local dying', () => {
  it('answers 503 NOT_READY while the JVM is down, starts a new one on the same port and data, and serves again', async () => {
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        region: stack.region,
        endpoint: stack.endpoints.dynamodb,
        credentials: localCredentials,
      }),
    );
    const key = { pk: 'KEEP#jvm', sk: 'KEEP' };
    await db.send(new PutCommand({ TableName: stack.tableName, Item: { ...key, value: 'kept' } }));
    // The loader reads the table on every call: a read that fails would be a 500.
    const loader = `/api/website/${randomUUID()}/code`;
    expect((await api(loader)).status).toBe(200);

    const before = stack.dynamodbPid;
    process.kill(before, 'SIGKILL');
    const down = await eventually(
      async () => {
        const res = await api(loader);
        return res.status === 200 ? undefined : res;
      },
      5_000,
      'the stack to notice',
    );
    expect(down.status).toBe(503);
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await down.json()).toMatchObject({ status: 'error', code: 'NOT_READY' });
    const health = await api('/api/health');
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'error', code: 'NOT_READY' });

    await eventually(
      async () => ((await api('/api/health')).status === 200 ? true : undefined),
      60_000,
      'health',
    );
    expect(stack.dynamodbPid).not.toBe(before);
    expect(isAlive(before)).toBe(false);
    expect(isAlive(stack.dynamodbPid)).toBe(true);
    expect((await api(loader)).status).toBe(200);
    // Same port, same data folder: what was stored before is still there, through the same endpoint.
    const item = await db.send(new GetCommand({ TableName: stack.tableName, Key: key }));
    expect(item.Item?.value).toBe('kept');
    db.destroy();
  });
});

describe('compression, as CloudFront compresses', () => {
  it('sends static text as Brotli or Gzip by Accept-Encoding, with Vary and the Content-Length of what is sent', async () => {
    const br = await raw('/widget/app-Cd34Ef56.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.bytes.length);
    expect(br.bytes.length).toBeLessThan(bundle.length / 10);
    expect(brotliDecompressSync(br.bytes)).toEqual(bundle);

    const gz = await raw('/widget/app-Cd34Ef56.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(gz.bytes.length);
    expect(gunzipSync(gz.bytes)).toEqual(bundle);

    // HEAD answers the headers GET would, without the body.
    const head = await raw('/widget/app-Cd34Ef56.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-length']).toBe(br.headers['content-length']);
    expect(head.bytes.length).toBe(0);

    const plain = await raw('/widget/app-Cd34Ef56.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.bytes).toEqual(bundle);
  });

  it('leaves tiny files and images uncompressed, and fetch() reads the file as it is', async () => {
    const tiny = await raw('/favicon.svg', { 'accept-encoding': 'br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.bytes.toString()).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const png = await raw('/assets/logo-Ab12Cd34.png', { 'accept-encoding': 'br' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.bytes.length).toBe(5000);
    // fetch() asks for gzip and br and decodes: what a browser sees is the file.
    expect(Buffer.from(await (await fetch(`${stack.url}/widget/app-Cd34Ef56.js`)).arrayBuffer())).toEqual(
      bundle,
    );
  });

  it('compresses the loader answer, and no other API answer', async () => {
    const { client } = await signedIn(stack.url);
    const created = await client.post<{ id: string }>('/api/client/website', {
      name: 'Shop',
      url: 'shop.example',
    });
    const id = (created.body as { msg: { id: string } }).msg.id;
    const plain = await raw(`/api/website/${id}/code`);
    // The loader of this stack's dist, with the project's configuration.
    expect(plain.bytes.toString()).toContain(loaderJs);
    expect(plain.bytes.length).toBeGreaterThanOrEqual(1000);
    const br = await raw(`/api/website/${id}/code`, { 'accept-encoding': 'gzip, br' });
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'Accept-Encoding' });
    expect(Number(br.headers['content-length'])).toBe(br.bytes.length);
    expect(brotliDecompressSync(br.bytes)).toEqual(plain.bytes);

    // A JSON answer over 1,000 bytes from the rest of /api/*: CloudFront's CachingDisabled behaviour.
    const list = await raw('/api/dev/emails', { 'accept-encoding': 'gzip, br' });
    expect(list.bytes.length).toBeGreaterThanOrEqual(1000);
    expect(list.headers['content-encoding']).toBeUndefined();
    expect(list.headers.vary).toBeUndefined();
  });
});
