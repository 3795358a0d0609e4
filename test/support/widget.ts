/**
 * The widget's intake calls as a customer's page makes them (docs/widget-api.md "The upload and report
 * calls"): JSON with the page's Origin, and the presigned form posted to S3 with FormData, as a browser does.
 */
import type { UploadKind } from '../../functions/shared/intake';

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
