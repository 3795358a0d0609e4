/**
 * ClickUp's adapter for the two-way sync (issue 36; ../shared/api-specs/README.md "ClickUp webhooks"):
 * `X-Signature` is the hex HMAC-SHA256 of the raw body keyed with the secret ClickUp answered when the
 * webhook was registered (registration stores it as the hook's secret: ClickUp chooses it, nobody types
 * it). ClickUp signs no timestamp header, but the body it signs carries each history item's `date` (ms):
 * a delivery whose newest item is older than `CLICKUP_TOLERANCE_MS` is stale, and within it the history
 * items' ids are the dedupe key (a replay is a duplicate). `taskStatusUpdated` is a state change (the
 * status's type decides, re-read: `closed` or `done` is closed), `taskCommentPosted` a comment. The
 * tracker issue is the task id. Write-back: `PUT /v2/task/{id} {status}` with the list's first closed (or
 * first open) status, `POST /v2/task/{id}/comment` as plain text; registration: `POST /v2/team/{id}/webhook`
 * on the chosen list with those two events.
 */
import { createHmac } from 'node:crypto';
import * as z from 'zod';
import { triageLimits } from '#contracts/triage';
import { getConfig } from '#runtime/config';
import { safeEqual } from '#runtime/crypto';
import { clickupPlain } from '../deliverers/clickup';
import * as clickup from '../vendors/clickup';
import { VendorError } from '../vendors/http';
import { header, MalformedDelivery, type TrackerAdapter, type TrackerContext } from './adapter';
import type { Verdict } from './verify';

/**
 * How old the newest change in a signed delivery may be: ClickUp retries a failed delivery for a while
 * (its docs give no bound), and a replay within the dedupe's 7 days is a duplicate anyway; older is stale.
 */
export const CLICKUP_TOLERANCE_MS = 24 * 60 * 60 * 1000;
/** A change dated this far in the future is not ClickUp's clock drifting: stale too. */
const FUTURE_SLACK_MS = 5 * 60 * 1000;

const hmacHex = (secret: string, raw: string) =>
  createHmac('sha256', secret).update(raw, 'utf8').digest('hex');

/** What ClickUp (and the local fake) sends as `X-Signature`. */
export const clickupSignature = hmacHex;

/**
 * The newest history item's date (ms) in a body; null when it names none; undefined when the body is not
 * JSON (signed, but malformed: the hook's own parse answers 400).
 */
function newestDate(raw: string): number | null | undefined {
  let items: unknown;
  try {
    items = (JSON.parse(raw) as { history_items?: unknown } | null)?.history_items;
  } catch {
    return undefined;
  }
  if (!Array.isArray(items)) return null;
  const dates = items
    .map((i) => Number((i as { date?: unknown } | null)?.date))
    .filter((d) => Number.isFinite(d) && d > 0);
  return dates.length ? Math.max(...dates) : null;
}

/**
 * The plain hex HMAC over the raw body ("Signatures are always digested in hexadecimal format"), then the
 * newest history item within the tolerance; its date is read only after the signature holds.
 */
export function verifyClickupSignature(
  sent: string | undefined,
  secret: string,
  raw: string,
  nowMs: number,
): Verdict {
  const sig = sent?.trim().toLowerCase() ?? '';
  if (!/^[0-9a-f]{64}$/.test(sig) || !safeEqual(sig, hmacHex(secret, raw))) return 'forged';
  const newest = newestDate(raw);
  if (newest === undefined) return 'ok';
  if (newest === null) return 'stale';
  return nowMs - newest <= CLICKUP_TOLERANCE_MS && newest - nowMs <= FUTURE_SLACK_MS ? 'ok' : 'stale';
}

// Bounded as the queue's message bounds them: a delivery that does not fit is the sender's 400, not our 503.
const id = z.union([z.string().min(1).max(100), z.number()]).transform(String);
const user = z
  .looseObject({ id: id.optional(), username: z.string().max(300).nullish(), email: z.string().nullish() })
  .nullish();
const commentText = z.looseObject({ text: z.string().optional() });
const comment = z.looseObject({
  id,
  text_content: z.string().optional(),
  comment: z.array(commentText).optional(),
  user: user.optional(),
});
const historyItem = z.looseObject({
  id,
  field: z.string().max(60).nullish(),
  date: z.union([z.string(), z.number()]).optional(),
  user: user.optional(),
  comment: comment.nullish(),
});
const delivery = z.looseObject({
  event: z.string().max(60),
  webhook_id: id,
  task_id: id.optional(),
  history_items: z.array(historyItem).min(1).max(100),
});

const auth = ({ integration }: TrackerContext<'clickup'>) =>
  clickup.clickupAuth(getConfig().CLICKUP_API_URL, integration.data.key);
const nameOf = (u: z.infer<typeof user>) => (u?.username || 'ClickUp user').slice(0, 200);

export const clickupAdapter: TrackerAdapter<'clickup'> = {
  vendor: 'clickup',
  verify: (raw, headers, secret, nowMs) =>
    verifyClickupSignature(header(headers, 'x-signature'), secret, raw, nowMs),
  parse(body) {
    const hook = delivery.safeParse(body);
    if (!hook.success) throw new MalformedDelivery('not a ClickUp webhook');
    const d = hook.data;
    if (!d.task_id) return null;
    const first = d.history_items[0] as z.infer<typeof historyItem>;
    const deliveryId = `${d.webhook_id}:${d.history_items.map((h) => h.id).join(',')}`.slice(0, 300);
    const author = { id: first.user?.id ?? '', name: nameOf(first.user) };
    if (d.event === 'taskStatusUpdated') {
      return { deliveryId, kind: 'state', issue: d.task_id, author };
    }
    if (d.event === 'taskCommentPosted') {
      const c = d.history_items.find((h) => h.comment)?.comment;
      if (!c) throw new MalformedDelivery('taskCommentPosted without its comment');
      const text = c.text_content ?? (c.comment ?? []).map((p) => p.text ?? '').join('');
      return {
        deliveryId,
        kind: 'comment',
        issue: d.task_id,
        author: c.user ? { id: c.user.id ?? author.id, name: nameOf(c.user) } : author,
        comment: { id: c.id, body: text.slice(0, triageLimits.commentMax) },
      };
    }
    return null;
  },
  async state(ctx, issue) {
    const task = await clickup.getTask(ctx.http, auth(ctx), issue);
    return {
      closed: clickup.isClosedStatus(task.status?.type),
      ...(task.url ? { url: task.url } : {}),
    };
  },
  // The task's own list decides its statuses (a task moved to another list keeps syncing there).
  async setState(ctx, issue, closed) {
    const a = auth(ctx);
    const task = await clickup.getTask(ctx.http, a, issue);
    if (clickup.isClosedStatus(task.status?.type) === closed) return true;
    const listId = task.list?.id ?? clickup.parseListChoice(ctx.integration.data.id)?.listId;
    if (!listId) throw new VendorError('clickup', true, 'ClickUp did not say which list the task is in');
    const status = clickup.statusFor(await clickup.listStatuses(ctx.http, a, listId), closed);
    // A list without a closed (or an open) status offers no way to: the Snag change stays Snag's.
    if (!status) return false;
    await clickup.setTaskStatus(ctx.http, a, issue, status);
    return true;
  },
  // Plain text, as ClickUp stores `comment_text`: no mention can form in the author's name or the reply.
  async comment(ctx, issue, c) {
    return clickup.createComment(
      ctx.http,
      auth(ctx),
      issue,
      `${clickupPlain(c.author).replace(/\s+/g, ' ')} wrote in Snag:\n\n${clickupPlain(c.body)}`,
    );
  },
  issueUrl: (_integration, issue) => clickup.taskUrl(getConfig().CLICKUP_API_URL, issue),
  register: async (ctx, hook) => {
    const choice = clickup.parseListChoice(ctx.integration.data.id);
    if (!choice) throw new VendorError('clickup', true, 'ClickUp is not set up: choose a list');
    const made = await clickup.createWebhook(ctx.http, auth(ctx), { ...choice, endpoint: hook.url });
    // ClickUp chose the secret its deliveries are signed with: the hook keeps it in place of Snag's.
    return { id: made.id, secret: made.secret };
  },
  unregister: (ctx, webhookId) => clickup.deleteWebhook(ctx.http, auth(ctx), webhookId),
  ready: (integration) => !!integration.data.key && !!clickup.parseListChoice(integration.data.id),
};
