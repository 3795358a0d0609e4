/**
 * The team's audit log (issue 35, contracts/audit.ts) through the local stack: each access-relevant change
 * of today (members invited, joined, re-roled, removed, left, ownership transferred; API tokens made and
 * revoked; the browser extension connected and revoked; integrations saved and reset; CSV exports) leaves
 * one entry with its actor (the name as it was) and its target, never a secret; OWNER and ADMIN read it
 * newest first, filtered by kind and person, a page of 50 with a cursor, and as a CSV file whose cells a
 * spreadsheet cannot evaluate; a MEMBER or GUEST is refused (403), an outsider finds nothing (404).
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPage } from '#contracts/audit';
import { queryKeys } from '#runtime/db';
import { auditPartition, recordAudit } from '../../functions/teams/audit';
import type { ApiClient } from '../support/api-client';
import { parseCsv } from '../support/csv';
import { join, type Person, person, projectOf } from '../support/members-teams';
import { setUpTestStack } from '../support/stack-fixture';
import { setTeamPlan } from '../support/teams';

const stack = setUpTestStack();

const WEBHOOK_SECRET = 'whsec-0123456789abcdef';

const msgOf = <T>(res: { status: number; body: unknown }): T => {
  const b = res.body as { status: string; msg: T };
  if (b.status !== 'success') throw new Error(`refused: ${res.status} ${JSON.stringify(b)}`);
  return b.msg;
};
const codeOf = (res: { body: unknown }) => (res.body as { code?: string }).code;

async function rename(p: Person, firstName: string, lastName: string) {
  msgOf(await p.client.patch('/api/client/profile', { firstName, lastName }));
}

async function page(client: ApiClient, tid: string, query = '') {
  return msgOf<AuditPage>(await client.get(`/api/client/team/${tid}/audit${query}`));
}

/** Every entry of the team's log, newest first, following the cursor. */
async function everything(client: ApiClient, tid: string, query = ''): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '?';
    const got: AuditPage = await page(client, tid, cursor ? `${query}${sep}cursor=${cursor}` : query);
    out.push(...got.entries);
    cursor = got.cursor;
  } while (cursor);
  return out;
}

const auditKeys = (tid: string) =>
  queryKeys({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': auditPartition(tid) },
    ConsistentRead: true,
  });

const cookieOf = (client: ApiClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function csv(client: ApiClient, tid: string, query = '') {
  const res = await fetch(new URL(`/api/client/team/${tid}/audit.csv${query}`, stack.url), {
    headers: { cookie: cookieOf(client) },
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The extension's connection as the extension makes it (PKCE code, then the exchange without cookie). */
async function connectExtension(client: ApiClient, browser: string) {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const { code } = msgOf<{ code: string }>(
    await client.post('/api/client/extension/connect', { challenge, browser }),
  );
  const res = await fetch(new URL('/api/extension/token', stack.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'chrome-extension://abcdefghijklmnop' },
    body: JSON.stringify({ code, verifier }),
  });
  const body = (await res.json()) as { msg: { token: string } };
  const list = msgOf<{ id: string }[]>(await client.get('/api/client/profile/extensions'));
  return { token: body.msg.token, id: list[0]?.id as string };
}

describe('the audit log', () => {
  it('records every access-relevant change with its actor and target, never a secret, for OWNER and ADMIN', async () => {
    const owner = await person(stack.url);
    await rename(owner, 'Olga', 'Owner');
    await setTeamPlan(owner.id, 'BUSINESS_PLAN', null);
    const tid = owner.id;
    const projectId = await projectOf(owner.client);
    const admin = await join(stack.url, owner.client, tid, 'ADMIN');
    await rename(admin, 'Adam', 'Admin');
    const member = await join(stack.url, admin.client, tid, 'MEMBER');
    await rename(member, 'Mia', 'Member');
    const guest = await join(stack.url, owner.client, tid, 'GUEST', [projectId]);
    const stranger = await person(stack.url);

    // Role change by the admin, then back (two entries), a token made and revoked by the owner.
    msgOf(await admin.client.patch(`/api/client/team/${tid}/members/${member.id}`, { role: 'ADMIN' }));
    msgOf(await admin.client.patch(`/api/client/team/${tid}/members/${member.id}`, { role: 'MEMBER' }));
    const created = msgOf<{ token: string; entry: { id: string } }>(
      await owner.client.post(`/api/client/team/${tid}/tokens`, { name: '=2+3 CI', scopes: ['issues:read'] }),
    );
    msgOf(await owner.client.delete(`/api/client/team/${tid}/tokens/${created.entry.id}`));
    // An integration saved with a secret, then Slack reset (removed); a CSV export of the project.
    msgOf(
      await owner.client.patch(`/api/client/integration/${projectId}`, [
        { name: 'webhooks', active: 1, data: { url: 'https://hooks.example/snag', token: WEBHOOK_SECRET } },
      ]),
    );
    msgOf(await admin.client.delete(`/api/client/integration/slack/authentication/${projectId}`));
    const exported = await fetch(new URL(`/api/client/website/${projectId}/requests.csv`, stack.url), {
      redirect: 'manual',
      headers: { cookie: cookieOf(member.client) },
    });
    expect(exported.status).toBe(302);
    // The admin connects the extension (it acts in both their teams: both logs say so) and revokes it.
    const ext = await connectExtension(admin.client, 'Firefox');
    msgOf(await admin.client.delete(`/api/client/profile/extensions/${ext.id}`));
    // The guest leaves on their own, the admin removes … nobody else; the owner hands the team to the admin.
    msgOf(await guest.client.delete(`/api/client/team/${tid}/members/${guest.id}`));
    const late = await join(stack.url, owner.client, tid, 'MEMBER');
    msgOf(await admin.client.delete(`/api/client/team/${tid}/members/${late.id}`));
    msgOf(await owner.client.post(`/api/client/team/${tid}/transfer`, { userId: admin.id }));

    // The former owner (ADMIN now) reads it: newest first.
    const all = await everything(owner.client, tid);
    const times = all.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    const one = (kind: string, pred: (e: AuditEntry) => boolean = () => true) => {
      const found = all.filter((e) => e.kind === kind && pred(e));
      expect(found, `${kind} in ${JSON.stringify(all.map((e) => e.kind))}`).not.toHaveLength(0);
      return found[0] as AuditEntry;
    };
    const by = (p: Person, name: string) => ({ kind: 'member', id: p.id, name });

    expect(one('member.invited', (e) => e.target === member.email)).toMatchObject({
      actor: by(admin, 'Adam Admin'),
      detail: { role: 'MEMBER', resent: false },
    });
    // The joiner acts (their name when they accepted: the registration's), the address is the target.
    expect(one('member.joined', (e) => e.target === guest.email)).toMatchObject({
      actor: { kind: 'member', id: guest.id },
      detail: { role: 'GUEST', projects: 1, invitedBy: owner.id },
    });
    const roles = all.filter((e) => e.kind === 'member.role');
    expect(roles.map((e) => [e.detail?.from, e.detail?.to])).toEqual([
      ['ADMIN', 'MEMBER'],
      ['MEMBER', 'ADMIN'],
    ]);
    expect(roles[0]).toMatchObject({ actor: by(admin, 'Adam Admin'), target: member.email });
    expect(one('token.created')).toMatchObject({
      actor: by(owner, 'Olga Owner'),
      target: '=2+3 CI',
      detail: { prefix: `snag_pat_${created.entry.id}`, scopes: 'issues:read' },
    });
    expect(one('token.revoked')).toMatchObject({ target: '=2+3 CI', actor: by(owner, 'Olga Owner') });
    expect(one('integration.changed', (e) => e.target === 'webhooks')).toMatchObject({
      actor: by(owner, 'Olga Owner'),
      projectId,
      detail: { change: 'saved', active: true },
    });
    expect(one('integration.removed', (e) => e.target === 'slack')).toMatchObject({
      actor: by(admin, 'Adam Admin'),
      projectId,
      detail: { active: false, authorized: false },
    });
    expect(one('export.csv')).toMatchObject({
      actor: by(member, 'Mia Member'),
      projectId,
      target: 'Shop',
      detail: { rows: 0, list: 'open' },
    });
    expect(one('extension.connected')).toMatchObject({
      actor: by(admin, 'Adam Admin'),
      target: 'Firefox',
      detail: { connection: ext.id },
    });
    expect(one('extension.revoked')).toMatchObject({ target: 'Firefox', detail: { connection: ext.id } });
    expect(one('member.left')).toMatchObject({ actor: { id: guest.id }, target: guest.email });
    expect(one('member.removed')).toMatchObject({ actor: by(admin, 'Adam Admin'), target: late.email });
    expect(one('member.transfer')).toMatchObject({
      actor: by(owner, 'Olga Owner'),
      target: admin.email,
      detail: { from: 'ADMIN', to: 'OWNER' },
    });
    // The extension acts in every team of its member: the admin's personal team logs it too.
    const own = await everything(admin.client, admin.id, '?kind=extension.connected');
    expect(own).toHaveLength(1);

    // No secret in any entry: not the token, not the extension's token, not the integration's key or URL.
    const stored = JSON.stringify(all);
    expect(stored).not.toContain(created.token);
    expect(stored).not.toContain(ext.token);
    expect(stored).not.toContain(WEBHOOK_SECRET);
    expect(stored).not.toContain('hooks.example');

    // Filters: by kind, by person, both.
    const invited = await everything(owner.client, tid, '?kind=member.invited');
    expect(invited.length).toBe(4);
    expect(invited.every((e) => e.kind === 'member.invited')).toBe(true);
    const adams = await everything(owner.client, tid, `?actor=${admin.id}`);
    expect(adams.length).toBeGreaterThanOrEqual(5);
    expect(adams.every((e) => e.actor.id === admin.id)).toBe(true);
    expect(await everything(owner.client, tid, `?kind=token.created&actor=${admin.id}`)).toEqual([]);

    // The CSV: same filters, safe cells (the token's name would be a formula).
    const file = await csv(admin.client, tid, '?kind=token.created');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    expect(file.headers.get('content-disposition')).toMatch(/attachment; filename="snag-audit-/);
    const rows = parseCsv(file.text);
    expect(rows[0]?.[0]).toBe('When (UTC)');
    expect(rows.slice(1)).toHaveLength(1);
    expect(rows[1]).toContain("'=2+3 CI");
    expect(rows[1]?.[1]).toBe('token.created');
    expect(file.text).not.toContain(created.token);
    const german = await csv(owner.client, tid, '?lng=de');
    expect(parseCsv(german.text)[0]?.[0]).toBe('Wann (UTC)');

    // Roles: the MEMBER is refused, the former GUEST and a stranger find nothing; a guest is 403.
    const guest2 = await join(stack.url, admin.client, tid, 'GUEST', [projectId]);
    for (const path of [`/api/client/team/${tid}/audit`, `/api/client/team/${tid}/audit.csv`]) {
      const m = await member.client.get(path);
      expect([m.status, codeOf(m)]).toEqual([403, 'FORBIDDEN']);
      const g = await guest2.client.get(path);
      expect([g.status, codeOf(g)]).toEqual([403, 'FORBIDDEN']);
      const s = await stranger.client.get(path);
      expect([s.status, codeOf(s)]).toEqual([404, 'NOT_FOUND']);
      const gone = await guest.client.get(path);
      expect(gone.status).toBe(404);
    }
    // Hostile input: a 400 with the catalogue's code, never a 500.
    for (const q of [
      '?kind=member.deleted',
      '?cursor=abc',
      '?actor=%27%20OR%201',
      `?cursor=${'9'.repeat(14)}`,
    ]) {
      const bad = await owner.client.get(`/api/client/team/${tid}/audit${q}`);
      expect([bad.status, codeOf(bad)], q).toEqual([400, 'INVALID_PARAMETERS']);
    }
  });

  it('pages 50 at a time, newest first, without gaps or repeats', async () => {
    const owner = await person(stack.url);
    const tid = owner.id;
    const actor = { kind: 'member' as const, id: owner.id, name: 'Olga Owner' };
    for (let i = 0; i < 57; i++) {
      await recordAudit(tid, { kind: 'export.csv', actor, target: `Export ${i}`, detail: { rows: i } });
    }
    const first = await page(owner.client, tid);
    expect(first.entries).toHaveLength(50);
    expect(first.entries[0]?.target).toBe('Export 56');
    expect(first.cursor).toMatch(/^[0-9]{13}-[0-9a-f]{8}$/);
    const second = await page(owner.client, tid, `?cursor=${first.cursor}`);
    expect(second.entries.map((e) => e.target)).toEqual(
      Array.from({ length: 7 }, (_, i) => `Export ${6 - i}`),
    );
    expect(second.cursor).toBeNull();
    // A filtered page reads past what the filter leaves out.
    await recordAudit(tid, { kind: 'token.created', actor, target: 'Old token' });
    const filtered = await page(owner.client, tid, '?kind=token.created');
    expect(filtered.entries.map((e) => e.target)).toEqual(['Old token']);

    // The log goes with its team (the owner deletes their account and with it their solo team), not before.
    expect(await auditKeys(tid)).toHaveLength(58);
    expect((await owner.client.delete('/api/client/profile')).status).toBe(200);
    expect(await auditKeys(tid)).toHaveLength(0);
  });
});
