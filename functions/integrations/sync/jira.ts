/**
 * Jira Cloud's adapter for the two-way sync (../shared/api-specs/README.md "Jira Cloud webhooks",
 * jira/sync.EXCERPTS.yaml): an admin webhook with Snag's secret signs each delivery with
 * `X-Hub-Signature: sha256=<hex HMAC>`; `jira:issue_updated` whose changelog changes `status` is a state
 * change (the issue's status category decides, re-read), `comment_created` a comment (a REST v2 body: a
 * string; an ADF body is read as its text). Jira sends no delivery id: `timestamp` + `webhookEvent` + the
 * comment's or issue's id is one. Write-back: a transition to a `done`-category status (or out of it), and
 * comments in ADF. Jira's admin webhooks cannot be registered with an API token: the screen shows the steps.
 */
import * as z from 'zod';
import { triageLimits } from '#contracts/triage';
import * as jira from '../vendors/jira';
import { header, MalformedDelivery, type TrackerAdapter, type TrackerContext } from './adapter';
import { verifyHubSignature } from './verify';

// Bounded as the queue's message bounds them: a delivery that does not fit is the sender's 400, not our 503.
const person = z
  .looseObject({ accountId: z.string().max(200).optional(), displayName: z.string().optional() })
  .optional();
const delivery = z.looseObject({
  timestamp: z.number().int().nonnegative(),
  webhookEvent: z.string().max(60),
  user: person,
  issue: z.looseObject({ id: z.string().min(1).max(100), key: z.string().min(1).max(200) }),
  changelog: z.looseObject({ items: z.array(z.looseObject({ field: z.string().optional() })) }).optional(),
  comment: z.looseObject({ id: z.string().min(1).max(100), body: z.unknown(), author: person }).optional(),
});

/** An ADF document's text, paragraphs on their own lines (a v3-shaped comment body). */
function adfText(node: unknown): string {
  const n = node as { type?: unknown; text?: unknown; content?: unknown };
  if (!n || typeof n !== 'object') return '';
  if (typeof n.text === 'string') return n.text;
  const inner = Array.isArray(n.content) ? n.content.map(adfText).join('') : '';
  return n.type === 'paragraph' || n.type === 'heading' ? `${inner}\n` : inner;
}

const auth = ({ integration }: TrackerContext<'jira'>) => ({
  base: jira.jiraBase(integration.data.host),
  username: integration.data.username,
  token: integration.data.key,
});
const nameOf = (p: z.infer<typeof person>) => (p?.displayName || 'Jira user').slice(0, 200);

export const jiraAdapter: TrackerAdapter<'jira'> = {
  vendor: 'jira',
  verify: (raw, headers, secret) => verifyHubSignature(header(headers, 'x-hub-signature'), secret, raw),
  parse(body, _headers, integration) {
    const hook = delivery.safeParse(body);
    if (!hook.success) throw new MalformedDelivery('not a Jira issue or comment webhook');
    const d = hook.data;
    const url = jiraAdapter.issueUrl(integration, d.issue.key);
    const common = { issue: d.issue.key, ...(url ? { url: url.slice(0, 2000) } : {}) };
    if (d.webhookEvent === 'jira:issue_updated') {
      if (!d.changelog?.items.some((i) => i.field === 'status')) return null;
      return {
        ...common,
        deliveryId: `${d.timestamp}:${d.webhookEvent}:${d.issue.id}`,
        kind: 'state',
        author: { id: d.user?.accountId ?? '', name: nameOf(d.user) },
      };
    }
    if (d.webhookEvent === 'comment_created') {
      if (!d.comment) throw new MalformedDelivery('comment_created without its comment');
      const text = typeof d.comment.body === 'string' ? d.comment.body : adfText(d.comment.body).trim();
      return {
        ...common,
        deliveryId: `${d.timestamp}:${d.webhookEvent}:${d.comment.id}`,
        kind: 'comment',
        author: { id: d.comment.author?.accountId ?? '', name: nameOf(d.comment.author) },
        comment: { id: d.comment.id, body: text.slice(0, triageLimits.commentMax) },
      };
    }
    return null;
  },
  async state(ctx, issue) {
    const url = jiraAdapter.issueUrl(ctx.integration, issue);
    return { closed: await jira.issueDone(ctx.http, auth(ctx), issue), ...(url ? { url } : {}) };
  },
  // A workflow without a transition to the wanted category leaves the issue as it is: nothing to retry.
  setState: (ctx, issue, closed) => jira.transitionTo(ctx.http, auth(ctx), issue, closed),
  // ADF text nodes are literal: a mention in Jira is its own node type, so the text notifies nobody.
  comment: (ctx, issue, c) =>
    jira.addComment(
      ctx.http,
      auth(ctx),
      issue,
      jira.adf.doc([
        jira.adf.paragraph(jira.adf.strong(`${c.author} wrote in Snag:`)),
        ...c.body
          .split(/\n{2,}/)
          .filter((p) => p.trim())
          .map((p) => jira.adf.paragraph(jira.adf.text(p))),
      ]),
    ),
  issueUrl: (integration, issue) => {
    if (!integration.data.host) return undefined;
    return `${jira.jiraBase(integration.data.host)}/browse/${encodeURIComponent(issue)}`;
  },
  ready: (integration) => !!integration.data.host && !!integration.data.username && !!integration.data.key,
};
