/**
 * Linear's adapter for the two-way sync (../shared/api-specs/README.md "Linear webhooks",
 * linear/schema.EXCERPTS.graphql EntityWebhookPayload): `Linear-Signature` is the hex HMAC of the raw body
 * and the body's `webhookTimestamp` must be within 60 s (verify.ts); an `Issue` `update` whose
 * `updatedFrom` names `stateId` is a state change (Linear has no open flag: the state's type decides,
 * re-read), a `Comment` `create` a comment. Linear sends no delivery id in its body: `webhookId` +
 * `webhookTimestamp` + `data.id` is one. Only the integration's team counts. The tracker issue is Linear's
 * UUID (contracts/sync.ts `trackerIssueId`: the recorded `<uuid> <identifier> <url>` keys its link by it).
 * Write-back: `issueUpdate` to the team's first completed (or unstarted) state via `setIssueOpen`, and
 * `commentCreate`; registration: `webhookCreate` (Issue and Comment, the team, the secret), which Linear
 * allows workspace admins only: for any other key the screen's manual steps remain.
 */
import * as z from 'zod';
import { trackerIssueId } from '#contracts/sync';
import { triageLimits } from '#contracts/triage';
import { getConfig } from '#runtime/config';
import { linearFenced, linkText } from '../deliverers/linear';
import { VendorError } from '../vendors/http';
import * as linear from '../vendors/linear';
import { header, MalformedDelivery, type TrackerAdapter, type TrackerContext } from './adapter';
import { verifyLinearSignature } from './verify';

// Bounded as the queue's message bounds them: a delivery that does not fit is the sender's 400, not our 503.
const id = z.string().min(1).max(100);
const person = z.looseObject({ id: id.optional(), name: z.string().optional() }).nullish();
const delivery = z.looseObject({
  action: z.string().max(40),
  type: z.string().max(60),
  data: z.looseObject({ id }),
  updatedFrom: z.record(z.string(), z.unknown()).nullish(),
  actor: person,
  url: z.string().optional(),
  webhookId: id,
  webhookTimestamp: z.number().int().nonnegative(),
});
const issueData = z.looseObject({
  id,
  teamId: z.string().optional(),
  url: z.string().max(2000).optional(),
});
const commentData = z.looseObject({
  id,
  body: z.string(),
  issueId: id,
  user: person,
  issue: z.looseObject({ teamId: z.string().optional(), url: z.string().max(2000).optional() }).nullish(),
});

const auth = ({ integration }: TrackerContext<'linear'>): linear.LinearAuth => ({
  url: getConfig().LINEAR_API_URL,
  key: integration.data.key,
});
const nameOf = (p: z.infer<typeof person>) => (p?.name || 'Linear user').slice(0, 200);
/** A team filter that lets through a payload without its team (Linear's shapes make it optional). */
const otherTeam = (teamId: string | undefined, wanted: string) => !!teamId && teamId !== wanted;

export const linearAdapter: TrackerAdapter<'linear'> = {
  vendor: 'linear',
  verify: (raw, headers, secret, nowMs) =>
    verifyLinearSignature(header(headers, 'linear-signature'), secret, raw, nowMs),
  parse(body, _headers, integration) {
    const hook = delivery.safeParse(body);
    if (!hook.success) throw new MalformedDelivery('not a Linear webhook');
    const d = hook.data;
    const deliveryId = `${d.webhookId}:${d.webhookTimestamp}:${d.data.id}`;
    const author = { id: d.actor?.id ?? '', name: nameOf(d.actor) };
    if (d.type === 'Issue') {
      // Only an update that moved the issue to another workflow state; edits and creates are not ours.
      if (d.action !== 'update' || !d.updatedFrom || !('stateId' in d.updatedFrom)) return null;
      const issue = issueData.safeParse(d.data);
      if (!issue.success) throw new MalformedDelivery('malformed Issue payload');
      if (otherTeam(issue.data.teamId, integration.data.id)) return null;
      return {
        deliveryId,
        kind: 'state',
        issue: issue.data.id,
        ...(issue.data.url ? { url: issue.data.url } : {}),
        author,
      };
    }
    if (d.type === 'Comment') {
      if (d.action !== 'create') return null;
      const c = commentData.safeParse(d.data);
      if (!c.success) throw new MalformedDelivery('malformed Comment payload');
      if (otherTeam(c.data.issue?.teamId, integration.data.id)) return null;
      return {
        deliveryId,
        kind: 'comment',
        issue: c.data.issueId,
        ...(c.data.issue?.url ? { url: c.data.issue.url } : {}),
        author: c.data.user ? { id: c.data.user.id ?? author.id, name: nameOf(c.data.user) } : author,
        comment: { id: c.data.id, body: c.data.body.slice(0, triageLimits.commentMax) },
      };
    }
    return null;
  },
  async state(ctx, issue) {
    const found = await linear.findIssue(ctx.http, auth(ctx), trackerIssueId('linear', issue));
    if (!found)
      throw new VendorError('linear', true, 'Linear could not find the issue', { code: 'NOT_FOUND' });
    return { closed: linear.isClosedState(found.state.type), url: found.url };
  },
  // Nothing is written when the issue already is so (setIssueOpen): no update, so no echo either.
  async setState(ctx, issue, closed) {
    await linear.setIssueOpen(ctx.http, auth(ctx), trackerIssueId('linear', issue), !closed);
    return true;
  },
  // Fenced as the description (deliverers/linear.ts): `@name` and `ENG-123` in a reply would act otherwise.
  async comment(ctx, issue, c) {
    const posted = await linear.createComment(
      ctx.http,
      auth(ctx),
      trackerIssueId('linear', issue),
      `**${linkText(c.author)}** wrote in Snag:\n\n${linearFenced(c.body)}`,
    );
    return posted.id;
  },
  issueUrl: (_integration, issue) => linear.parseLinearVendorId(issue)?.url,
  register: async (ctx, hook) =>
    (
      await linear.createWebhook(ctx.http, auth(ctx), {
        url: hook.url,
        secret: hook.secret,
        teamId: ctx.integration.data.id,
        label: 'Snag',
      })
    ).id,
  unregister: (ctx, webhookId) => linear.deleteWebhook(ctx.http, auth(ctx), webhookId),
  ready: (integration) => !!integration.data.key && !!integration.data.id,
};
