/**
 * The GitHub deliverer (issue 24): one `POST /repos/{owner}/{repo}/issues` with a Markdown body, so a
 * recorded vendor id ends a retry at once (deliver.ts contract). GitHub's API cannot take an image
 * (api-specs README "GitHub images"), so the body shows Snag's signed links, made to last
 * `GITHUB_LINK_DAYS` (links.ts), and links the issue in the dashboard for the full record.
 */
import { getConfig } from '#runtime/config';
import type { Deliverer, DeliveryContext, DeliveryIssue, DeliveryLink } from '../deliver';
import { GITHUB_LINK_DAYS, GITHUB_LINK_LIFETIME_MS } from '../links';
import * as github from '../vendors/github';
import type { Http } from '../vendors/http';
import { facts, mapped, markdownSteps, mimeOf, needs, plainHttp, title } from './common';

/**
 * GitHub acts on what an issue says, in the customer's name: `@user` and `@org/team` notify people,
 * `#12`, `GH-12` and `owner/repo#12` put a "mentioned this" event on those issues (in other
 * repositories too), and a bare issue URL does the same. None of that may come from a visitor
 * (docs/decisions.md "Visitor text in customers' tools"). GitHub resolves none of them inside code, so:
 * - the description goes into a fenced code block whose fence is longer than any run of backticks in
 *   the text (the text cannot close it);
 * - one-line visitor values (facts, file names) go into code spans, delimited the same way;
 * - the title and the facts' names, which are not code, get a WORD JOINER (U+2060) after each `@` and
 *   `#` and inside `://` and `www.`: they read the same, and match no mention, reference or autolink.
 */
const JOIN = '\u2060';
export const inert = (s: string) =>
  s
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/[@#]/g, (c) => `${c}${JOIN}`)
    .replace(/:\/\//g, `:/${JOIN}/`)
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}${JOIN}.`);

/** Markdown's punctuation escaped, for text outside code (a fact's name). */
const md = (s: string) => s.replace(/([\\`*_{}[\]()<>!|~])/g, '\\$1');

/** One line of plain text outside code (a person's name in a synced comment's heading): inert, escaped. */
export const githubLine = (s: string) => md(inert(s));

const longestBacktickRun = (s: string) => Math.max(0, ...(s.match(/`+/g) ?? []).map((run) => run.length));

export function githubFenced(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}text\n${text.replace(/\r\n?/g, '\n')}\n${fence}`;
}

/** A one-line code span: its delimiter longer than any backtick run inside, padded so edges are kept. */
export function githubCode(text: string): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ');
  const tick = '`'.repeat(longestBacktickRun(line) + 1);
  return `${tick} ${line} ${tick}`;
}

/** The issue's title for GitHub: Snag's `#<n>` and the visitor's first line, defused. */
export const githubTitle = (issue: DeliveryIssue) => inert(title(issue)).slice(0, github.TITLE_MAX);

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * The issue body: description, facts, the steps to reproduce (labels in code spans, as the facts' values)
 * and the replay's link, screenshots (images inline, videos linked), files, the Snag link.
 */
export function githubBody(
  ctx: Pick<DeliveryContext, 'issue' | 'issueUrl'>,
  links: { screenshots: DeliveryLink[]; files: DeliveryLink[]; replay?: DeliveryContext['replay'] },
): string {
  const lines = [ctx.issue.msg ? githubFenced(ctx.issue.msg) : '_No description_', ''];
  for (const [k, v] of facts(ctx.issue)) lines.push(`- **${md(inert(k))}:** ${githubCode(v)}`);
  lines.push(
    ...markdownSteps({ issue: ctx.issue, replay: links.replay }, { code: githubCode }, GITHUB_LINK_DAYS),
  );
  if (links.screenshots.length) {
    lines.push('', '### Screenshots', '');
    for (const [i, s] of links.screenshots.entries()) {
      // Snag names screenshots itself (`screenshot-1.png`): no visitor text in these labels.
      lines.push(
        mimeOf(s.type).startsWith('image/')
          ? `![Screenshot ${i + 1}](${s.url})`
          : `- [Recording ${i + 1} (${sizeText(s.size)})](${s.url})`,
      );
    }
  }
  if (links.files.length) {
    lines.push('', '### Files', '');
    for (const f of links.files)
      lines.push(`- [Download](${f.url}) ${githubCode(f.label)} (${sizeText(f.size)})`);
  }
  lines.push(
    '',
    `Links to screenshots and files work for ${GITHUB_LINK_DAYS} days. [Open the report in Snag](${ctx.issueUrl})`,
  );
  return lines.join('\n');
}

/** Declares its links' lifetime: the delivery signs them to last as long as a GitHub issue needs them. */
// Marked pure so a bundle that imports this module for its body helpers (the sync) leaves the deliverer out.
export const deliverGithub: Deliverer<'github'> = /* @__PURE__ */ Object.assign(
  (ctx: DeliveryContext<'github'>) =>
    mapped(async () => {
      // The recorded id is the issue's `html_url` (githubVendorId): its link as well.
      if (ctx.vendorId) return { vendorId: ctx.vendorId, url: ctx.vendorId };
      const { key, id, labels } = ctx.integration.data;
      if (!key) needs('GitHub', 'authorise it with a personal access token');
      if (!id) needs('GitHub', 'choose a repository');
      const auth = github.githubAuth(getConfig().GITHUB_API_URL, key);
      // Snag's own setting names the host (not a client), so plain fetch, stopped with the record's budget.
      const signal = ctx.signal;
      const http: Http = (url, init = {}) =>
        plainHttp(
          url,
          signal ? { ...init, signal: init.signal ? AbortSignal.any([init.signal, signal]) : signal } : init,
        );
      const created = await github.createIssue(http, auth, id, {
        title: githubTitle(ctx.issue),
        // The links in the context were signed to last GITHUB_LINK_DAYS (linkLifetimeMs below).
        body: githubBody(ctx, ctx),
        labels,
      });
      return { vendorId: github.githubVendorId(created), url: created.html_url };
    }),
  { linkLifetimeMs: GITHUB_LINK_LIFETIME_MS },
);
