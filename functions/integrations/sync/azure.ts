/**
 * Azure DevOps Boards' adapter for the two-way sync (../shared/api-specs/README.md "Azure DevOps service
 * hooks" and "delivery payloads", azure-devops/service-hooks/*.sample.json): service hooks have no
 * signature scheme, so each subscription carries the secret Snag generated in a header of its own
 * (`X-Snag-Secret`, set through `httpHeaders`) or, set up by hand, as the basic-auth password; either is
 * compared in constant time, then the envelope's `createdDate` must be recent. `workitem.updated` that
 * changes `System.State` is a state change (the state's category decides, re-read), `workitem.commented`
 * a comment (`System.History`, HTML, read as text). The envelope `id` is the delivery id. Only deliveries
 * about the integration's chosen project count. Write-back: `PATCH …/workitems/{id}` with the type's first
 * Completed state (or its first Proposed, else InProgress, one to reopen), HTML comments; registration:
 * one service hook subscription per event (consumer webHooks).
 */
import * as z from 'zod';
import { triageLimits } from '#contracts/triage';
import { safeEqual } from '#runtime/crypto';
import { azureLines, azureText } from '../deliverers/azure';
import * as azure from '../vendors/azure';
import { header, MalformedDelivery, type TrackerAdapter, type TrackerContext } from './adapter';
import type { Verdict } from './verify';

/** How old a delivery may be (its `createdDate`): Azure retries a failed one for a while; a day covers it. */
export const AZURE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How far ahead of Snag's clock a delivery may claim to be. */
export const AZURE_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** The basic-auth password of a header, if any. */
function basicPassword(value: string | undefined): string | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(value?.trim() ?? '');
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

/**
 * The secret in `X-Snag-Secret` (or as the basic-auth password), compared in constant time; then the
 * envelope's `createdDate` within a day (and not ahead by more than 5 minutes). Read only after the
 * secret holds; a body without a readable date is refused as stale.
 */
export function verifyAzureSecret(
  headers: Record<string, string | undefined>,
  secret: string,
  raw: string,
  nowMs: number,
): Verdict {
  const sent = header(headers, 'x-snag-secret') ?? basicPassword(header(headers, 'authorization'));
  if (sent === undefined || !secret || !safeEqual(sent.trim(), secret)) return 'forged';
  let created: unknown;
  try {
    created = (JSON.parse(raw) as { createdDate?: unknown }).createdDate;
  } catch {
    // Not JSON: the hook's JSON check answers it (400), as for the other trackers.
    return 'ok';
  }
  const at = typeof created === 'string' ? Date.parse(created) : Number.NaN;
  if (!Number.isFinite(at)) return 'stale';
  return nowMs - at <= AZURE_MAX_AGE_MS && at - nowMs <= AZURE_CLOCK_SKEW_MS ? 'ok' : 'stale';
}

/** An identity as the payloads carry it: an object (`displayName`, `id`) or, in the docs samples, a name. */
const identity = z.union([
  z.string().max(500),
  z.looseObject({ id: z.string().max(200).optional(), displayName: z.string().max(500).optional() }),
]);
type Identity = z.infer<typeof identity>;
const personOf = (who: Identity | null | undefined) =>
  typeof who === 'string'
    ? { id: who.slice(0, 100), name: who.slice(0, 200) || 'Azure DevOps user' }
    : { id: who?.id ?? '', name: (who?.displayName || 'Azure DevOps user').slice(0, 200) };

const envelope = z.looseObject({
  id: z.string().min(1).max(200),
  eventType: z.string().max(100),
  resource: z.looseObject({}),
  resourceContainers: z
    .looseObject({ project: z.looseObject({ id: z.string().max(200) }).optional() })
    .optional(),
});
const fieldsOf = z.record(z.string(), z.unknown());
const updated = z.looseObject({
  workItemId: z.number().int().nonnegative().optional(),
  rev: z.number().int().optional(),
  revisedBy: identity.nullable().optional(),
  fields: fieldsOf.optional(),
  revision: z.looseObject({ id: z.number().int().positive(), fields: fieldsOf.optional() }).optional(),
});
const commented = z.looseObject({
  id: z.number().int().positive(),
  rev: z.number().int().nonnegative(),
  fields: fieldsOf,
});

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
/** A rich-text comment (HTML) as the text a person reads: blocks on their own lines, tags dropped. */
export function azureHtmlText(html: string): string {
  return html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/\s*(p|div|li|h[1-6]|tr|blockquote)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] !== '#') return entities[e.toLowerCase()] ?? m;
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const auth = ({ integration }: TrackerContext<'azure'>) => ({
  base: azure.azureBase(integration.data.host),
  token: integration.data.key,
});

/** The type's states, and the category of `state` among them. */
async function statesOf(ctx: TrackerContext<'azure'>, type: string) {
  return azure.listStates(ctx.http, auth(ctx), ctx.integration.data.id, type || ctx.integration.data.issueId);
}

export const azureAdapter: TrackerAdapter<'azure'> = {
  vendor: 'azure',
  verify: (raw, headers, secret, nowMs) => verifyAzureSecret(headers, secret, raw, nowMs),
  parse(body, _headers, integration) {
    const hook = envelope.safeParse(body);
    if (!hook.success) throw new MalformedDelivery('not an Azure DevOps service hook delivery');
    const { id: deliveryId, eventType, resource, resourceContainers } = hook.data;
    const project = resourceContainers?.project?.id;
    if (project && project !== integration.data.id) return null;
    if (eventType === 'workitem.updated') {
      const update = updated.safeParse(resource);
      if (!update.success) throw new MalformedDelivery('malformed workitem.updated');
      const u = update.data;
      if (!u.fields || !('System.State' in u.fields)) return null;
      // The docs sample has workItemId 0 with the work item only in `revision.id` (README).
      const item = u.workItemId || u.revision?.id;
      if (!item) throw new MalformedDelivery('workitem.updated without its work item');
      const changedBy = u.revisedBy ?? (u.revision?.fields?.['System.ChangedBy'] as Identity | undefined);
      return { deliveryId, kind: 'state', issue: String(item), author: personOf(changedBy) };
    }
    if (eventType === 'workitem.commented') {
      const item = commented.safeParse(resource);
      if (!item.success) throw new MalformedDelivery('malformed workitem.commented');
      const history = item.data.fields['System.History'];
      if (typeof history !== 'string') throw new MalformedDelivery('workitem.commented without its comment');
      const who = identity.safeParse(item.data.fields['System.ChangedBy']);
      return {
        deliveryId,
        kind: 'comment',
        issue: String(item.data.id),
        author: personOf(who.success ? who.data : undefined),
        // The comment has no id of its own in the payload: the revision it made is one.
        comment: {
          id: `${item.data.id}:${item.data.rev}`,
          body: azureHtmlText(history).slice(0, triageLimits.commentMax),
        },
      };
    }
    return null;
  },
  async state(ctx, issue) {
    const item = await azure.getWorkItem(ctx.http, auth(ctx), ctx.integration.data.id, issue);
    const states = await statesOf(ctx, item.type);
    const category = states.find((s) => s.name === item.state)?.category ?? '';
    return { closed: azure.isDoneCategory(category), ...(item.url ? { url: item.url } : {}) };
  },
  async setState(ctx, issue, closed) {
    const { id } = ctx.integration.data;
    const item = await azure.getWorkItem(ctx.http, auth(ctx), id, issue);
    const states = await statesOf(ctx, item.type);
    const now = states.find((s) => s.name === item.state);
    if (now && azure.isDoneCategory(now.category) === closed) return true;
    const target = closed
      ? states.find((s) => s.category === 'Completed')
      : (states.find((s) => s.category === 'Proposed') ?? states.find((s) => s.category === 'InProgress'));
    // A process without such a state leaves the work item as it is: nothing to retry.
    if (!target) return false;
    await azure.updateWorkItem(ctx.http, auth(ctx), id, issue, [azure.field('System.State', target.name)]);
    return true;
  },
  // HTML, the reporter's text made inert as the description's is (no tag, link, @mention or #123 link).
  comment: (ctx, issue, c) =>
    azure.addComment(
      ctx.http,
      auth(ctx),
      ctx.integration.data.id,
      issue,
      `<p><strong>${azureText(c.author)}</strong> wrote in Snag:</p><p>${azureLines(c.body)}</p>`,
    ),
  issueUrl: () => undefined,
  async register(ctx, hook) {
    const ids: string[] = [];
    for (const eventType of azure.hookEvents) {
      ids.push(
        await azure.createSubscription(ctx.http, auth(ctx), {
          projectId: ctx.integration.data.id,
          type: ctx.integration.data.issueId || 'Bug',
          eventType,
          url: hook.url,
          secret: hook.secret,
        }),
      );
    }
    return ids.join(',');
  },
  // `register` answered one subscription id per event, comma-joined.
  async unregister(ctx, ids) {
    for (const id of ids.split(',').filter(Boolean)) await azure.deleteSubscription(ctx.http, auth(ctx), id);
  },
  ready: (integration) => !!integration.data.host && !!integration.data.key && !!integration.data.id,
};
