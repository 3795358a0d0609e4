import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '#contracts/intake';
import { reportSchema } from '#contracts/intake-schemas';
import type { WidgetConfig } from '#contracts/widget-config';
import { SnagError } from '../../../widget/src/app/errors';
import { solveProof } from '../../../widget/src/app/proof';
import {
  buildReportBody,
  mergeCustomFields,
  type PresignedPost,
  reportHref,
  reportLogs,
  type SendContext,
  sendReport,
  type Transport,
} from '../../../widget/src/app/report';

const config: WidgetConfig = {
  id: '0b7c4a52-8d1e-4f3a-9c2b-5e6f7a8b9c0d',
  host: 'shop.example.com',
  wildcard: false,
  testMode: false,
  hideOnMobile: false,
  language: 'en',
  color: '#4F4EAE',
  scheme: 'white',
  text: 'Feedback',
  position: 'rightMiddle',
  screenshot: true,
  upload: true,
  video: true,
  welcomeScreen: false,
  branding: true,
  customFields: [{ name: 'Order', selector: '#order' }],
  api: 'https://app.snag.test',
};

/** The CaptureApi parts a report reads. */
const capture: SendContext['capture'] = {
  deviceData: () => ({
    browser: 'Chrome',
    browserVersion: '131',
    os: 'macOS',
    osVersion: '14.5',
    deviceType: 'Desktop',
    screenResolution: '1512x982',
  }),
  customFieldValues: (fields) => fields.map((f) => ({ name: f.name, value: `value of ${f.selector}` })),
};

const uuid = () => crypto.randomUUID();

/** Records calls and answers like the intake API and S3 would. */
function fakeTransport(fail?: { at: 'upload' | 'form' | 'request'; code: string }) {
  const calls: { url: string; body?: unknown; form?: { key: string; size: number } }[] = [];
  const transport: Transport = {
    async postJson<T>(url: string, body: unknown): Promise<T> {
      calls.push({ url, body });
      if (url.endsWith('/upload')) {
        if (fail?.at === 'upload') throw new SnagError(fail.code);
        const { kind } = body as { kind: string };
        const ext =
          kind === 'snapshot' ? 'html' : kind === 'video' ? 'webm' : kind === 'replay' ? 'gz' : 'png';
        const key = `pending/${config.id}/${kind}/${uuid()}.${ext}`;
        return { key, url: 'https://s3.test/bucket', fields: { key } } as T;
      }
      if (fail?.at === 'request') throw new SnagError(fail.code);
      return { number: 42 } as T;
    },
    async postForm(post: PresignedPost, blob: Blob, onProgress: (n: number) => void) {
      calls.push({ url: post.url, form: { key: post.key, size: blob.size } });
      if (fail?.at === 'form') throw new SnagError(fail.code);
      onProgress(blob.size / 2);
      onProgress(blob.size);
    },
  };
  return { transport, calls };
}

const png = (bytes: number) => new Blob([new Uint8Array(bytes)], { type: 'image/png' });
const logs: LogEntry[] = Array.from({ length: 60 }, (_, i) => ({
  t: 1_700_000_000_000 + i,
  level: 'error',
  kind: 'console',
  msg: i === 59 ? 'x'.repeat(1500) : `error ${i}`,
}));

describe('the report body', () => {
  it('carries the form, the page, device data, custom fields, keys and logs, and passes the server schema', () => {
    const shotKey = `pending/${config.id}/screenshot/${uuid()}.png`;
    const snapKey = `pending/${config.id}/snapshot/${uuid()}.html`;
    const videoKey = `pending/${config.id}/video/${uuid()}.webm`;
    const fileKey = `pending/${config.id}/file/${uuid()}.pdf`;
    const body = buildReportBody(
      {
        description: '  The checkout button does nothing  ',
        email: ' jane@example.com ',
        shots: [],
        video: null,
        files: [],
        customFields: [{ name: 'Plan', value: 'Pro' }],
      },
      {
        shots: [{ key: shotKey, snapshotKey: snapKey }],
        video: { key: videoKey, type: 'video/webm' },
        files: [{ key: fileKey, name: 'invoice.pdf' }],
      },
      { config: { ...config, language: 'de' }, capture, href: 'https://shop.example.com/cart?step=2', logs },
    );
    expect(body).toMatchObject({
      msg: 'The checkout button does nothing',
      username: 'jane@example.com',
      // The language the widget spoke: the reporter's mails speak it.
      language: 'de',
      href: 'https://shop.example.com/cart?step=2',
      browser: 'Chrome',
      osVersion: '14.5',
      deviceType: 'Desktop',
      screenResolution: '1512x982',
      customFields: [
        { name: 'Order', value: 'value of #order' },
        { name: 'Plan', value: 'Pro' },
      ],
      screenshots: [
        { key: shotKey, type: 'png', snapshotKey: snapKey },
        { key: videoKey, type: 'webm' },
      ],
      files: [{ key: fileKey, original_name: 'invoice.pdf' }],
    });
    expect(body.logs).toHaveLength(50);
    expect(body.logs?.[0]?.msg).toBe('error 10'); // the newest 50
    expect(body.logs?.[49]?.msg).toHaveLength(1000);
    expect(reportSchema.safeParse(body).success).toBe(true);
  });

  it("leaves a strict project's page with the intake's strict rule applied: no query, fragment, later log line or email", () => {
    const body = buildReportBody(
      {
        description: 'Broken',
        email: 'jane@example.com',
        shots: [],
        video: null,
        files: [],
        steps: [{ t: 1, kind: 'load', label: 'https://shop.example.com/search?q=secret' }],
      },
      { shots: [], video: null, files: [] },
      {
        config: { ...config, strictPrivacy: true },
        capture,
        href: 'https://shop.example.com/cart?coupon=SUMMER#pay',
        logs: [
          {
            t: 1,
            level: 'error',
            kind: 'console',
            msg: 'Failed https://api.example/x?id=7\n{"name":"Jane"}',
          },
        ],
      },
    );
    expect(body).toMatchObject({ username: '', href: 'https://shop.example.com/cart' });
    expect(body.logs?.[0]?.msg).toBe('Failed https://api.example/x');
    expect(body.steps?.[0]?.label).toBe('https://shop.example.com/search');
    expect(reportSchema.safeParse(body).success).toBe(true);
  });

  it('sends visitor text cleaned of control and format characters, so the server schema takes it (issue 19)', () => {
    const fileKey = `pending/${config.id}/file/${uuid()}.pdf`;
    const body = buildReportBody(
      {
        description: 'Line one\r\nline\u0007 two\u202E 👩🏽‍💻',
        email: '',
        shots: [],
        video: null,
        files: [],
        customFields: [{ name: 'Pl\u200Ban', value: `${'x'.repeat(499)}😀` }],
      },
      { shots: [], video: null, files: [{ key: fileKey, name: 'invoice\u202Efdp.exe' }] },
      {
        config,
        capture: {
          ...capture,
          deviceData: () => ({ ...capture.deviceData(), browser: 'Chr\u0000ome\u200F' }),
        },
        href: 'https://shop.example.com/',
        logs: [{ t: 1, level: 'error', kind: 'console', msg: '\u001b[31mred\u001b[0m\ttab' }],
      },
    );
    expect(body.msg).toBe('Line one\nline two 👩🏽‍💻');
    expect(body.files).toEqual([{ key: fileKey, original_name: 'invoicefdp.exe' }]);
    expect(body.browser).toBe('Chrome');
    // Cut at 500 UTF-16 units without leaving half of the emoji behind.
    expect(body.customFields?.[1]).toEqual({ name: 'Plan', value: 'x'.repeat(499) });
    expect(body.logs?.[0]?.msg).toBe('[31mred[0m\ttab');
    expect(reportSchema.safeParse(body).success).toBe(true);
  });

  it('names an mp4 recording mp4', () => {
    const body = buildReportBody(
      { description: 'x', email: '', shots: [], video: null, files: [] },
      { shots: [], video: { key: `pending/${config.id}/video/${uuid()}.mp4`, type: 'video/mp4' }, files: [] },
      { config, capture, href: '', logs: [] },
    );
    expect(body.screenshots?.[0]?.type).toBe('mp4');
  });

  it('lets Snag.report override a custom field by name, keeping at most three of 500 characters', () => {
    expect(
      mergeCustomFields(
        [{ name: 'Order', value: 'A-1' }],
        [
          { name: 'Order', value: 'B-2' },
          { name: 'Plan', value: 'x'.repeat(600) },
          { name: 'Cart', value: '3' },
          { name: 'Fourth', value: '4' },
        ],
      ),
    ).toEqual([
      { name: 'Order', value: 'B-2' },
      { name: 'Plan', value: 'x'.repeat(500) },
      { name: 'Cart', value: '3' },
    ]);
  });

  it('carries the steps and the replay with its span, and redacts the logs (issue 33)', () => {
    const replayKey = `pending/${config.id}/replay/${uuid()}.gz`;
    const steps = Array.from({ length: 55 }, (_, i) => ({
      t: 1_700_000_000_000 + i,
      kind: 'click' as const,
      label: i === 54 ? `button "${'y'.repeat(300)}"` : `button "Step\u0007 ${i}"`,
    }));
    const body = buildReportBody(
      {
        description: 'x',
        email: '',
        shots: [],
        video: null,
        files: [],
        steps,
        replay: {
          blob: new Blob(['z']),
          start: 1_700_000_000_000,
          end: 1_700_000_060_000,
          stopped: 'mutations',
        },
      },
      { shots: [], video: null, files: [], replay: replayKey },
      {
        config,
        capture,
        href: '',
        logs: [
          {
            t: 1,
            level: 'error',
            kind: 'console',
            msg: 'No account for jane@example.com, card 4242 4242 4242 4242',
          },
        ],
      },
    );
    expect(body.steps).toHaveLength(50);
    expect(body.steps?.[0]).toEqual({ t: 1_700_000_000_005, kind: 'click', label: 'button "Step 5"' });
    expect(body.steps?.[49]?.label).toHaveLength(200);
    expect(body.replay).toEqual({
      key: replayKey,
      start: 1_700_000_000_000,
      end: 1_700_000_060_000,
      stopped: 'mutations',
    });
    expect(body.logs?.[0]?.msg).toBe('No account for [redacted:email], card [redacted:card]');
    // The send time on the visitor's clock, the clock of the steps' times.
    expect(Math.abs((body.sentAt ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(reportSchema.safeParse(body).success).toBe(true);
  });

  it('has no replay without an uploaded one, and empty steps without any', () => {
    const body = buildReportBody(
      { description: 'x', email: '', shots: [], video: null, files: [] },
      { shots: [], video: null, files: [] },
      { config, capture, href: '', logs: [] },
    );
    expect(body.steps).toEqual([]);
    expect('replay' in body).toBe(false);
  });

  it("masks the page address's secret parameters and a custom field's card number, keeping its email", () => {
    expect(reportHref('https://shop.test/reset?token=9f8e7d6c5b&step=2')).toBe(
      'https://shop.test/reset?token=[redacted:param]&step=2',
    );
    expect(
      mergeCustomFields([{ name: 'Account', value: 'jane@example.com, card 4000 0566 5566 5556' }]),
    ).toEqual([{ name: 'Account', value: 'jane@example.com, card [redacted:card]' }]);
  });

  it('sends only http(s) page addresses, at most 2,000 characters', () => {
    expect(reportHref('file:///home/jane/page.html')).toBe('');
    expect(reportHref(`https://a.test/${'x'.repeat(3000)}`)).toHaveLength(2000);
    expect(reportLogs(undefined)).toEqual([]);
  });
});

describe('sending', () => {
  const outgoing = {
    description: 'Broken',
    email: '',
    shots: [{ png: png(100_000), html: '<!doctype html><p>page</p>' }],
    video: new Blob([new Uint8Array(50_000)], { type: 'video/webm;codecs=vp9' }),
    files: [new File([new Uint8Array(10_000)], 'invoice.pdf', { type: 'application/pdf' })],
  };

  it('uploads every part, then files the report with the keys in their places', async () => {
    const { transport, calls } = fakeTransport();
    const progress: number[] = [];
    const number = await sendReport(outgoing, { config, capture, transport, href: '', logs: [] }, (p) =>
      progress.push(p),
    );
    expect(number).toBe(42);
    const announced = calls.filter((c) => c.url.endsWith('/upload')).map((c) => c.body);
    expect(announced).toEqual([
      { kind: 'screenshot', type: 'image/png', size: 100_000 },
      { kind: 'snapshot', type: 'text/html', size: 26 },
      { kind: 'video', type: 'video/webm', size: 50_000 },
      { kind: 'file', type: 'application/pdf', size: 10_000 },
    ]);
    expect(calls[0]?.url).toBe(`${config.api}/api/website/${config.id}/upload`);
    const report = calls.at(-1)!;
    expect(report.url).toBe(`${config.api}/api/website/${config.id}/request`);
    const body = report.body as { screenshots: { key: string; snapshotKey?: string }[]; files: unknown[] };
    const posted = calls.filter((c) => c.form).map((c) => c.form!.key);
    expect(body.screenshots[0]).toEqual({ key: posted[0], type: 'png', snapshotKey: posted[1] });
    expect(body.screenshots[1]).toEqual({ key: posted[2], type: 'webm' });
    expect(body.files).toEqual([{ key: posted[3], original_name: 'invoice.pdf' }]);
    expect(reportSchema.safeParse(body).success).toBe(true);
    // Progress counts bytes: it only grows, stays below 1 until the report is filed, then ends at 1.
    expect(progress.every((p, i) => i === 0 || p >= progress[i - 1]!)).toBe(true);
    expect(progress.at(-2)).toBeLessThan(1);
    expect(progress.at(-1)).toBe(1);
  });

  it('leaves out a snapshot over its 5 MB cap instead of failing the report', async () => {
    const { transport, calls } = fakeTransport();
    const shots = [{ png: png(1000), html: 'x'.repeat(6 * 1024 * 1024) }];
    await sendReport(
      { ...outgoing, shots, video: null, files: [] },
      { config, capture, transport, href: '', logs: [] },
    );
    expect(calls.filter((c) => c.form)).toHaveLength(1);
    const body = calls.at(-1)!.body as { screenshots: { key: string; snapshotKey?: string }[] };
    expect(body.screenshots).toEqual([{ key: calls[1]!.form!.key, type: 'png' }]);
  });

  it('uploads the replay as a gzip of kind replay and names its key in the report', async () => {
    const { transport, calls } = fakeTransport();
    const replay = { blob: new Blob([new Uint8Array(3000)]), start: 1000, end: 61_000 };
    await sendReport(
      { ...outgoing, shots: [], video: null, files: [], replay },
      { config, capture, transport, href: '', logs: [] },
    );
    expect(calls[0]?.body).toEqual({ kind: 'replay', type: 'application/gzip', size: 3000 });
    const body = calls.at(-1)!.body as { replay: unknown };
    expect(body.replay).toEqual({ key: calls[1]!.form!.key, start: 1000, end: 61_000 });
    expect(reportSchema.safeParse(body).success).toBe(true);
  });

  it('leaves out a replay over its 1 MB cap instead of failing the report', async () => {
    const { transport, calls } = fakeTransport();
    const replay = { blob: new Blob([new Uint8Array(1024 * 1024 + 1)]), start: 1, end: 2 };
    await sendReport(
      { ...outgoing, shots: [], video: null, files: [], replay },
      { config, capture, transport, href: '', logs: [] },
    );
    expect(calls).toHaveLength(1);
    expect('replay' in (calls[0]!.body as object)).toBe(false);
  });

  it('refuses an oversized attachment before any request', async () => {
    const { transport, calls } = fakeTransport();
    const big = { size: 30 * 1024 * 1024, name: 'big.pdf', type: 'application/pdf' } as File;
    await expect(
      sendReport({ ...outgoing, files: [big] }, { config, capture, transport, href: '', logs: [] }),
    ).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(calls).toHaveLength(0);
  });

  it('rejects with the server code of whichever step failed', async () => {
    for (const at of ['upload', 'form', 'request'] as const) {
      const { transport } = fakeTransport({ at, code: at === 'request' ? 'RATE_LIMITED' : 'QUOTA_EXCEEDED' });
      await expect(
        sendReport(outgoing, { config, capture, transport, href: '', logs: [] }),
      ).rejects.toMatchObject({
        code: at === 'request' ? 'RATE_LIMITED' : 'QUOTA_EXCEEDED',
      });
    }
  });

  describe('to a busy project (issue 19)', () => {
    const secret = 'unit-test-proof-secret';
    const challenge = () =>
      createChallenge({
        algorithm: 'PBKDF2/SHA-256',
        cost: 10,
        counter: 37,
        deriveKey,
        hmacSignatureSecret: secret,
        data: { use: 'report', project: config.id },
      });

    it("solves the server's challenge with crypto.subtle into a payload the server verifies", async () => {
      const c = await challenge();
      const proof = await solveProof(JSON.stringify(c));
      const payload = JSON.parse(atob(proof));
      expect(payload.solution.counter).toBe(37);
      const verdict = await verifySolution({ ...payload, deriveKey, hmacSignatureSecret: secret });
      expect(verdict.verified).toBe(true);
      await expect(solveProof('{"parameters":{}}')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    });

    /** The API answering the first report with PROOF_REQUIRED, then `second`. */
    function busyTransport(second: 'accept' | 'refuse') {
      const { transport, calls } = fakeTransport();
      let reports = 0;
      const busy: Transport = {
        ...transport,
        async postJson<T>(url: string, body: unknown): Promise<T> {
          if (!url.endsWith('/request')) return transport.postJson<T>(url, body);
          calls.push({ url, body });
          if (++reports === 1 || second === 'refuse') {
            throw new SnagError('PROOF_REQUIRED', 'busy', { proof: JSON.stringify(await challenge()) });
          }
          return { number: 7 } as T;
        },
      };
      return { transport: busy, calls };
    }

    it('sends the report again with the solved proof, once', async () => {
      const { transport, calls } = busyTransport('accept');
      const number = await sendReport(
        { ...outgoing, shots: [], video: null, files: [] },
        { config, capture, transport, href: '', logs: [] },
      );
      expect(number).toBe(7);
      const bodies = calls.filter((c) => c.url.endsWith('/request')).map((c) => c.body as { proof?: string });
      expect(bodies).toHaveLength(2);
      expect(bodies[0]?.proof).toBeUndefined();
      expect(JSON.parse(atob(bodies[1]?.proof ?? '')).solution.counter).toBe(37);
      expect(reportSchema.safeParse(bodies[1]).success).toBe(true);
    });

    it('gives up as RATE_LIMITED when the proof is refused too', async () => {
      const { transport, calls } = busyTransport('refuse');
      await expect(
        sendReport(
          { ...outgoing, shots: [], video: null, files: [] },
          { config, capture, transport, href: '', logs: [] },
        ),
      ).rejects.toMatchObject({ code: 'RATE_LIMITED' });
      expect(calls.filter((c) => c.url.endsWith('/request'))).toHaveLength(2);
    });
  });
});
