/**
 * Sending a report (DESIGN.md section 8): each blob is first announced with `POST …/upload` (the server
 * answers a presigned S3 POST), then posted to S3 as a form; finally `POST …/request` carries the report
 * with the keys. Progress counts the bytes of all uploads plus the report body.
 *
 * The network sits behind `Transport` (http.ts in the browser, a fake in unit tests); the body assembly is
 * a pure function.
 */
import type { LogEntry, Step, UploadKind } from '#contracts/intake';
import { reportLimits } from '#contracts/intake';
import type { ReportInput } from '#contracts/intake-schemas';
import { redactText, redactUrl } from '#contracts/redaction';
import { strictReport } from '#contracts/strict-privacy';
import { cleanText } from '#contracts/text';
import type { WidgetConfig } from '#contracts/widget-config';
import type { ReplayTake } from '../api';
import type { CaptureApi } from '../capture/types';
import { SnagError } from './errors';
import { solveProof } from './proof';
import { fileType, refuseUpload } from './uploads';

export interface PresignedPost {
  key: string;
  url: string;
  fields: Record<string, string>;
}

export interface Transport {
  /** POSTs JSON and returns the answer's `msg`; throws SnagError with the server's code, or NETWORK. */
  postJson<T>(url: string, body: unknown): Promise<T>;
  /** Posts `blob` as the last field of a form; `onProgress(bytesSent)` as it goes. */
  postForm(post: PresignedPost, blob: Blob, onProgress: (sent: number) => void): Promise<void>;
}

/** What the visitor sends; screenshots are already flattened PNGs. */
export interface Outgoing {
  description: string;
  email: string;
  shots: { png: Blob; html: string }[];
  video: Blob | null;
  files: File[];
  /** Custom field values from `Snag.report`, merged over those the project's selectors read. */
  customFields?: { name: string; value: string }[];
  /** The visitor's last actions (activity/steps.ts), oldest first. */
  steps?: readonly Step[];
  /** The session replay the visitor attaches (activity/recorder.ts); absent or null: none. */
  replay?: ReplayTake | null;
}

export interface SendContext {
  config: WidgetConfig;
  capture: Pick<CaptureApi, 'deviceData' | 'customFieldValues'>;
  transport: Transport;
  href: string;
  logs: readonly LogEntry[];
}

/**
 * Custom fields by name, the later list winning; at most as many as a project may define. Values are
 * redacted (contracts/redaction.ts) except for email addresses: the customer chose to send a field, and an
 * account's address is what one is most often for.
 */
export function mergeCustomFields(
  ...lists: { name: string; value: string }[][]
): { name: string; value: string }[] {
  const byName = new Map<string, string>();
  for (const list of lists) for (const f of list) byName.set(String(f.name), String(f.value));
  return [...byName].slice(0, 3).map(([name, value]) => ({
    name: cleanText(name, { max: 50 }),
    value: cleanText(redactText(value, { emails: false }), {
      multiline: true,
      max: reportLimits.customFieldValueMax,
    }),
  }));
}

/**
 * The page address as the server accepts it: http(s) only, secret query parameters and other secrets
 * redacted (contracts/redaction.ts `redactUrl`), at most 2,000 characters.
 */
export function reportHref(href: string): string {
  return /^https?:/i.test(href) ? redactUrl(href).slice(0, reportLimits.hrefMax) : '';
}

/** The newest console and network entries the loader buffered, within the report's limits, redacted. */
export function reportLogs(logs: readonly LogEntry[] | undefined): LogEntry[] {
  return (logs ?? []).slice(-reportLimits.logsMax).map((l) => ({
    ...l,
    msg: cleanText(redactText(l.msg, { emails: true }), {
      multiline: true,
      max: reportLimits.logMessageMax,
    }),
  }));
}

/** The newest steps within the report's limits, labels as the server accepts them (already redacted). */
export function reportSteps(steps: readonly Step[] | undefined): Step[] {
  return (steps ?? [])
    .slice(-reportLimits.stepsMax)
    .map((s) => ({ t: s.t, kind: s.kind, label: cleanText(s.label, { max: reportLimits.stepLabelMax }) }));
}

/** A file's name as the server accepts it (contracts/text.ts, no path separators); never empty. */
export const reportFileName = (name: string): string =>
  cleanText(name, { max: reportLimits.originalNameMax }).replace(/[/\\]/g, '_') || 'file';

/** Device strings (browser, os, versions) as the server accepts them. */
function cleanDevice<T extends object>(data: T): T {
  return Object.fromEntries(
    Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? cleanText(v, { max: 50 }) : v]),
  ) as T;
}

export interface UploadedKeys {
  shots: { key: string; snapshotKey: string }[];
  video: { key: string; type: string } | null;
  files: { key: string; name: string }[];
  /** The replay's key; absent: none uploaded. */
  replay?: string;
}

/** The `POST …/request` body (functions/contracts/schemas.ts `reportSchema`). */
export function buildReportBody(
  out: Outgoing,
  keys: UploadedKeys,
  ctx: Omit<SendContext, 'transport'>,
): ReportInput {
  const screenshots: NonNullable<ReportInput['screenshots']> = keys.shots.map((s) =>
    s.snapshotKey ? { key: s.key, type: 'png', snapshotKey: s.snapshotKey } : { key: s.key, type: 'png' },
  );
  if (keys.video)
    screenshots.push({ key: keys.video.key, type: keys.video.type.includes('mp4') ? 'mp4' : 'webm' });
  const body: ReportInput = {
    // Visitor text goes out cleaned (contracts/text.ts): the API refuses control and format characters.
    msg: cleanText(out.description, { multiline: true, max: reportLimits.descriptionMax }),
    username: out.email.trim(),
    // The reporter's mails and status page speak the language the visitor filed the report in.
    language: ctx.config.language,
    href: reportHref(ctx.href),
    ...cleanDevice(ctx.capture.deviceData()),
    customFields: mergeCustomFields(
      ctx.capture.customFieldValues(ctx.config.customFields),
      out.customFields ?? [],
    ),
    screenshots,
    files: keys.files.map((f) => ({
      key: f.key,
      original_name: reportFileName(f.name),
    })),
    logs: reportLogs(ctx.logs),
    steps: reportSteps(out.steps),
    sentAt: Date.now(),
    ...(keys.replay && out.replay
      ? {
          replay: {
            key: keys.replay,
            start: out.replay.start,
            end: out.replay.end,
            ...(out.replay.stopped ? { stopped: out.replay.stopped } : {}),
          },
        }
      : {}),
  };
  // A strict project's report leaves the page as the intake would store it (the same rule, applied twice).
  return ctx.config.strictPrivacy ? strictReport(body) : body;
}

interface Item {
  kind: UploadKind;
  blob: Blob;
  type: string;
  name: string;
  /** For screenshots and snapshots: which screenshot they belong to. */
  shot?: number;
}

/** The uploads of a report, in the order they are sent, each checked before anything leaves the page. */
export function uploadItems(out: Outgoing): Item[] {
  const items: Item[] = [];
  out.shots.forEach((s, shot) => {
    items.push({
      kind: 'screenshot',
      blob: s.png,
      type: 'image/png',
      name: `screenshot-${shot + 1}.png`,
      shot,
    });
    const html = new Blob([s.html], { type: 'text/html' });
    // The snapshot is a bonus: one that is empty or over its cap is left out rather than failing the report.
    if (!refuseUpload('snapshot', { name: '', size: html.size, type: 'text/html' })) {
      items.push({
        kind: 'snapshot',
        blob: html,
        type: 'text/html',
        name: `snapshot-${shot + 1}.html`,
        shot,
      });
    }
  });
  if (out.video) {
    const type = out.video.type.split(';')[0] || 'video/webm';
    items.push({ kind: 'video', blob: out.video, type, name: 'recording' });
  }
  for (const f of out.files) items.push({ kind: 'file', blob: f, type: fileType(f), name: f.name });
  // The replay is a bonus like the snapshot: one over its cap (the recorder keeps it under) is left out.
  const replay = out.replay?.blob;
  if (replay && !refuseUpload('replay', { name: '', size: replay.size, type: 'application/gzip' }))
    items.push({ kind: 'replay', blob: replay, type: 'application/gzip', name: 'replay.json.gz' });
  for (const item of items) {
    const refusal = refuseUpload(item.kind, { name: item.name, size: item.blob.size, type: item.type });
    if (refusal)
      throw new SnagError(
        refusal.key === 'fileTooLarge'
          ? 'FILE_TOO_LARGE'
          : refusal.key === 'fileEmpty'
            ? 'INVALID_UPLOAD'
            : 'FILE_TYPE_NOT_ALLOWED',
      );
  }
  return items;
}

/**
 * Uploads everything, then files the report; resolves to the issue number. `onProgress` gets 0…1.
 * Uploads run two at a time: enough to overlap the presign round trip with the other's bytes.
 */
export async function sendReport(
  out: Outgoing,
  ctx: SendContext,
  onProgress: (fraction: number) => void = () => {},
  /** Solves a busy project's challenge (proof.ts; tests pass their own). */
  solve: (challenge: string) => Promise<string> = solveProof,
) {
  const base = `${ctx.config.api}/api/website/${encodeURIComponent(ctx.config.id)}`;
  const items = uploadItems(out);
  const sent = items.map(() => 0);
  // The report body is small and has no progress events: count it as a fixed share of the total.
  const reportShare = 2048;
  const total = items.reduce((sum, i) => sum + i.blob.size, 0) + reportShare;
  const tick = () => onProgress(Math.min(1, sent.reduce((a, b) => a + b, 0) / total));

  const keys: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index]!;
      const post = await ctx.transport.postJson<PresignedPost>(`${base}/upload`, {
        kind: item.kind,
        type: item.type,
        size: item.blob.size,
      });
      await ctx.transport.postForm(post, item.blob, (n) => {
        sent[index] = Math.min(n, item.blob.size);
        tick();
      });
      sent[index] = item.blob.size;
      tick();
      keys[index] = post.key;
    }
  };
  await Promise.all([worker(), worker()]);

  const uploaded: UploadedKeys = {
    shots: out.shots.map(() => ({ key: '', snapshotKey: '' })),
    video: null,
    files: [],
  };
  items.forEach((item, i) => {
    const key = keys[i]!;
    if (item.kind === 'screenshot') uploaded.shots[item.shot!]!.key = key;
    else if (item.kind === 'snapshot') uploaded.shots[item.shot!]!.snapshotKey = key;
    else if (item.kind === 'video') uploaded.video = { key, type: item.type };
    else if (item.kind === 'replay') uploaded.replay = key;
    else uploaded.files.push({ key, name: item.name });
  });
  const body = buildReportBody(out, uploaded, ctx);
  const answer = await postReport(ctx.transport, `${base}/request`, body, solve);
  onProgress(1);
  return answer.number;
}

/**
 * Files the report. A busy project answers PROOF_REQUIRED with a challenge: it is solved once and the
 * report sent again with the proof; a second refusal reads as RATE_LIMITED, which the visitor understands.
 */
async function postReport(
  transport: Transport,
  url: string,
  body: ReportInput,
  solve: (challenge: string) => Promise<string>,
): Promise<{ number: number }> {
  let challenge: string | undefined;
  try {
    return await transport.postJson<{ number: number }>(url, body);
  } catch (error) {
    challenge =
      error instanceof SnagError && error.code === 'PROOF_REQUIRED' ? error.fields?.proof : undefined;
    if (!challenge) throw error;
  }
  const proof = await solve(challenge);
  return transport.postJson<{ number: number }>(url, { ...body, proof }).catch((e: unknown) => {
    throw e instanceof SnagError && e.code === 'PROOF_REQUIRED' ? new SnagError('RATE_LIMITED') : e;
  });
}
