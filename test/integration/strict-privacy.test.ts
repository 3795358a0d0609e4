/**
 * Strict privacy mode on the local stack (docs/privacy.md "Strict privacy mode"): a widget that sends raw
 * query strings, fragments, multi-line console messages and the visitor's email into a strict project has
 * the report stored without them, by the filing core both the widget's intake and REST v1 go through; the
 * same report into a normal project keeps them; the widget configuration forces replay text masking and
 * tells the widget to leave out its email field; turning the mode on and off is in the audit log.
 */
import { gzipSync } from 'node:zlib';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { v1IssueCreatedSchema, v1WidgetConfigSchema } from '#contracts/api-v1';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { getProject } from '../../functions/projects/project';
import { auditPartition } from '../../functions/teams/audit';
import { teamOf } from '../../functions/teams/member';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { fileReport } from '../support/widget';

const stack = setUpTestStack();
const ORIGIN = 'https://shop.example';

type Json = Record<string, unknown>;

const setData = (s: Site, data: Json) => s.client.patch(`/api/client/website/${s.id}`, { data });

/** A Business project (replay on), strict or not. */
async function site(strict: boolean): Promise<Site> {
  const s = await newSite(stack.url, 'BUSINESS_PLAN');
  const res = await setData(s, { widgetReplay: true, widgetReplayMaskText: false, strictPrivacy: strict });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return s;
}

/** A filing token of the site's team, as a script or the extension would hold. */
async function tokenOf(s: Site): Promise<string> {
  const teamId = await findUserIdByEmail(s.email.toLowerCase());
  const made = await s.client.post<{ token: string }>(`/api/client/team/${teamId}/tokens`, {
    name: 'CI',
    scopes: ['projects:read', 'issues:read', 'issues:create'],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return (made.body as { msg: { token: string } }).msg.token;
}

const issue = async (s: Site, n: number) =>
  ((await s.client.get(`/api/client/website/${s.id}/request/${n}`)).body as { msg: Json }).msg;

/** What a careless (or old, or modified) widget sends: every address with its query, messages in full. */
const raw = {
  msg: 'Checkout fails\nsee https://shop.example/help?topic=pay',
  username: 'visitor@example.com',
  href: 'https://shop.example/checkout?ref=N3wsl3tter&coupon=SUMMER#payment',
  logs: [
    {
      t: 1,
      level: 'error',
      kind: 'console',
      msg: 'Cart rejected https://api.shop.example/cart?customer=cust_778#x\n{"street":"Main Street 5","zip":"10115"}',
    },
    {
      t: 2,
      level: 'error',
      kind: 'network',
      msg: 'GET https://api.shop.example/orders?customer=cust_778 500',
    },
  ],
  steps: [
    { t: 1, kind: 'load', label: 'https://shop.example/search?q=private+words' },
    { t: 2, kind: 'navigate', label: 'https://shop.example/account#billing' },
  ],
};

describe('a strict project', () => {
  it("stores a widget's report without queries, fragments, further log lines or the email; a normal project keeps them", async () => {
    const strict = await site(true);
    const stored = await issue(strict, await fileReport(stack.url, strict.id, ORIGIN, { fields: raw }));
    const data = stored.data as Json;
    expect(data.href).toBe('https://shop.example/checkout');
    expect(data.username ?? '').toBe('');
    expect((stored.logs as { msg: string }[]).map((l) => l.msg)).toEqual([
      'Cart rejected https://api.shop.example/cart',
      'GET https://api.shop.example/orders 500',
    ]);
    expect((stored.steps as { label: string }[]).map((s) => s.label)).toEqual([
      'https://shop.example/search',
      'https://shop.example/account',
    ]);
    const text = JSON.stringify({ ...stored, data: { ...data, msg: undefined } });
    for (const gone of [
      'N3wsl3tter',
      'SUMMER',
      'cust_778',
      'Main Street',
      'private',
      'billing',
      'visitor@example.com',
    ])
      expect(text, gone).not.toContain(gone);
    // What the visitor wrote is theirs to send: kept as written.
    expect(data.msg).toBe(raw.msg);

    const normal = await site(false);
    const kept = await issue(normal, await fileReport(stack.url, normal.id, ORIGIN, { fields: raw }));
    expect((kept.data as Json).href).toBe(raw.href);
    expect((kept.data as Json).username).toBe('visitor@example.com');
    expect((kept.logs as { msg: string }[])[0]!.msg).toBe(raw.logs[0]!.msg);
    expect((kept.steps as { label: string }[])[0]!.label).toBe(raw.steps[0]!.label);
  });

  it("refuses a recording whose text is not masked (a widget that sends the page's words); keeps a masked one", async () => {
    const recording = (words: string) => ({
      content: new Uint8Array(
        gzipSync(
          JSON.stringify([
            {
              type: 4,
              timestamp: 1_764_400_000_000,
              data: { href: 'https://shop.example/', width: 1280, height: 800 },
            },
            {
              type: 2,
              timestamp: 1_764_400_000_010,
              data: {
                node: {
                  type: 0,
                  id: 1,
                  childNodes: [
                    {
                      type: 2,
                      id: 2,
                      tagName: 'p',
                      attributes: {},
                      childNodes: [{ type: 3, id: 3, textContent: words }],
                    },
                  ],
                },
              },
            },
          ]),
        ),
      ),
      start: 1_764_400_000_000,
      end: 1_764_400_060_000,
    });
    const strict = await site(true);
    const sent = recording('Order for Ada Lovelace, IBAN DE89 3704');
    const refused = await issue(
      strict,
      await fileReport(stack.url, strict.id, ORIGIN, { fields: { msg: 'Order page' }, replay: sent }),
    );
    // The report is kept, the recording is not (as with an unmasked input value).
    expect((refused.data as Json).msg).toBe('Order page');
    expect(refused.replay).toBeNull();
    const masked = await issue(
      strict,
      await fileReport(stack.url, strict.id, ORIGIN, {
        fields: { msg: 'Order page again' },
        replay: recording('***** *** *** ********'),
      }),
    );
    expect(masked.replay).toMatchObject({ start: sent.start, end: sent.end });
    // A normal project keeps the page's words: what its option asked for.
    const normal = await site(false);
    const kept = await issue(
      normal,
      await fileReport(stack.url, normal.id, ORIGIN, { fields: { msg: 'Order page' }, replay: sent }),
    );
    expect(kept.replay).toMatchObject({ start: sent.start });
  });

  it('strips a REST v1 create the same way', async () => {
    const strict = await site(true);
    const token = await tokenOf(strict);
    const res = await fetch(new URL(`/api/v1/projects/${strict.id}/issues`, stack.url), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': `strict-${strict.id}`,
      },
      body: JSON.stringify({
        title: 'Cart rejected',
        description: 'From the pipeline',
        reporterEmail: 'qa@shop.example',
        pageUrl: raw.href,
        logs: raw.logs,
        steps: raw.steps,
      }),
    });
    const body = (await res.json()) as { msg: unknown };
    expect(res.status, JSON.stringify(body)).toBe(201);
    const { number } = v1IssueCreatedSchema.parse(body.msg);
    const stored = await issue(strict, number);
    expect((stored.data as Json).href).toBe('https://shop.example/checkout');
    expect((stored.data as Json).username ?? '').toBe('');
    expect((stored.logs as { msg: string }[])[0]!.msg).toBe('Cart rejected https://api.shop.example/cart');
  });

  it("serves a widget configuration that masks the replay's text and leaves out the email field", async () => {
    // The configuration the loader embeds, as REST v1 answers it for the extension (projects/loader.ts).
    const configOf = async (s: Site) => {
      const res = await fetch(new URL(`/api/v1/projects/${s.id}/widget`, stack.url), {
        headers: { authorization: `Bearer ${await tokenOf(s)}` },
      });
      expect(res.status).toBe(200);
      return v1WidgetConfigSchema.parse(((await res.json()) as { msg: unknown }).msg);
    };
    const strict = await configOf(await site(true));
    expect(strict.replay).toEqual({ maskText: true });
    expect(strict.strictPrivacy).toBe(true);
    const normal = await configOf(await site(false));
    expect(normal.replay).toEqual({ maskText: false });
    expect(normal.strictPrivacy).toBeUndefined();
  });

  it('records turning it on and off in the audit log, once per change', async () => {
    const s = await newSite(stack.url);
    expect((await setData(s, { strictPrivacy: 'yes' })).status).toBe(400);
    expect((await setData(s, { strictPrivacy: true })).status).toBe(200);
    expect((await setData(s, { strictPrivacy: true })).status).toBe(200); // unchanged: no entry
    expect((await setData(s, { strictPrivacy: false })).status).toBe(200);
    const meta = await getProject(s.id);
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': auditPartition(teamOf(meta as never)) },
        ConsistentRead: true,
      }),
    );
    const entries = (out.Items ?? []).filter((i) => i.projectId === s.id);
    expect(entries.map((e) => [e.kind, e.detail])).toEqual([
      ['privacy.settings', { setting: 'strictPrivacy', from: false, to: true }],
      ['privacy.settings', { setting: 'strictPrivacy', from: true, to: false }],
    ]);
    expect(entries[0]?.actor).toMatchObject({ kind: 'member' });
  });
});
