/**
 * The vendor fakes across restarts of `npm start` with one data dir: the same addresses (a Jira host saved
 * by a client keeps working), the Slack and Asana tokens they issued still accepted, and a remembered port
 * that something else took replaced by a free one with a warning.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVendorFakes, type VendorFakes } from '../../lib/local/vendors';
import { savedFakesFile } from '../../lib/local/vendors/saved';

let dataDir: string;
let fakes: VendorFakes | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'snag-fakes-'));
});

afterAll(async () => {
  await fakes?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const redirectUri = 'http://localhost:3000/profile/slack_redirect';

/**
 * A request on a connection of its own: the restarted fakes have the same addresses, and fetch() would
 * reuse a kept-alive connection to the stopped ones.
 */
function fetch(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: URLSearchParams } = {},
) {
  return new Promise<{ status: number; text(): Promise<string>; json(): Promise<unknown> }>(
    (resolve, reject) => {
      const req = request(
        url,
        { method: init.method ?? 'GET', headers: init.headers, agent: false },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            body += c;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              text: async () => body,
              json: async () => JSON.parse(body),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(init.body?.toString());
    },
  );
}

/** The code the consent page's Allow link carries. */
async function consentCode(url: string): Promise<string> {
  const page = await (await fetch(url)).text();
  const allow = /id="allow" href="([^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&') ?? '';
  const code = new URL(allow).searchParams.get('code');
  if (!code) throw new Error(`no code on the consent page: ${page}`);
  return code;
}

async function slackToken(f: VendorFakes): Promise<string> {
  const q = new URLSearchParams({ client_id: f.slack.clientId, redirect_uri: redirectUri, state: 's' });
  const code = await consentCode(`${f.slack.authorizeUrl}?${q}`);
  const res = await fetch(`${f.slack.apiUrl}/oauth.v2.access`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${f.slack.clientId}:${f.slack.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ code, redirect_uri: redirectUri }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

const asanaForm = (f: VendorFakes, fields: Record<string, string>) =>
  fetch(`${f.asana.oauthUrl}/oauth_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: f.asana.clientId,
      client_secret: f.asana.clientSecret,
      ...fields,
    }),
  });

async function asanaTokens(f: VendorFakes): Promise<{ access_token: string; refresh_token: string }> {
  const q = new URLSearchParams({
    client_id: f.asana.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    state: 's',
  });
  const code = await consentCode(`${f.asana.oauthUrl}/oauth_authorize?${q}`);
  const res = await asanaForm(f, { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  return (await res.json()) as { access_token: string; refresh_token: string };
}

const slackChannels = async (f: VendorFakes, token: string) =>
  (await (
    await fetch(`${f.slack.apiUrl}/conversations.list`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { ok: boolean; error?: string };

const addresses = (f: VendorFakes) => [
  f.gitlab.url,
  f.jira.url,
  f.slack.url,
  f.asana.url,
  f.webhooks.url,
  f.github.url,
  f.linear.url,
];

describe('vendor fakes across restarts of one data dir', () => {
  it('keep their addresses and accept the Slack and Asana tokens they issued before', async () => {
    fakes = await startVendorFakes({ dataDir });
    const first = addresses(fakes);
    const slack = await slackToken(fakes);
    const asana = await asanaTokens(fakes);
    expect((await slackChannels(fakes, slack)).ok).toBe(true);
    expect(fakes.env.SLACK_API_URL).toBe(`${first[2]}/api`);
    expect(fakes.env.LINEAR_API_URL).toBe(`${first[6]}/graphql`);
    await fakes.stop();

    fakes = await startVendorFakes({ dataDir });
    expect(addresses(fakes)).toEqual(first);
    // What an integration saved in the first run still works in the second.
    expect(await slackChannels(fakes, slack)).toEqual(expect.objectContaining({ ok: true }));
    const workspaces = await fetch(`${fakes.asana.apiUrl}/workspaces`, {
      headers: { authorization: `Bearer ${asana.access_token}` },
    });
    expect(workspaces.status).toBe(200);
    const refreshed = await asanaForm(fakes, {
      grant_type: 'refresh_token',
      refresh_token: asana.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    // A token it never issued is still refused.
    expect(await slackChannels(fakes, 'xoxb-local-forged')).toEqual({ ok: false, error: 'invalid_auth' });
    await fakes.stop();
    fakes = undefined;
  });

  it('moves a fake whose port was taken meanwhile to a free one, says so, and remembers the new port', async () => {
    const before = JSON.parse(await readFile(savedFakesFile(dataDir), 'utf8')) as { ports: { jira: number } };
    const squatter = createServer();
    await new Promise<void>((done) => squatter.listen(before.ports.jira, '127.0.0.1', () => done()));
    const warnings: string[] = [];
    try {
      fakes = await startVendorFakes({ dataDir, warn: (line) => warnings.push(line) });
    } finally {
      await new Promise<void>((done) => squatter.close(() => done()));
    }
    expect(fakes.jira.url).not.toBe(`http://127.0.0.1:${before.ports.jira}`);
    expect(warnings).toEqual([expect.stringContaining(`Jira fake's port ${before.ports.jira} is taken`)]);
    const after = JSON.parse(await readFile(savedFakesFile(dataDir), 'utf8')) as { ports: { jira: number } };
    expect(after.ports.jira).toBe(Number(new URL(fakes.jira.url).port));
  });

  it('keeps nothing without a data dir (the integration tests)', async () => {
    const other = await mkdtemp(join(tmpdir(), 'snag-fakes-none-'));
    const f = await startVendorFakes();
    try {
      expect(addresses(f).every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);
      await expect(readFile(savedFakesFile(other), 'utf8')).rejects.toThrow();
    } finally {
      await f.stop();
      await rm(other, { recursive: true, force: true });
    }
  });
});
