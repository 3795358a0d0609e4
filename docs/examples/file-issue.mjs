#!/usr/bin/env node
/**
 * Files an issue with a screenshot through Snag's public API (docs/api.md "Filing issues"). Node 20 or
 * later, no dependencies. A CI job or an end-to-end test can call it when it finds a bug:
 *
 *   SNAG_URL=https://snag.example.com SNAG_TOKEN=snag_pat_… PROJECT_ID=<project id> \
 *     node file-issue.mjs screenshot.png "Checkout button does nothing" "Steps: …"
 *
 * The token needs the scope `issues:create`. The script uploads the PNG with the presigned form the API
 * hands out, files the issue naming the upload's key, and prints the issue's address in the dashboard.
 * It sends an Idempotency-Key, so retrying the create after a network failure never files it twice.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

const { SNAG_URL, SNAG_TOKEN, PROJECT_ID } = process.env;
const [pngPath, title = 'Bug found by a script', description] = process.argv.slice(2);
if (!SNAG_URL || !SNAG_TOKEN || !PROJECT_ID || !pngPath) {
  console.error(
    'usage: SNAG_URL=… SNAG_TOKEN=… PROJECT_ID=… node file-issue.mjs <screenshot.png> [title] [description]',
  );
  process.exit(2);
}

const api = new URL(`/api/v1/projects/${encodeURIComponent(PROJECT_ID)}/`, SNAG_URL);

/** One call of the API: JSON in, the envelope's `msg` out; a refusal stops the script with its code. */
async function call(path, body, headers = {}) {
  const res = await fetch(new URL(path, api), {
    method: 'POST',
    headers: { authorization: `Bearer ${SNAG_TOKEN}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (answer.status !== 'success') throw new Error(`${path}: ${res.status} ${answer.code}: ${answer.msg}`);
  return answer.msg;
}

/** Retries a call that may not have arrived (network errors, 409 and 5xx) a few times with a pause. */
async function withRetries(attempt, times = 3) {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      const retryable = err instanceof TypeError || / (409|5\d\d) /.test(String(err.message));
      if (!retryable || i >= times) throw err;
      await new Promise((r) => setTimeout(r, 1000 * i));
    }
  }
}

const png = await readFile(pngPath);

// 1. A presigned form for the screenshot: kind, type and size as they are.
const form = await call('uploads', { kind: 'screenshot', type: 'image/png', size: png.length });

// 2. The upload itself goes to storage, not through the API: the form's fields first, the file last.
const data = new FormData();
for (const [name, value] of Object.entries(form.fields)) data.append(name, value);
data.append('file', new Blob([png], { type: 'image/png' }), basename(pngPath));
const stored = await fetch(form.url, { method: 'POST', body: data });
if (!stored.ok) throw new Error(`upload refused by storage: ${stored.status}`);

// 3. The issue, naming the upload's key. One Idempotency-Key for every attempt of this one issue.
const idempotencyKey = randomUUID();
const issue = await withRetries(() =>
  call(
    'issues',
    {
      title,
      description: description ?? `${title}\n\nFiled by ${basename(process.argv[1] ?? 'file-issue.mjs')}.`,
      screenshots: [{ key: form.key, type: 'png' }],
    },
    { 'idempotency-key': idempotencyKey },
  ),
);
console.log(issue.url);
