/**
 * The reporter hears back (issue 24, docs/reporter.md) through the local stack: reports filed through the
 * widget's intake with an address, the team's comments and status changes through the dashboard's calls,
 * the fan-out queue and the every-minute flush (`runSchedule('notifications')`), the mails read back from
 * the SES stand-in (GET /api/dev/emails). Covered: the mails in all six languages, batching, the
 * resolution, the status page and its calls (isolation, internal comments, member addresses, updates off,
 * a switched-off project), the reply (text rules, rate limit, the assignee told, no mail to its author),
 * the unsubscribe link, and the settings (validated, another client refused).
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reporterRateLimits } from '#contracts/reporter';
import type { TimelineEntry, TimelinePage } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { clock, MINUTE } from '#runtime/time';
import { outboxKey, reporterKey } from '../../functions/issues/reporter';
import { fill, reporterTexts } from '../../functions/issues/reporter-texts';
import { projectKey } from '../../functions/projects/project';
import { ApiClient, type SentMail } from '../support/api-client';
import { countFunctionRequests } from '../support/dynamo-calls';
import { eventually } from '../support/local-stack';
import { type Person, person, projectOf } from '../support/members-teams';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';

// Hooked before the stack starts, so every client it makes counts (docs/data-model.md 4.14 request counts).
const reporterRequests = countFunctionRequests('api:reporter');
const stack = setUpTestStack();
let owner: Person;
let member: Person;
let outsider: Person;
let projectId = '';
const SITE = 'https://www.shop.example';
const realNow = clock.now;
let offset = 0;
/** Moves every handler's clock (they run in this process) forward. */
const advance = (ms: number) => {
  offset += ms;
  clock.now = () => realNow() + offset;
};

beforeAll(async () => {
  owner = await person(stack.url);
  member = await person(stack.url);
  outsider = await person(stack.url);
  projectId = await projectOf(owner.client, 'Bakery <Shop>');
  await addToTeam(owner.id, member.id, 'MEMBER');
});

afterAll(async () => {
  clock.now = realNow;
});

afterEach(async () => {
  await settings({ widgetLanguage: 'en', reporterUpdates: true, reporterSenderName: '', widgetTexts: {} });
});

let visitors = 0;
const visitorEmail = (tag: string) => `visitor-${tag}-${++visitors}@mail.example`;

async function settings(data: Record<string, unknown>, client = owner.client, pid = projectId) {
  return client.patch(`/api/client/website/${pid}`, { data });
}

/** A report through the widget's intake (POST website/{id}/request), as a visitor of the shop. */
async function report(email: string, msg: string, pid = projectId): Promise<number> {
  const visitor = new ApiClient(stack.url, SITE);
  const res = await visitor.post<{ number: number }>(`/api/website/${pid}/request`, { msg, username: email });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { msg: { number: number } }).msg.number;
}

const flush = () => stack.runSchedule('notifications') as Promise<{ reporter: { mails: number } }>;

async function mailsTo(email: string): Promise<(SentMail & { from: string })[]> {
  const res = await fetch(new URL(`/api/dev/emails?to=${encodeURIComponent(email)}`, stack.url));
  return ((await res.json()) as { msg: (SentMail & { from: string })[] }).msg;
}

/** The status-page token of a mail: the one `/r/{token}` link it carries. */
function tokenIn(mail: SentMail | undefined): string {
  const m = mail?.text.match(/https?:\/\/\S+\/r\/([A-Za-z0-9_-]{22})\b/);
  if (!m?.[1]) throw new Error(`no status link in: ${mail?.text}`);
  return m[1];
}

const issuePath = (n: number) => `/api/client/website/${projectId}/request/${n}`;
const comment = (
  n: number,
  body: string,
  visibility: 'public' | 'internal' = 'public',
  client = owner.client,
) => client.post(`${issuePath(n)}/comments`, { body, visibility });

/** Waits for the fan-out to owe issue `n`'s reporter a mail (the comment or status change reached it). */
const owed = (n: number) =>
  eventually(
    async () =>
      (
        await db().send(
          new GetCommand({ TableName: tableName(), Key: outboxKey(projectId, n), ConsistentRead: true }),
        )
      ).Item ?? undefined,
    15_000,
    `the reporter's outbox entry of #${n}`,
  );

/** A report whose confirmation was mailed: its number, the address and the status page's token. */
async function confirmed(tag: string, msg = `The cart empties itself (${tag})`) {
  const email = visitorEmail(tag);
  const n = await report(email, msg);
  await flush();
  const [mail] = await mailsTo(email);
  return { n, email, token: tokenIn(mail), mail: mail! };
}

const page = (token: string, headers: Record<string, string> = {}) =>
  fetch(new URL(`/r/${token}`, stack.url), { headers });
const reporterCall = (token: string, path = '', init: RequestInit = {}) =>
  fetch(new URL(`/api/reporter/${token}${path}`, stack.url), init);
const reply = (token: string, body: unknown, source = '10.9.9.9:1000') =>
  reporterCall(token, '/reply', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cloudfront-viewer-address': source },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('the mails, in the widget language', () => {
  const languages = ['en', 'cs', 'fr', 'de', 'ru', 'es'] as const;

  it.each(languages)(
    '%s: confirmation, a batched comment and the resolution, every text translated',
    async (lang) => {
      await settings({ widgetLanguage: lang });
      const t = reporterTexts[lang];
      const { n, email, mail: first } = await confirmed(lang);
      const v = { n, project: 'Bakery <Shop>' };
      // The confirmation: its subject and texts in the language, the number, the status link, the unsubscribe link.
      expect(first.subject).toContain(fill(t.confirmSubject, v));
      for (const text of [t.greeting, fill(t.confirmIntro, v), t.statusLink, fill(t.why, v), t.unsubscribe])
        expect(first.text, text).toContain(text);
      expect(first.text).toMatch(/\/api\/reporter\/[A-Za-z0-9_-]{22}\/unsubscribe/);
      expect(first.html).toContain('Bakery &#60;Shop&#62;');
      expect(first.html).not.toContain('<Shop>');
      // No placeholder left, and no English where another language is wanted.
      expect(`${first.subject}\n${first.text}`).not.toMatch(/\{\w+\}/);
      if (lang !== 'en') expect(first.text).not.toContain(reporterTexts.en.statusLink);

      await comment(n, `Thank you, we are on it (${lang})`);
      await owed(n);
      advance(11 * MINUTE);
      await flush();
      const [second] = await mailsTo(email);
      expect(second?.subject).toContain(fill(t.commentSubject, v));
      expect(second?.text).toContain(fill(t.commentIntro, v));
      expect(second?.text).toContain(`> Thank you, we are on it (${lang})`);
      expect(second?.text).toContain('Ada Lovelace');
      expect(second?.text).not.toContain(owner.email);

      expect((await owner.client.patch(issuePath(n), { status: 'resolved' })).status).toBe(200);
      await owed(n);
      await flush();
      const [third] = await mailsTo(email);
      expect(third?.subject).toContain(fill(t.resolvedSubject, v));
      expect(third?.text).toContain(fill(t.resolvedIntro, v));
      expect(await mailsTo(email)).toHaveLength(3);

      // The page speaks the same language and reads the status as the reporter should.
      const res = await page(tokenIn(third));
      const html = await res.text();
      expect(html).toContain(`<html lang="${lang}"`);
      expect(html).toContain(fill(t.pageTitle, v).replace('<', '&#60;'));
      expect(html).toContain(`data-status="resolved">${t.resolved}<`);
    },
  );
});

describe('the language the report was made in', () => {
  afterEach(async () => {
    await settings({ widgetLanguageAuto: false });
  });

  /** The configuration the install script embeds (GET website/{id}/code), as the loader receives it. */
  async function widgetConfig(): Promise<Record<string, unknown>> {
    const res = await fetch(new URL(`/api/website/${projectId}/code`, stack.url));
    const code = await res.text();
    expect(res.headers.get('content-type'), code.slice(0, 300)).toMatch(/^text\/javascript/);
    const json = code.slice(code.lastIndexOf('})(') + 3, code.lastIndexOf(');'));
    return JSON.parse(json) as Record<string, unknown>;
  }

  it('automatic: the widget is told the languages to pick from; mails and page speak the report’s language', async () => {
    await settings({
      widgetLanguage: 'fr',
      widgetLanguageAuto: true,
      widgetTexts: { de: { title: 'Problem melden' } },
    });
    const config = await widgetConfig();
    expect(config.language).toBe('fr');
    expect(config.languages).toEqual(['en', 'cs', 'fr', 'de', 'ru', 'es']);
    expect(config.textSets).toEqual({ de: { title: 'Problem melden' } });

    const email = visitorEmail('auto-de');
    const visitor = new ApiClient(stack.url, SITE);
    const res = await visitor.post(`/api/website/${projectId}/request`, {
      msg: 'Der Warenkorb leert sich',
      username: email,
      language: 'de',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const n = (res.body as { msg: { number: number } }).msg.number;
    await flush();
    const [mail] = await mailsTo(email);
    const v = { n, project: 'Bakery <Shop>' };
    expect(mail?.subject).toContain(fill(reporterTexts.de.confirmSubject, v));
    const html = await (await page(tokenIn(mail))).text();
    expect(html).toContain('<html lang="de"');

    // The project changes its language later: the report keeps the one it was made in.
    await settings({ widgetLanguage: 'es', widgetLanguageAuto: false });
    await owner.client.patch(issuePath(n), { status: 'resolved' });
    await owed(n);
    await flush();
    expect((await mailsTo(email))[0]?.subject).toContain(fill(reporterTexts.de.resolvedSubject, v));

    // A report that names no language (an older widget) speaks the project's.
    const other = visitorEmail('auto-none');
    await report(other, 'No language named');
    await flush();
    expect((await mailsTo(other))[0]?.subject).toContain('Hemos recibido');
  });

  it('fixed (the default): the widget gets its one language and texts, no choice', async () => {
    await settings({ widgetLanguage: 'de', widgetTexts: { de: { title: 'Problem melden' } } });
    const config = await widgetConfig();
    expect(config).toMatchObject({ language: 'de', texts: { title: 'Problem melden' } });
    expect(config).not.toHaveProperty('languages');
    expect(config).not.toHaveProperty('textSets');
  });

  it('refuses a language Snag does not have', async () => {
    const visitor = new ApiClient(stack.url, SITE);
    const res = await visitor.post(`/api/website/${projectId}/request`, {
      msg: 'Bad language',
      username: visitorEmail('bad-lang'),
      language: 'xx',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_PARAMETERS' });
  });
});

describe('batching', () => {
  it('two public comments within 10 minutes are one mail; internal comments and the reporter’s own reply none', async () => {
    const { n, email, token } = await confirmed('batch');
    await comment(n, 'First answer');
    await owed(n);
    // Within the quiet time after the confirmation: nothing yet.
    await flush();
    expect(await mailsTo(email)).toHaveLength(1);
    advance(4 * MINUTE);
    await comment(n, 'Secret: the cart bug is in the CDN', 'internal');
    await comment(n, 'Second answer');
    await flush();
    expect(await mailsTo(email)).toHaveLength(1);
    advance(7 * MINUTE);
    await flush();
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(mails[0]?.text).toContain('> First answer');
    expect(mails[0]?.text).toContain('> Second answer');
    expect(mails[0]?.text).not.toContain('Secret');

    // An internal comment alone owes nothing; the reporter's own reply mails nobody outside the team.
    await comment(n, 'Secret two', 'internal');
    expect((await reply(token, { body: 'Still broken for me' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    advance(11 * MINUTE);
    await flush();
    expect(await mailsTo(email)).toHaveLength(2);
    // A later public comment carries only what came after the last mail.
    await comment(n, 'Third answer');
    await owed(n);
    await flush();
    const [latest] = await mailsTo(email);
    expect(latest?.text).toContain('> Third answer');
    expect(latest?.text).not.toContain('First answer');
    expect(latest?.text).not.toContain('Still broken');
  });

  it('three flushes at once mail the reporter once (each entry is claimed by one run)', async () => {
    const email = visitorEmail('race');
    await report(email, 'Three flushes race for me');
    const runs = await Promise.all([flush(), flush(), flush()]);
    expect(runs.reduce((sum, r) => sum + r.reporter.mails, 0)).toBe(1);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('closing a resolved issue mails nothing more; reopening and resolving again does', async () => {
    const { n, email } = await confirmed('close');
    await owner.client.patch(issuePath(n), { status: 'in_progress' });
    await owner.client.patch(issuePath(n), { status: 'resolved' });
    await owed(n);
    await flush();
    expect(await mailsTo(email)).toHaveLength(2);
    await owner.client.patch(issuePath(n), { status: 'closed' });
    await new Promise((r) => setTimeout(r, 1500));
    await flush();
    expect(await mailsTo(email)).toHaveLength(2);
  });

  it('a reopen between two resolutions mails “reopened”, then “resolved” again (in the widget language)', async () => {
    await settings({ widgetLanguage: 'de' });
    const t = reporterTexts.de;
    const { n, email } = await confirmed('reopen');
    const v = { n, project: 'Bakery <Shop>' };
    await owner.client.patch(issuePath(n), { status: 'resolved' });
    await owed(n);
    await flush();
    expect((await mailsTo(email))[0]?.subject).toContain(fill(t.resolvedSubject, v));
    expect((await owner.client.patch(issuePath(n), { status: 'in_progress' })).status).toBe(200);
    await owed(n);
    await flush();
    const [reopened] = await mailsTo(email);
    expect(reopened?.subject).toContain(fill(t.reopenedSubject, v));
    expect(reopened?.text).toContain(fill(t.reopenedIntro, v));
    expect(reopened?.text).not.toContain(fill(t.resolvedIntro, v));
    await owner.client.patch(issuePath(n), { status: 'resolved' });
    await owed(n);
    await flush();
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject.split(' · ')[0])).toEqual([
      fill(t.resolvedSubject, v),
      fill(t.reopenedSubject, v),
      fill(t.resolvedSubject, v),
      fill(t.confirmSubject, v),
    ]);
  });

  it('a resolution taken back before the flush mails nothing; one reopened and resolved again meanwhile neither', async () => {
    const { n, email } = await confirmed('undo');
    await owner.client.patch(issuePath(n), { status: 'resolved' });
    await owner.client.patch(issuePath(n), { status: 'new' });
    await owed(n);
    await new Promise((r) => setTimeout(r, 1500));
    await flush();
    expect(await mailsTo(email)).toHaveLength(1);
    await owner.client.patch(issuePath(n), { status: 'resolved' });
    await owed(n);
    await flush();
    expect(await mailsTo(email)).toHaveLength(2);
    await owner.client.patch(issuePath(n), { status: 'in_review' });
    await owner.client.patch(issuePath(n), { status: 'resolved' });
    await owed(n);
    await new Promise((r) => setTimeout(r, 1500));
    await flush();
    expect(await mailsTo(email)).toHaveLength(2);
  });

  it('uses the sender name as the From name', async () => {
    await settings({ reporterSenderName: 'Bäckerei Support' });
    const { mail } = await confirmed('from');
    const from = mail.from;
    const encoded = `=?UTF-8?B?${Buffer.from('Bäckerei Support').toString('base64')}?=`;
    expect(from.includes('Bäckerei Support') || from.includes(encoded), from).toBe(true);
  });
});

describe('the status page and its calls', () => {
  it('shows the issue, its public comments by name and a reply box, with strict headers, in a few KB', async () => {
    const { n, token } = await confirmed('page', 'The <b>cart</b> empties itself');
    await comment(n, 'We are looking into it');
    await comment(n, 'Internal: customer is on the old CDN', 'internal');
    await owner.client.patch(issuePath(n), { status: 'in_review' });
    const res = await page(token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-robots-tag')).toContain('noindex');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toMatch(/script-src 'sha256-/);
    const html = await res.text();
    expect(Buffer.byteLength(html)).toBeLessThan(10_000);
    expect(html).toContain(`Your report #${n}`);
    expect(html).toContain('The &#60;b&#62;cart&#60;/b&#62; empties itself');
    expect(html).toContain('data-status="working">Being worked on<');
    expect(html).toContain('Ada Lovelace');
    expect(html).toContain('We are looking into it');
    expect(html).not.toContain('Internal: customer');
    expect(html).not.toContain(owner.email);
    expect(html).toContain('<label for="body">');
    expect(html).toMatch(/<main[^>]*>/);

    const json = await reporterCall(token);
    expect(json.status).toBe(200);
    const body = (await json.json()) as { msg: Record<string, unknown> };
    expect(body.msg).toMatchObject({
      number: n,
      description: 'The <b>cart</b> empties itself',
      status: 'working',
      mails: true,
    });
    expect(body.msg.comments).toEqual([
      expect.objectContaining({ author: 'Ada Lovelace', mine: false, body: 'We are looking into it' }),
    ]);
    const text = JSON.stringify(body);
    expect(text).not.toContain('Internal: customer');
    expect(text).not.toContain(owner.email);
    expect(text).not.toContain(owner.id);
  });

  it('opens only its own issue; a guessed, malformed or other project’s token is the same 404', async () => {
    const a = await confirmed('iso-a', 'Issue A text');
    const b = await confirmed('iso-b', 'Issue B text');
    const pageA = await (await page(a.token)).text();
    expect(pageA).toContain('Issue A text');
    expect(pageA).not.toContain('Issue B text');
    expect(pageA).not.toContain(`#${b.n}`);

    const guessed = randomBytes(16).toString('base64url');
    for (const token of [guessed, 'short', `${a.token}x`, '..%2F..%2Fetc', a.token.toLowerCase()]) {
      if (token === a.token) continue;
      const res = await page(token, { 'accept-language': 'de-DE,de;q=0.9' });
      expect(res.status, token).toBe(404);
      const html = await res.text();
      expect(html).toContain(reporterTexts.de.notFoundTitle);
      expect(html).not.toContain('Issue A text');
      const api = await reporterCall(token);
      expect(api.status, token).toBe(404);
      expect(((await api.json()) as { code: string }).code).toBe('NOT_FOUND');
      expect((await reply(token, { body: 'hello' })).status, token).toBe(404);
    }

    // Another client's project: its settings are not the caller's to change.
    const other = await settings({ reporterUpdates: false }, outsider.client);
    expect(other.status).toBe(404);
    expect((await page(a.token)).status).toBe(200);
  });

  it('is a 404 while the project has reporter updates off, and mails nothing', async () => {
    const { n, email, token } = await confirmed('off');
    expect((await settings({ reporterUpdates: false })).status).toBe(200);
    expect((await page(token)).status).toBe(404);
    expect((await reporterCall(token)).status).toBe(404);
    expect((await reply(token, { body: 'hello' })).status).toBe(404);
    await owner.client.patch(issuePath(n), { status: 'resolved' });
    await owed(n);
    await flush();
    expect(await mailsTo(email)).toHaveLength(1);
    // A report while off owes no confirmation at all.
    const quiet = visitorEmail('off2');
    await report(quiet, 'Nobody will write back');
    await flush();
    expect(await mailsTo(quiet)).toHaveLength(0);
    await settings({ reporterUpdates: true });
    expect((await page(token)).status).toBe(200);
  });

  it('is a 404 once the project is switched off', async () => {
    const { token } = await confirmed('inactive');
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: projectKey(projectId),
        UpdateExpression: 'SET active = :z',
        ExpressionAttributeValues: { ':z': 0 },
      }),
    );
    try {
      expect((await page(token)).status).toBe(404);
      expect((await reply(token, { body: 'hello' })).status).toBe(404);
    } finally {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: projectKey(projectId),
          UpdateExpression: 'SET active = :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
    }
  });

  it('refuses a bad sender name and keeps the settings as they were', async () => {
    for (const bad of ['Evil" <x@evil.example>', 'a'.repeat(61), 'Line\nbreak', 123]) {
      const res = await settings({ reporterSenderName: bad });
      expect(res.status, String(bad)).toBe(400);
    }
    const res = await owner.client.get<{ website: { data: Record<string, unknown> } }>(
      `/api/client/website/${projectId}`,
    );
    expect(
      (res.body as { msg: { website: { data: Record<string, unknown> } } }).msg.website.data,
    ).toMatchObject({
      reporterUpdates: true,
      reporterSenderName: '',
    });
  });
});

describe('the reply', () => {
  it('becomes a public comment by “Reporter” on the dashboard and tells the assignee', async () => {
    const { n, token } = await confirmed('reply');
    expect((await owner.client.patch(issuePath(n), { assignee: member.id })).status).toBe(200);
    await flush();
    const before = (await mailsTo(member.email)).length;
    const res = await reply(token, { body: '  It happens on Firefox too.\r\nThanks!  ' });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { msg: { comment: Record<string, unknown> } };
    expect(answer.msg.comment).toMatchObject({
      mine: true,
      author: '',
      body: 'It happens on Firefox too.\nThanks!',
    });

    const timeline = await owner.client.get<TimelinePage<TimelineEntry>>(`${issuePath(n)}/activity`);
    const entries = (timeline.body as { msg: TimelinePage<TimelineEntry> }).msg.entries;
    expect(entries).toContainEqual(
      expect.objectContaining({
        type: 'comment',
        author: { kind: 'reporter', name: 'Reporter' },
        visibility: 'public',
        body: 'It happens on Firefox too.\nThanks!',
      }),
    );
    await flush();
    const mails = await mailsTo(member.email);
    expect(mails.length).toBe(before + 1);
    expect(mails[0]?.text).toContain('Reporter commented on');
    // The page shows it as the reporter's own.
    const html = await (await page(token)).text();
    expect(html).toContain('It happens on Firefox too.');
  });

  it('on an issue nobody is assigned to tells the owners and admins whose comment mails are on, not members', async () => {
    const { token } = await confirmed('unassigned');
    await flush();
    const ownerBefore = (await mailsTo(owner.email)).length;
    const memberBefore = (await mailsTo(member.email)).length;
    expect((await reply(token, { body: 'Nobody answered me yet' })).status).toBe(200);
    await flush();
    const mails = await mailsTo(owner.email);
    expect(mails.length).toBe(ownerBefore + 1);
    expect(mails[0]?.text).toContain('Reporter commented on');
    expect(mails[0]?.text).toContain('Nobody answered me yet');
    expect(await mailsTo(member.email)).toHaveLength(memberBefore);

    // The owner's own setting for comment mails decides.
    const off = { newIssue: 'off', assigned: true, mentioned: true, comments: false };
    expect((await owner.client.call('PUT', '/api/client/notifications', off)).status).toBe(200);
    try {
      expect((await reply(token, { body: 'Hello again?' })).status).toBe(200);
      await flush();
      expect(await mailsTo(owner.email)).toHaveLength(ownerBefore + 1);
    } finally {
      await owner.client.call('PUT', '/api/client/notifications', { ...off, comments: true });
    }
  });

  it('follows the intake’s text rules: nothing stored for a refused reply', async () => {
    const { n, token } = await confirmed('rules');
    const bad: unknown[] = [
      {},
      { body: '' },
      { body: '   \n\t ' },
      { body: 'a'.repeat(2001) },
      { body: 'invoice\u202Efdp.exe' },
      { body: 'null\u0000byte' },
      { body: 42 },
      { body: 'ok', visibility: 'internal' },
    ];
    for (const body of bad) {
      const res = await reply(token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('INVALID_PARAMETERS');
    }
    expect((await reply(token, '{"body":')).status).toBe(400);
    const notJson = await reporterCall(token, '/reply', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(notJson.status).toBe(415);
    const comments = await owner.client.get<TimelinePage<unknown>>(`${issuePath(n)}/comments`);
    expect((comments.body as { msg: TimelinePage<unknown> }).msg.entries).toEqual([]);
    expect((await reply(token, { body: 'a'.repeat(2000) })).status).toBe(200);
  });

  it(`is rate-limited: ${reporterRateLimits.replyPerIssue.max} replies per issue in 10 minutes, from any address`, async () => {
    const { token } = await confirmed('rate');
    for (let i = 0; i < reporterRateLimits.replyPerIssue.max; i++)
      expect((await reply(token, { body: `reply ${i}` }, `10.1.2.${i}:1`)).status).toBe(200);
    const refused = await reply(token, { body: 'one too many' }, '10.1.3.1:1');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('RATE_LIMITED');
    const json = (await (await reporterCall(token)).json()) as { msg: { comments: unknown[] } };
    expect(json.msg.comments).toHaveLength(reporterRateLimits.replyPerIssue.max);
    advance(11 * MINUTE);
    expect((await reply(token, { body: 'later' })).status).toBe(200);
  });
});

describe('requests per call (docs/data-model.md 4.14)', () => {
  it('page and status 4, reply 5: the source count, the token, one BatchGetItem, then the Query or the comment', async () => {
    const { token } = await confirmed('requests');
    const read = ['UpdateItemCommand', 'GetItemCommand', 'BatchGetItemCommand'];
    expect(await reporterRequests(() => page(token))).toEqual([...read, 'QueryCommand']);
    expect(await reporterRequests(() => reporterCall(token))).toEqual([...read, 'QueryCommand']);
    expect(await reporterRequests(() => reply(token, { body: 'counted' }))).toEqual([
      ...read,
      'UpdateItemCommand',
      'TransactWriteItemsCommand',
    ]);
    // A token that opens nothing costs the same two first requests, whatever the reason.
    expect(await reporterRequests(() => page(randomBytes(16).toString('base64url')))).toEqual(
      read.slice(0, 2),
    );
  });
});

describe('unsubscribe', () => {
  it('GET asks, POST (one click) stops every mail about this issue; the page stays', async () => {
    const { n, email, mail } = await confirmed('unsub');
    const link = mail.text.match(/https?:\/\/\S+\/api\/reporter\/[A-Za-z0-9_-]{22}\/unsubscribe/)?.[0];
    expect(link).toBeDefined();
    const ask = await fetch(link!);
    expect(ask.status).toBe(200);
    const askHtml = await ask.text();
    expect(askHtml).toContain(fill(reporterTexts.en.unsubscribeTitle, { n }));
    expect(askHtml).toContain('<form method="post">');
    const stored = async () =>
      (
        await db().send(
          new GetCommand({ TableName: tableName(), Key: reporterKey(projectId, n), ConsistentRead: true }),
        )
      ).Item;
    expect((await stored())?.unsubscribed).toBeUndefined();

    const done = await fetch(link!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(fill(reporterTexts.en.unsubscribedText, { n }));
    expect((await stored())?.unsubscribed).toBe(true);

    await comment(n, 'Are you still there?');
    await owner.client.patch(issuePath(n), { status: 'resolved' });
    await new Promise((r) => setTimeout(r, 1500));
    advance(11 * MINUTE);
    await flush();
    expect(await mailsTo(email)).toHaveLength(1);
    const html = await (await page(tokenIn(mail))).text();
    expect(html).toContain(reporterTexts.en.mailsOff);
  });

  it('a garbage link answers the 404 page and changes nothing', async () => {
    const res = await fetch(
      new URL(`/api/reporter/${randomBytes(16).toString('base64url')}/unsubscribe`, stack.url),
      {
        method: 'POST',
      },
    );
    expect(res.status).toBe(404);
  });
});
