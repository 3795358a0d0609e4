/**
 * The intake's pure parts and its writes, without the local stack: the presigned policy (s3rver checks
 * none, so this is where it is proven), upload keys and their binding to project and kind, the single-use
 * guards and the quota in the create transaction, the visitor's address, and the effective plan.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { v1IssueCreateBody } from '#contracts/api-v1';
import { uploadFormSeconds } from '#contracts/intake';
import { REPORT_TIME_WINDOW_MS, reportSchema } from '#contracts/intake-schemas';
import { integrationNames } from '#contracts/integration-names';
import { bucketPrefixes } from '#contracts/manifest';
import { effectivePlan } from '#contracts/plans';
import { widgetSettingsSchema } from '#contracts/schemas';
import { resetConfig } from '#runtime/config';
import { AppError } from '#runtime/errors';
import { createIssue } from '../../../functions/issues/create';
import { checkKeys } from '../../../functions/issues/intake';
import { type NewIssue, newIssueItems, quotaCondition, storedIssueOf } from '../../../functions/issues/issue';
import { pendingKey, snapshotViewKey, storedKey } from '../../../functions/issues/object-keys';
import {
  encodeOriginalName,
  finalKey,
  parseUploadKey,
  presignUpload,
} from '../../../functions/issues/uploads';
import { effectiveSettings, planOfProject, projectFilesPrefix } from '../../../functions/projects/project';

const pid = '0f8fad5b-d9cb-469f-a165-70867728950e';
const other = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const uploadId = '16fd2706-8baf-433b-82eb-8c7fada847da';

const codeOf = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  }
  return 'no error';
};

describe('the presigned upload form', () => {
  beforeAll(() => {
    // An endpoint makes the client use fixed local credentials: signing needs no AWS account.
    process.env.S3_ENDPOINT = 'http://127.0.0.1:9';
    resetConfig();
  });
  afterAll(() => {
    delete process.env.S3_ENDPOINT;
    resetConfig();
  });

  const policyOf = (fields: Record<string, string>) =>
    JSON.parse(Buffer.from(fields.Policy ?? '', 'base64').toString('utf8')) as {
      expiration: string;
      conditions: unknown[];
    };

  it('binds one key of the project and kind, the exact type and the exact size', async () => {
    const before = Date.now();
    const form = await presignUpload(pid, 'screenshot', 'image/png', 12345);
    expect(form.key).toMatch(new RegExp(`^pending/${pid}/screenshot/[0-9a-f-]{36}\\.png$`));
    expect(form.fields).toMatchObject({
      key: form.key,
      'Content-Type': 'image/png',
      bucket: 'snag-unit-uploads',
    });
    const policy = policyOf(form.fields);
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        { bucket: 'snag-unit-uploads' },
        { key: form.key },
        ['eq', '$Content-Type', 'image/png'],
        ['content-length-range', 12345, 12345],
      ]),
    );
    // No condition widens what may be posted (no starts-with on the key, no other size range).
    const loose = policy.conditions.filter(
      (c) =>
        Array.isArray(c) && (c[0] === 'starts-with' || (c[0] === 'content-length-range' && c[1] !== 12345)),
    );
    expect(loose).toEqual([]);
    const expires = Date.parse(policy.expiration);
    expect(expires).toBeGreaterThan(before);
    expect(expires - before).toBeLessThanOrEqual(uploadFormSeconds * 1000 + 1000);
    expect(uploadFormSeconds).toBeLessThanOrEqual(600);
  });

  it('takes the extension from the MIME type, and gives every form a new key', async () => {
    const a = await presignUpload(
      pid,
      'file',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      1,
    );
    const b = await presignUpload(
      pid,
      'file',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      1,
    );
    expect(a.key).toMatch(/\.docx$/);
    expect(a.key).not.toBe(b.key);
    expect(parseUploadKey(a.key)).toMatchObject({ projectId: pid, kind: 'file', ext: 'docx' });
  });
});

describe('upload keys', () => {
  it('parse only as the upload call issues them', () => {
    expect(parseUploadKey(pendingKey(pid, 'video', uploadId, 'webm'))).toEqual({
      key: `pending/${pid}/video/${uploadId}.webm`,
      projectId: pid,
      kind: 'video',
      id: uploadId,
      ext: 'webm',
    });
    for (const key of [
      `pending/${pid}/video/${uploadId}.webm/x`,
      `pending/${pid}/archive/${uploadId}.zip`,
      `pending/${pid}/file/../${uploadId}.pdf`,
      `pending/${pid.toUpperCase()}/file/${uploadId}.pdf`,
      `p/${pid}/f/${uploadId}.pdf`,
      `pending/${pid}/file/${uploadId}`,
      `pending/${pid}/file/not-a-uuid-at-all-but-36-characters-x.pdf`,
      ` pending/${pid}/file/${uploadId}.pdf`,
    ]) {
      expect(parseUploadKey(key), key).toBeNull();
    }
  });

  it('are bound to their project, their place in the report, and used once per report', async () => {
    const key = (kind: 'screenshot' | 'video' | 'snapshot' | 'file', ext: string, id = uploadId, p = pid) =>
      pendingKey(p, kind, id, ext);
    expect(checkKeys(pid, [{ key: key('screenshot', 'png'), kind: 'screenshot' }])).toHaveLength(1);
    const refused = [
      [{ key: key('screenshot', 'png', uploadId, other), kind: 'screenshot' as const }],
      [{ key: key('snapshot', 'html'), kind: 'screenshot' as const }],
      [{ key: key('screenshot', 'png'), kind: 'file' as const }],
      [{ key: key('video', 'mp4'), kind: 'video' as const, ext: 'webm' }],
      [
        { key: key('screenshot', 'png'), kind: 'screenshot' as const },
        { key: key('snapshot', 'html'), kind: 'snapshot' as const },
      ],
      [{ key: 'pending/x', kind: 'file' as const }],
    ];
    for (const uses of refused) expect(await codeOf(() => checkKeys(pid, uses))).toBe('INVALID_UPLOAD');
  });

  it('get a final key of their own, files apart from screenshots', () => {
    const shot = finalKey(pid, 'snapshot', 'html');
    const file = finalKey(pid, 'file', 'pdf');
    expect(shot.key).toBe(`p/${pid}/s/${shot.name}`);
    expect(file.key).toBe(`p/${pid}/f/${file.name}`);
    expect(file.name).toMatch(/^[0-9a-f-]{36}\.pdf$/);
    // A session replay is kept beside the screenshots, so the project's prefix takes it along.
    const replay = finalKey(pid, 'replay', 'gz');
    expect(replay.key).toBe(`p/${pid}/s/${replay.name}`);
    expect(finalKey(pid, 'file', 'pdf').name).not.toBe(file.name);
  });

  it('are built from the bucket’s two prefixes, every stored one under its project’s prefix', () => {
    expect(pendingKey(pid, 'file', uploadId, 'pdf')).toBe(
      `${bucketPrefixes.pending}${pid}/file/${uploadId}.pdf`,
    );
    // Deleting the project's prefix (projects/service.ts purgeProjectData) removes every stored object.
    const stored = [
      storedKey(pid, 'screenshot', 'a.png'),
      storedKey(pid, 'file', 'b.pdf'),
      snapshotViewKey(pid, 'c.html'),
    ];
    expect(projectFilesPrefix(pid)).toBe(`${bucketPrefixes.stored}${pid}/`);
    for (const key of stored) expect(key.startsWith(projectFilesPrefix(pid)), key).toBe(true);
    expect(new Set(stored.map((k) => k.split('/')[2]))).toEqual(new Set(['s', 'f', 'v1']));
  });

  it('keep the original name as ASCII metadata that decodes to it', () => {
    const name = "Zpráva (1) 'final' *.pdf";
    const encoded = encodeOriginalName(name);
    expect(encoded).toMatch(/^UTF-8''[A-Za-z0-9%._~-]+$/);
    expect(decodeURIComponent(encoded.slice(7))).toBe(name);
  });
});

describe('the create transaction', () => {
  const ddb = mockClient(DynamoDBDocumentClient);
  afterEach(() => ddb.reset());

  const issue = (over: Partial<NewIssue> = {}): NewIssue => ({
    projectId: pid,
    teamId: other,
    number: 1025,
    u: 7,
    createdAt: '2026-01-01T00:00:00.000Z',
    title: 't',
    msg: 'm',
    data: {
      username: '',
      href: '',
      browser: '',
      browserVersion: '',
      os: '',
      osVersion: '',
      deviceType: 'Desktop',
      screenResolution: '',
      customFields: [],
    },
    files: [],
    screenshots: [],
    logs: [],
    steps: [],
    replay: null,
    st: {
      email: 1,
      gitlab: 0,
      jira: 0,
      slack: 0,
      asana: 0,
      github: 0,
      linear: 0,
      webhooks: 0,
      clickup: 0,
      teams: 0,
      discord: 0,
      azure: 0,
      trello: 0,
    },
    bytes: 300,
    uploadIds: [uploadId],
    ...over,
  });
  it('reads back what it writes: the issues reader is the inverse of newIssueItems', () => {
    const written = issue({
      files: [{ name: 'f.pdf', original_name: 'a.pdf', size: 9, type: 'application/pdf' }],
      screenshots: [{ name: 's.png', type: 'png', html: '', size: 4 }],
      logs: [{ t: 1, level: 'error', kind: 'console', msg: 'x' }],
      steps: [{ t: 2, kind: 'click', label: 'Pay' }],
      replay: { name: `${uploadId}.gz`, size: 7, start: 1, end: 3, stopped: 'mutations' },
      sentAt: 4,
    });
    const { header, detail } = newIssueItems(written);
    const read = storedIssueOf(1025, header, {
      ...detail,
      reason_jira: 'refused',
      url_github: 'https://gh/1',
    });
    const { projectId: _p, teamId: _t, u: _u, bytes: _b, uploadIds: _i, ...fields } = written;
    expect(read).toEqual({ ...fields, reasons: { jira: 'refused' }, urls: { github: 'https://gh/1' } });
    // Items of older versions: what is missing reads as empty, every status as 0.
    expect(storedIssueOf(3, {}, {})).toMatchObject({ title: '', msg: '', data: {}, files: [], logs: [] });
    expect(storedIssueOf(3, {}, {})).toMatchObject({ steps: [], replay: null, sentAt: null });
    expect(storedIssueOf(3, {}, {}).st.email).toBe(0);
  });

  const cancelled = (codes: string[]) =>
    new TransactionCanceledException({
      message: 'cancelled',
      $metadata: {},
      CancellationReasons: codes.map((Code) => ({ Code })),
    });
  const items = () => ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];

  it('guards every upload once, counts the bytes against the quota, and files the number in its block', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await createIssue(issue(), 1000);
    const all = items();
    const guard = all.find((i) => i.Put?.Item?.sk === `UPLOAD#${uploadId}`);
    expect(guard?.Put).toMatchObject({
      ConditionExpression: 'attribute_not_exists(pk)',
      Item: { pk: `PROJECT#${pid}` },
    });
    expect(guard?.Put?.Item?.ttl).toBe(Date.parse('2026-01-03T00:00:00.000Z') / 1000);
    const user = all.find((i) => i.Update?.Key?.pk === `TEAM#${other}`);
    expect(user?.Update?.ExpressionAttributeValues).toMatchObject({ ':bytes': 300, ':room': 700 });
    // Number 1025 is the first of block 1.
    const block = all.find((i) => i.Update?.Key?.sk === 'BLOCK#000001');
    expect(block?.Update?.ExpressionAttributeValues).toEqual({ ':off': new Set([0]) });
    const stats = all.find((i) => i.Update?.Key?.sk === 'STATS');
    expect(stats?.Update?.ExpressionAttributeNames).toEqual({ '#open': 'open_000001' });
    // Sync markers for the integrations not in progress, none for email.
    const markers = all.flatMap((i) =>
      String(i.Put?.Item?.sk).startsWith('SYNC#') ? [i.Put?.Item?.sk] : [],
    );
    expect(markers).toHaveLength(integrationNames.length - 1);
    expect(markers).toContain('SYNC#github#0000001025');
    expect(markers).toContain('SYNC#linear#0000001025');
    expect(markers).not.toContain('SYNC#email#0000001025');
  });

  it('files a new issue as new with no priority, in its three facets and the updated order, with its created activity and outbox entry (issue 23)', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await createIssue(issue(), 1000);
    const all = items();
    const header = all[0]?.Put?.Item;
    expect(header).toMatchObject({
      status: 'new',
      priority: 'none',
      labels: [],
      u: 7,
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(header).not.toHaveProperty('assignee');
    const sks = all.map((i) => String((i.Update?.Key ?? i.Put?.Item)?.sk));
    for (const facet of ['open.status.new', 'open.priority.none', 'open.assignee.none'])
      expect(sks).toEqual(expect.arrayContaining([`FSTATS#${facet}`, `FBLOCK#${facet}#000001`]));
    expect(sks).toEqual(expect.arrayContaining(['USTATS#open', 'UBLOCK#open#000000']));
    const created = all.find((i) => i.Put?.Item?.kind === 'activity')?.Put?.Item;
    expect(created).toMatchObject({ type: 'created', number: 1025, actor: { kind: 'reporter' } });
    expect(all.find((i) => i.Put?.Item?.pk === 'NOTIFY')?.Put?.Item?.event).toEqual({
      kind: 'new',
      projectId: pid,
      number: 1025,
    });
    // Far inside DynamoDB's 100 actions even with the largest report.
    expect(all.length).toBeLessThan(100 - 20);
  });

  it('answers a used upload with INVALID_UPLOAD and a full account with QUOTA_EXCEEDED', async () => {
    // The upload guard's place in the transaction moves with the number of integrations (their sync markers).
    ddb.on(TransactWriteCommand).resolves({});
    await createIssue(issue(), 1000);
    const guardAt = items().findIndex((i) => i.Put?.Item?.sk === `UPLOAD#${uploadId}`);
    expect(guardAt).toBeGreaterThan(0);
    ddb.reset();
    ddb
      .on(TransactWriteCommand)
      .rejects(cancelled([...Array(guardAt).fill('None'), 'ConditionalCheckFailed']));
    expect(await codeOf(createIssue(issue(), 1000))).toBe('INVALID_UPLOAD');
    ddb.reset();
    ddb
      .on(TransactWriteCommand)
      .rejects(cancelled(['None', 'None', 'None', 'None', 'None', 'ConditionalCheckFailed']));
    expect(await codeOf(createIssue(issue(), 1000))).toBe('QUOTA_EXCEEDED');
  });

  it('tries again when it only lost a race with another report', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled(['None', 'None', 'TransactionConflict']))
      .resolves({});
    await createIssue(issue(), null);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('counts no storage for a report without files, and writes no quota for unlimited plans', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await createIssue(issue({ bytes: 0 }), 1000);
    expect(items().some((i) => i.Update?.Key?.pk === `TEAM#${other}`)).toBe(false);
    ddb.reset();
    ddb.on(TransactWriteCommand).resolves({});
    await createIssue(issue(), null);
    const user = items().find((i) => i.Update?.Key?.pk === `TEAM#${other}`);
    expect(user?.Update?.ConditionExpression).toBe('attribute_exists(pk)');
  });
});

describe('quota arithmetic', () => {
  it('leaves room for exactly the quota', () => {
    expect(quotaCondition(100, 30)).toMatchObject({ values: { ':room': 70 } });
    expect(quotaCondition(100, 100)).toMatchObject({ values: { ':room': 0 } });
    expect(quotaCondition(100, 101)).toBe('exceeded');
    expect(quotaCondition(null, 10 ** 12)).toEqual({ expression: 'attribute_exists(pk)', values: {} });
  });
});

describe('the effective plan', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  it('is the paid plan until its expiry, then Free', () => {
    expect(effectivePlan('BASIC_PLAN', '2026-06-02T00:00:00Z', now)).toBe('BASIC_PLAN');
    expect(effectivePlan('BUSINESS_PLAN', '2026-05-31T00:00:00Z', now)).toBe('FREE_PLAN');
    expect(effectivePlan('BASIC_PLAN', '2026-06-01T12:00:00Z', now)).toBe('FREE_PLAN');
    expect(effectivePlan('BASIC_PLAN', 'not a date', now)).toBe('FREE_PLAN');
    expect(effectivePlan('BUSINESS_PLAN', null, now)).toBe('BUSINESS_PLAN');
    expect(effectivePlan('FREE_PLAN', '2030-01-01T00:00:00Z', now)).toBe('FREE_PLAN');
  });

  it("is, for a project, its owner's plan as the project carries it (older items have no expiry)", () => {
    const later = Date.parse('2999-01-01T00:00:00Z');
    expect(planOfProject({ ownerPlan: 'BUSINESS_PLAN', ownerPlanExpire: '2000-01-01T00:00:00Z' })).toBe(
      'FREE_PLAN',
    );
    expect(planOfProject({ ownerPlan: 'BASIC_PLAN', ownerPlanExpire: new Date(later).toISOString() })).toBe(
      'BASIC_PLAN',
    );
    expect(planOfProject({ ownerPlan: 'BUSINESS_PLAN' } as Parameters<typeof planOfProject>[0])).toBe(
      'BUSINESS_PLAN',
    );
  });

  it("takes a lapsed plan's features away from the widget", () => {
    const data = widgetSettingsSchema.parse({
      widgetDisableUpload: false,
      widgetDisableVideo: false,
      widgetDisableBranding: true,
      widgetReplay: true,
    });
    const lapsed = effectiveSettings(data, { plan: 'BUSINESS_PLAN', planExpire: '2000-01-01T00:00:00Z' });
    expect(lapsed).toMatchObject({
      widgetDisableUpload: true,
      widgetDisableVideo: true,
      widgetDisableBranding: false,
      widgetReplay: false,
    });
    const running = effectiveSettings(data, { plan: 'BUSINESS_PLAN', planExpire: '2999-01-01T00:00:00Z' });
    expect(running).toMatchObject({
      widgetDisableUpload: false,
      widgetDisableVideo: false,
      widgetDisableBranding: true,
      widgetReplay: true,
    });
  });
});

describe('visitor strings (issue 19)', () => {
  const key = `pending/${pid}/file/${uploadId}.pdf`;
  const valid = {
    msg: 'It broke\r\nagain\tand again 👩🏽‍💻',
    title: 'Checkout',
    browser: 'Chrome',
    customFields: [{ name: 'Plan', value: 'Gold\nmonthly' }],
    files: [{ key, original_name: 'invoice.pdf' }],
    logs: [{ t: 1, level: 'error', kind: 'console', msg: 'TypeError\n  at x' }],
    href: 'https://shop.example/cart',
  };

  it('keeps line feeds and tabs in multi-line text and ZWJ inside emoji, with CRLF as LF', () => {
    const parsed = reportSchema.parse(valid);
    expect(parsed.msg).toBe('It broke\nagain\tand again 👩🏽‍💻');
    expect(parsed.customFields[0]?.value).toBe('Gold\nmonthly');
  });

  const bad = (patch: (b: typeof valid) => unknown) => patch(structuredClone(valid));
  it.each([
    [
      'a bidi override in a file name',
      (b: typeof valid) => ({ ...b, files: [{ key, original_name: 'invoice\u202Efdp.exe' }] }),
    ],
    [
      'a path in a file name',
      (b: typeof valid) => ({ ...b, files: [{ key, original_name: '../../etc/passwd' }] }),
    ],
    [
      'a zero width in a file name',
      (b: typeof valid) => ({ ...b, files: [{ key, original_name: 'a\u200B.pdf' }] }),
    ],
    ['a null byte in the description', (b: typeof valid) => ({ ...b, msg: 'hi\u0000there' })],
    ['a bidi isolate in the description', (b: typeof valid) => ({ ...b, msg: 'hi \u2066there' })],
    ['only invisible characters as the description', (b: typeof valid) => ({ ...b, msg: '\u2800\u3164' })],
    ['a line break in the title', (b: typeof valid) => ({ ...b, title: 'a\nb' })],
    ['a BOM in the browser', (b: typeof valid) => ({ ...b, browser: 'Chr\uFEFFome' })],
    [
      'a control character in a custom field name',
      (b: typeof valid) => ({ ...b, customFields: [{ name: 'P\u0007', value: 'x' }] }),
    ],
    [
      'an RLO in a custom field value',
      (b: typeof valid) => ({ ...b, customFields: [{ name: 'Plan', value: '\u202Egold' }] }),
    ],
    [
      'an ANSI escape in a log line',
      (b: typeof valid) => ({ ...b, logs: [{ ...b.logs[0], msg: '\u001b[31m' }] }),
    ],
    [
      'a tag character in a log line',
      (b: typeof valid) => ({ ...b, logs: [{ ...b.logs[0], msg: 'x\u{E0041}' }] }),
    ],
    [
      'a bidi override in the page address',
      (b: typeof valid) => ({ ...b, href: 'https://shop.example/\u202Etxt.exe' }),
    ],
  ])('refuses %s', (_what, patch) => {
    expect(reportSchema.safeParse(bad(patch)).success).toBe(false);
  });
});

describe('times in a report (logs and steps against the moment it was sent)', () => {
  const sent = Date.now() - 5_000;
  const DAY = REPORT_TIME_WINDOW_MS;
  const log = (t: number) => ({ t, level: 'error' as const, kind: 'console' as const, msg: `at ${t}` });
  const step = (t: number) => ({ t, kind: 'click' as const, label: 'Pay' });

  it('keeps plausible times, clamps 1 ms since 1970 to a day before and the future to the report, keeps every entry', () => {
    const parsed = reportSchema.parse({
      msg: 'Broken',
      sentAt: sent,
      logs: [
        log(1),
        log(sent - 3_000),
        log(sent - DAY - 1),
        log(sent + 60_000),
        log(Number.MAX_SAFE_INTEGER),
      ],
      steps: [step(0), step(sent - 10_000), step(sent + 1)],
    });
    expect(parsed.sentAt).toBe(sent);
    expect(parsed.logs.map((l) => l.t)).toEqual([sent - DAY, sent - 3_000, sent - DAY, sent, sent]);
    // The texts stay: an error's message is worth more than its time.
    expect(parsed.logs.map((l) => l.msg)).toEqual([
      'at 1',
      `at ${sent - 3_000}`,
      `at ${sent - DAY - 1}`,
      `at ${sent + 60_000}`,
      `at ${Number.MAX_SAFE_INTEGER}`,
    ]);
    expect(parsed.steps.map((s) => s.t)).toEqual([sent - DAY, sent - 10_000, sent]);
  });

  it("takes the moment from the replay's end, else the send time, else the clock: a visitor's clock a year off stays", () => {
    const yearAgo = sent - 365 * DAY;
    const replay = { key: `pending/${pid}/replay/${uploadId}.gz`, start: yearAgo - 60_000, end: yearAgo };
    const withReplay = reportSchema.parse({
      msg: 'Broken',
      sentAt: yearAgo + 500,
      replay,
      steps: [step(yearAgo - 30_000), step(yearAgo + 400)],
    });
    expect(withReplay.steps.map((s) => s.t)).toEqual([yearAgo - 30_000, yearAgo]);
    const withSent = reportSchema.parse({ msg: 'Broken', sentAt: yearAgo, logs: [log(yearAgo - 2_000)] });
    expect(withSent.logs[0]!.t).toBe(yearAgo - 2_000);
    const before = Date.now();
    const alone = reportSchema.parse({ msg: 'Broken', logs: [log(1), log(before - 2_000)] });
    const after = Date.now();
    expect(alone.logs[0]!.t).toBeGreaterThanOrEqual(before - DAY);
    expect(alone.logs[0]!.t).toBeLessThanOrEqual(after - DAY);
    expect(alone.logs[1]!.t).toBe(before - 2_000);
    // Still refused as before: a negative or fractional time is no time.
    expect(reportSchema.safeParse({ msg: 'Broken', logs: [log(-1)] }).success).toBe(false);
    expect(reportSchema.safeParse({ msg: 'Broken', logs: [log(1.5)] }).success).toBe(false);
  });

  it("applies the same to v1's create", () => {
    const parsed = v1IssueCreateBody.parse({
      description: 'Broken',
      sentAt: sent,
      logs: [log(1)],
      steps: [step(sent + 9_000)],
    });
    expect(parsed.logs[0]!.t).toBe(sent - DAY);
    expect(parsed.steps[0]!.t).toBe(sent);
  });
});
