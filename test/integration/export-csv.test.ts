/**
 * The CSV export through the local stack (issue 23, docs/api.md "CSV export"): a 302 to a presigned download
 * of an RFC 4180 file with a BOM, every column (custom fields included), hostile cells neutralised, the
 * list's filters honoured, another client refused, a GUEST's export, and a large export complete and in order.
 */
import { createHash } from 'node:crypto';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { reportLimits } from '#contracts/intake';
import { exportLimits } from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { s3 } from '#runtime/aws/s3';
import { bucketName } from '#runtime/config';
import { MIN_PART_BYTES, s3ObjectWriter } from '#runtime/s3-writer';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { projectKey } from '../../functions/projects/project';
import type { ApiClient } from '../support/api-client';
import { parseCsv } from '../support/csv';
import { bulkSeedIssues, seedIssues } from '../support/issues';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { signedIn } from '../support/users';

const stack = setUpTestStack();

interface Person {
  client: ApiClient;
  uid: string;
  email: string;
}

async function person(): Promise<Person> {
  const { client, email } = await signedIn(stack.url);
  const uid = await findUserIdByEmail(email.toLowerCase());
  if (!uid) throw new Error('no user id');
  return { client, uid, email };
}

async function newProject(client: ApiClient, name = 'Shop'): Promise<string> {
  const res = await client.post<{ id: string }>('/api/client/website', { name, url: 'shop.example' });
  if (res.status !== 201) throw new Error(`project not created: ${JSON.stringify(res.body)}`);
  return (res.body as { msg: { id: string } }).msg.id;
}

const cookieOf = (client: ApiClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** The export call as a browser makes it: the redirect, then the file it points at. */
async function exportCsv(client: ApiClient, projectId: string, query = '') {
  const res = await fetch(new URL(`/api/client/website/${projectId}/requests.csv${query}`, stack.url), {
    redirect: 'manual',
    headers: { cookie: cookieOf(client) },
  });
  if (res.status !== 302) return { file: false, status: res.status, body: await res.text() } as const;
  const location = res.headers.get('location') ?? '';
  const file = await fetch(location);
  const bytes = new Uint8Array(await file.arrayBuffer());
  return {
    file: true,
    status: 302,
    location,
    fileStatus: file.status,
    type: file.headers.get('content-type') ?? '',
    disposition: file.headers.get('content-disposition') ?? '',
    bytes,
    rows: parseCsv(new TextDecoder().decode(bytes)),
    text: new TextDecoder().decode(bytes),
  } as const;
}

async function ok(client: ApiClient, projectId: string, query = '') {
  const out = await exportCsv(client, projectId, query);
  if (!out.file) throw new Error(`export answered ${out.status}: ${out.body}`);
  expect(out.fileStatus).toBe(200);
  return out;
}

const column = (rows: string[][], name: string) => {
  const i = rows[0]?.indexOf(name) ?? -1;
  if (i < 0) throw new Error(`no column ${name} in ${rows[0]?.join(',')}`);
  return rows.slice(1).map((r) => r[i]);
};

async function label(client: ApiClient, projectId: string, name: string): Promise<string> {
  const res = await client.post(`/api/client/website/${projectId}/labels`, { name, color: '#aa3300' });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return (res.body as { msg: { label: { id: string } } }).msg.label.id;
}

async function patch(client: ApiClient, projectId: string, n: number, body: Record<string, unknown>) {
  const res = await client.patch(`/api/client/website/${projectId}/request/${n}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A description as long as the widget takes, over several lines: the file must not cut it. */
const longDescription = `First line\nSecond, "quoted" line\n${'x'.repeat(reportLimits.descriptionMax - 35)}`;

const numbersOf = (rows: string[][]) => rows.slice(1).map((r) => Number(r[0]));

/** Every number the list shows for `query`, page by page, as the dashboard pages it. */
async function allListed(client: ApiClient, projectId: string, query: string): Promise<number[]> {
  const out: number[] = [];
  for (let page = 1; page < 100; page++) {
    const sep = query ? '&' : '?';
    const res = await client.get(`/api/client/website/${projectId}/request${query}${sep}page=${page}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const msg = (res.body as { msg: { requests: { number: number }[]; total_requests: number } }).msg;
    out.push(...msg.requests.map((r) => r.number));
    if (msg.requests.length === 0 || out.length >= msg.total_requests) break;
  }
  return out;
}

describe('the CSV export', () => {
  it('answers a presigned download of a UTF-8 file with a BOM, named after the project and the day', async () => {
    const owner = await person();
    const id = await newProject(owner.client, 'Läden & Co');
    await seedIssues(id, 2);
    const out = await ok(owner.client, id);
    expect(out.location).toMatch(/X-Amz-Signature=/);
    expect([...out.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(out.type).toMatch(/^text\/csv; charset=utf-8/);
    const day = new Date().toISOString().slice(0, 10);
    expect(out.disposition).toContain(`filename*=UTF-8''L%C3%A4den%20%26%20Co-open-${day}.csv`);
    expect(out.disposition).toMatch(/^attachment; filename="L_den & Co-open-\d{4}-\d\d-\d\d\.csv"/);
    // RFC 4180: CRLF after every record, the last one included.
    expect(out.text.endsWith('\r\n')).toBe(true);
    expect(out.text.split('\r\n')).toHaveLength(4);
  });

  it('has every column of the list, the reporter, page, device, one column per custom field and the link', async () => {
    const owner = await person();
    const member = await person();
    const id = await newProject(owner.client);
    await addToTeam(owner.uid, member.uid, 'MEMBER');
    const res = await owner.client.patch(`/api/client/website/${id}`, {
      data: {
        customFields: [
          { name: 'Customer', selector: '#customer' },
          { name: 'Plan', selector: '.plan' },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await seedIssues(
      id,
      2,
      (n) => `Issue ${n}`,
      (issue) => ({
        ...issue,
        msg: issue.number === 1 ? longDescription : issue.msg,
        data: {
          ...issue.data,
          customFields:
            issue.number === 1
              ? [
                  { name: 'Plan', value: 'Gold' },
                  { name: 'Customer', value: 'C-17' },
                  { name: 'Retired', value: 'old value' },
                ]
              : [],
        },
      }),
    );
    const checkout = await label(owner.client, id, 'Checkout');
    const gone = await label(owner.client, id, 'Gone');
    await patch(owner.client, id, 1, {
      status: 'in_progress',
      priority: 'high',
      assignee: member.uid,
      labels: [checkout, gone],
      dueDate: '2026-12-24',
    });
    expect((await owner.client.delete(`/api/client/website/${id}/labels/${gone}`)).status).toBe(200);
    const updatedAt = (
      (await owner.client.get(`/api/client/website/${id}/request/1`)).body as { msg: { updatedAt: string } }
    ).msg.updatedAt;
    const out = await ok(owner.client, id);
    expect(out.rows[0]).toEqual([
      'Number',
      'Title',
      'Status',
      'Priority',
      'Assignee',
      'Labels',
      'Due date',
      'Created',
      'Updated',
      'Files',
      'Screenshots',
      'Reporter',
      'Page URL',
      'Browser',
      'Operating system',
      'Device type',
      'Screen resolution',
      'Customer',
      'Plan',
      'Other fields',
      'Link',
      'Status name',
      'Priority name',
      'Description',
    ]);
    // Newest first, as the list.
    expect(out.rows.slice(1).map((r) => r[0])).toEqual(['2', '1']);
    const one = out.rows[2];
    expect(one).toEqual([
      '1',
      'Issue 1',
      'in_progress',
      'high',
      'Ada Lovelace',
      // A deleted label's id is left out (4.13).
      'Checkout',
      '2026-12-24',
      '2026-01-01T00:00:01.000Z',
      updatedAt,
      '0',
      '0',
      'visitor@example.org',
      'https://shop.example/',
      'Firefox 130',
      'Linux 6',
      'Desktop',
      '1920x1080',
      'C-17',
      'Gold',
      'Retired: old value',
      `${stack.url}/profile/site/${id}/ticket/1`,
      'In progress',
      'High',
      // The whole description, its line breaks and its length (the widget's most) kept.
      longDescription,
    ]);
    // An untriaged issue: new, no priority, nobody, no labels, no due date.
    expect(out.rows[1]?.slice(2, 7)).toEqual(['new', 'none', '', '', '']);
    expect(out.rows[1]?.slice(-3)).toEqual(['New', 'No priority', 'Description of issue 2']);
  });

  it('names the columns in German with lng=de', async () => {
    const owner = await person();
    const id = await newProject(owner.client);
    const out = await ok(owner.client, id, '?lng=de');
    expect(out.rows[0]?.slice(0, 5)).toEqual(['Nummer', 'Titel', 'Status', 'Priorität', 'Zuständig']);
    expect(out.rows[0]?.slice(-3)).toEqual(['Statusname', 'Prioritätsname', 'Beschreibung']);
    expect(out.rows).toHaveLength(1);
    await seedIssues(id, 1);
    await patch(owner.client, id, 1, { status: 'in_review', priority: 'urgent' });
    const de = await ok(owner.client, id, '?lng=de');
    expect(de.rows[1]?.slice(-3)).toEqual(['In Prüfung', 'Dringend', 'Description of issue 1']);
  });

  it('neutralises cells a spreadsheet would evaluate and quotes quotes, commas and line breaks', async () => {
    const owner = await person();
    const id = await newProject(owner.client);
    await owner.client.patch(`/api/client/website/${id}`, {
      data: { customFields: [{ name: 'Note', selector: '#note' }] },
    });
    const hostile = [
      '=HYPERLINK("http://evil.example","click")',
      '+1+2',
      "-2+3+cmd|' /C calc'!A0",
      '@SUM(A1:A9)',
      '\t=1+1',
      '\r=1+1',
      'He said "hi", then\nleft',
    ];
    await seedIssues(
      id,
      hostile.length,
      (n) => hostile[n - 1] ?? '',
      (issue) => ({
        ...issue,
        msg: hostile[issue.number - 1] ?? '',
        data: {
          ...issue.data,
          username: hostile[issue.number - 1] ?? '',
          customFields: [{ name: 'Note', value: hostile[issue.number - 1] ?? '' }],
        },
      }),
    );
    const out = await ok(owner.client, id, '?sort=oldest');
    const want = [
      '\'=HYPERLINK("http://evil.example","click")',
      "'+1+2",
      "'-2+3+cmd|' /C calc'!A0",
      "'@SUM(A1:A9)",
      "'\t=1+1",
      "'\r=1+1",
      'He said "hi", then\nleft',
    ];
    expect(column(out.rows, 'Title')).toEqual(want);
    expect(column(out.rows, 'Reporter')).toEqual(want);
    expect(column(out.rows, 'Note')).toEqual(want);
    expect(column(out.rows, 'Description')).toEqual(want);
    // What the bytes say: the quote doubled inside a quoted field, no cell of the file starts a formula.
    expect(out.text).toContain('"He said ""hi"", then\nleft"');
    for (const row of out.rows.slice(1))
      for (const cell of row) expect(cell, `cell ${JSON.stringify(cell)}`).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('exports the resolved list with resolved=1, and oldest first with sort=oldest', async () => {
    const owner = await person();
    const id = await newProject(owner.client);
    await seedIssues(id, 4);
    const closed = await owner.client.patch(`/api/client/website/${id}/request/2`, { restore: false });
    expect(closed.status).toBe(200);
    expect((await ok(owner.client, id)).rows.slice(1).map((r) => r[0])).toEqual(['4', '3', '1']);
    expect((await ok(owner.client, id, '?sort=oldest')).rows.slice(1).map((r) => r[0])).toEqual([
      '1',
      '3',
      '4',
    ]);
    const resolved = await ok(owner.client, id, '?resolved=1');
    expect(resolved.rows.slice(1).map((r) => r[0])).toEqual(['2']);
    expect(column(resolved.rows, 'Status')).toEqual(['resolved']);
    expect(resolved.disposition).toContain('-resolved-');
  });

  it('honours every filter and sort of the list, to the end, and agrees with the list page by page', async () => {
    const owner = await person();
    const member = await person();
    const second = await person();
    const id = await newProject(owner.client);
    await addToTeam(owner.uid, member.uid, 'MEMBER');
    await addToTeam(owner.uid, second.uid, 'MEMBER');
    await seedIssues(id, 30);
    const a = await label(owner.client, id, 'A');
    const b = await label(owner.client, id, 'B');
    const statuses = ['new', 'in_progress', 'in_review', 'resolved', 'closed'] as const;
    const prios = ['none', 'low', 'high', 'urgent'] as const;
    const who = [null, second.uid, member.uid] as const;
    const truth = Array.from({ length: 30 }, (_, i) => {
      const n = i + 1;
      return {
        n,
        status: statuses[n % 5] as string,
        priority: prios[n % 4] as string,
        assignee: who[n % 3] ?? null,
        labels: [...(n % 2 === 0 ? [a] : []), ...(n % 7 === 0 ? [b] : [])],
      };
    });
    const bulk = async (tickets: number[], set: Record<string, unknown>) => {
      if (tickets.length === 0) return;
      const res = await owner.client.patch(`/api/client/website/${id}/requests`, { tickets, set });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    for (const p of prios)
      await bulk(
        truth.filter((t) => t.priority === p).map((t) => t.n),
        { priority: p },
      );
    for (const u of [second.uid, member.uid])
      await bulk(
        truth.filter((t) => t.assignee === u).map((t) => t.n),
        { assignee: u },
      );
    for (const l of [a, b])
      await bulk(
        truth.filter((t) => t.labels.includes(l)).map((t) => t.n),
        { labels: { add: [l] } },
      );
    for (const st of statuses)
      await bulk(
        truth.filter((t) => t.status === st).map((t) => t.n),
        { status: st },
      );

    const open = (t: (typeof truth)[number]) => ['new', 'in_progress', 'in_review'].includes(t.status);
    const newest = (ts: typeof truth) => ts.map((t) => t.n).sort((x, y) => y - x);
    const cases: [string, number[] | null][] = [
      ['', newest(truth.filter(open))],
      ['?sort=oldest', newest(truth.filter(open)).reverse()],
      ['?resolved=1', newest(truth.filter((t) => !open(t)))],
      ['?status=in_progress', newest(truth.filter((t) => t.status === 'in_progress'))],
      ['?status=closed', newest(truth.filter((t) => t.status === 'closed'))],
      ['?priority=high', newest(truth.filter((t) => open(t) && t.priority === 'high'))],
      [`?assignee=${second.uid}`, newest(truth.filter((t) => open(t) && t.assignee === second.uid))],
      [`?assignee=${member.uid}`, newest(truth.filter((t) => open(t) && t.assignee === member.uid))],
      ['?assignee=none', newest(truth.filter((t) => open(t) && t.assignee === null))],
      [`?label=${a}`, newest(truth.filter((t) => open(t) && t.labels.includes(a)))],
      [`?label=${b}&sort=oldest`, newest(truth.filter((t) => open(t) && t.labels.includes(b))).reverse()],
      [
        '?sort=priority',
        [...prios].reverse().flatMap((p) => newest(truth.filter((t) => open(t) && t.priority === p))),
      ],
      [
        `?label=${a}&priority=urgent&status=new`,
        newest(truth.filter((t) => t.status === 'new' && t.priority === 'urgent' && t.labels.includes(a))),
      ],
      [
        `?assignee=me&sort=priority`,
        [...prios]
          .reverse()
          .flatMap((p) =>
            newest(truth.filter((t) => open(t) && t.priority === p && t.assignee === owner.uid)),
          ),
      ],
      // Orders the truth above does not spell out: the list's own pages are the reference.
      ['?sort=updated', null],
      [`?label=${a}&sort=updated`, null],
      ['?search=issue%202', null],
      ['?search=issue&priority=low', null],
    ];
    for (const [query, want] of cases) {
      const got = numbersOf((await ok(owner.client, id, query)).rows);
      const listed = await allListed(owner.client, id, query);
      expect(got, `export ${query}`).toEqual(listed);
      if (want) expect(got, `truth ${query}`).toEqual(want);
      else expect(got.length, `non-empty ${query}`).toBeGreaterThan(0);
    }
    // `me` is the caller: the member's own export holds the issues assigned to them.
    const mine = numbersOf((await ok(member.client, id, '?assignee=me')).rows);
    expect(mine).toEqual(newest(truth.filter((t) => open(t) && t.assignee === member.uid)));
    expect(mine).toEqual(await allListed(member.client, id, '?assignee=me'));
    // The status column says what each row's filter asked for.
    const inReview = await ok(owner.client, id, '?status=in_review');
    expect(new Set(column(inReview.rows, 'Status'))).toEqual(new Set(['in_review']));
  }, 120_000);

  it('refuses another client (404), an anonymous caller (401) and a bad filter (400)', async () => {
    const owner = await person();
    const other = await person();
    const id = await newProject(owner.client);
    await seedIssues(id, 1);
    const refused = await exportCsv(other.client, id);
    expect(refused.status).toBe(404);
    expect(refused.file ? '' : JSON.parse(refused.body).code).toBe('NOT_FOUND');
    const anonymous = await fetch(new URL(`/api/client/website/${id}/requests.csv`, stack.url), {
      redirect: 'manual',
    });
    expect(anonymous.status).toBe(401);
    const bad = await exportCsv(owner.client, id, '?status=lost');
    expect(bad.status).toBe(400);
  });

  it('gives a GUEST the same columns as the team: nothing internal is in the file', async () => {
    const owner = await person();
    const guest = await person();
    const id = await newProject(owner.client);
    await seedIssues(id, 3);
    await addToTeam(owner.uid, guest.uid, 'GUEST', [id]);
    const theirs = await ok(guest.client, id);
    const ours = await ok(owner.client, id);
    expect(theirs.rows).toEqual(ours.rows);
  });

  it('exports 1,500 issues complete and in order (several batches and block groups)', async () => {
    const owner = await person();
    const id = await newProject(owner.client);
    await bulkSeedIssues(id, 1500);
    const t = performance.now();
    const out = await ok(owner.client, id);
    console.log(`export of 1,500 issues: ${Math.round(performance.now() - t)} ms, ${out.bytes.length} bytes`);
    const numbers = out.rows.slice(1).map((r) => Number(r[0]));
    expect(numbers).toEqual(Array.from({ length: 1500 }, (_, i) => 1500 - i));
    expect(new Set(out.rows.map((r) => r.length))).toEqual(new Set([out.rows[0]?.length]));
  }, 120_000);

  it('refuses an export over the limit with EXPORT_TOO_LARGE before writing anything', async () => {
    const owner = await person();
    const id = await newProject(owner.client);
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: projectKey(id),
        UpdateExpression: 'SET openCount = :n',
        ExpressionAttributeValues: { ':n': exportLimits.maxRows + 1 },
      }),
    );
    const out = await exportCsv(owner.client, id);
    expect(out.status).toBe(413);
    expect(out.file ? '' : JSON.parse(out.body).code).toBe('EXPORT_TOO_LARGE');
  });

  it('streams an object larger than a part as a multipart upload, byte for byte', async () => {
    const key = `x/writer-test/${Date.now()}.csv`;
    const sent: string[] = [];
    const client = await s3();
    client.middlewareStack.add(
      (next, context) => async (args) => {
        sent.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: `writerTestCounter${Date.now()}` },
    );
    const w = s3ObjectWriter(key, { contentType: 'text/csv; charset=utf-8' });
    const hash = createHash('sha256');
    const line = `${'é,"x"'.repeat(40)}\r\n`;
    let written = 0;
    while (written < 2 * MIN_PART_BYTES + 12345) {
      await w.write(line);
      hash.update(line);
      written += Buffer.byteLength(line);
    }
    await w.close();
    expect(w.bytes).toBe(written);
    const got = await client.send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
    const bytes = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
    expect(bytes.length).toBe(written);
    // Three parts (two full ones and the rest), never the whole object in one PutObject.
    expect(sent.filter((c) => c !== 'GetObjectCommand')).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ]);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(hash.digest('hex'));
  }, 120_000);
});
