/**
 * GitHub's adapter for the two-way sync (../shared/api-specs/README.md "GitHub webhooks",
 * github/webhooks.EXCERPTS.yaml): a repository hook with Snag's secret signs each delivery with
 * `X-Hub-Signature-256: sha256=<hex HMAC>`; `X-GitHub-Event` says what it is and `X-GitHub-Delivery` (the
 * same on a redelivery) is the dedupe key. `issues` closed/reopened (and an `edited` whose changes name
 * the state) is a state change, `issue_comment` created a comment, except on a pull request
 * (`issue.pull_request` present). Only deliveries about the integration's repository count; GitHub's
 * `ping` on a new hook, and every other event, is ignored. The tracker issue is its `html_url`, the vendor
 * id the delivery recorded. Write-back: `PATCH …/issues/{n}` state (state_reason completed/reopened),
 * `POST …/comments`; registration: `POST /repos/{owner}/{repo}/hooks` (issues and issue_comment, json).
 */
import * as z from 'zod';
import { triageLimits } from '#contracts/triage';
import { getConfig } from '#runtime/config';
import { githubFenced, githubLine } from '../deliverers/github';
import * as github from '../vendors/github';
import { VendorError } from '../vendors/http';
import { header, MalformedDelivery, type TrackerAdapter, type TrackerContext } from './adapter';
import { verifyHubSignature } from './verify';

// Bounded as the queue's message bounds them: a delivery that does not fit is the sender's 400, not our 503.
const user = z.looseObject({ login: z.string().max(200), id: z.number() });
const issue = z.looseObject({
  number: z.number().int().positive(),
  html_url: z.string().max(200),
  state: z.string().optional(),
  pull_request: z.unknown().optional(),
});
const repository = z.looseObject({ full_name: z.string().max(200) });
const issuesEvent = z.looseObject({
  action: z.string(),
  issue,
  repository,
  sender: user,
  changes: z.record(z.string(), z.unknown()).optional(),
});
const commentEvent = z.looseObject({
  action: z.string(),
  issue,
  repository,
  sender: user,
  comment: z.looseObject({ id: z.number(), body: z.string(), user: user.optional() }),
});

const auth = ({ integration }: TrackerContext<'github'>) =>
  github.githubAuth(getConfig().GITHUB_API_URL, integration.data.key);

/**
 * The repository and number of a recorded issue (`https://github.com/<owner>/<repo>/issues/<n>`): the
 * issue stays where it was delivered even when the integration later points at another repository.
 */
function refOf(integration: TrackerContext<'github'>['integration'], issueUrl: string) {
  const m = /\/([^/]+)\/([^/]+)\/issues\/(\d+)(?:[?#].*)?$/.exec(issueUrl);
  if (!m) throw new VendorError('github', true, 'Not a GitHub issue address', { code: 'NOT_FOUND' });
  const repo = `${decodeURIComponent(m[1] ?? '')}/${decodeURIComponent(m[2] ?? '')}`;
  return { repo: repo || integration.data.id, number: Number(m[3]) };
}

const sameRepo = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export const githubAdapter: TrackerAdapter<'github'> = {
  vendor: 'github',
  verify: (raw, headers, secret) => verifyHubSignature(header(headers, 'x-hub-signature-256'), secret, raw),
  parse(body, headers, integration) {
    const deliveryId = header(headers, 'x-github-delivery');
    const event = header(headers, 'x-github-event');
    if (!deliveryId || deliveryId.length > 200 || !event)
      throw new MalformedDelivery('not a GitHub delivery');
    if (event !== 'issues' && event !== 'issue_comment') return null;
    const author = (u: z.infer<typeof user>) => ({ id: String(u.id), name: u.login.slice(0, 200) });
    if (event === 'issues') {
      const hook = issuesEvent.safeParse(body);
      if (!hook.success) throw new MalformedDelivery('malformed issues event');
      const d = hook.data;
      if (!sameRepo(d.repository.full_name, integration.data.id) || d.issue.pull_request) return null;
      // An edit of the title or body is not a state change; only one whose changes name the state is.
      const stateChange =
        d.action === 'closed' || d.action === 'reopened' || (d.action === 'edited' && !!d.changes?.state);
      if (!stateChange) return null;
      return {
        deliveryId,
        kind: 'state',
        issue: d.issue.html_url,
        url: d.issue.html_url,
        author: author(d.sender),
      };
    }
    const hook = commentEvent.safeParse(body);
    if (!hook.success) throw new MalformedDelivery('malformed issue_comment event');
    const d = hook.data;
    // Comments on pull requests come as issue_comment too; edits and deletions are not new comments.
    if (!sameRepo(d.repository.full_name, integration.data.id) || d.issue.pull_request) return null;
    if (d.action !== 'created') return null;
    return {
      deliveryId,
      kind: 'comment',
      issue: d.issue.html_url,
      url: d.issue.html_url,
      author: author(d.comment.user ?? d.sender),
      comment: { id: String(d.comment.id), body: d.comment.body.slice(0, triageLimits.commentMax) },
    };
  },
  async state(ctx, issueUrl) {
    const { repo, number } = refOf(ctx.integration, issueUrl);
    const now = await github.getIssue(ctx.http, auth(ctx), repo, number);
    return { closed: now.state === 'closed', url: now.html_url };
  },
  async setState(ctx, issueUrl, closed) {
    const { repo, number } = refOf(ctx.integration, issueUrl);
    await github.setIssueState(
      ctx.http,
      auth(ctx),
      repo,
      number,
      closed ? { state: 'closed', reason: 'completed' } : { state: 'open' },
    );
    return true;
  },
  // The text in a fence, as the issue's description (deliverers/github.ts): a reporter's public reply may
  // hold `@org/team` or `#12`, which GitHub would otherwise notify or cross-reference in the client's name.
  async comment(ctx, issueUrl, c) {
    const { repo, number } = refOf(ctx.integration, issueUrl);
    const posted = await github.createComment(
      ctx.http,
      auth(ctx),
      repo,
      number,
      `**${githubLine(c.author)}** wrote in Snag:\n\n${githubFenced(c.body)}`,
    );
    return String(posted.id);
  },
  issueUrl: (_integration, issueUrl) => (/^https?:\/\//i.test(issueUrl) ? issueUrl : undefined),
  register: async (ctx, hook) =>
    String((await github.createRepoHook(ctx.http, auth(ctx), ctx.integration.data.id, hook)).id),
  unregister: (ctx, hookId) => github.deleteRepoHook(ctx.http, auth(ctx), ctx.integration.data.id, hookId),
  ready: (integration) => !!integration.data.key && !!integration.data.id,
};
