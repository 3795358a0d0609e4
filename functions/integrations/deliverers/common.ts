/**
 * What the vendor deliverers (gitlab.ts, jira.ts, slack.ts, asana.ts; functions/integrations/deliver.ts
 * contract) share: the upload caps, the title and facts of an issue, the files to send, and the mapping of
 * vendor errors to `PermanentFailure` (with the user-visible reason) or a retryable error. Each deliverer
 * is idempotent (docs/decisions.md "Vendor deliveries").
 */
import type { DeliveryContext, DeliveryIssue, DeliveryLink, DeliveryReplay } from '../deliver';
import { PermanentFailure } from '../deliver';
import { numbered, replayNote, type StepLabel, stepSentences, stepTexts } from '../steps';
import { type Http, isVendorError, type VendorFile } from '../vendors/http';

/** Screenshots uploaded per delivery, and the largest file sent to a vendor (others are linked). */
export const MAX_UPLOADS = 10;
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export const plainHttp: Http = (url, init) => fetch(url, init);

/** Vendor errors as the contract wants them: permanent ones with their reason, the rest rethrown. */
export async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isVendorError(err) && err.permanent) throw new PermanentFailure(err.reason, { cause: err });
    throw err;
  }
}

export function title(issue: DeliveryIssue): string {
  const t = (issue.title || issue.msg.split('\n')[0] || '').trim();
  return `#${issue.number} ${t || 'Feedback'}`.slice(0, 250);
}

export function facts(issue: DeliveryIssue): [string, string][] {
  const d = issue.data;
  const out: [string, string][] = [];
  if (d.href) out.push(['Page', d.href]);
  if (d.username) out.push(['Reporter', d.username]);
  const browser = [d.browser, d.browserVersion].filter(Boolean).join(' ');
  const os = [d.os, d.osVersion].filter(Boolean).join(' ');
  const device = [browser, os, d.deviceType, d.screenResolution].filter(Boolean).join(', ');
  if (device) out.push(['Device', device]);
  for (const f of d.customFields ?? []) out.push([f.name, f.value]);
  return out;
}

/** Screenshots carry their kind (png, webm, mp4); files a MIME type. */
const kinds: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webm: 'video/webm',
  mp4: 'video/mp4',
};
export const mimeOf = (type: string) =>
  type.includes('/') ? type : (kinds[type] ?? 'application/octet-stream');

/** The uploads of a delivery: images among the screenshots first, then files, within the caps. */
export async function filesToSend(ctx: DeliveryContext, which: 'screenshots' | 'all'): Promise<VendorFile[]> {
  const links: DeliveryLink[] = which === 'all' ? [...ctx.screenshots, ...ctx.files] : ctx.screenshots;
  const out: VendorFile[] = [];
  for (const link of links) {
    if (out.length >= MAX_UPLOADS) break;
    if (link.size > MAX_UPLOAD_BYTES) continue;
    out.push({
      name: link.label,
      type: mimeOf(link.type),
      data: await ctx.readObject(link.name),
    });
  }
  return out;
}

export const needs = (vendor: string, what: string): never => {
  throw new PermanentFailure(`${vendor} is not set up: ${what}`);
};

/**
 * The steps to reproduce and the replay's link as Markdown (GitHub, GitLab, Linear), each step's label
 * through the vendor's own neutraliser; nothing at all for an issue with neither, so its body reads as before.
 */
export function markdownSteps(
  ctx: Pick<DeliveryContext, 'issue'> & { replay?: DeliveryReplay | null },
  label: StepLabel,
  days: number,
): string[] {
  const t = stepTexts();
  const steps = stepSentences(ctx.issue, label);
  const out = steps.length ? ['', `### ${t.heading}`, '', ...numbered(steps)] : [];
  if (ctx.replay) out.push('', `[${t.watch}](${ctx.replay.url}): ${replayNote(ctx.replay, days)}`);
  return out;
}
