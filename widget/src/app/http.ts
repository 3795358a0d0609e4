/**
 * The browser `Transport` (report.ts): fetch for the JSON calls, XMLHttpRequest for the S3 form POSTs
 * because only it reports upload progress. No cookies either way: the intake API is public and keyed by
 * the project id.
 */
import { SnagError } from './errors';
import type { Transport } from './report';

export const browserTransport: Transport = {
  async postJson<T>(url: string, body: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        credentials: 'omit',
      });
    } catch {
      throw new SnagError('NETWORK');
    }
    const answer = (await res.json().catch(() => null)) as {
      status?: string;
      code?: string;
      msg?: unknown;
      fields?: Record<string, string>;
    } | null;
    if (!res.ok || answer?.status !== 'success') {
      throw new SnagError(
        answer?.code ?? 'GENERIC',
        typeof answer?.msg === 'string' ? answer.msg : undefined,
        answer?.fields,
      );
    }
    return answer.msg as T;
  },

  postForm(post, blob, onProgress) {
    return new Promise((resolve, reject) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
      form.append('file', blob); // S3 ignores every field after `file`, so it goes last.
      const xhr = new XMLHttpRequest();
      xhr.open('POST', post.url);
      xhr.upload.onprogress = (e) => onProgress(e.loaded);
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) resolve();
        // S3 explains a refused policy in XML: EntityTooLarge for the content-length-range.
        else
          reject(
            new SnagError(/EntityTooLarge/.test(xhr.responseText) ? 'FILE_TOO_LARGE' : 'INVALID_UPLOAD'),
          );
      };
      xhr.onerror = () => reject(new SnagError('NETWORK'));
      xhr.send(form);
    });
  },
};
