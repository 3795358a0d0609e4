/**
 * The widget's intake calls as a customer's page makes them (docs/widget-api.md "The upload and report
 * calls"): JSON with the page's Origin, and the presigned form posted to S3 with FormData, as a browser does.
 */
import type { UploadKind } from '#contracts/intake';

export interface WidgetReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: each caller reads the fields of its own call's answer.
  body: { status: string; code?: string; msg: any };
}

export interface WidgetCallOptions {
  /** The page's origin; null sends none. */
  origin?: string | null;
  /** `CloudFront-Viewer-Address` (`ip:port`); the gateway uses the connection's when absent. */
  visitor?: string;
  method?: 'POST' | 'OPTIONS';
}

export async function widgetCall(
  baseUrl: string,
  projectId: string,
  path: 'upload' | 'request',
  body: unknown,
  opts: WidgetCallOptions & { origin: string | null },
): Promise<WidgetReply> {
  const res = await fetch(`${baseUrl}/api/website/${projectId}/${path}`, {
    method: opts.method ?? 'POST',
    headers: {
      'content-type': 'application/json',
      ...(opts.visitor ? { 'cloudfront-viewer-address': opts.visitor } : {}),
      ...(opts.origin === null ? {} : { origin: opts.origin }),
    },
    body: opts.method === 'OPTIONS' ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export interface UploadForm {
  key: string;
  url: string;
  fields: Record<string, string>;
}

/** Posts `content` with the form's fields, as a browser would; `storedType` lies about the type (s3rver checks no policy). */
export async function postForm(form: UploadForm, content: Uint8Array, storedType?: string): Promise<number> {
  const data = new FormData();
  for (const [k, v] of Object.entries(form.fields))
    data.append(k, k === 'Content-Type' ? (storedType ?? v) : v);
  data.append(
    'file',
    new Blob([content as Uint8Array<ArrayBuffer>], { type: storedType ?? form.fields['Content-Type'] }),
  );
  const res = await fetch(form.url, { method: 'POST', body: data });
  return res.status;
}

/** Asks for a form and uploads `content` with it: the key to report. */
export async function uploadFile(
  baseUrl: string,
  projectId: string,
  kind: UploadKind,
  type: string,
  content: Uint8Array,
  opts: WidgetCallOptions & { origin: string; declaredSize?: number; storedType?: string },
): Promise<string> {
  const res = await widgetCall(
    baseUrl,
    projectId,
    'upload',
    { kind, type, size: opts.declaredSize ?? content.length },
    opts,
  );
  if (res.status !== 200) throw new Error(`upload form refused: ${res.status} ${JSON.stringify(res.body)}`);
  const status = await postForm(res.body.msg as UploadForm, content, opts.storedType);
  if (status >= 300) throw new Error(`S3 refused the upload: ${status}`);
  return res.body.msg.key as string;
}

let visitors = 0;
/** A fresh visitor address (`ip:port`) per call, so the flood limits never interfere with a test. */
// Each visitor in a /24 of its own, so that neither the visitor's nor the network's flood limit interferes.
const nextVisitor = () => `198.18.${++visitors % 256}.${(Math.floor(visitors / 256) % 250) + 1}:41000`;

/** What a visitor sends: the report's fields, and the objects it carries as bytes. */
export interface VisitorReport {
  fields: Record<string, unknown>;
  screenshots?: { type: 'image/png' | 'video/webm'; content: Uint8Array; snapshot?: string }[];
  files?: { name: string; type: string; content: Uint8Array }[];
  /** A session replay (kind `replay`, a gzip) and what it covers; steps go in `fields`. */
  replay?: { content: Uint8Array; start: number; end: number; stopped?: 'mutations' };
}

/**
 * Files a report through the widget's own calls, as the widget does: each object uploaded with its
 * presigned form, then the report naming the keys. Each call comes from its own visitor address, so the
 * flood limits never interfere. Answers the issue number.
 */
export async function fileReport(
  baseUrl: string,
  projectId: string,
  origin: string,
  report: VisitorReport,
): Promise<number> {
  const opts = () => ({ origin, visitor: nextVisitor() });
  const screenshots = [];
  for (const s of report.screenshots ?? []) {
    const key = await uploadFile(baseUrl, projectId, 'screenshot', s.type, s.content, opts());
    const snapshotKey =
      s.snapshot === undefined
        ? ''
        : await uploadFile(
            baseUrl,
            projectId,
            'snapshot',
            'text/html',
            new TextEncoder().encode(s.snapshot),
            opts(),
          );
    screenshots.push({ key, type: s.type === 'image/png' ? 'png' : 'webm', snapshotKey });
  }
  const files = [];
  for (const f of report.files ?? []) {
    const kind = f.type.startsWith('video/') ? 'video' : 'file';
    const key = await uploadFile(baseUrl, projectId, kind, f.type, f.content, opts());
    files.push({ key, original_name: f.name });
  }
  const { content: recording, ...covers } = report.replay ?? {};
  const replay = recording && {
    key: await uploadFile(baseUrl, projectId, 'replay', 'application/gzip', recording, opts()),
    ...covers,
  };
  const res = await widgetCall(
    baseUrl,
    projectId,
    'request',
    { ...report.fields, screenshots, files, ...(replay ? { replay } : {}) },
    opts(),
  );
  if (res.status !== 200) throw new Error(`report refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.msg.number as number;
}
